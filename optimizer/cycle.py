"""One candidate, start to finish: mutate, check the scope, evaluate, decide, commit or restore.

Each step that fails turns the cycle into an `error` record with a reason;
whatever happens, the tree is back at HEAD or committed before the record is written.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, field

import structlog

from mutators.base import MutationRequest, MutationResult
from mutators.errors import MutationFailed, MutationsExhausted
from optimizer import faults, records, rescue, scope, signals
from optimizer.decide import compare_for_goal, judge
from plumbing.errors import IntegrityError, Interrupted, SafetyStop
from optimizer.config import DEFAULT_PATH
from optimizer.logs import get
from optimizer.record import record
from optimizer.early import EarlyDiscard
from optimizer.holdout import guard_candidate, guard_original, hidden_from_mutator
from optimizer.keys import artifact_key
from optimizer.sampling import Spend, decide_significant, measure
from optimizer.session import Session
from optimizer.workspace import (
    artifact_id,
    artifact_modified,
    artifact_present,
    artifact_size,
    candidate_patch,
    commit_artifact,
    head_moved,
    head_ref,
    link_out,
    reattach,
    restore_artifact,
)
from policies.stop import Limits
from runs.errors import EvalFailed
from runs.evaluators import EvalOutcome
from plumbing.redact import redact
from runs.samples import merge
from runs.results import assertion_rates, mean_score
from trajectory.iterations import Iteration


@dataclass
class Draft:
    """The iterations line as it is being filled in."""

    cycle: int
    run_dir: str
    started: float = field(default_factory=time.monotonic)
    fields: dict = field(default_factory=dict)

    def finish(self, **fields) -> Iteration:
        data = {"cycle": self.cycle, "run_dir": self.run_dir, **self.fields, **fields}
        data["duration_s"] = round(time.monotonic() - self.started, 3)
        return Iteration(**data)


COMMIT_PREFIX = "autoresearch cycle "
ORIGINAL_ATTEMPTS = Limits.max_errors_in_a_row


class StopRequested(Exception):
    """The STOP file appeared while a candidate was being made; it is saved as a patch, not evaluated."""


def stop_requested(session: Session) -> str | None:
    """Honour (and consume) a STOP file: a stop that people without signals can ask for."""
    stop_file = session.paths.stop_file
    if stop_file.exists():
        stop_file.unlink(missing_ok=True)
        get().info("stop requested")
        return "stop-requested"
    return None


def set_phase(session: Session, phase: str) -> None:
    from plumbing.clock import utc_now

    structlog.contextvars.bind_contextvars(phase=phase)
    session.state.phase = phase
    session.state.phase_started_at = utc_now()
    session.state_writer.soon(session.state)


def evaluate(session: Session, run_dir, watch=None) -> EvalOutcome:
    """One eval run; `watch` (see optimizer.early) may stop an evaluator that streams its rows."""
    faults.point("before-eval")
    set_phase(session, "eval")
    get().info("evaluating")
    if watch is not None and getattr(session.evaluator, "supports_watch", False):
        return session.evaluator.run(run_dir, watch=watch)
    return session.evaluator.run(run_dir)


def original(session: Session) -> Iteration:
    """Cycle 1: the untouched artifact, always KEEP (it is the baseline everything is measured from).

    Its eval gets the attempts any cycle gets before failures stop a run (three in a row): one flaky
    first eval must not end a night's run before it starts. Each failure is logged with its reason.
    """
    attempt = 1
    while True:
        try:
            return _original_once(session)
        except EvalFailed as exc:
            if attempt == ORIGINAL_ATTEMPTS:
                raise
            get().warning(f"the original's eval failed (attempt {attempt} of {ORIGINAL_ATTEMPTS})", error=redact(str(exc)))
            attempt += 1


def _original_once(session: Session) -> Iteration:
    run_dir = session.paths.new_run_dir(1)
    draft = Draft(1, run_dir.name, fields={"mutation": "original"})
    spend = Spend()
    rows = measure(session, run_dir, artifact_id(session.ws), 1, spend)
    rows, held_fields = guard_original(session, run_dir, rows)
    session.baseline_rows = rows
    return draft.finish(
        score=mean_score(rows),
        decision="keep",
        reason="original",
        cost_usd=spend.cost_usd,
        assertions=assertion_rates(rows),
        commit=session.ws.head(),
        tests=len({r["test_id"] for r in rows}),
        **held_fields,
        **spend_fields(spend),
    )


def candidate(session: Session, cycle: int) -> None:
    """Cycles 2+: ask the mutator for a candidate, judge it against HEAD's results, and write the
    decision down. Each outcome's git step and its iterations line happen in one critical block."""
    run_dir = session.paths.new_run_dir(cycle)
    draft = Draft(cycle, run_dir.name)
    try:
        mutation = mutate(session, cycle, run_dir)
    except MutationFailed as exc:
        if exc.spent is not None:
            draft.fields.update(_mutation_fields(exc.spent))
        return _settle(session, run_dir, failed(draft, exc.reason, str(exc)))
    except MutationsExhausted:
        shutil.rmtree(run_dir)  # no cycle happened: leave no run directory behind
        raise
    faults.point("after-mutate")
    if stop_requested(session):
        discard(session, run_dir)
        raise StopRequested()
    draft.fields.update(mutation=mutation.summary, **_mutation_fields(mutation))
    try:
        rows, held, keep = _judge_candidate(session, run_dir, draft)
    except EvalFailed as exc:
        return _settle(session, run_dir, failed(draft, "eval-failed", str(exc)))
    if not keep:
        return _settle(session, run_dir, draft.finish(decision="drop"))
    with signals.critical():
        require_head(session, run_dir)
        faults.point("before-commit")
        sha = commit_artifact(session.ws, commit_message(cycle, draft.fields["mutation"]))
        if sha is None:
            raise IntegrityError("the candidate vanished before its commit")
        faults.point("after-commit")
        session.head = (session.head[0], sha)
        session.state.commits.append(sha)
        session.baseline_rows, session.baseline_holdout = rows, held
        record(session, draft.finish(decision="keep", commit=sha))


