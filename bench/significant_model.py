"""The `significant` rule with K candidates per cycle, as a model: many simulated nights in seconds.

bench/search_model.py's model of the loop, for the other rule: the same landscape, noisy runs, result
cache, time budget and per-cycle overhead, and the real rule (autoresearch.policies.significant) deciding
from the samples, drawn as the loop draws them (autoresearch.optimizer.cycle.sequential and .confirm):

- K = 1: a mutation, then the candidate's sequential test in the checkout: its samples from 1, HEAD's
  runs one at a time, each round an eval's time.
- K > 1: K mutations made ahead (`search.overlap`); each candidate runs once; those scoring above HEAD's
  results are shortlisted and the best by score is picked and tested from its sample 2, HEAD's runs
  drawn beside its own (the rounds of policies.significant.next_round). A merge of shortlisted
  candidates that won different tests runs once beside the pick's test, and is tested in turn if it
  scores higher; if its test fails, the pick's outcome stands.
- After a KEEP, HEAD's results are the mean of the kept candidate's tested samples, and HEAD's runs start
  afresh (the ones its KEEP was selected on are left out).

Printed as bench/search_model.py prints (its `table`).
Usage: python bench/significant_model.py [--nights N] [--budget-s S] [--eval-s S] [--mutate-s S] [--overhead-s S] [--seed N]
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.policies.merging import merge_parents  # noqa: E402
from autoresearch.policies.significant import first_round, next_round, significant  # noqa: E402
from bench.search_efficiency import landscape  # noqa: E402
from bench.search_model import Edits, Model, Night, Times, ahead, arguments, mutate, table, won  # noqa: E402

CONFIDENCE, MAX_REPEATS = 0.95, 5  # the policy's defaults


@dataclass
class Head:
    """HEAD's artifact, its results (what candidates are shortlisted against) and its runs not selected by a
    KEEP, with the sample index they start after."""

    edits: Edits
    rows: list[float]
    offset: int = 0
    runs: list[list[float]] = field(default_factory=list)


@dataclass
class Test:
    keep: bool
    samples: list[list[float]]
    rounds: int  # rounds that ran an eval: the test's wall time in evals


def tested(model: Model, cand: Edits, head: Head, first: int, beside: bool) -> Test:
    """The candidate's sequential test from its sample `first`, as autoresearch.optimizer.cycle.sequential draws it."""
    samples: list[list[float]] = []
    more = first_round(len(head.runs), beside)
    rounds = 0
    while True:
        ran = False
        for _ in range(more[0]):
            rows, fresh = model.run(cand, first + len(samples))
            samples.append(rows)
            ran |= fresh
        for _ in range(more[1]):
            rows, fresh = model.run(head.edits, head.offset + len(head.runs) + 1)
            head.runs.append(rows)
            ran |= fresh
        rounds += ran
        verdict = significant(_keyed(samples), _keyed(head.runs), CONFIDENCE, MAX_REPEATS, False)
        if verdict.done:
            return Test(verdict.action == "keep", samples, rounds)
        more = next_round(verdict.action, len(samples), len(head.runs), beside)


def _keyed(runs: list[list[float]]) -> list[dict[str, float]]:
    return [{str(t): score for t, score in enumerate(run)} for run in runs]


def _mean(rows: list[float]) -> float:
    return sum(rows) / len(rows)


def night(model: Model, k: int, budget_s: float, times: Times) -> Night:
    rng, out = model.rng, Night()
    first_rows, _ = model.run(frozenset())
    head = Head(frozenset(), first_rows, runs=[first_rows])  # the original's run is HEAD's sample 1
    now, mutations, base = times.eval_s, 0, head.edits
    out.points.append((0.0, model.score(head.edits), model.runs, 0))
    while now < budget_s:
        before = model.score(head.edits)
        kept: tuple[Edits, Test, int] | None = None  # (artifact, its test, the sample it was tested from)
        if k == 1:
            cand = head.edits | mutate(rng, head.edits)
            mutations += 1
            test = tested(model, cand, head, 1, beside=False)
            now += times.mutate_s + times.eval_s * test.rounds
            kept = (cand, test, 1) if test.keep else None
        else:
            cands, made = ahead(rng, head.edits, base, k)
            mutations, now, base = mutations + made, now + times.mutate_s * (made > k), head.edits
            runs = [model.run(c) for c in cands]
            busy = times.eval_s * any(fresh for _, fresh in runs)
            shortlist = [i for i, (rows, _) in enumerate(runs) if _mean(rows) > _mean(head.rows)]
            if shortlist:
                best = max(shortlist, key=lambda i: _mean(runs[i][0]))
                test = tested(model, cands[best], head, 2, beside=True)
                kept = (cands[best], test, 2) if test.keep else None
                beside = times.eval_s * test.rounds
                parents = merge_parents(
                    [won(head.rows, runs[i][0])[0] if i in shortlist else set() for i in range(len(cands))]
                )
                if parents:
                    merged = frozenset().union(*(cands[i] for i in parents))
                    m_rows, m_fresh = model.run(merged)
                    beside = max(beside, times.eval_s * m_fresh)
                    if _mean(m_rows) > _mean(head.rows) and _mean(m_rows) > _mean(runs[best][0]):
                        m_test = tested(model, merged, head, 2, beside=True)
                        busy += times.eval_s * m_test.rounds
                        kept = (merged, m_test, 2) if m_test.keep else kept
                busy += beside
            now += max(times.mutate_s, busy)
        now += times.overhead_s
        false = False
        if kept is not None:
            edits, test, first = kept
            false = model.score(edits) <= before
            rows = [_mean([run[t] for run in test.samples]) for t in range(len(test.samples[0]))]
            head = Head(edits, rows, offset=first - 1 + len(test.samples))
        out.judged.append((before, false))
        out.points.append((now, model.score(head.edits), model.runs, mutations))
    return out


def main() -> None:
    args = arguments(__doc__ or "")
    land = landscape(args.seed)
    times = Times(args.eval_s, args.mutate_s, args.overhead_s)
    nights = lambda k: [night(Model(land, random.Random(n)), k, args.budget_s, times) for n in range(args.nights)]  # noqa: E731
    table({"K=1": nights(1), "K=2, overlap": nights(2), "K=4, overlap (the defaults)": nights(4)}, args.budget_s)


if __name__ == "__main__":
    main()
