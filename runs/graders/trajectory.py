"""`tool-trajectory`: the tools a target called, checked as AgentV 4.42.4's ToolTrajectoryGrader checks them.

The calls are those of the target's output messages (`tool_calls`, in order).
Modes: `any_order` (each tool of `minimums` called at least that often; the
score is the fraction met), `in_order` (the `expected` tools appear in that
order, gaps allowed; a call with the right name and wrong args uses up that
expected item), `exact` (position by position, and the same count),
`superset` (each expected call matched by a distinct actual one) and `subset`
(each actual call matches some expected item). Args are compared by
`args_match` (per item, else per grader, else `exact`): `exact`, `superset`,
`subset`, `ignore` or a list of dotted fields; `args: any` skips them. An
expected item's `max_duration_ms` adds a latency check in `in_order` and
`exact` (a call without a duration leaves it out). What AgentV's parser
drops is dropped here too (`ignored`, with a warning): a bad mode, `minimums`
that is not a mapping, `expected` that is not a list, a mode without what it
needs; bad items, minimums and `args_match` values are left out.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar, TypeGuard

from autoresearch.runs.errors import StepFailed
from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders import trace
from autoresearch.runs.graders.base import Context, Score, assertion
from autoresearch.runs.graders.options import Options
from autoresearch.runs.graders.scoring import verdict
from autoresearch.runs.js import js_number

MODES = ("any_order", "in_order", "exact", "subset", "superset")
ARGS_MODES = ("exact", "superset", "subset", "ignore")


class TrajectoryOptions(Options):
    mode: Any = None
    """any_order | in_order | exact | subset | superset."""
    minimums: Any = None
    """any_order: the least number of calls per tool name."""
    expected: Any = None
    """The other modes: `[{tool, args?, args_match?, max_duration_ms?}]`."""
    args_match: Any = None
    """The default args comparison: exact | superset | subset | ignore | a list of dotted fields."""
    argsMatch: Any = None  # AgentV's camelCase spelling of args_match


def ignored(options: dict[str, Any]) -> str | None:
    """Why AgentV's parser skips this grader (the test runs without it), or None."""
    mode = options.get("mode")
    if mode not in MODES:
        return f"invalid mode {mode!r} (must be any_order, in_order, exact, subset, or superset)"
    if "minimums" in options and not isinstance(options["minimums"], dict):
        return "minimums must be an object"
    if "expected" in options and not isinstance(options["expected"], list):
        return "expected must be an array"
    if mode == "any_order" and not isinstance(options.get("minimums"), dict):
        return "any_order mode requires minimums"
    if mode != "any_order" and not isinstance(options.get("expected"), list):
        return f"{mode} mode requires expected"
    return None


class _Thrown(StepFailed):
    """Where AgentV's JavaScript throws (a property looked up on null): the grader scores 0, failed (caught in
    this module, always)."""


class ToolTrajectory:
    options = TrajectoryOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        config = _config(spec.options, spec.name)
        calls = trace.tool_calls(ctx.messages)
        try:
            if config["mode"] == "any_order":
                return _any_order(config["minimums"], trace.summary(ctx.messages))
            if config["mode"] in NOTHING_EXPECTED and not config["expected"]:
                return _scored(1.0, [assertion(NOTHING_EXPECTED[config["mode"]], True)])
            return MODE_GRADERS[config["mode"]](config, calls)
        except _Thrown as exc:
            return Score(0.0, [assertion(f"Grader '{spec.name}' failed: {exc}", False)], verdict="fail")


def _config(options: dict[str, Any], name: str) -> dict[str, Any]:
    """The grader's fields as AgentV's parser keeps them (invalid minimums, items and args_match left out)."""
    minimums = options.get("minimums") or {}
    minimums = {tool: n for tool, n in minimums.items() if _number(n) and n >= 0}
    expected = []
    for item in options.get("expected") or []:
        if not isinstance(item, dict) or not isinstance(item.get("tool"), str):
            continue
        kept: dict[str, Any] = {"tool": item["tool"]}
        if item.get("args") == "any" or isinstance(item.get("args"), dict):
            kept["args"] = item["args"]
        duration = item.get("max_duration_ms", item.get("maxDurationMs"))
        if _number(duration) and duration >= 0:
            kept["max_duration_ms"] = duration
        mode = _args_mode(item.get("args_match", item.get("argsMatch")), f"expected item {item['tool']!r} in {name!r}")
        if mode is not None:
            kept["args_match"] = mode
        expected.append(kept)
    return {
        "mode": options["mode"],
        "minimums": minimums,
        "expected": expected,
        "args_match": _args_mode(
            options.get("args_match", options.get("argsMatch")), f"tool-trajectory grader {name!r}"
        ),
    }


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _args_mode(raw: Any, where: str) -> str | list[str] | None:
    if isinstance(raw, list):
        fields = [f for f in raw if isinstance(f, str) and f]
        return fields or None
    if isinstance(raw, str):
        if raw in ARGS_MODES:
            return raw
        logging.getLogger("autoresearch.runs").warning(
            "invalid args_match %r for %s: must be exact, superset, subset, ignore, or a string array", raw, where
        )
    return None


