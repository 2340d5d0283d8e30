"""One attempt of one test: ask the target, run the graders, score it. Failures become `execution_error` results."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from autoresearch.runs.evalfile.model import Case, Suite
from autoresearch.runs.evalfile.prompt import question
from autoresearch.runs.grader_llm import GraderFailed, GraderLLM
from autoresearch.runs.graders import grade, is_implicit
from autoresearch.runs.graders.base import Context
from autoresearch.runs.graders.scoring import DEFAULT_THRESHOLD, skipped, test_score
from autoresearch.runs.runner.retry import Retries
from autoresearch.runs.targets import Answer, AnsweredInError, Target, TargetFailed
from autoresearch.runs.workspace.lifecycle import SuiteWorkspaces


@dataclass
class TestResult:
    case: Case
    target: str
    score: float = 0.0
    status: str = "execution_error"
    output: str = ""
    scores: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    duration_ms: float = 0.0
    timestamp: str = field(default_factory=lambda: datetime.now(timezone.utc).isoformat().replace("+00:00", "Z"))
    attempt_scores: list[float] = field(default_factory=list)
    target_cost_usd: float = 0.0  # what the target reported, without the graders: AgentV's budgets count this
    trials: list[dict[str, Any]] = field(
        default_factory=list
    )  # each trial's score and status, when the test had trials
    cost_limited: bool = False  # the trials stopped at their cost_limit_usd

    @property
    def test_id(self) -> str:
        return self.case.row_id

    @property
    def assertions(self) -> list[dict[str, Any]]:
        return [a for entry in self.scores for a in entry.get("assertions", [])]


def run_case(
    suite: Suite,
    case: Case,
    target: Target,
    grader: GraderLLM | None,
    attempt: int,
    named: dict[str, GraderLLM] | None = None,
    workspaces: SuiteWorkspaces | None = None,
    retries: Retries = Retries(),
) -> TestResult:
    """The test run as AgentV runs it: its workspace set up (a failure is the test's execution_error), the target
    answering in it (a failed `cli` answer asked again, as `retries` says), the file changes and after_each
    taken, then the graders, which see both."""
    result = TestResult(case, target.name)
    ws = workspaces.enter(case) if workspaces is not None else None
    if ws is not None and ws.error is not None:
        result.error = ws.error
        return result
    started = time.monotonic()
    failure: str | None = None
    try:
        answer = retries.answer(target, case, attempt, ws.path if ws is not None else None)
    except AnsweredInError as exc:  # AgentV 5 grades the error as the answer; the test stays an execution_error
        answer, failure = exc.answer, str(exc)
    except (TargetFailed, OSError) as exc:
        result.error = str(exc)
        result.duration_ms = _ms(started)
        return result
    result.duration_ms = _ms(started)
    _measure(result, answer)
    # AgentV grades the duration the target reported, else the one it measured, in whole ms (Date.now()'s)
    duration = answer.reported_duration_ms if answer.reported_duration_ms is not None else round(result.duration_ms)
    ctx = Context(
        case, answer.text, suite.directory, duration, answer.input_tokens, answer.output_tokens, answer.cost_usd, grader
    )
    ctx.messages, ctx.token_usage, ctx.reported_cost_usd = answer.messages, answer.token_usage, answer.reported_cost_usd
    if ws is not None and workspaces is not None:
        ctx.file_changes = workspaces.leave(case, ws)
        ctx.workspace_path = ws.path
    ctx.question, ctx.target, ctx.provider = (
        question(case, target.prompt_mode, suite.directory),
        target.name,
        target.provider,
    )
    ctx.llms = named or {}
    try:
        result.scores = [grade(spec, ctx) for spec in case.graders]
    except (GraderFailed, OSError) as exc:
        result.error = f"grader failed: {exc}"
        result.scores = []
    finally:
        result.cost_usd += sum(ctx.grader_cost_usd)
    # AgentV: a grader that skipped (its LLM never answered the JSON asked for) makes the test an
    # execution_error, except the implicit criteria-only grader, whose skip is just a 0
    reason = skipped(result.scores) if result.error is None and not is_implicit(case.graders) else None
    if reason:
        result.error = f"grader failed: {reason}"
    if result.error is None:
        ungraded = case.ungraded_score if not case.graders else None
        result.score = ungraded if ungraded is not None else test_score(case.graders, result.scores)
        result.status = status(result.score, case.threshold) if failure is None else "execution_error"
        result.error = failure
    result.attempt_scores = [result.score]
    return result


def status(score: float, threshold: float | None = None) -> str:
    """A scored test's execution_status. AgentV 4.42.4 judges each result row at 0.8 whatever the suite's
    `execution.threshold` (which only its summary uses), so we do too: the rows are what `compare` reads.
    A test's own threshold (its `execution.threshold`, or a scoped `run: {threshold}`) moves the line, as
    AgentV applies a test's own."""
    return "ok" if score >= (DEFAULT_THRESHOLD if threshold is None else threshold) else "quality_failure"


def _measure(result: TestResult, answer: Answer) -> None:
    result.output = answer.text
    result.input_tokens, result.output_tokens = answer.input_tokens, answer.output_tokens
    result.cost_usd = result.target_cost_usd = answer.cost_usd


def _ms(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 3)


def combine(attempts: list[TestResult], strategy: str) -> TestResult:
    """Repeats of one test as one result: the best (`pass_any`), the worst (`pass_all`) or the mean score."""
    scores = [r.score for r in attempts]
    graded = [r for r in attempts if r.status != "execution_error"] or attempts
    if strategy == "pass_all":
        chosen = min(graded, key=lambda r: r.score)
    else:
        chosen = max(graded, key=lambda r: r.score)
    if strategy == "pass_all" and len(graded) < len(attempts):
        chosen = next(r for r in attempts if r.status == "execution_error")
    if strategy == "mean" and chosen.status != "execution_error":
        chosen.score = sum(scores) / len(scores)
        chosen.status = status(chosen.score, chosen.case.threshold)
    chosen.attempt_scores = scores
    chosen.cost_usd = sum(r.cost_usd for r in attempts)
    return chosen