def _settle(session: Session, run_dir, entry: Iteration) -> None:
    """A candidate not kept: its diff saved, the artifact back at HEAD and the line written, with no
    signal in between (a resumed run then starts from exactly this decision)."""
    with signals.critical():
        discard(session, run_dir)
        require_head(session, run_dir)
        record(session, entry)


def require_head(session: Session, run_dir) -> None:
    """Before a decision is written: HEAD is where this run left it. A commit the user made on the
    branch meanwhile (or a branch switch) is never built upon: the run stops, the candidate saved."""
    moved = head_moved(session.ws, *session.head)
    if moved:
        discard(session, run_dir)
        branch, sha = session.head
        raise IntegrityError(
            f"{moved} during the run; autoresearch commits only on top of its own last commit {sha[:10]}. "
            f"Move your work aside (git branch my-work; git checkout {(branch or sha).removeprefix('refs/heads/')}; "
            f"git reset --keep {sha[:10]}) and run again, or start a new experiment from here with --restart"
        )


def _judge_candidate(session: Session, run_dir, draft: Draft) -> tuple[list[dict], list[dict], bool]:
    """Evaluate the candidate (once, or as often as the significant rule asks) and decide; the
    evidence goes into the draft line. Returns (the candidate's train rows, its held-out rows, keep)."""
    significant = session.config.policy.rule == "significant" and session.config.eval.metric is None
    if significant:
        sequential = decide_significant(session, run_dir)
        rows, baseline, spend = merge(sequential.candidate), merge(sequential.head), sequential.spend
    else:
        spend, baseline = Spend(), session.baseline_rows
        watch = early_discard(session)
        rows = measure(session, run_dir, artifact_key(session.ws), 1, spend, watch)
    faults.point("after-eval")
    rows, held, held_fields = guard_candidate(session, run_dir, rows)
    baseline = session.holdout.partition(baseline)[0] if session.holdout else baseline
    set_phase(session, "decide")
    if significant:  # decided from the samples; the summary of the means is still recorded
        v = sequential.verdict
        comparison, keep, reason = compare_for_goal(session.config, baseline, rows), v.action == "keep", v.reason
    else:
        verdict = judge(session.config, session.ws, baseline, rows)
        comparison, keep, reason = verdict.comparison, verdict.decision.keep, verdict.decision.reason
    s = comparison.summary
    draft.fields.update(
        score=mean_score(rows),
        cost_usd=spend.cost_usd,
        assertions=assertion_rates(rows),
        wins=s.wins,
        losses=s.losses,
        ties=s.ties,
        mean_delta=s.mean_delta,
        reason=reason,
        **held_fields,
        **spend_fields(spend),
    )
    if keep and held_fields.get("holdout_regressed"):
        keep = False
        draft.fields["reason"] = f"{reason}; vetoed: the holdout regressed"
    if not significant:
        return rows, held, keep
    draft.fields.update(
        samples=v.candidate_runs,
        head_samples=v.head_runs,
        p_value=round(v.p_value, 6),
        interval=[round(v.interval[0], 4), round(v.interval[1], 4)],
    )
    return rows, held, keep


