"""The fixed half of the experiment: the data and the metric. Not the artifact: only train.py changes.

Two interleaved half-moons with noise, 300 points to train on and 200 to
validate; the metric is the validation cross-entropy in bits (lower is better).
Plain Python, no numpy: the whole training run takes about a second on a CPU.
"""

import math
import random


def moons(count, seed):
    rnd = random.Random(seed)
    rows = []
    for _ in range(count):
        label = rnd.random() < 0.5
        angle = rnd.uniform(0, math.pi)
        x, y = (math.cos(angle), math.sin(angle)) if label else (1 - math.cos(angle), 0.5 - math.sin(angle))
        rows.append(((x + rnd.gauss(0, 0.15), y + rnd.gauss(0, 0.15)), int(label)))
    return rows


TRAIN = moons(300, seed=1)
VAL = moons(200, seed=2)


def val_loss(predict):
    """Mean cross-entropy in bits of `predict(features) -> P(label 1)` on the validation set."""
    total = 0.0
    for features, label in VAL:
        p = min(max(predict(features), 1e-9), 1 - 1e-9)
        total -= math.log2(p if label else 1 - p)
    return total / len(VAL)
