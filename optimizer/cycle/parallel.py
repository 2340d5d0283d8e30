"""A cycle with parallel candidates (`search.candidates` > 1): K mutations from HEAD at once, each in its
own git worktree, evaluated at once, the best one judged against HEAD and committed in the checkout.

The checkout only ever receives the winner, copied in and committed in one critical block with the
cycle's one iterations line; every other candidate's patch is saved under its run directory first.
The worktrees are removed however the cycle ends (and by the next cycle or start-up after a kill -9).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autoresearch.mutators.base import MutationResult, Mutator
from autoresearch.mutators.errors import MutationFailed, MutationsExhausted
from autoresearch.mutators.registry import build as build_mutator
from autoresearch.mutators.strategies import Strategy, assign, rotation
from autoresearch.optimizer import faults, signals
from autoresearch.optimizer.cycle import pending, tree
from autoresearch.optimizer.cycle.candidate import (
    Draft,
    commit_message,
    failed,
    judge_candidate,
    mutation_fields,
    require_head,
)
from autoresearch.optimizer.cycle.confirm import confirm, needs_confirmation, unconfirmed
from autoresearch.optimizer.cycle.decide import compare_for_goal, is_better
from autoresearch.optimizer.cycle.gating import scored_pair
from autoresearch.optimizer.cycle.mutate import check_artifact, mutation_request, records, undo_outside
from autoresearch.optimizer.cycle.record import record
from autoresearch.optimizer.cycle.sequential import Place
from autoresearch.optimizer.cycle.stops import RunStopped, stop_requested
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.optimizer.gitrepo.merge import UnsafePatch, merge_patches
from autoresearch.optimizer.gitrepo.workspace import (
    Workspace,
    candidate_patch,
    everything_changed,
    head_moved,
    head_ref,
    inside,
    reattach,
)
from autoresearch.optimizer.guard import trusted
from autoresearch.optimizer.guard.scope import TOOL_CACHES
from autoresearch.plumbing import process
from autoresearch.plumbing.errors import IntegrityError, SafetyStop
from autoresearch.policies.bestofk import adjusted_confidence
from autoresearch.policies.merging import merge_parents
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.evaluators.registry import build as build_evaluator
from autoresearch.runs.samples import write_index
from autoresearch.trajectory.iterations import Candidate

MERGE = Strategy(name="merge", instructions="")  # a merge candidate's: no mutator, its parents' patches


@dataclass
class Sibling:
    """One of a cycle's candidates, from its worktree to its verdict."""

    index: int
    strategy: Strategy
    ws: Workspace
    draft: Draft
    mutator: Mutator
    run_dir: Path
    mutation: MutationResult | None = None
    error: tuple[str, str] | None = None  # (reason, message) of a candidate that failed
    place: Place | None = None  # where it is evaluated, once it is
    rows: list[dict] | None = None  # its train rows, once evaluated
    held: list[dict] | None = None
    keep: bool = False
    merge_of: list[int] | None = None  # a merge candidate: the siblings whose patches it combines
    parents: str = ""  # and their strategies, for its commit message

    @property
    def score(self) -> float:
        return float(self.draft.fields.get("score", 0.0))


def cycle(session: Session, number: int) -> None:
    """Cycles 2+ with K > 1 candidates; the same outcomes as autoresearch.optimizer.cycle.candidate, once per cycle."""
    k = session.config.search.candidates
    run_dir = session.paths.new_run_dir(number)
    spaces = worktrees.make(session.ws, session.paths.meta, k)
    try:
        strategies = assign(tuple(session.config.search.strategies), k, _shift(session))
        siblings = [_sibling(session, number, run_dir, i, strategies[i], spaces[i]) for i in range(k)]
        _mutate_all(session, number, run_dir, siblings)
        faults.point("after-mutate")
        if stop_requested(session):
            _save_patches(session, siblings, None)  # made while the STOP file appeared: saved, not evaluated
            raise RunStopped("stop-requested")
        live = sum(s.error is None for s in siblings)
        tested = live + (live >= 2)  # a merge of them may be one more candidate tested against HEAD
        if _budget_left(session, siblings):
            _evaluate_all(session, siblings, tested)
        else:
            for s in siblings:
                if s.error is None:
                    s.error = ("budget", "not evaluated: the budget was spent by the cycle's mutations")
        merged = _merge(session, run_dir, siblings)
        if merged is not None:
            siblings.append(merged)
            _evaluate_all(session, [merged], tested)
        winner = _best([s for s in siblings if s.keep], session)
        winner = _confirmed(session, siblings, winner)
        _save_patches(session, siblings, winner)
        _decide(session, number, run_dir, siblings, winner)
    finally:
        worktrees.clear(session.ws, session.paths.meta)