def early_discard(session: Session) -> EarlyDiscard | None:
    """Under `wins-losses` (and a per-test eval), a watch that stops the eval once the candidate cannot win."""
    config, ws = session.config, session.ws
    if config.policy.rule != "wins-losses" or config.eval.metric is not None or session.holdout:
        return None  # (a holdout needs every held-out test run, whatever the train part says)
    return EarlyDiscard(session.baseline_rows, config.policy.threshold, artifact_size(ws) < artifact_size(ws, "HEAD"))


def spend_fields(spend: Spend) -> dict:
    """Eval runs made, cache hits and tests skipped, on the line only when the cache, repeats or an early discard were involved."""
    fields = {"eval_runs": spend.runs, "cache_hits": spend.hits} if spend.hits or spend.runs != 1 else {}
    return {**fields, "skipped_tests": spend.skipped} if spend.skipped else fields


def commit_message(cycle: int, summary: str) -> str:
    return f"{COMMIT_PREFIX}{cycle}: {summary}"


def _mutation_fields(spent: MutationResult) -> dict:
    return {
        "mutation_cost_usd": round(spent.cost_usd, 6),
        "tokens_in": spent.tokens_in,
        "tokens_out": spent.tokens_out,
    }


def failed(draft: Draft, reason: str, message: str) -> Iteration:
    message = redact(message)  # it may quote a provider's or a command's words
    get().warning("cycle failed", reason=reason, error=message)
    return draft.finish(score=0.0, decision="error", error=message, error_reason=reason)


def discard(session: Session, run_dir) -> None:
    """Save the candidate's diff (no tried idea is lost), then put the artifact back to HEAD."""
    with signals.critical():
        patch = candidate_patch(session.ws)
        if patch.strip():
            (run_dir / "candidate.patch").write_text(patch + "\n", encoding="utf-8")
        faults.point("after-patch")
        restore_artifact(session.ws)


def mutate(session: Session, cycle: int, log_dir) -> MutationResult:
    set_phase(session, "mutate")
    ws, history = session.ws, session.history
    decided = history.last_evaluated
    request = MutationRequest(
        repo_root=ws.root,
        artifact=ws.artifact_path,
        mode=ws.mode,
        run_dir=session.paths.run_dir(decided.run_dir),
        iterations=session.paths.iterations,
        initial_sha=session.state.initial_sha,
        pass_rates=decided.assertions,
        cycle=cycle,
        log_dir=log_dir,
        read_only=(session.paths.results_dir, *_scoring_files(session)),
        hidden=(*hidden_from_mutator(session), *filter(None, [_cache_root(session)])),
    )
    get().info("mutating")
    _set_aside_changelog(session, request.changelog)
    guard = _guard(session)
    guard.settle()
    kept = records.take(_records(session))
    head, branch = ws.head(), head_ref(ws)
    faults.point("before-mutate")
    try:
        result = session.mutator.mutate(request)
    except (MutationFailed, Interrupted) as exc:  # however the mutator ended, what it wrote outside goes
        outside = _undo_outside(session, log_dir, kept)
        reattach(ws, branch, head)
        if outside and isinstance(exc, MutationFailed):
            raise MutationFailed(f"{exc}; it also changed files outside the artifact", "out-of-scope", exc.spent) from exc
        raise
    switched = head_moved(ws, branch, head) if head_ref(ws) != branch else None
    moved_to = ws.head()
    outside = _undo_outside(session, log_dir, kept)  # the guard puts .git back (HEAD, refs, index), saving it first
    reattach(ws, branch, head)  # and if it could not, HEAD goes back on the user's branch here
    if switched:  # the KEEPs would have gone off the user's branch; nothing needs the user's repair: exit 20
        discard(session, log_dir)
        raise SafetyStop(f"stopped: the mutator switched branches ({switched}); HEAD is back and nothing was committed")
    if moved_to != head:
        raise IntegrityError(
            f"HEAD moved during the mutation (from {head[:10]}): a commit by the mutator, or by you meanwhile; "
            f"the branch was put back and the commit kept (`git merge --ff-only {moved_to[:12]}` brings it back, "
            "if it is yours); mutators must not commit"
        )
    if outside:
        raise MutationFailed(f"the mutator changed files outside the artifact: {', '.join(outside[:5])}", "out-of-scope", result)
    if not artifact_present(ws):
        raise MutationFailed(f"the mutator deleted the artifact (or made it no longer a {ws.mode})", "artifact-deleted", result)
    if link := link_out(ws):
        raise MutationFailed(f"the candidate's {link} is a symlink leading out of the artifact", "out-of-scope", result)
    if not artifact_modified(ws):
        raise MutationFailed("the mutator left the artifact unchanged", "no-change", result)
    get().info("mutated", summary=result.summary)
    return result


