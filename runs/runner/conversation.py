"""A multi-turn test, run and scored as AgentV 4.42.4's runConversationMode.

The history starts with the test's input turns. Each turn appends the user's
input, asks the target (`Target.converse`: a command gets the turn's input
and `{EVAL_ID}` `test/turn-N`; an LLM gets the history), appends the answer,
and grades it with the turn's graders (a turn with neither assertions nor
`expected_output` scores 1; one with only `expected_output` gets the default
llm-grader). A grader sees the history as `role: content` lines as its
`{{input}}`, the test's criteria, and the turn's `expected_output`; it gets
no duration, token usage or cost. A target that fails scores its turn 0
("Provider error"); with `on_turn_failure: stop`, a turn under 0.8 (or a
failure) scores every later turn 0, skipped. The test's own `assertions`
then grade the whole transcript. The score is the mean (or `min` / `max`)
of the turn scores and that conversation score; it is never an
execution_error, as in AgentV.
"""

from __future__ import annotations

import time
from typing import Any

from autoresearch.runs.evalfile.conversation import Conversation, Turn
from autoresearch.runs.evalfile.model import Case, GraderSpec, Message, Part, Suite
from autoresearch.runs.grader_llm import GraderFailed, GraderLLM
from autoresearch.runs.graders import IMPLICIT, grade
from autoresearch.runs.graders.base import Context
from autoresearch.runs.graders.payload import input_messages, js_json
from autoresearch.runs.graders.scoring import DEFAULT_THRESHOLD, test_score, verdict
from autoresearch.runs.runner.case import TestResult, status
from autoresearch.runs.targets import Target, TargetFailed


def run_conversation(
    suite: Suite,
    case: Case,
    conversation: Conversation,
    target: Target,
    grader: GraderLLM | None,
    named: dict[str, GraderLLM],
) -> TestResult:
    result = TestResult(case, target.name)
    started = time.monotonic()
    history = _initial(case, suite)
    stopped = False
    costs: list[float] = []
    for index, turn in enumerate(conversation.turns, start=1):
        if stopped:
            result.scores.append(
                _entry(f"turn-{index}", 0.0, "skip", [_check("Skipped due to previous turn failure", False)])
            )
            continue
        history.append({"role": "user", "content": turn.input})
        try:
            answer = target.converse(_window(history, conversation.window_size), f"{case.id}/turn-{index}")
        except (TargetFailed, OSError) as exc:
            result.scores.append(_entry(f"turn-{index}", 0.0, "fail", [_check(f"Provider error: {exc}", False)]))
            stopped = conversation.on_turn_failure == "stop"
            continue
        result.cost_usd += answer.cost_usd
        result.input_tokens += answer.input_tokens
        result.output_tokens += answer.output_tokens
        history.append({"role": "assistant", "content": answer.text})
        entry = _grade_turn(suite, case, turn, index, history, conversation.window_size, answer, grader, named, costs)
        result.scores.append(entry)
        stopped = conversation.on_turn_failure == "stop" and entry["score"] < DEFAULT_THRESHOLD
    if case.graders:
        result.scores.append(_grade_transcript(suite, case, history, grader, named, costs))
    result.cost_usd += sum(costs)
    result.duration_ms = round((time.monotonic() - started) * 1000, 3)
    result.output = next((m["content"] for m in reversed(history) if m["role"] == "assistant"), "")
    result.score = aggregate([e["score"] for e in result.scores], conversation.aggregation)
    result.status = status(result.score)
    result.attempt_scores = [result.score]
    return result


def aggregate(scores: list[float], how: str) -> float:
    if not scores:
        return 1.0
    if how == "min":
        return min(scores)
    if how == "max":
        return max(scores)
    return sum(scores) / len(scores)


def _initial(case: Case, suite: Suite) -> list[dict[str, str]]:
    """The test's input turns as AgentV starts the history: text as written, anything else as its JSON."""
    start = []
    for message in input_messages(Context(case, "", suite.directory)):
        content = message["content"]
        start.append({"role": message["role"], "content": content if isinstance(content, str) else js_json(content)})
    return start


def _window(history: list[dict[str, str]], size: float | None) -> list[dict[str, str]]:
    """AgentV's buildWindowedHistory: the system turns and the last `size` exchanges."""
    if not size:
        return list(history)
    others = [m for m in history if m["role"] != "system"]
    return [m for m in history if m["role"] == "system"] + others[int(-size * 2) :]


def _transcript(history: list[dict[str, str]]) -> str:
    return "\n\n".join(f"{m['role']}: {m['content']}" for m in history)


def _grade_turn(
    suite: Suite,
    case: Case,
    turn: Turn,
    index: int,
    history: list[dict[str, str]],
    size: float | None,
    answer: Any,
    grader: GraderLLM | None,
    named: dict[str, GraderLLM],
    costs: list[float],
) -> dict[str, Any]:
    name = f"turn-{index}"
    if not turn.graders and turn.expected_output is None:
        return _entry(name, 1.0, "pass", [])
    seen = _window(history, size)
    graders = turn.graders or [IMPLICIT]
    turn_case = Case(
        f"{case.id}/turn-{index}", _messages(seen), turn.expected_output, case.criteria, graders, case.metadata
    )
    ctx = Context(turn_case, answer.text, suite.directory, None, llm=grader)
    ctx.question, ctx.llms, ctx.messages, ctx.history = _transcript(seen), named, answer.messages, tuple(seen)
    return _graded(name, graders, ctx, costs)


def _grade_transcript(
    suite: Suite,
    case: Case,
    history: list[dict[str, str]],
    grader: GraderLLM | None,
    named: dict[str, GraderLLM],
    costs: list[float],
) -> dict[str, Any]:
    """The test's own assertions over the whole conversation, its text the answer and the input."""
    text = _transcript(history)
    whole = Case(f"{case.id}/conversation", _messages(history), None, case.criteria, case.graders, case.metadata)
    ctx = Context(whole, text, suite.directory, None, llm=grader)
    ctx.question, ctx.llms, ctx.history = text, named, tuple(history)
    ctx.messages = ({"role": "assistant", "content": text},)  # AgentV: no output, so the transcript is the one answer
    return _graded("conversation", case.graders, ctx, costs)


def _graded(name: str, graders: list[GraderSpec], ctx: Context, costs: list[float]) -> dict[str, Any]:
    entries = []
    for spec in graders:
        try:
            entries.append(grade(spec, ctx))
        except (GraderFailed, OSError) as exc:  # AgentV: the grader skipped; the turn goes on without it
            entries.append(
                {
                    "name": spec.name,
                    "type": spec.type,
                    "score": 0.0,
                    "weight": spec.weight,
                    "verdict": "skip",
                    "assertions": [_check(str(exc), False)],
                }
            )
    costs.extend(ctx.grader_cost_usd)
    score = test_score(graders, entries)
    return _entry(name, score, verdict(score), [a for e in entries for a in e["assertions"]], entries)


def _messages(history: list[dict[str, str]]) -> list[Message]:
    return [Message(m["role"], (Part(text=m["content"]),)) for m in history]


def _entry(
    name: str, score: float, judged: str, checks: list[dict[str, Any]], inner: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": name,
        "type": "rubrics",
        "score": score,
        "weight": 1.0,
        "verdict": judged,
        "assertions": checks,
    }
    if inner is not None:
        entry["scores"] = inner
    return entry


def _check(text: str, passed: bool) -> dict[str, Any]:
    return {"text": text, "passed": passed}
