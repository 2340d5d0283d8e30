"""One candidate, start to finish: mutate, check the scope, evaluate, decide, commit or restore.

Each step that fails turns the cycle into an `error` record with a reason;
whatever happens, the tree is back at HEAD or committed before the record is written
(autoresearch.optimizer.cycle.tree sees to it on every way out).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoresearch.mutators.base import MutationResult
from autoresearch.mutators.errors import MutationFailed, MutationsExhausted
from autoresearch.optimizer import faults, signals
from autoresearch.optimizer.cycle import pending, tree
from autoresearch.optimizer.cycle.decide import compare_for_goal, judge, rule_of
from autoresearch.optimizer.cycle.early import EarlyDiscard
from autoresearch.optimizer.cycle.gating import gate
from autoresearch.optimizer.cycle.holdout import guard_candidate, guard_head, guard_original
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.cycle.measure import Spend, measure
from autoresearch.optimizer.cycle.mutate import mutate
from autoresearch.optimizer.cycle.record import record
from autoresearch.optimizer.cycle.sequential import Place, Sequential, decide_significant
from autoresearch.optimizer.cycle.stops import RunStopped, stop_requested
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo.workspace import Workspace, artifact_id, artifact_size, head_moved
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.plumbing.redact import redact
from autoresearch.policies.stop import Limits
from autoresearch.runs.errors import EvalFailed
from autoresearch.runs.objectives import overall
from autoresearch.runs.results import assertion_rates, mean_score
from autoresearch.runs.samples import merge
from autoresearch.trajectory.iterations import Iteration

COMMIT_PREFIX = "autoresearch cycle "
ORIGINAL_ATTEMPTS = Limits.max_errors_in_a_row
REBASELINE = "re-baseline: the eval changed since HEAD's results"


@dataclass
class Draft:
    """The iterations line as it is being filled in."""

    cycle: int
    run_dir: str
    eval_key: str  # the eval that measures this cycle (autoresearch.optimizer.cycle.keys.eval_key)
    started: float = field(default_factory=time.monotonic)
    fields: dict[str, Any] = field(default_factory=dict)

    def finish(self, **fields: Any) -> Iteration:
        data = {"cycle": self.cycle, "run_dir": self.run_dir, "eval_key": self.eval_key, **self.fields, **fields}
        data["duration_s"] = round(time.monotonic() - self.started, 3)
        return Iteration(**data)


def original(session: Session) -> Iteration:
    """Cycle 1: the untouched artifact, always KEEP (it is the baseline everything is measured from)."""
    return _with_attempts("the original's eval", lambda: _original_once(session))


def rebaseline(session: Session) -> Iteration:
    """HEAD measured again, because its results came from another eval than this run's (the user changed
    the eval, its files or its settings): a KEEP line of its own, marked `rebaseline`, whose results are
    the baseline of every decision after it, so that no decision compares the results of two evals."""
    return _with_attempts("HEAD's eval", lambda: _rebaseline_once(session))


def _with_attempts(what: str, once: Callable[[], Iteration]) -> Iteration:
    """A measurement of HEAD gets the attempts any cycle gets before failures stop a run (three in a row):
    one flaky eval must not end a night's run before it starts. Each failure is logged with its reason."""
    attempt = 1
    while True:
        try:
            return once()
        except EvalFailed as exc:
            if attempt == ORIGINAL_ATTEMPTS:
                raise
            get().warning(f"{what} failed (attempt {attempt} of {ORIGINAL_ATTEMPTS})", error=redact(str(exc)))
            attempt += 1


def _original_once(session: Session) -> Iteration:
    run_dir = session.paths.new_run_dir(1)
    draft = Draft(1, run_dir.name, session.eval_key, fields={"mutation": "original"})
    spend = Spend()
    rows = measure(session, run_dir, artifact_id(session.ws), 1, spend)
    rows, held_fields = guard_original(session, run_dir, rows)
    session.set_baseline(rows)
    return _head_line(session, draft, rows, spend, reason="original", **held_fields)


def _rebaseline_once(session: Session) -> Iteration:
    cycle = session.history.last_cycle + 1
    run_dir = session.paths.new_run_dir(cycle)
    draft = Draft(cycle, run_dir.name, session.eval_key, fields={"mutation": "re-baseline"})
    spend = Spend()
    rows = measure(session, run_dir, artifact_id(session.ws), 1, spend)
    rows, held, held_fields = guard_head(session, run_dir, rows)
    session.rebased(rows, held)
    return _head_line(session, draft, rows, spend, reason=REBASELINE, rebaseline=True, **held_fields)