def _scoring_files(session: Session) -> list:
    """What defines the tests, read-only for the LLM mutator even inside a directory artifact (where an eval
    file often sits beside the skill it tests): the config and the eval file. A model that rewrote them would
    grade itself. An eval command's own script is not among them: it may be the code being improved."""
    root, config = session.ws.root, session.config.eval
    return [root / DEFAULT_PATH, *(root / f for f in (config.file, config.agentv) if f)]


def _cache_root(session: Session):
    """The result cache and its signing key: guarded, and never shown to a mutator (see runs.cache)."""
    return session.cache.root.parent if session.cache is not None else None


def _guard(session: Session) -> scope.Guard:
    """The session's scope guard, opened (every guarded path read once) before its first mutation."""
    if session.guard is None:
        session.guard = scope.Guard(session.ws, session.paths.results_dir, _cache_root(session))
        session.guard.open()
    return session.guard


def _records(session: Session) -> records.Watched:
    """The experiment's files a later decision reads back (see optimizer.records)."""
    paths, best = session.paths, session.history.best
    folders = [(paths.run_dir(best.run_dir), "*.jsonl")] if best is not None and best.run_dir else []
    if session.holdout is not None:
        folders.append((session.holdout.root, "*"))
    return records.Watched((paths.iterations, paths.holdout), tuple(folders))


def _undo_outside(session: Session, run_dir, kept: records.Snapshot) -> list[str]:
    """Save, then undo, every change outside the artifact since the guard settled, and every change to
    the experiment's records; returns the paths that make the candidate out of scope: all of them,
    unless they are only new tool caches (see scope.byproduct). Whoever made them, nothing is lost:
    see optimizer.rescue and optimizer.records."""
    guard = session.guard
    aside = run_dir / "outside" / "records"
    with signals.critical():
        forged = [rescue.printable(str(p)) for p in records.restore(kept, aside, session.paths.results_dir)]
        changes = guard.changes()
        if changes:
            saved = rescue.save(guard, changes, run_dir)
            failed = guard.undo(changes)
            scope.verify(guard, changes, failed, saved)
    if forged:
        get().warning(f"put back {len(forged)} of the experiment's own records changed during the mutation; "
                      f"what it left there is in {aside}", paths=forged[:20])
    if not changes:
        return forged
    paths = [rescue.printable(os.path.relpath(c.path, session.ws.root)) for c in changes]
    if all(scope.byproduct(c) for c in changes):
        get().info("removed tool caches the mutator created outside the artifact", paths=paths[:20], saved=str(saved))
        return forged
    get().warning(
        f"undid {len(paths)} change(s) outside the artifact made during the mutation; saved first in {saved}",
        paths=paths[:20],
        restore=rescue.restore_hint(guard, saved),
    )
    return forged + paths


def _set_aside_changelog(session: Session, changelog) -> None:
    """The decided run's mutation.md is the next candidate's changelog. One found there before the
    mutator runs was written for an earlier attempt from the same baseline, and must not become this
    candidate's summary: after an error cycle it moves to that cycle's run directory (beside its
    candidate.patch); after a crash cut a mutation short it is kept as mutation.interrupted.md."""
    if not changelog.is_file():
        return
    last = session.history.records[-1]
    if last.decision == "error":
        changelog.replace(session.paths.run_dir(last.run_dir) / changelog.name)
    else:
        changelog.replace(changelog.with_name("mutation.interrupted.md"))
