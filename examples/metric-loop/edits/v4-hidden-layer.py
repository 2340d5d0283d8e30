"""Train a classifier on the moons and print its validation loss (the artifact autoresearch edits)."""

import math
import random

from prepare import TRAIN, val_loss

LEARNING_RATE = 0.1
EPOCHS = 60
HIDDEN = 8


def sigmoid(z):
    return 1 / (1 + math.exp(-max(min(z, 30), -30)))


def train():
    rnd = random.Random(0)
    w1 = [[rnd.gauss(0, 1), rnd.gauss(0, 1)] for _ in range(HIDDEN)]
    b1 = [0.0] * HIDDEN
    w2 = [rnd.gauss(0, 0.5) for _ in range(HIDDEN)]
    b2 = 0.0
    rows = list(TRAIN)

    def forward(features):
        hidden = [math.tanh(w[0] * features[0] + w[1] * features[1] + b) for w, b in zip(w1, b1)]
        return hidden, sigmoid(sum(v * h for v, h in zip(w2, hidden)) + b2)

    for _ in range(EPOCHS):
        rnd.shuffle(rows)
        for features, label in rows:
            hidden, p = forward(features)
            error = p - label
            for j in range(HIDDEN):
                grad = error * w2[j] * (1 - hidden[j] ** 2)
                w2[j] -= LEARNING_RATE * error * hidden[j]
                w1[j][0] -= LEARNING_RATE * grad * features[0]
                w1[j][1] -= LEARNING_RATE * grad * features[1]
                b1[j] -= LEARNING_RATE * grad
            b2 -= LEARNING_RATE * error
    return lambda features: forward(features)[1]


print(f"val_loss: {val_loss(train()):.4f}")