def _head_line(session: Session, draft: Draft, rows: list[dict], spend: Spend, **fields: Any) -> Iteration:
    """The line of HEAD measured as it is: a KEEP of the commit it already is."""
    return draft.finish(
        score=mean_score(rows),
        decision="keep",
        cost_usd=spend.cost_usd,
        assertions=assertion_rates(rows),
        commit=session.ws.head(),
        tests=len({r["test_id"] for r in rows}),
        objectives=overall(rows, artifact_size(session.ws)),
        **fields,
        **spend_fields(spend),
    )


def candidate(session: Session, cycle: int) -> None:
    """Cycles 2+: ask the mutator for a candidate, judge it against HEAD's results, and write the
    decision down. Each outcome's git step and its iterations line happen in one critical block."""
    run_dir = session.paths.new_run_dir(cycle)
    draft = Draft(cycle, run_dir.name, session.eval_key)
    with tree.in_tree(session.ws, run_dir) as cand:
        try:
            mutation = mutate(session, cycle, cand)
        except MutationFailed as exc:
            if exc.spent is not None:
                draft.fields.update(mutation_fields(exc.spent))
            return settle(session, cand, failed(draft, exc.reason, str(exc)))
        except MutationsExhausted:
            shutil.rmtree(run_dir)  # no cycle happened: leave no run directory behind
            raise RunStopped("mutations-exhausted") from None
        faults.point("after-mutate")
        if stop_requested(session):
            cand.discard()  # a candidate made while the STOP file appeared is saved as a patch, not evaluated
            raise RunStopped("stop-requested")
        draft.fields.update(mutation=mutation.summary, **mutation_fields(mutation))
        try:
            rows, held, keep = judge_candidate(session, run_dir, draft)
        except EvalFailed as exc:
            return settle(session, cand, failed(draft, "eval-failed", str(exc)))
        if not keep:
            return settle(session, cand, draft.finish(decision="drop"))
        with signals.critical():
            require_head(session, cand)
            faults.point("before-commit")
            message = commit_message(cycle, draft.fields["mutation"])
            sha, line = pending.commit(session.paths, cand, draft.finish(decision="keep"), message)
            faults.point("after-commit")
            session.kept(sha, rows, held)
            record(session, line)


def settle(session: Session, cand: tree.Candidate, entry: Iteration) -> None:
    """A candidate not kept: its diff saved, the artifact back at HEAD and the line written, with no
    signal in between (a resumed run then starts from exactly this decision)."""
    with signals.critical():
        cand.discard()
        require_head(session, cand)
        record(session, entry)


def require_head(session: Session, cand: tree.Candidate) -> None:
    """Before a decision is written: HEAD is where this run left it. A commit the user made on the
    branch meanwhile (or a branch switch) is never built upon: the run stops, the candidate saved."""
    moved = head_moved(session.ws, *session.head)
    if moved:
        cand.discard()
        branch, sha = session.head
        raise IntegrityError(
            f"{moved} during the run; autoresearch commits only on top of its own last commit {sha[:10]}. "
            f"Move your work aside (git branch my-work; git checkout {(branch or sha).removeprefix('refs/heads/')}; "
            f"git reset --keep {sha[:10]}) and run again, or start a new experiment from here with --restart"
        )


def judge_candidate(
    session: Session, run_dir: Path, draft: Draft, place: Place | None = None
) -> tuple[list[dict], list[dict], bool]:
    """Evaluate the candidate (once, or as often as a sequential rule asks) and decide; the evidence
    goes into the draft line. Returns (the candidate's train rows, its held-out rows, keep).
    A parallel candidate's `place` says where it is and how it is evaluated (the checkout's otherwise); it is
    evaluated once, a sequential rule saying only whether it may be picked (its test comes if it is)."""
    ws = place.ws if place else session.ws
    spend, sequential = Spend(), None
    try:
        if rule_of(session.config).sequential and not place:
            sequential = decide_significant(session, run_dir, spend)
            rows, baseline = merge(sequential.candidate), merge(sequential.head)
        else:
            baseline, evaluator = session.baseline_rows, place.evaluator if place else None
            rows = measure(session, run_dir, artifact_key(ws), 1, spend, early_discard(session, ws), evaluator)
    except EvalFailed:
        draft.fields.update(spent_before_failing(spend))
        raise
    faults.point("after-eval")
    return assess(session, ws, run_dir, rows, baseline, spend, draft.fields, sequential)