def _scored(score: float, checks: list[dict[str, Any]]) -> Score:
    return Score(score, checks, verdict=verdict(score))


def _any_order(minimums: dict[str, float], found: dict[str, Any]) -> Score:
    if not minimums:
        return _scored(1.0, [assertion("No tool requirements specified", True)])
    checks = []
    for tool, required in minimums.items():
        actual = found["tool_calls"].get(tool, 0)
        checks.append(
            assertion(f"{tool}: called {actual} times (required >={js_number(required)})", actual >= required)
        )
    return _scored(sum(c["passed"] for c in checks) / len(minimums), checks)


def _in_order(config: dict[str, Any], calls: list[dict[str, Any]]) -> Score:
    expected = config["expected"]
    checks: list[dict[str, Any]] = []
    latency = _Latency()
    position = 0
    for index, item in enumerate(expected):
        matched = None
        while position < len(calls):
            call = calls[position]
            position += 1
            if call["tool"] != item["tool"]:
                continue
            if args_match(item.get("args"), call, _mode(item, config)):
                checks.append(assertion(f"Found {item['tool']} at position {position - 1}", True))
                matched = call
            else:
                checks.append(
                    assertion(
                        f"Expected {item['tool']} at position {index}: tool found at {position - 1} but args mismatch",
                        False,
                    )
                )
            break
        else:
            checks.append(
                assertion(f"Expected {item['tool']} at position {index}, not found in remaining trace", False)
            )
        if matched is not None:
            latency.sequence += 1
            latency.check(item, matched, checks)
    return latency.score(expected, checks)


def _exact(config: dict[str, Any], calls: list[dict[str, Any]]) -> Score:
    expected = config["expected"]
    checks: list[dict[str, Any]] = []
    latency = _Latency()
    if len(calls) != len(expected):
        checks.append(assertion(f"Expected {len(expected)} tool calls, got {len(calls)}", False))
    for index, (item, call) in enumerate(zip(expected, calls)):
        if call["tool"] != item["tool"]:
            checks.append(assertion(f"Position {index}: expected {item['tool']}, got {call['tool']}", False))
        elif not args_match(item.get("args"), call, _mode(item, config)):
            checks.append(assertion(f"Position {index}: {item['tool']} args mismatch", False))
        else:
            checks.append(assertion(f"Position {index}: {item['tool']}", True))
            latency.sequence += 1
            latency.check(item, call, checks)
    for index in range(len(calls), len(expected)):
        checks.append(assertion(f"Position {index}: expected {expected[index]['tool']}, got nothing", False))
    return latency.score(expected, checks)


class _Latency:
    """The sequence hits and latency checks of `in_order` / `exact`: a latency check without a duration is left out."""

    def __init__(self) -> None:
        self.sequence = self.passed = self.skipped = 0

    def check(self, item: dict[str, Any], call: dict[str, Any], checks: list[dict[str, Any]]) -> None:
        limit = item.get("max_duration_ms")
        if limit is None:
            return
        tool, duration = item["tool"], call.get("duration_ms")
        if duration is None:
            self.skipped += 1
        elif duration <= limit:
            checks.append(assertion(f"{tool} completed in {js_number(duration)}ms (max: {js_number(limit)}ms)", True))
            self.passed += 1
        else:
            checks.append(assertion(f"{tool} took {js_number(duration)}ms (max: {js_number(limit)}ms)", False))

    def score(self, expected: list[dict[str, Any]], checks: list[dict[str, Any]]) -> Score:
        latency_checks = sum(1 for item in expected if "max_duration_ms" in item) - self.skipped
        total = len(expected) + latency_checks
        return _scored((self.sequence + self.passed) / total if total > 0 else 1.0, checks)


