"""The sequential runs the significant rule asks for: candidate and HEAD samples until it is confident.

The rule draws candidate samples 1, 2, … (2, 3, … for a candidate picked from
several on its sample 1) and HEAD samples after the ones its KEEP was selected
on (the winner's curse: those are the lucky draw).

A candidate in the checkout (K = 1) has HEAD's artifact put in its place for a
HEAD run, so its runs come one at a time. A pick of several candidates has a
worktree at HEAD beside its own (`Place.head`), so the test draws its next two
runs at once when they are one of each side, in the order the rule would ask
for them (policies.significant.next_round); the first round (`first_round`) draws the
candidate's first run with the HEAD runs the first look needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from autoresearch.optimizer.cycle.gating import Rows, Sizes, rescored
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.measure import Spend, measure
from autoresearch.optimizer.cycle.threads import all_at_once
from autoresearch.optimizer.cycle.tree import head_in_tree
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.workspace import Workspace, artifact_id
from autoresearch.policies.significant import Verdict, first_round, next_round, significant
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators import Evaluator
from autoresearch.runs.samples import merge, write_index


def head_offset(session: Session) -> int:
    """HEAD's samples that its KEEP was selected on (none for the original)."""
    best = session.history.best
    return (best.samples or 0) if best and best.cycle > 1 else 0


@dataclass(frozen=True)
class Place:
    """Where a parallel candidate is evaluated: its worktree, and an evaluator that runs there; for a pick's
    test, the worktree at HEAD where HEAD's runs go beside its own."""

    ws: Workspace
    evaluator: Evaluator
    head: Place | None = None


@dataclass
class Sequential:
    verdict: Verdict
    candidate: list[Rows]
    head: list[Rows]
    first: int = 1  # the candidate's first sample in the test (those before it chose it from several)


def decide_significant(
    session: Session,
    run_dir: Path,
    spend: Spend,
    sizes: Sizes,
    place: Place | None = None,
    first: int = 1,
    key: str | None = None,
) -> Sequential:
    """Draw candidate and HEAD samples until the rule decides; the candidate's merged rows go to run_dir.
    What the runs cost goes into the caller's `spend` as they end, so that a test failing on a later run
    still has its earlier runs on the line (and in the budget).
    A parallel candidate's `place` names its worktree and its evaluator (and for a pick, HEAD's beside it).
    The candidate's samples are drawn from `first` on: a candidate picked from several on its sample 1 is
    tested on samples that did not pick it (autoresearch.optimizer.cycle.confirm). `key`: the candidate's, when
    the caller took it."""
    policy = session.config.policy
    ws = place.ws if place else session.ws
    offset = head_offset(session)
    head_key = artifact_id(ws)
    head = session.cache.stored(head_key, after=offset)  # accumulated by earlier cycles, or a resumed run
    cand: list[Rows] = []
    beside = place is not None and place.head is not None
    more = first_round(len(head), beside)  # (candidate runs, HEAD runs): this round's
    keys = (key or artifact_key(ws), head_key)
    while True:
        drawn = _draw(
            session, run_dir, place, keys, (first + len(cand), more[0]), (offset + len(head) + 1, more[1]), spend
        )
        cand, head = cand + drawn[0], head + drawn[1]
        hidden = session.holdout.tests if session.holdout else frozenset()
        verdict = significant(
            _scores(session, sizes, cand, hidden),
            _scores(session, sizes, head, hidden, head=True),
            policy.confidence,
            policy.max_repeats,
            sizes.simpler,
        )
        get().info("evidence", action=verdict.action, reason=verdict.reason)
        if verdict.done:
            break
        more = next_round(verdict.action, len(cand), len(head), beside)
    write_index(run_dir, merge(cand))
    return Sequential(verdict, cand, head, first)


def _draw(
    session: Session,
    run_dir: Path,
    place: Place | None,
    keys: tuple[str, str],
    cand: tuple[int, int],
    head: tuple[int, int],
    spend: Spend,
) -> tuple[list[Rows], list[Rows]]:
    """`cand` = (first sample, count) of the candidate's (its artifact's key `keys[0]`) and `head` of HEAD's
    (`keys[1]`): several at once only with HEAD's worktree beside, since a HEAD run in the candidate's tree
    puts HEAD's artifact there."""
    ws, evaluator = (place.ws, place.evaluator) if place else (session.ws, None)
    there = place.head if place else None
    jobs = [("sample", n) for n in range(cand[0], sum(cand))] + [("head", n) for n in range(head[0], sum(head))]
    results: dict[tuple[str, int], Rows] = {}
    spends = [Spend() for _ in jobs]

    failed: list[EvalFailed] = []

    def one(job: tuple[str, int], spent: Spend) -> None:
        side, n = job
        key, out = (keys[0], run_dir / f"sample-{n}") if side == "sample" else (keys[1], run_dir / f"head-{n}")
        try:
            if side == "head" and there is not None:
                results[job] = measure(session, there.ws, out, key, n, spent, evaluator=there.evaluator)
            elif side == "head":
                with head_in_tree(ws, run_dir):
                    results[job] = measure(session, ws, out, key, n, spent, evaluator=evaluator)
            else:
                results[job] = measure(session, ws, out, key, n, spent, evaluator=evaluator)
        except EvalFailed as exc:  # raised once the round is over: escaping it, it would end every command
            failed.append(exc)  # the daemon runs, the next cycle's mutators among them

    if len(jobs) == 1:
        one(jobs[0], spends[0])
    else:
        all_at_once([partial(one, job, spent) for job, spent in zip(jobs, spends)])
    for spent in spends:
        spend.add(spent)
    if failed:
        raise failed[0]
    return [results[j] for j in jobs if j[0] == "sample"], [results[j] for j in jobs if j[0] == "head"]


def _scores(
    session: Session, sizes: Sizes, samples: list[Rows], hidden: frozenset[str], head: bool = False
) -> list[dict[str, float]]:
    """Per-sample test scores (by the composite, with `objectives:` weights, against HEAD's results),
    the held-out tests left out: the rule decides on the train part."""
    if session.config.objectives:
        pair = (sizes.head, sizes.head if head else sizes.candidate)
        samples = [rescored(session.config, session.baseline_rows, rows, pair) for rows in samples]
    return [{row["test_id"]: float(row["score"]) for row in rows if row["test_id"] not in hidden} for rows in samples]
