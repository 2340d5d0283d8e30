"""AgentV 5's `trajectory:*` graders (tool-used, tool-sequence, tool-args-match, step-count), as its
`graders/trajectory.ts`.

AgentV 5 builds a trace from the target's messages: one event per message,
then one per tool call, ordered by their start times where both have one
(else as written). A call of `exec_command`, `local_shell` or `shell` with a
command is a `command` step, every other call a `tool` step; these graders
look at tool steps only, except step-count, which counts every step of the trace (`trace_steps`). A matcher is a name or a glob (`*`, `?`), matched
case-insensitively against the whole name. Each grader passes (1) or fails
(0); `inverse` (a `not-` type, or `negate`) flips the outcome. A value
AgentV 5 cannot read fails the grader with its message, as its throw does.
"""

from __future__ import annotations

import math
import re
from functools import cmp_to_key
from typing import Any, Callable, ClassVar

from autoresearch.plumbing import jsonlines
from autoresearch.runs.errors import RunsError
from autoresearch.runs.evalfile.model import Case, GraderSpec
from autoresearch.runs.graders import trace
from autoresearch.runs.graders.base import Context, Score, assertion
from autoresearch.runs.graders.options import Options

COMMAND_TOOLS = ("exec_command", "local_shell", "shell")
KINDS = ("trajectory:tool-used", "trajectory:tool-sequence", "trajectory:tool-args-match", "trajectory:step-count")


class Invalid(RunsError):
    """A value AgentV 5 throws on: the grader fails with the message (caught by the grader, always)."""


class TrajectoryOptions(Options):
    value: Any = None
    """tool-used: a name, a list of names, or `{name|pattern, min, max}`; tool-sequence: a list of steps or
    `{mode: in_order|exact, steps}`; tool-args-match: `{name|pattern, args, mode: partial|exact, defaults, ignore}`;
    step-count: `{type, name|pattern, min, max}` (type: message, reasoning, tool, command, search or span)."""
    inverse: Any = None
    """true: the grader passes when the check fails (AgentV 5's `not-trajectory:*`)."""


class Trajectory5:
    options = TrajectoryOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        check: Callable[[Any, list[dict[str, Any]]], tuple[bool, str]]
        if spec.type == "trajectory:step-count":
            check, observed = _step_count, trace_steps(ctx.case, ctx.messages)
        else:
            check = {"trajectory:tool-used": _tool_used, "trajectory:tool-sequence": _tool_sequence}.get(
                spec.type, _tool_args_match
            )
            observed = [s for s in steps(ctx.messages) if s["type"] == "tool"]
        try:
            passed, text = check(spec.options.get("value"), observed)
        except Invalid as exc:
            text = f"Grader '{spec.name}' failed: {exc}"
            return Score(0.0, [assertion(text, False)], verdict="fail")
        if spec.options.get("inverse") is True:
            passed = not passed
        return Score(1.0 if passed else 0.0, [assertion(text, passed)], verdict="pass" if passed else "fail")