def _superset(config: dict[str, Any], calls: list[dict[str, Any]]) -> Score:
    expected = config["expected"]
    checks, used = [], set()
    for item in expected:
        found = next(
            (
                j
                for j, call in enumerate(calls)
                if j not in used
                and call["tool"] == item["tool"]
                and args_match(item.get("args"), call, _mode(item, config))
            ),
            None,
        )
        if found is None:
            checks.append(assertion(f"Expected {item['tool']} not found in actual trajectory", False))
        else:
            used.add(found)
            checks.append(assertion(f"Found {item['tool']} at position {found}", True))
    return _scored(len(used) / len(expected), checks)


def _subset(config: dict[str, Any], calls: list[dict[str, Any]]) -> Score:
    expected = config["expected"]
    if not expected and not calls:
        return _scored(1.0, [assertion("No tool calls and no expected tools", True)])
    if not expected:
        return _scored(0.0, [assertion(f"{len(calls)} unexpected tool call(s) with empty allowed list", False)])
    if not calls:
        return _scored(1.0, [assertion("No actual tool calls (trivially a subset)", True)])
    checks = []
    for index, call in enumerate(calls):
        allowed = any(
            call["tool"] == item["tool"] and args_match(item.get("args"), call, _mode(item, config))
            for item in expected
        )
        checks.append(
            assertion(f"Position {index}: {call['tool']} is {'in' if allowed else 'not in'} allowed set", allowed)
        )
    return _scored(sum(c["passed"] for c in checks) / len(calls), checks)


MODE_GRADERS = {"in_order": _in_order, "exact": _exact, "superset": _superset, "subset": _subset}
NOTHING_EXPECTED = {
    "in_order": "No tool sequence specified",
    "exact": "No tool sequence specified",
    "superset": "No expected tools specified",
}
"""What a mode with an empty `expected` list passes with (`subset` has its own rule: no calls allowed)."""


def _mode(item: dict[str, Any], config: dict[str, Any]) -> str | list[str]:
    return item.get("args_match") or config["args_match"] or "exact"


_ABSENT = object()


def args_match(expected: Any, call: dict[str, Any], mode: str | list[str]) -> bool:
    """AgentV's argsMatch: the expected args against the call's `input` (absent when the call has none)."""
    if expected is None or expected == "any" or mode == "ignore":
        return True
    actual = call.get("input", _ABSENT)
    if actual is _ABSENT:
        return False
    if isinstance(mode, list):
        for field in mode:
            want = _nested(expected, field)
            if want is not _ABSENT and not deep_equal(want, _nested(actual, field)):
                return False
        return True
    if mode == "superset":
        return all(_has_own(actual, key) and deep_equal(value, _get(actual, key)) for key, value in expected.items())
    if mode == "subset":
        return all(key in expected and deep_equal(value, expected[key]) for key, value in _own_items(actual))
    return deep_equal(expected, actual)


def _nested(value: Any, path: str) -> Any:
    """A dotted path into objects and arrays (JavaScript property access); anything else is absent."""
    for part in path.split("."):
        if isinstance(value, dict):
            value = value.get(part, _ABSENT)
        elif isinstance(value, list) and part.isdigit() and str(int(part)) == part and int(part) < len(value):
            value = value[int(part)]
        else:
            return _ABSENT
    return value


def _has_own(value: Any, key: str) -> bool:
    """JavaScript's Object.hasOwn on a JSON value (it throws on null)."""
    if value is None:
        raise _Thrown("Cannot convert undefined or null to object")
    if isinstance(value, dict):
        return key in value
    if isinstance(value, (list, str)):
        return key == "length" or (key.isdigit() and str(int(key)) == key and int(key) < len(value))
    return False


def _get(value: Any, key: str) -> Any:
    if isinstance(value, dict):
        return value.get(key, _ABSENT)
    if isinstance(value, (list, str)):
        return len(value) if key == "length" else value[int(key)]
    return _ABSENT


def _own_items(value: Any) -> list[tuple[str, Any]]:
    """Object.keys of a JSON value with their values (null throws)."""
    if value is None:
        raise _Thrown("Cannot convert undefined or null to object")
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, (list, str)):
        return [(str(i), item) for i, item in enumerate(value)]
    return []


def deep_equal(a: Any, b: Any) -> bool:
    """AgentV's deepEqual on JSON values: numbers by value (1 == 1.0), a boolean never equal to a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if _number(a) and _number(b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(deep_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return len(a) == len(b) and all(key in b and deep_equal(value, b[key]) for key, value in a.items())
    if a is _ABSENT or b is _ABSENT:
        return a is b
    return type(a) is type(b) and a == b


GRADERS = {"tool-trajectory": ToolTrajectory()}