def assess(
    session: Session,
    ws: Workspace,
    run_dir: Path,
    rows: list[dict],
    baseline: list[dict],
    spend: Spend,
    fields: dict[str, Any],
    sequential: Sequential | None = None,
) -> tuple[list[dict], list[dict], bool]:
    """The decision on evaluated rows (their held-out part hidden, the rule, the holdout's veto, the
    gates), written into the line's `fields`: (train rows, held-out rows, keep)."""
    rows, held, held_fields = guard_candidate(session, run_dir, rows)
    baseline = session.holdout.partition(baseline)[0] if session.holdout else baseline
    session.set_phase("decide")
    if sequential is not None:  # decided from the samples; the summary of the means is still recorded
        v = sequential.verdict
        comparison, keep, reason = compare_for_goal(session.config, baseline, rows), v.action == "keep", v.reason
    else:
        verdict = judge(session.config, ws, baseline, rows)
        comparison, keep, reason = verdict.comparison, verdict.decision.keep, verdict.decision.reason
    s = comparison.summary
    fields.update(
        score=mean_score(rows),
        cost_usd=spend.cost_usd,
        assertions=assertion_rates(rows),
        wins=s.wins,
        losses=s.losses,
        ties=s.ties,
        mean_delta=s.mean_delta,
        reason=reason,
        tests=len({r["test_id"] for r in rows}) if spend.skipped else None,  # what a partial score is over
        **held_fields,
        **spend_fields(spend),
    )
    if keep and held_fields.get("holdout_regressed"):
        keep = False
        fields["reason"] = f"{reason}; vetoed: the holdout regressed"
    keep = gate(session.config, ws, baseline, rows, keep, fields)
    if sequential is not None:
        fields.update(
            samples=v.candidate_runs + sequential.first - 1,  # HEAD's selected samples, once it is kept
            head_samples=v.head_runs,
            p_value=round(v.p_value, 6),
            interval=[round(v.interval[0], 4), round(v.interval[1], 4)],
        )
    return rows, held, keep


def early_discard(session: Session, ws: Workspace | None = None) -> EarlyDiscard | None:
    """Under a rule that allows it (and a per-test eval), a watch that stops the eval once the candidate cannot win."""
    config, ws = session.config, ws or session.ws
    if not rule_of(config).early_discard or session.holdout or config.objectives:
        return None  # (a holdout needs every held-out test run, whatever the train part says; a composite, every cost)
    return EarlyDiscard(session.baseline_rows, config.policy.threshold, artifact_size(ws) < artifact_size(ws, "HEAD"))


def spend_fields(spend: Spend) -> dict[str, int]:
    """Eval runs made, cache hits and tests skipped, on the line only when the cache, repeats or an early discard were involved."""
    fields = {"eval_runs": spend.runs, "cache_hits": spend.hits} if spend.hits or spend.runs != 1 else {}
    return {**fields, "skipped_tests": spend.skipped} if spend.skipped else fields


def spent_before_failing(spend: Spend) -> dict[str, Any]:
    """The line's spend when an eval failed: the runs that ended before it, which cost what they cost (a test
    failing on its fifth run made four), and the failed run, one more eval run, of unknown cost. Nothing when
    no run ended before it: the line is as any failed eval's."""
    if spend.runs == 0 and spend.hits == 0:
        return {}
    return {"cost_usd": round(spend.cost_usd, 6), "eval_runs": spend.runs + 1, "cache_hits": spend.hits}


def commit_message(cycle: int, summary: str) -> str:
    return f"{COMMIT_PREFIX}{cycle}: {summary}"


def mutation_fields(spent: MutationResult) -> dict[str, Any]:
    return {
        "mutation_cost_usd": round(spent.cost_usd, 6),
        "tokens_in": spent.tokens_in,
        "tokens_out": spent.tokens_out,
    }


def failed(draft: Draft, reason: str, message: str) -> Iteration:
    message = redact(message)  # it may quote a provider's or a command's words
    get().warning("cycle failed", reason=reason, error=message)
    return draft.finish(score=0.0, decision="error", error=message, error_reason=reason)
