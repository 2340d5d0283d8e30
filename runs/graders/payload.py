"""What AgentV 4.42.4 tells a grader about a test: the JSON a code-grader reads on stdin, and the expected messages.

The payload is AgentV's (snake_case keys throughout, as its `toSnakeCaseDeep`
makes them, so its SDK helpers read ours): `input` and `expected_output` as
message lists, `messages` and `trace` as the transcript (the input turns, then
the answer), `input_files`, and `config` (the grader's own extra fields). Nothing
more, and nothing null that AgentV leaves out: its SDK's schemas (`defineCodeGrader`,
the Python helper) reject both.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, cast

from autoresearch.runs.evalfile.prompt import display_path, file_text, turns
from autoresearch.runs.graders.base import Context
from autoresearch.runs.graders.trace import of as trace_of


def expected_messages(expected: Any) -> list[dict[str, Any]]:
    """`expected_output` as AgentV expands it: a string or an object is one assistant message; a message list stays."""
    if isinstance(expected, str):
        return [{"role": "assistant", "content": expected}]
    if isinstance(expected, list):
        if expected and isinstance(expected[0], dict) and "role" in expected[0]:
            return [m for m in expected if isinstance(m, dict) and "role" in m and "content" in m]
        return [{"role": "assistant", "content": expected}]
    if isinstance(expected, dict):
        if "role" in expected:
            return [expected] if "content" in expected else []
        return [{"role": "assistant", "content": expected}]
    return []


def reference_answer(expected: Any) -> str:
    """The last expected message's content: text as it is, anything else as indented JSON (AgentV's reference_answer)."""
    messages = expected_messages(expected)
    if not messages:
        return ""
    content = messages[-1].get("content")
    if isinstance(content, str):
        return content
    return "" if content is None else js_json(content, indent=2)


def js_json(value: Any, indent: int | None = None) -> str:
    """JSON.stringify's text: no spaces when compact, unicode kept."""
    if indent is None:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return json.dumps(value, indent=indent, ensure_ascii=False)


def snake_case(value: Any) -> Any:
    """Every key camelCase → snake_case, except keys starting upper-case (AgentV's toSnakeCaseDeep)."""
    if isinstance(value, list):
        return [snake_case(item) for item in value]
    if isinstance(value, dict):
        return {_snake(str(k)): snake_case(v) for k, v in value.items()}
    return value


def _snake(key: str) -> str:
    return key if re.match(r"^[A-Z]", key) else re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), key)


def input_messages(ctx: Context) -> list[dict[str, Any]]:
    """The test's input turns as AgentV keeps them: text as written, a file part with its path and text."""
    messages: list[dict[str, Any]] = []
    for message in ctx.case.messages:
        if all(part.file is None for part in message.parts) and len(message.parts) == 1:
            messages.append({"role": message.role, "content": message.parts[0].text or ""})
            continue
        content = []
        for part in message.parts:
            if part.file is None:
                content.append({"type": "text", "value": part.text or ""})
            else:
                shown = display_path(part.file, ctx.eval_dir)
                content.append(
                    {
                        "type": "file",
                        "value": shown,
                        "path": shown,
                        "text": file_text(part.file),
                        "resolved_path": str(part.file),
                    }
                )
        messages.append({"role": message.role, "content": content})
    return messages


def transcript(ctx: Context) -> list[dict[str, Any]]:
    """AgentV's buildTraceMessages: the input turns as the target got them, then its output messages; the output
    alone when it already holds user or system turns, or when the only input turn equals its first message; the input
    alone when there are none (a recorded empty answer)."""
    inputs = turns(ctx.case, ctx.eval_dir, "agent" if ctx.provider == "cli" else "lm")
    outputs = [dict(m) for m in ctx.messages]
    if not outputs:
        return inputs
    if any(m["role"] in ("user", "system") for m in outputs):
        return outputs
    if (
        len(inputs) == 1
        and inputs[0]["role"] == outputs[0]["role"]
        and js_json(inputs[0].get("content")) == js_json(outputs[0].get("content"))
    ):
        return outputs
    return inputs + outputs


MESSAGE_KEYS = ("role", "name", "content", "token_usage", "metadata")