def _shift(session: Session) -> int:
    """How far the strategy assignment has rotated: once per plateau of half `max_convergence` cycles."""
    period = max(1, session.config.stop.max_convergence // 2)
    return rotation([r.decision for r in session.history.records[1:]], period)


def _sibling(session: Session, number: int, run_dir: Path, i: int, strategy: Strategy, ws: Workspace) -> Sibling:
    settings = {name: value for name in ("model", "temperature") if (value := getattr(strategy, name)) is not None}
    mutator = build_mutator(session.config.mutator.model_copy(update=settings), ws.root) if settings else None
    sib_dir = run_dir / f"candidate-{i}"
    sib_dir.mkdir(parents=True, exist_ok=True)
    draft = Draft(number, run_dir.name)
    return Sibling(i, strategy, ws, draft, mutator or session.mutator, sib_dir)


def _mutate_all(session: Session, number: int, run_dir: Path, siblings: list[Sibling]) -> None:
    """The K mutators at once. The user's checkout is watched by the scope guard meanwhile: a change there
    (whoever made it) is saved and undone, and makes every candidate of the cycle out of scope."""
    session.set_phase("mutate")
    get().info("mutating", candidates=len(siblings))
    ws = session.ws
    session.scope_guard().settle()
    kept = trusted.take(records(session))
    head, branch = ws.head(), head_ref(ws)
    faults.point("before-mutate")
    try:
        _all_at_once([lambda s=s: _mutate_one(session, number, s) for s in siblings])  # type: ignore[misc]
    finally:
        switched = head_moved(ws, branch, head) if head_ref(ws) != branch else None
        outside = undo_outside(session, run_dir, kept)  # the guard puts .git back (HEAD, refs, index)
        reattach(ws, branch, head)
    if switched:  # the KEEPs would have gone off the user's branch: exit 20, as with one candidate
        _save_patches(session, siblings, None)
        raise SafetyStop(f"stopped: a mutator switched branches ({switched}); HEAD is back and nothing was committed")
    if ws.head() != head:
        raise IntegrityError(f"HEAD moved during the mutations (from {head[:10]}): mutators must not commit")
    if outside:
        for s in siblings:
            s.error = ("out-of-scope", f"a mutator changed files outside the artifact: {', '.join(outside[:5])}")
    if all(s.error and s.error[0] == "exhausted" for s in siblings):
        shutil.rmtree(run_dir)  # no cycle happened: leave no run directory behind
        raise RunStopped("mutations-exhausted")


def _mutate_one(session: Session, number: int, s: Sibling) -> None:
    ws = s.ws
    request = mutation_request(
        session,
        number,
        ws,
        s.run_dir,
        sibling=s.index,
        siblings=session.config.search.candidates,
        strategy=s.strategy.name,
        strategy_instructions=s.strategy.instructions,
    )
    request.changelog.unlink(missing_ok=True)  # one left by an attempt a crash cut short
    head = ws.head()
    try:
        result = s.mutator.mutate(request)
        if request.changelog.is_file():
            request.changelog.replace(s.run_dir / "mutation.md")
        _check_worktree(ws, head, result)
    except MutationFailed as exc:
        s.error = (exc.reason, str(exc))
        if exc.spent is not None:
            s.draft.fields.update(mutation_fields(exc.spent))
        return
    except MutationsExhausted:
        s.error = ("exhausted", "the mutator has no more mutations")
        return
    s.mutation = result
    s.draft.fields.update(mutation=result.summary, **mutation_fields(result))
    get().info("mutated", candidate=s.index, strategy=s.strategy.name, summary=result.summary)


def _check_worktree(ws: Workspace, head: str, result: MutationResult) -> None:
    """The scope guard of a candidate's worktree: only its artifact changed (ignored files included: the
    worktree had none), and HEAD did not move. New files in a tool's cache folder (a coding agent that
    ran the tests) are removed, as the checkout's guard does, and not held against it."""
    if ws.head() != head:
        raise MutationFailed("the mutator committed in its worktree; mutators must not commit", "out-of-scope", result)
    outside = []
    for path, code in sorted(everything_changed(ws).items()):
        if inside(ws, path):
            continue
        if code in ("??", "!!") and TOOL_CACHES.intersection(path.split("/")):
            tree.remove(ws.root / path)
        else:
            outside.append(path)
    if outside:
        raise MutationFailed(
            f"the mutator changed files outside the artifact: {', '.join(outside[:5])}", "out-of-scope", result
        )
    check_artifact(ws, result)


def _budget_left(session: Session, siblings: list[Sibling], evaluated: bool = False) -> bool:
    """Whether the evaluations may start (`evaluated`: one more may, after theirs): a budget the cycle's
    spend so far exhausted starts none."""
    budget = session.config.stop.budget_usd
    names = ("mutation_cost_usd", "cost_usd") if evaluated else ("mutation_cost_usd",)
    spent = session.history.spent_usd + sum(float(s.draft.fields.get(n) or 0) for s in siblings for n in names)
    return not budget or spent < budget


def _evaluate_all(session: Session, siblings: list[Sibling], tested: int) -> None:
    """The mutated candidates evaluated at once, `eval.workers` shared between them, each judged against HEAD
    at the confidence that keeps the best-of-K false-KEEP rate at the configured one, K being the `tested`
    candidates of the cycle (a merge included)."""
    live = [s for s in siblings if s.error is None]
    if not live:
        return
    config = session.config
    share = config.eval.model_copy(update={"workers": max(1, config.eval.workers // len(live))})
    confidence = adjusted_confidence(config.policy.confidence, max(tested, len(live)))
    head_lock = threading.Lock()
    jobs = [lambda s=s: _evaluate_one(session, s, share, confidence, head_lock) for s in live]
    _all_at_once(jobs)  # type: ignore[arg-type]


def _evaluate_one(session: Session, s: Sibling, eval_config: Any, confidence: float, head_lock: Any) -> None:
    evaluator = build_evaluator(eval_config, s.ws.root, session.config.executor_at(s.ws.root))
    s.place = place = Place(s.ws, evaluator, confidence, head_lock)
    try:
        s.rows, s.held, s.keep = judge_candidate(session, s.run_dir, s.draft, place)
    except EvalFailed as exc:
        s.error = ("eval-failed", str(exc))


def _all_at_once(jobs: list[Callable[[], None]]) -> None:
    """Run the jobs in threads and wait for them all. An interruption of the daemon (Ctrl-C, SIGTERM)
    arrives in this thread: the jobs' processes and their calls to a Ray cluster are ended, so that the threads
    end too before it goes on; again until they have, since a job may start its next test after a sweep."""
    with ThreadPoolExecutor(max_workers=len(jobs), thread_name_prefix="candidate") as pool:
        futures = [pool.submit(job) for job in jobs]
        try:
            for future in futures:
                future.result()
        except BaseException:
            with process.refusing():  # a candidate's runner would start its next test after each sweep
                while True:
                    signals.end_started()
                    if not wait(futures, timeout=0.5).not_done:
                        break
            raise


def _merge(session: Session, run_dir: Path, siblings: list[Sibling]) -> Sibling | None:
    """The merge candidate: when two or more siblings each win tests the others do not, their patches
    three-way merged onto HEAD (in the object store) and checked out in a worktree of its own; None when
    no merge is worth trying, the patches conflict, or the budget or a STOP file says no more evals."""
    baseline = session.holdout.partition(session.baseline_rows)[0] if session.holdout else session.baseline_rows
    wins = [_won(session, s, baseline) for s in siblings]
    parents = merge_parents(wins)
    if not parents:
        return None
    if stop_requested(session) or not _budget_left(session, siblings, evaluated=True):
        get().info("merge skipped: the run is stopping or the budget is spent", candidates=parents)
        return None
    ws = session.ws
    patches = [candidate_patch(siblings[i].ws) for i in parents]
    try:
        tree = merge_patches(ws.root, ws.head(), patches, ws.artifact)
    except UnsafePatch as exc:
        get().warning("merge refused", candidates=parents, error=str(exc))
        return None
    if tree is None:
        get().info("merge skipped: the candidates' patches conflict", candidates=parents)
        return None
    index = len(siblings)
    merged_ws = worktrees.add_tree(ws, session.paths.meta, index, tree)
    sib_dir = run_dir / f"candidate-{index}"
    sib_dir.mkdir(parents=True, exist_ok=True)
    summary = " + ".join(str(siblings[i].draft.fields.get("mutation", "")) for i in parents)
    draft = Draft(siblings[0].draft.cycle, run_dir.name, fields={"mutation": summary})
    get().info("merging", candidates=parents)
    return Sibling(
        index,
        MERGE,
        merged_ws,
        draft,
        session.mutator,
        sib_dir,
        merge_of=parents,
        parents=", ".join(siblings[i].strategy.name for i in parents),
    )


def _won(session: Session, s: Sibling, baseline: list[dict]) -> set[str]:
    """The tests a sibling won against HEAD, as its rule compared them (none for one not evaluated)."""
    if s.rows is None or s.error is not None:
        return set()
    head, rows = scored_pair(session.config, s.ws, baseline, s.rows)
    return {m.test_id for m in compare_for_goal(session.config, head, rows).matched if m.outcome == "win"}


def _confirmed(session: Session, siblings: list[Sibling], winner: Sibling | None) -> Sibling | None:
    """The winner, if a second run of it keeps it too, holding then the rows it was kept on
    (autoresearch.optimizer.cycle.confirm says when one is needed and how it decides)."""
    judged = sum(s.rows is not None for s in siblings)
    if winner is None or not needs_confirmation(session.config, judged):
        return winner
    assert winner.place is not None and winner.rows is not None and winner.held is not None
    if not _budget_left(session, siblings, evaluated=True):
        unconfirmed(winner.draft.fields, "the budget was spent before a second run")
        confirmed = None
    else:
        get().info("confirming", candidate=winner.index, strategy=winner.strategy.name)
        first = winner.rows + winner.held  # its first run, held-out tests included
        confirmed = confirm(
            session, winner.ws, winner.run_dir / "confirm", winner.place.evaluator, winner.draft.fields, first
        )
    if confirmed is None:
        winner.keep = False
        return None
    winner.rows, winner.held = confirmed
    return winner


def _best(kept: list[Sibling], session: Session) -> Sibling | None:
    """The best of the candidates the rule would keep: the highest score in the goal's direction, then
    the most wins over losses, then the lowest index."""
    best = None
    for s in kept:
        if best is None or _ahead(s, best, session):
            best = s
    return best


def _ahead(a: Sibling, b: Sibling, session: Session) -> bool:
    if a.score != b.score:
        return is_better(session.config.eval.goal, a.score, b.score)
    margin = lambda s: (s.draft.fields.get("wins") or 0) - (s.draft.fields.get("losses") or 0)  # noqa: E731
    return margin(a) > margin(b)


def _save_patches(session: Session, siblings: list[Sibling], winner: Sibling | None) -> None:
    """Every candidate not kept keeps its diff (candidate.patch in its run directory): no idea is lost."""
    for s in siblings:
        if s is winner:
            continue
        patch = candidate_patch(s.ws)
        if patch.strip():
            (s.run_dir / "candidate.patch").write_text(patch + "\n", encoding="utf-8")


def _decide(session: Session, number: int, run_dir: Path, siblings: list[Sibling], winner: Sibling | None) -> None:
    """The cycle's one line, and for a winner its commit in the checkout, in one critical block."""
    entries = [_entry(session, s, winner) for s in siblings]
    totals = _totals(siblings)
    if winner is not None:
        return _commit(session, number, run_dir, winner, entries, totals)
    evaluated = [s for s in siblings if s.rows is not None]
    if evaluated:
        best = _best(evaluated, session) or evaluated[0]
        assert best.rows is not None
        write_index(run_dir, best.rows)
        line = best.draft.finish(decision="drop", **totals, strategy=best.strategy.name, candidates=entries)
    else:
        first = siblings[0]
        assert first.error is not None
        line = failed(first.draft, first.error[0], first.error[1]).model_copy(
            update={**totals, "strategy": first.strategy.name, "candidates": entries}
        )
    with signals.critical():
        require_head(session, tree.Candidate(session.ws, run_dir))
        record(session, line)


def _commit(
    session: Session, number: int, run_dir: Path, winner: Sibling, entries: list[Candidate], totals: dict
) -> None:
    assert winner.rows is not None and winner.held is not None
    write_index(run_dir, winner.rows)  # the run just decided, as the next mutators and a resume read it
    if session.holdout is not None:  # and its held-out rows, where a resume reads HEAD's
        write_index(session.holdout.root / run_dir.name, winner.held)
    summary = str(winner.draft.fields.get("mutation", ""))
    with tree.in_tree(session.ws, run_dir) as cand:
        tree.replace_artifact(winner.ws.artifact_path, session.ws.artifact_path)
        with signals.critical():
            require_head(session, cand)
            faults.point("before-commit")
            how = f"merge of strategies {winner.parents}" if winner.merge_of else f"strategy {winner.strategy.name}"
            line = winner.draft.finish(decision="keep", **totals, strategy=winner.strategy.name, candidates=entries)
            sha, line = pending.commit(session.paths, cand, line, commit_message(number, f"{summary} ({how})"))
            faults.point("after-commit")
            session.kept(sha, winner.rows, winner.held)
            record(session, line)


def _totals(siblings: list[Sibling]) -> dict[str, Any]:
    """A cycle's spend is the sum of its candidates' (the budget reads it from the line), eval runs included."""
    field = lambda name: sum(float(s.draft.fields.get(name) or 0) for s in siblings)  # noqa: E731
    ran = lambda s: s.rows is not None or (s.error is not None and s.error[0] == "eval-failed")  # noqa: E731
    return {
        "cost_usd": round(field("cost_usd"), 6),
        "mutation_cost_usd": round(field("mutation_cost_usd"), 6),
        "tokens_in": int(field("tokens_in")),
        "tokens_out": int(field("tokens_out")),
        "eval_runs": sum(int(s.draft.fields.get("eval_runs", 1 if ran(s) else 0)) for s in siblings),
        "cache_hits": int(field("cache_hits")),
    }


def _entry(session: Session, s: Sibling, winner: Sibling | None) -> Candidate:
    f = s.draft.fields
    patch = s.run_dir / "candidate.patch"
    return Candidate(
        index=s.index,
        decision="keep" if s is winner else ("error" if s.error else "drop"),
        strategy=s.strategy.name,
        summary=str(f.get("mutation", "")),
        score=f.get("score"),
        wins=f.get("wins"),
        losses=f.get("losses"),
        reason=s.error[1][:300] if s.error else f.get("reason"),
        cost_usd=round(float(f.get("cost_usd") or 0) + float(f.get("mutation_cost_usd") or 0), 6),
        patch=os.path.relpath(patch, session.paths.results_dir) if patch.is_file() else None,
        merge_of=s.merge_of,
    )