def steps(messages: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """The trace's steps in AgentV 5's order: each message, then its calls, sorted by start time where both
    events have one that differs (JavaScript's sort and Python's are both stable merge sorts)."""
    events: list[dict[str, Any]] = []
    for message in messages:
        events.append({"type": "message", "time": message.get("start_time"), "ordinal": len(events)})
        for call in message.get("tool_calls") or ():
            events.append({**_tool_step(call), "time": call.get("start_time"), "ordinal": len(events)})
    return sorted(events, key=cmp_to_key(_order))


def trace_steps(case: Case, messages: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """Every step of the trace AgentV 5 builds for grading (`buildTraceFromMessages`), in no particular order (only
    counted): the prompt's messages, unless the output is a whole transcript (it has a user or system message);
    each message, each tool call and, for a call with an `output`, its `tool_result` span; the final answer."""
    transcript = any(m.get("role") in ("user", "system") for m in messages)
    found = [] if transcript else [_message_step({})] * _prompt_messages(case)
    for message in messages:
        found.append(_message_step(message))
        for call in message.get("tool_calls") or ():
            found.append(_tool_step(call))
            if "output" in call:
                found.append({"type": "span", "name": "tool_result", "aliases": ["tool_result", "span"]})
    final = next((m for m in reversed(messages) if m.get("role") == "assistant"), None)
    if final is not None:
        found.append(_message_step(final, "final_response"))
    return found


def _message_step(message: dict[str, Any], event: str = "message") -> dict[str, Any]:
    metadata = message.get("metadata") or {}
    kind = "reasoning" if metadata.get("codex.item.type") == "reasoning" else "message"
    name = message["name"] if message.get("name") is not None else event  # JavaScript's `??`
    return {"type": kind, "name": name, "aliases": [name, kind]}


def _prompt_messages(case: Case) -> int:
    """How many messages AgentV 5 records as the input: the flat question (one), or, when the input needs role
    markers (an assistant or tool turn, or several messages with content), its chat prompt, whose leading system
    messages are one."""
    shown = [m for m in case.messages if m.render().strip()]
    if not any(m.role in ("assistant", "tool") for m in case.messages) and len(shown) <= 1:
        return 1
    leading = next((i for i, m in enumerate(case.messages) if m.role != "system"), len(case.messages))
    system = any(m.render().strip() for m in case.messages[:leading])
    return max(1, int(system) + sum(1 for m in case.messages[leading:] if m.render().strip()))


def _order(left: dict[str, Any], right: dict[str, Any]) -> int:
    a, b = _epoch(left["time"]), _epoch(right["time"])
    if math.isfinite(a) and math.isfinite(b) and a != b:
        return -1 if a < b else 1
    return int(left["ordinal"]) - int(right["ordinal"])


def _epoch(stamp: Any) -> float:
    return trace._epoch_ms(stamp) if isinstance(stamp, str) and stamp else math.nan


def _tool_step(call: dict[str, Any]) -> dict[str, Any]:
    name = str(call.get("tool") or "")
    args = _structured(call.get("input"))
    command = _command(args) if name.lower() in COMMAND_TOOLS else None
    step: dict[str, Any] = {"type": "tool", "name": name, "aliases": [name]}
    if command:
        aliases = dict.fromkeys([command, name, command.split()[0]])
        step = {"type": "command", "name": command, "span": name, "aliases": list(aliases)}
    if args is not None:
        step["args"] = args
    return step


def _structured(value: Any) -> Any:
    """A call's input as AgentV 5 reads it: a string that parses as JSON is that JSON; blank or null is none."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        return None
    try:
        return jsonlines.strict(text)
    except ValueError:
        return text


def _command(args: Any) -> str | None:
    if not isinstance(args, dict):
        return None
    command = next((args[k] for k in ("cmd", "command", "commands") if args.get(k) is not None), None)
    if isinstance(command, str):
        return command.strip() or None
    if isinstance(command, list):
        parts = [str(p).strip() for p in command if str(p).strip()]
        return ("; " if command is args.get("commands") else " ").join(parts) or None
    return None


def _matcher(raw: Any) -> dict[str, Any]:
    """A step matcher: a string is a pattern; a tool matcher's type defaults to `tool`."""
    matcher = {"pattern": raw} if isinstance(raw, str) else dict(raw) if isinstance(raw, dict) else {}
    return matcher if matcher.get("type") else {**matcher, "type": "tool"}


def _named(matcher: dict[str, Any], kind: str, index: int | None = None) -> None:
    if not (matcher.get("pattern") or matcher.get("name")):
        label = "object" if index is None else f"step {index + 1}"
        raise Invalid(f"{kind} assertion {label} must include a name or pattern property")


def _label(matcher: dict[str, Any]) -> str:
    return str(matcher.get("pattern") or matcher.get("name") or "*")


def _matches(step: dict[str, Any], matcher: dict[str, Any]) -> bool:
    kind = matcher.get("type")
    allowed = kind if isinstance(kind, list) else [kind]
    if kind and step["type"] not in allowed:
        return False
    pattern = matcher.get("pattern") or matcher.get("name")
    return not pattern or any(glob(alias, str(pattern)) for alias in step["aliases"])


def glob(value: str, pattern: str) -> bool:
    """AgentV 5's matchesPattern: the whole value, case-insensitively, `*` any run and `?` any one character."""
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, value, re.IGNORECASE) is not None


def _listed(tools: list[dict[str, Any]]) -> str:
    return ", ".join(f"{s['type']}:{s['name']}" for s in tools) or "(none)"


def _tool_used(value: Any, tools: list[dict[str, Any]]) -> tuple[bool, str]:
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        matchers = [_matcher(v) for v in ([value] if isinstance(value, str) else value)]
        if not matchers:
            raise Invalid("trajectory:tool-used assertion requires at least one expected tool")
        missing = [_label(m) for m in matchers if not any(_matches(s, m) for s in tools)]
        if missing:
            return False, f"Missing required tool(s): {', '.join(missing)}. Actual tools: {_listed(tools)}"
        return True, f"Observed required tool(s): {', '.join(map(_label, matchers))}. Actual tools: {_listed(tools)}"
    if not isinstance(value, dict):
        raise Invalid("trajectory:tool-used assertion must have a string, string array, or object value")
    matcher = _matcher(value)
    _named(matcher, "trajectory:tool-used")
    low = value["min"] if _number(value.get("min")) else 1
    high = value["max"] if _number(value.get("max")) else None
    count = sum(1 for s in tools if _matches(s, matcher))
    expected = f"at least {low}" if high is None else f"{low}-{high}"
    return low <= count and (high is None or count <= high), (
        f'Matched tool "{_label(matcher)}" {count} time(s) (expected {expected})'
    )


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _step_count(value: Any, found: list[dict[str, Any]]) -> tuple[bool, str]:
    """Steps of any type (unless the value names one) matching the name or pattern, counted against min / max."""
    if not isinstance(value, dict):
        raise Invalid("trajectory:step-count assertion must have an object value")
    low = value["min"] if _number(value.get("min")) else None
    high = value["max"] if _number(value.get("max")) else None
    if low is None and high is None:
        raise Invalid("trajectory:step-count assertion must include a min or max property")
    count = sum(1 for s in found if _matches(s, value))
    expected = (
        f"{low}-{high}"
        if low is not None and high is not None
        else f"at least {low}"
        if high is None
        else f"at most {high}"
    )
    passed = (low is None or count >= low) and (high is None or count <= high)
    return passed, f"Matched {count} trajectory step(s) (expected {expected})"


def _tool_sequence(value: Any, tools: list[dict[str, Any]]) -> tuple[bool, str]:
    if isinstance(value, list):
        mode, raw_steps = "in_order", value
    elif isinstance(value, dict):
        mode = "exact" if value.get("mode") == "exact" else "in_order"
        raw_steps = value["steps"] if isinstance(value.get("steps"), list) else []
    else:
        raise Invalid("trajectory:tool-sequence assertion must have an array or object value")
    expected = [_matcher(s) for s in raw_steps]
    for index, matcher in enumerate(expected):
        _named(matcher, "trajectory:tool-sequence", index)
    if not expected:
        raise Invalid("trajectory:tool-sequence assertion requires at least one expected step")
    if mode == "exact":
        passed = len(tools) == len(expected) and all(_matches(s, m) for s, m in zip(tools, expected, strict=False))
        return passed, f"Exact tool sequence of {', '.join(map(_label, expected))}; actual {_listed(tools)}"
    position = 0
    for step in tools:
        if position < len(expected) and _matches(step, expected[position]):
            position += 1
    return position == len(
        expected
    ), f"Tool sequence in order of {', '.join(map(_label, expected))}; actual {_listed(tools)}"


def _tool_args_match(value: Any, tools: list[dict[str, Any]]) -> tuple[bool, str]:
    if not isinstance(value, dict):
        raise Invalid("trajectory:tool-args-match assertion must have an object value")
    matcher = _matcher(value)
    _named(matcher, "trajectory:tool-args-match")
    expected = value["args"] if "args" in value else value.get("arguments")
    if expected is None and "args" not in value and "arguments" not in value:
        raise Invalid("trajectory:tool-args-match assertion must include an args or arguments property")
    mode = value.get("mode", "partial")
    if mode not in ("partial", "exact"):
        raise Invalid('trajectory:tool-args-match assertion mode must be "partial" or "exact"')
    defaults = value.get("defaults")
    if defaults is not None and not isinstance(defaults, dict):
        raise Invalid(
            "trajectory:tool-args-match assertion defaults must be an object mapping argument names to default values"
        )
    ignore = _ignore(value.get("ignore"))
    with_args = [s for s in tools if _matches(s, matcher) and "args" in s]
    passed = any(_args_match(s["args"], expected, mode, defaults, ignore) for s in with_args)
    return passed, f'Tool "{_label(matcher)}" arguments ({mode}) matched: {passed}; actual tools {_listed(tools)}'


def _ignore(raw: Any) -> list[str]:
    entries = [] if raw is None else raw if isinstance(raw, list) else [raw]
    if any(not isinstance(e, str) or not e.strip() for e in entries):
        raise Invalid(
            "trajectory:tool-args-match assertion ignore must be a non-empty string or an array of non-empty strings"
        )
    return entries


def _args_match(actual: Any, expected: Any, mode: str, defaults: dict[str, Any] | None, ignore: list[str]) -> bool:
    actual = _strip(_strip(actual, lambda k, _: _ignored(k, ignore)), lambda k, v: _default(k, v, defaults))
    expected = _strip(expected, lambda k, _: _ignored(k, ignore))
    return _same(actual, expected) if mode == "exact" else _partial(actual, expected)


def _strip(value: Any, drop: Any) -> Any:
    return {k: v for k, v in value.items() if not drop(k, v)} if isinstance(value, dict) else value


def _ignored(key: str, ignore: list[str]) -> bool:
    return any(glob(key, entry) if re.search(r"[*?]", entry) else entry == key for entry in ignore)


def _default(key: str, value: Any, defaults: dict[str, Any] | None) -> bool:
    return defaults is not None and key in defaults and _same(value, defaults[key])


def _partial(actual: Any, expected: Any) -> bool:
    """Every expected key present with a partially matching value; lists match item by item, same length."""
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(_partial(a, e) for a, e in zip(actual, expected, strict=False))
        )
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _partial(actual[k], v) for k, v in expected.items())
    return _same(actual, expected)


def _same(a: Any, b: Any) -> bool:
    """Node's isDeepStrictEqual over JSON values: a boolean is never a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return False
    return (type(a) is type(b) or (_number(a) and _number(b))) and a == b


GRADERS = {kind: Trajectory5() for kind in KINDS}
