"""Multi-turn tests (`mode: conversation` with `turns`), read as AgentV 4.42.4's yaml-parser reads them.

A test is a conversation only when `mode` is `conversation` and `turns` is a
non-empty list; then each turn has an `input` (a string, or anything else,
sent as its JSON), optional `expected_output` and `assertions` (plain strings
become one `turn-rubrics` llm-grader with checks `criterion-N`; typed entries
are graders as anywhere else). `aggregation` (`mean`, `min`, `max`; default
mean), `on_turn_failure` (`continue`, `stop`) and `window_size` (a whole
number >= 1) shape the run; another value is ignored as AgentV ignores it,
with a note. How a conversation runs and scores: `autoresearch.runs.runner.conversation`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.evalfile.problems import Problems

AGGREGATIONS = ("mean", "min", "max")
ON_FAILURE = ("continue", "stop")
FIELDS = {"mode", "turns", "aggregation", "on_turn_failure", "window_size"}
TURN_FIELDS = {"input", "expected_output", "assertions"}


@dataclass(frozen=True)
class Turn:
    input: str  # the user's text as the target gets it
    expected_output: Any = None
    graders: list[GraderSpec] = field(default_factory=list)


@dataclass(frozen=True)
class Conversation:
    turns: list[Turn]
    aggregation: str = "mean"
    on_turn_failure: str = "continue"
    window_size: float | None = None  # any number >= 1, as AgentV takes it


ParseGraders = Callable[[Any, Problems, str, str], list[GraderSpec]]


def parse(item: dict[str, Any], problems: Problems, test_id: str, parse_graders: ParseGraders) -> Conversation | None:
    """The test's conversation, or None when it is not one (AgentV then ignores `turns` and the rest)."""
    turns = item.get("turns")
    if item.get("mode") != "conversation" or not isinstance(turns, list) or not turns:
        for key in sorted(FIELDS & item.keys()):
            problems.note(
                test_id, key, "ignored: AgentV runs turns only with `mode: conversation` and a non-empty `turns` list"
            )
        return None
    parsed = [_turn(raw, problems, test_id, f"turns[{i}]", parse_graders) for i, raw in enumerate(turns)]
    return Conversation(
        [t for t in parsed if t is not None],
        _choice(item, "aggregation", AGGREGATIONS, problems, test_id),
        _choice(item, "on_turn_failure", ON_FAILURE, problems, test_id),
        _window(item, problems, test_id),
    )


def _turn(raw: Any, problems: Problems, test_id: str, where: str, parse_graders: ParseGraders) -> Turn | None:
    if not isinstance(raw, dict) or "input" not in raw:
        problems.add(test_id, where, "a turn is a mapping with an `input`")
        return None
    for key in raw.keys() - TURN_FIELDS:
        problems.note(
            test_id,
            f"{where}.{key}",
            "unknown field, ignored as AgentV ignores it (known: assertions, expected_output, input)",
        )
    text = (
        raw["input"]
        if isinstance(raw["input"], str)
        else json.dumps(raw["input"], separators=(",", ":"), ensure_ascii=False)
    )
    assertions = raw.get("assertions")
    if assertions is not None and not isinstance(assertions, list):
        problems.add(test_id, f"{where}.assertions", "must be a list")
        assertions = None
    strings = [a for a in assertions or [] if isinstance(a, str)]
    graders = [_rubrics(strings)] if strings else []
    graders += parse_graders(
        [a for a in assertions or [] if not isinstance(a, str)], problems, test_id, f"{where}.assertions"
    )
    return Turn(text, raw.get("expected_output"), graders)


def _rubrics(strings: list[str]) -> GraderSpec:
    """AgentV's `turn-rubrics`: one llm-grader whose checks are the turn's strings, `criterion-N`, weight 1 each
    (not marked required: AgentV passes them to the grader as written, without its parser's default)."""
    checks = [
        {"id": f"criterion-{i + 1}", "outcome": text, "weight": 1, "required": False} for i, text in enumerate(strings)
    ]
    return GraderSpec("llm-grader", "turn-rubrics", {"rubrics": checks})


def _choice(item: dict[str, Any], key: str, choices: tuple[str, ...], problems: Problems, test_id: str) -> str:
    value = item.get(key, choices[0])
    if value in choices:
        return str(value)
    problems.note(
        test_id, key, f"{value!r} is not one of {', '.join(choices)}: ignored as AgentV ignores it ({choices[0]})"
    )
    return choices[0]


def _window(item: dict[str, Any], problems: Problems, test_id: str) -> float | None:
    value = item.get("window_size")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 1:
        problems.note(
            test_id, "window_size", f"{value!r} is not a number >= 1: ignored as AgentV ignores it (the whole history)"
        )
        return None
    return value
