"""The `wins-losses` rule with K candidates per cycle, as a model: many simulated nights in seconds.

`bench/search_efficiency.py` runs the real loop, so each configuration gets a few dozen decisions a
run, too few to tell false-KEEP rates apart. This script draws the same landscape's noisy eval runs
directly and applies the rule as the loop does (HEAD's results are the kept run's; with K > 1 the
best passing candidate is picked by score, then, as `optimizer/cycle/confirm.py` does, run once more
and kept if the mean of its two runs passes, the mean becoming HEAD's results (`search.confirm: mean`,
the loop's default), or only if the second run passes too (`independent`), or not run again (`off`)),
for `--nights` simulated nights of `--cycles` cycles each. With `search.overlap` (the default), a cycle's
candidates are mutated while the cycle before is evaluated: from the HEAD that cycle started from, each
edit then carried onto the new HEAD (one the new HEAD already holds is dropped; when none is left, the
cycle mutates again), and a cycle takes the longer of a mutation and its evaluation (with the
confirmation) instead of both. Printed: the false-KEEP rate per decision, the mean true score after
5/10/20/30 cycles, the cycles each configuration needs to reach K=1's final mean true score, and what it
spent and how long it took to get there against K=1 (eval runs plus mutations; times from `--eval-s` and
`--mutate-s`). No merges.
Usage: python bench/search_model.py [--nights N] [--cycles C] [--seed N] [--eval-s S] [--mutate-s S]
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
CONFIGS = (  # (K, search.confirm, search.overlap)
    (1, "none", False),
    (2, "both", False),
    (4, "none", False),
    (4, "both", False),
    (4, "mean", False),
    (2, "mean", True),
    (4, "both", True),
    (4, "mean", True),
)
LABELS = {  # the variants as search.confirm names them
    "none": "confirm: off",
    "both": "confirm: independent",
    "mean": "confirm: mean (the default)",
}


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


def night(model: Model, k: int, confirm: str, overlap: bool, cycles: int, rng: random.Random, times: tuple) -> tuple:
    """(false KEEPs, decisions, and after each cycle HEAD's true score, the spend and the time so far) of one
    simulated night; `times` is (an eval's, a mutation's)."""
    eval_s, mutate_s = times
    head: set[int] = set()
    head_rows = model.run(head, rng)
    false_keeps, trajectory, spend, clock = 0, [], [], []
    spent, now, base = 0, 0.0, head
    for _ in range(cycles):
        cands = _mutations(head, base if overlap else head, k, rng)
        spent += k
        if not cands:  # every edit made ahead was already in HEAD: mutated again, from it
            cands, spent, now = _mutations(head, head, k, rng), spent + k, now + mutate_s
        rows = [model.run(c, rng) for c in cands]
        spent += len(cands)
        busy = eval_s
        base = head
        passing = [i for i in range(len(cands)) if passes(head_rows, rows[i])]
        if passing:
            pick = max(passing, key=lambda i: sum(rows[i]))
            kept = rows[pick]
            if confirm != "none" and k > 1:
                second = model.run(cands[pick], rng)
                spent, busy = spent + 1, busy + eval_s
                kept = second if confirm == "both" else [(a + b) / 2 for a, b in zip(kept, second)]
            if passes(head_rows, kept):
                false_keeps += model.score(cands[pick]) <= model.score(head)
                head, head_rows = cands[pick], kept
        now += max(mutate_s, busy) if overlap and k > 1 else mutate_s + busy
        trajectory.append(model.score(head))
        spend.append(spent)
        clock.append(now)
    return false_keeps, cycles, trajectory, spend, clock


def _mutations(head: set[int], base: set[int], k: int, rng: random.Random) -> list[set[int]]:
    """The bench's mutator, K times: one edit not in `base`, two 30% of the time, carried onto `head`; those
    `head` already holds are dropped."""
    out = []
    for _ in range(k):
        free = [e for e in range(EDITS) if e not in base]
        edits = set(rng.sample(free, min(len(free), 2 if rng.random() < 0.3 else 1)))
        if not edits <= head:
            out.append(head | edits)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=400)
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1, help="the landscape (the same as search_efficiency's)")
    parser.add_argument("--eval-s", type=float, default=2.0, help="an eval run's time (the K of a cycle run at once)")
    parser.add_argument("--mutate-s", type=float, default=1.0, help="a mutation's time")
    args = parser.parse_args()
    model = Model(landscape(args.seed))
    times = (args.eval_s, args.mutate_s)
    results = {}
    for k, confirm, overlap in CONFIGS:
        nights = [night(model, k, confirm, overlap, args.cycles, random.Random(n), times) for n in range(args.nights)]
        per_cycle = [[statistics.mean(n[i][c] for n in nights) for c in range(args.cycles)] for i in (2, 3, 4)]
        rate = sum(n[0] for n in nights) / sum(n[1] for n in nights)
        results[(k, confirm, overlap)] = (rate, *per_cycle)
    _, final_scores, _, final_clock = results[(1, "none", False)]
    final = final_scores[-1]
    print(f"{'':46}{'false KEEPs':>12}{'after 5':>9}{'10':>7}{'20':>7}{'30':>7}   to K=1's final: cycles, spend, time")
    for (k, confirm, overlap), (rate, mean, spend, clock) in results.items():
        label = f"K={k}" + (f", {LABELS[confirm]}" + (", overlap" if overlap else "") if k > 1 else "")
        reach = next((c for c, s in enumerate(mean) if s >= final), None)
        cells = "".join(f"{mean[c - 1]:>7.3f}" for c in (10, 20, 30) if c <= args.cycles)
        there = "never"
        if reach is not None:  # K=1 gets there in its last cycle, having spent an eval and a mutation a cycle
            there = f"{reach + 1}, {spend[reach] / (2 * args.cycles):.2f}x, {clock[reach] / final_clock[-1]:.0%}"
        print(f"{label:<46}{rate:>12.1%}{mean[4]:>9.3f}{cells}   {there}")


if __name__ == "__main__":
    main()
