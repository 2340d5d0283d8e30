"""Train a classifier on the moons and print its validation loss (the artifact autoresearch edits)."""

import math
import random

from prepare import TRAIN, val_loss

LEARNING_RATE = 0.3
EPOCHS = 60


def sigmoid(z):
    return 1 / (1 + math.exp(-max(min(z, 30), -30)))


def train():
    rnd = random.Random(0)
    w = [0.0, 0.0]
    b = 0.0
    rows = list(TRAIN)
    for _ in range(EPOCHS):
        rnd.shuffle(rows)
        for (x, y), label in rows:
            error = sigmoid(w[0] * x + w[1] * y + b) - label
            w[0] -= LEARNING_RATE * error * x
            w[1] -= LEARNING_RATE * error * y
            b -= LEARNING_RATE * error
    return lambda features: sigmoid(w[0] * features[0] + w[1] * features[1] + b)


print(f"val_loss: {val_loss(train()):.4f}")