def trace(ctx: Context, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """AgentV's buildTraceFromMessages: an event per message, per tool call and per tool result, then the final
    response; the summary (tool calls by name, LLM calls) is that of the target's output messages."""
    events: list[dict[str, Any]] = []
    for i, message in enumerate(messages):
        events.append(
            _event(
                f"message-{i}",
                len(events),
                "message",
                message.get("start_time"),
                message.get("duration_ms"),
                message={k: message[k] for k in MESSAGE_KEYS if k in message},
                metadata={"message_index": i},
            )
        )
        for j, call in enumerate(message.get("tool_calls", ())):
            tool = {
                "name": call["tool"],
                **_renamed(call, ("id", "input", "output")),
                "status": call.get("status", "ok"),
            }
            where = {"message_index": i, "tool_index": j}
            events.append(
                _event(
                    f"message-{i}-tool-{j}",
                    len(events),
                    "tool_call",
                    call.get("start_time"),
                    call.get("duration_ms"),
                    parent_event_id=f"message-{i}",
                    tool=tool,
                    metadata=where,
                )
            )
            if "output" in call:
                result = {"name": call["tool"], **_renamed(call, ("id", "output")), "status": call.get("status", "ok")}
                events.append(
                    _event(
                        f"message-{i}-tool-{j}-result",
                        len(events),
                        "tool_result",
                        call.get("end_time"),
                        None,
                        parent_event_id=f"message-{i}-tool-{j}",
                        tool=result,
                        metadata=where,
                    )
                )
    last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=None)
    if last is not None:
        final = messages[last]
        shown = {**{k: final[k] for k in MESSAGE_KEYS if k in final}, "content": ctx.output}
        events.append(
            _event(
                "final-response",
                len(events),
                "final_response",
                final.get("end_time", final.get("start_time")),
                None,
                parent_event_id=f"message-{last}",
                message=shown,
                metadata={"message_index": last},
            )
        )
    found = trace_of(ctx)
    measured = {"token_usage": ctx.token_usage, "cost_usd": ctx.reported_cost_usd, "duration_ms": ctx.duration_ms}
    return {
        **found,
        "messages": messages,
        "events": events,
        **_defined(measured),  # absent, not null, when not reported: AgentV's SDK rejects a null here
        "metadata": {"provider": ctx.provider, "target": ctx.target, "eval_case_id": ctx.case.id},
    }


def _event(
    event_id: str, ordinal: int, kind: str, timestamp: str | None, duration: float | None, **fields: Any
) -> dict[str, Any]:
    return _defined(
        {
            "event_id": event_id,
            "ordinal": ordinal,
            "type": kind,
            "timestamp": timestamp,
            "duration_ms": duration,
            **fields,
        }
    )


def _renamed(call: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """A tool call's fields as a trace event's tool has them (`id` is `call_id`), the absent ones left out."""
    return {("call_id" if k == "id" else k): call[k] for k in keys if k in call}


def _defined(value: dict[str, Any]) -> dict[str, Any]:
    """Without the keys JSON.stringify would leave out (undefined ones)."""
    return {k: v for k, v in value.items() if v is not None}


FILE_BACKED_OUTPUT = 50_000  # characters of the answer's JSON above which AgentV passes it as a file


def code_grader_input(ctx: Context, config: dict[str, Any] | None, scratch: Path) -> dict[str, Any]:
    """The stdin of a code-grader, key for key as AgentV writes it (a long answer in `output_path`, `output` null)."""
    messages = transcript(ctx)
    full = trace(ctx, messages)
    output: str | None = ctx.output
    output_path = None
    if len(js_json(ctx.output)) > FILE_BACKED_OUTPUT:
        output_path = scratch / "output.json"
        output_path.write_text(js_json(ctx.output), encoding="utf-8")
        output = None
    payload = {
        "criteria": ctx.case.criteria,
        "expected_output": expected_messages(ctx.case.expected_output),
        "output": output,
        "messages": messages,
        "output_path": str(output_path) if output_path is not None else None,
        "input_files": [str(f) for f in ctx.case.input_files()],
        "input": input_messages(ctx),
        "metadata": ctx.case.metadata or None,
        "trace": full,
        "trace_summary": {
            k: full[k]
            for k in ("event_count", "tool_calls", "error_count", "tool_durations", "llm_call_count")
            if k in full
        },
        "token_usage": ctx.token_usage,
        "cost_usd": ctx.reported_cost_usd,
        "duration_ms": ctx.duration_ms,
        "start_time": None,
        "end_time": None,
        "file_changes": ctx.file_changes,
        "workspace_path": str(ctx.workspace_path) if ctx.workspace_path else None,
        "config": config or None,
    }
    if output_path is None:  # undefined in AgentV's payload, so JSON.stringify leaves it out
        del payload["output_path"]
    return cast(dict[str, Any], snake_case(payload))


def prompt_script_input(ctx: Context, config: dict[str, Any] | None) -> dict[str, Any]:
    """The stdin of an llm-grader's prompt script (`prompt: {command: [...]}`), as AgentV writes it."""
    messages = transcript(ctx)
    return cast(
        dict[str, Any],
        snake_case(
            {
                "criteria": ctx.case.criteria,
                "expected_output": expected_messages(ctx.case.expected_output),
                "output": ctx.output,
                "answer": ctx.output,
                "messages": messages,
                "input_files": [str(f) for f in ctx.case.input_files()],
                "input": input_messages(ctx),
                "metadata": ctx.case.metadata or None,
                "trace": trace(ctx, messages),
                "file_changes": ctx.file_changes,
                "workspace_path": str(ctx.workspace_path) if ctx.workspace_path else None,
                "config": config or None,
            }
        ),
    )
