"""The `wins-losses` rule with K candidates per cycle, as a model: many simulated nights in seconds.

`bench/search_efficiency.py` runs the real loop, so each configuration gets a few dozen decisions a
run, too few to tell false-KEEP rates apart. This script draws the same landscape's noisy eval runs
directly and follows the loop's procedure for `--budget-s` simulated seconds, `--nights` times:

- K = 1: a mutation (`--mutate-s`), an eval (`--eval-s`), kept if it wins more tests than it loses
  against HEAD's results, which it then becomes.
- K > 1: K mutations at once; with `search.overlap`, made while the cycle before was evaluated, from
  the HEAD it started from, each edit then carried onto the new HEAD (one the new HEAD already holds is
  dropped; when none is left, the cycle mutates again). The K are evaluated at once and the best that
  the rule keeps is picked by score. When two or more that the rule keeps win different tests
  (autoresearch.policies.merging), their merge is evaluated beside the best one's confirmation, and
  confirmed in turn if picked over it; a merge that fails leaves the best one, if confirmed. The pick
  is confirmed as `search.confirm` says (`mean`: the mean of its two runs, the second not losing
  alone; `independent`; `off`).
- The result cache: an artifact evaluated before reuses its runs (its first, and its second when it
  was confirmed), so an edit proposed again from the same HEAD is no new chance, and siblings that
  made the same edit share one run.

A cycle takes its mutation and its evals (with overlap and K > 1, the longer of the two), plus
`--overhead-s` of the loop's own. Printed per configuration: the false-KEEP rate per decision (over
the whole budget, and while HEAD's true score was below K=1's final), HEAD's mean true score at each
quarter of the budget, when that mean first reached K=1's final (share of the budget), and the spend
(eval runs and mutations) until then, as a multiple of K=1's over its whole budget.

Calibrated against the real loop on the same landscape (240 s, eval 2 s, mutation 1 s): K = 1 keeps
5.4% false (real: 5.2%); K = 4 with `confirm: mean` as it was before the second run's veto reached
K = 1's final in 31% of the time at 1.13x the spend (real: 35%, 1.16x).
With `--search`, the configurations are instead K = 1 and K = 4 (`confirm: mean`, overlap) from HEAD
or, for K = 4, with `search.parents: pareto` (autoresearch.policies.pareto: candidate 0 from HEAD, the
others from the front's members in rank order, a parent's edits carried onto HEAD, one HEAD already
holds giving its place to the next; with overlap, the parents of a batch made ahead come from the cycles before the
one it ran beside), each with and without memory (an edit tried alone and discarded with more tests lost
than won is never proposed again, as the bench's mutator reads it in the digest), on the landscape with
`--tradeoffs` trade-off edits whose mender the mutator adds with chance `--mend` (see
bench/search_efficiency.py).
Usage: python bench/search_model.py [--nights N] [--budget-s S] [--eval-s S] [--mutate-s S] [--overhead-s S] [--seed N]
       [--search [--tradeoffs N] [--mend P]]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.policies.merging import merge_parents  # noqa: E402
from autoresearch.policies.pareto import HEAD, assign, front  # noqa: E402
from autoresearch.runs.compare import classify  # noqa: E402
from bench.search_efficiency import EDITS, NOISE, TRUTH, Outcome, Pooled, interval, landscape, matched  # noqa: E402

THRESHOLD = 0.1  # policy.threshold's default
CONFIGS = (  # (K, search.confirm, search.overlap)
    (1, "off", False),
    (2, "mean", True),
    (4, "off", True),
    (4, "independent", True),
    (4, "mean", True),
    (4, "mean", False),
)
SEARCHES = (  # --search: (K, search.confirm, search.overlap, search.parents, memory)
    (1, "off", False, "head", False),
    (1, "off", False, "head", True),
    (4, "mean", True, "head", False),
    (4, "mean", True, "head", True),
    (4, "mean", True, "pareto", False),
    (4, "mean", True, "pareto", True),
)
Edits = frozenset[int]


@dataclass(frozen=True)
class Times:
    eval_s: float
    mutate_s: float
    overhead_s: float


@dataclass
class Night:
    """One simulated night: each decision's (HEAD's true score before it, a false KEEP), and after each
    cycle (time, HEAD's true score, eval runs, mutations)."""

    judged: list[tuple[float, bool]] = field(default_factory=list)
    points: list[tuple[float, float, int, int]] = field(default_factory=list)

    def at(self, seconds: float) -> tuple[float, int, int]:
        return [p[1:] for p in self.points if p[0] <= seconds][-1]


class Model:
    """The landscape's true rates, and its noisy runs through a result cache."""

    def __init__(self, land: dict, rng: random.Random):
        scope: dict = {}
        exec(TRUTH, scope)  # the bench's own definition of the truth
        self.land, self.true_rates, self.rng = land, scope["true_rates"], rng
        self.cache: dict[tuple[Edits, int], list[float]] = {}
        self.runs = 0

    def score(self, edits: Edits) -> float:
        rates = self.true_rates(self.land, sorted(edits))
        return sum(rates) / len(rates)

    def run(self, edits: Edits, sample: int = 1) -> tuple[list[float], bool]:
        """Sample `sample` of the artifact with these edits, and whether it took an eval run (not the cache)."""
        key = (edits, sample)
        if key in self.cache:
            return self.cache[key], False
        self.runs += 1
        rates = self.true_rates(self.land, sorted(edits))
        self.cache[key] = [min(1.0, max(0.0, r + self.rng.gauss(0, NOISE))) for r in rates]
        return self.cache[key], True


def won(head: list[float], cand: list[float]) -> tuple[set[int], int]:
    """The tests the candidate wins, and how many it loses."""
    outcomes = [classify(c - h, THRESHOLD) for h, c in zip(head, cand)]
    return {t for t, o in enumerate(outcomes) if o == "win"}, outcomes.count("loss")


def passes(head: list[float], cand: list[float]) -> bool:
    wins, losses = won(head, cand)
    return len(wins) > losses


@dataclass
class Mutator:
    """The bench's command mutator: one edit not yet applied (two, 30% of the time); the mender of a
    trade-off edit its artifact holds with chance `mend`; never an edit in `avoid` (with memory: those
    tried alone and discarded with more tests lost than won)."""

    rng: random.Random
    menders: dict[int, int] = field(default_factory=dict)
    mend: float = 0.0
    avoid: set[int] = field(default_factory=set)

    def __call__(self, start: Edits) -> Edits:
        unmended = [m for x, m in self.menders.items() if x in start and m not in start]
        if unmended and self.rng.random() < self.mend:
            return frozenset({unmended[0]})
        free = [e for e in range(EDITS) if e not in start and e not in self.avoid]
        if not free:  # every edit left was discarded once: one of them again, rather than nothing
            free = [e for e in range(EDITS) if e not in start]
        return frozenset(self.rng.sample(free, min(len(free), 2 if self.rng.random() < 0.3 else 1)))


def ahead(mutate: Mutator, head: Edits, base: Edits, starts: list[Edits]) -> tuple[list[Edits], int]:
    """A cycle's K candidates, mutated ahead from `base` (the HEAD the cycle before started from; with
    parents, `base` and a parent's edits, `starts`) and carried onto `head` (an edit `head` already holds is
    dropped; when none is left, the cycle mutates K more, from `head`), and the mutations that took: K, or 2K
    when the cycle mutated again."""
    k = len(starts)
    cands = [head | d | e for d, e in ((d, mutate(base | d)) for d in starts) if not (d | e) <= head]
    if cands:
        return cands, k
    return [head | mutate(head) for _ in range(k)], 2 * k


@dataclass
class Pool:
    """`search.parents: pareto`: the candidates not kept, by name, as their edits beyond the HEAD of their
    day and their first run; only those on the front are kept (autoresearch.policies.pareto)."""

    stored: dict[str, tuple[Edits, list[float]]] = field(default_factory=dict)

    def starts(self, head: Edits, head_rows: list[float], k: int) -> list[Edits]:
        """Each of K candidates' parent edits (none: HEAD); a member HEAD already holds gives its place to the
        next, as in the loop (autoresearch.optimizer.cycle.parents)."""
        ranked = [m for m in self._front(head_rows) if m.name == HEAD or not self.stored[m.name][0] <= head]
        return [self.stored[n][0] if n != HEAD else frozenset() for n in assign(ranked, k)]

    def add(self, name: str, edits: Edits, head: Edits, rows: list[float], head_rows: list[float]) -> None:
        if edits - head:
            self.stored[name] = (edits - head, rows)
        on_front = {m.name for m in self._front(head_rows)}
        self.stored = {n: v for n, v in self.stored.items() if n in on_front}

    def _front(self, head_rows: list[float]) -> list:
        scores = {HEAD: dict(enumerate(head_rows))} | {n: dict(enumerate(r)) for n, (_, r) in self.stored.items()}
        return front({n: {str(t): v for t, v in s.items()} for n, s in scores.items()})


@dataclass(frozen=True)
class Search:
    """What the search remembers and where its candidates start (`search.parents`, the digest)."""

    parents: str = "head"
    memory: bool = False
    mend: float = 0.0


def night(
    model: Model, k: int, confirm: str, overlap: bool, budget_s: float, times: Times, search: Search = Search()
) -> Night:
    rng, out = model.rng, Night()
    menders = {int(x): m for x, m in model.land.get("menders", {}).items()}
    mutate, pool = Mutator(rng, menders, search.mend), Pool()
    head: Edits = frozenset()
    head_rows, _ = model.run(head)
    now, mutations, base = times.eval_s, 0, head
    starts: list[Edits] = [frozenset()] * k
    out.points.append((0.0, model.score(head), model.runs, 0))

    def confirmed(edits: Edits, first: list[float]) -> tuple[list[float] | None, bool]:
        """The rows HEAD takes if the pick is kept again (None if not), and whether that took an eval run."""
        if confirm == "off":
            return first, False
        second, ran = model.run(edits, 2)
        rows = [(a + b) / 2 for a, b in zip(first, second)] if confirm == "mean" else second
        lost = confirm == "mean" and passes(second, head_rows)  # HEAD beat the second run alone
        return (rows if passes(head_rows, rows) and not lost else None), ran

    while now < budget_s:
        before = model.score(head)
        kept: tuple[Edits, list[float]] | None = None
        tried: list[tuple[Edits, list[float]]] = []  # every candidate evaluated, its first run
        if k == 1:
            cand = head | mutate(head)
            mutations += 1
            rows, ran = model.run(cand)
            tried.append((cand, rows))
            now += times.mutate_s + times.eval_s * ran
            if passes(head_rows, rows):
                kept = (cand, rows)
        else:
            cands, made = ahead(mutate, head, base, starts)
            mutations, now, base = mutations + made, now + times.mutate_s * (made > k), head
            runs = [model.run(c) for c in cands]
            tried += [(c, first) for c, (first, _) in zip(cands, runs)]
            busy = times.eval_s * any(ran for _, ran in runs)
            keep = [i for i, (rows, _) in enumerate(runs) if passes(head_rows, rows)]
            if keep:
                best = max(keep, key=lambda i: sum(runs[i][0]))
                rows, ran = confirmed(cands[best], runs[best][0])
                alone = (cands[best], rows) if rows is not None else None
                beside = times.eval_s * ran
                parents = merge_parents(
                    [won(head_rows, runs[i][0])[0] if i in keep else set() for i in range(len(cands))]
                )
                kept = alone
                if parents:
                    merged = frozenset().union(*(cands[i] for i in parents))
                    m_rows, m_ran = model.run(merged)
                    tried.append((merged, m_rows))
                    beside = max(beside, times.eval_s * m_ran)
                    if passes(head_rows, m_rows) and sum(m_rows) > sum(runs[best][0]):
                        m_kept, m_ran = confirmed(merged, m_rows)
                        busy += times.eval_s * m_ran
                        kept = (merged, m_kept) if m_kept is not None else alone
                busy += beside
            now += max(times.mutate_s, busy) if overlap else times.mutate_s + busy
        now += times.overhead_s
        false = False
        old_head, old_rows = head, head_rows
        if overlap and k > 1 and search.parents == "pareto":  # the next batch was made before this one was stored
            starts = pool.starts(head, head_rows, k)
        if kept is not None:
            false = model.score(kept[0]) <= before
            head, head_rows = kept
        remember(search, mutate, pool, tried, old_head, old_rows, head, head_rows, len(out.judged))
        if not (overlap and k > 1) and search.parents == "pareto":
            starts = pool.starts(head, head_rows, k)
        out.judged.append((before, false))
        out.points.append((now, model.score(head), model.runs, mutations))
    return out


def remember(
    search: Search,
    mutate: Mutator,
    pool: Pool,
    tried: list[tuple[Edits, list[float]]],
    old_head: Edits,
    old_rows: list[float],
    head: Edits,
    head_rows: list[float],
    cycle: int,
) -> None:
    """After a decision: with memory, an edit tried alone and discarded with more tests lost than won is
    never proposed again; with parents, the candidates not kept are stored and the front kept."""
    for i, (edits, rows) in enumerate(tried):
        if edits == head:
            continue
        wins, losses = won(old_rows, rows)
        if search.memory and len(edits - old_head) == 1 and losses > len(wins):
            mutate.avoid |= edits - old_head
        if search.parents == "pareto":
            pool.add(f"{cycle}-{i}", edits, old_head, rows, head_rows)


def label(k: int, confirm: str, overlap: bool) -> str:
    if k == 1:
        return "K=1"
    return (
        f"K={k}, confirm: {confirm}"
        + (", overlap" if overlap else "")
        + (" (the defaults)" if confirm == "mean" and overlap else "")
    )


def arguments(doc: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--nights", type=int, default=400)
    parser.add_argument("--budget-s", type=float, default=240.0, help="a night's simulated wall time")
    parser.add_argument("--eval-s", type=float, default=2.0, help="an eval run's time (the K of a cycle run at once)")
    parser.add_argument("--mutate-s", type=float, default=1.0, help="a mutation's time")
    parser.add_argument("--overhead-s", type=float, default=0.3, help="the loop's own time per cycle")
    parser.add_argument("--seed", type=int, default=1, help="the landscape (the same as search_efficiency's)")
    parser.add_argument(
        "--search", action="store_true", help="compare search.parents head/pareto and memory off/on (SEARCHES)"
    )
    parser.add_argument("--tradeoffs", type=int, default=4, help="with --search: the landscape's trade-off edits")
    parser.add_argument("--mend", type=float, default=0.5, help="with --search: the mutator's chance to mend one")
    return parser.parse_args()


def table(results: dict[str, list[Night]], budget_s: float) -> None:
    """Each configuration's row; the first is K=1, which the others are compared with."""
    mean = lambda nights, t, i=0: statistics.mean(n.at(t)[i] for n in nights)  # noqa: E731
    base = next(iter(results.values()))
    final = mean(base, budget_s)
    base_spend = mean(base, budget_s, 1) + mean(base, budget_s, 2)
    grid = [budget_s * i / 100 for i in range(101)]
    quarters = [budget_s * q for q in (0.25, 0.5, 0.75, 1.0)]
    print(
        f"{len(base)} nights of {budget_s:g} s; K=1's final mean true score {final:.3f}\n"
        f"{'':42}{'false KEEPs':>12}{'below':>8}{'matched':>9}   true score at 25/50/75/100%     "
        "reached K=1's final: time, spend; with 3 nights (80%)"
    )
    base_judged = [j for n in base for j in n.judged]
    as_runs = lambda nights: Pooled("", [Outcome("", points=n.points, judged=n.judged) for n in nights])  # noqa: E731
    for name, nights in results.items():
        judged = [j for n in nights for j in n.judged]
        below = [false for before, false in judged if before < final - 1e-9]
        alike = matched(base_judged, judged, final)
        low, high = interval(as_runs(base), as_runs(nights), budget_s, size=3)
        reach = next((t for t in grid if mean(nights, t) >= final - 1e-9), None)
        there = "never"
        if reach is not None:
            spend = mean(nights, reach, 1) + mean(nights, reach, 2)
            there = f"{reach / budget_s:.0%}, {spend / base_spend:.2f}x"
        scores = " / ".join(f"{mean(nights, t):.3f}" for t in quarters)
        rate = sum(f for _, f in judged) / len(judged)
        print(
            f"{name:<42}{rate:>12.1%}{sum(below) / max(1, len(below)):>8.1%}"
            f"{'-' if alike is None else f'{alike[0]:.1%}':>9}   {scores}   {there}; {low:.0%}-{high:.0%}"
        )


def main() -> None:
    args = arguments(__doc__ or "")
    times = Times(args.eval_s, args.mutate_s, args.overhead_s)
    if args.search:
        land = landscape(args.seed, args.tradeoffs)
        results = {}
        for k, confirm, overlap, parents, memory in SEARCHES:
            search = Search(parents, memory, args.mend)
            name = label(k, confirm, overlap) + (", pareto" if parents == "pareto" else "") + (", memory" * memory)
            results[name] = [
                night(Model(land, random.Random(n)), k, confirm, overlap, args.budget_s, times, search)
                for n in range(args.nights)
            ]
        return table(results, args.budget_s)
    land = landscape(args.seed)
    table(
        {
            label(*config): [
                night(Model(land, random.Random(n)), *config, args.budget_s, times) for n in range(args.nights)
            ]
            for config in CONFIGS
        },
        args.budget_s,
    )


if __name__ == "__main__":
    main()
