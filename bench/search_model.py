"""The `wins-losses` rule with K candidates per cycle, as a model: many simulated nights in seconds.

`bench/search_efficiency.py` runs the real loop, so each configuration gets a few dozen decisions a
run, too few to tell false-KEEP rates apart. This script draws the same landscape's noisy eval runs
directly and applies the rule as the loop does (HEAD's results are the kept run's; with K > 1 the
best passing candidate is picked by score, then, when confirmed, run once more and kept only if that
run passes too), for `--nights` simulated nights of `--cycles` cycles each. Printed: the false-KEEP
rate per decision, the mean true score after 5/10/20/30 cycles, and the cycles each configuration
needs to reach K=1's final mean true score. No merges and no timing: cycles, not seconds.
Usage: python bench/search_model.py [--nights N] [--cycles C] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.search_efficiency import EDITS, NOISE, TRUTH, landscape  # noqa: E402

THRESHOLD = 0.1  # policy.threshold's default
CONFIGS = ((1, False), (2, False), (2, True), (4, False), (4, True))


class Model:
    def __init__(self, land: dict):
        scope: dict = {}
        exec(TRUTH, scope)  # the bench's own definition of the truth
        self.land, self.true_rates = land, scope["true_rates"]

    def rates(self, edits: set[int]) -> list[float]:
        return self.true_rates(self.land, sorted(edits))

    def score(self, edits: set[int]) -> float:
        r = self.rates(edits)
        return sum(r) / len(r)

    def run(self, edits: set[int], rng: random.Random) -> list[float]:
        return [min(1.0, max(0.0, r + rng.gauss(0, NOISE))) for r in self.rates(edits)]


def passes(head: list[float], cand: list[float]) -> bool:
    wins = sum(c - h >= THRESHOLD for h, c in zip(head, cand))
    losses = sum(h - c >= THRESHOLD for h, c in zip(head, cand))
    return wins > losses


def night(model: Model, k: int, confirm: bool, cycles: int, rng: random.Random) -> tuple[int, int, list[float]]:
    """(false KEEPs, decisions, HEAD's true score after each cycle) of one simulated night."""
    head: set[int] = set()
    head_rows = model.run(head, rng)
    false_keeps, trajectory = 0, []
    for _ in range(cycles):
        cands = []
        for _ in range(k):  # the bench's mutator: one edit not in HEAD, two 30% of the time
            free = [e for e in range(EDITS) if e not in head]
            cands.append(head | set(rng.sample(free, min(len(free), 2 if rng.random() < 0.3 else 1))))
        rows = [model.run(c, rng) for c in cands]
        passing = [i for i in range(k) if passes(head_rows, rows[i])]
        if passing:
            pick = max(passing, key=lambda i: sum(rows[i]))
            kept = model.run(cands[pick], rng) if confirm else rows[pick]
            if not confirm or passes(head_rows, kept):
                false_keeps += model.score(cands[pick]) <= model.score(head)
                head, head_rows = cands[pick], kept
        trajectory.append(model.score(head))
    return false_keeps, cycles, trajectory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=400)
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1, help="the landscape (the same as search_efficiency's)")
    args = parser.parse_args()
    model = Model(landscape(args.seed))
    results = {}
    for k, confirm in CONFIGS:
        nights = [night(model, k, confirm, args.cycles, random.Random(n)) for n in range(args.nights)]
        mean = [statistics.mean(n[2][c] for n in nights) for c in range(args.cycles)]
        rate = sum(n[0] for n in nights) / sum(n[1] for n in nights)
        results[(k, confirm)] = (rate, mean)
    final = results[(1, False)][1][-1]
    print(f"{'':24}{'false KEEPs':>12}{'after 5':>9}{'10':>7}{'20':>7}{'30':>7}   cycles to K=1's final")
    for (k, confirm), (rate, mean) in results.items():
        label = f"K={k}" + (" confirmed" if confirm else (" unconfirmed" if k > 1 else ""))
        reach = next((c + 1 for c, s in enumerate(mean) if s >= final), None)
        cells = "".join(f"{mean[c - 1]:>7.3f}" for c in (10, 20, 30) if c <= args.cycles)
        print(f"{label:<24}{rate:>12.1%}{mean[4]:>9.3f}{cells}   {reach or 'never'}")


if __name__ == "__main__":
    main()
