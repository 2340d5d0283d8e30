"""What AgentV 4.42.4 tells a grader about a test: the JSON a code-grader reads on stdin, and the expected messages.

The payload is AgentV's (snake_case keys throughout, as its `toSnakeCaseDeep`
makes them, so its SDK helpers read ours): `input` and `expected_output` as
message lists, `messages` and `trace` as the transcript (the input turns, then
the answer), `input_files`, and `config` (the grader's own extra fields).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from runs.graders.base import Context
from runs.targets.prompt import display_path, file_text, turns


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
                content.append({"type": "file", "value": shown, "path": shown, "text": file_text(part.file), "resolved_path": str(part.file)})
        messages.append({"role": message.role, "content": content})
    return messages


def transcript(ctx: Context) -> list[dict[str, Any]]:
    """The input turns as the target got them, then the answer (one turn alone equal to the answer is not repeated)."""
    inputs = turns(ctx.case, ctx.eval_dir, "agent" if ctx.provider == "cli" else "lm")
    answer = [{"role": "assistant", "content": ctx.output}]
    if len(inputs) == 1 and inputs[0] == answer[0]:
        return answer
    return inputs + answer


def trace(ctx: Context, messages: list[dict[str, Any]]) -> dict[str, Any]:
    events: list[dict[str, Any]] = [
        {"event_id": f"message-{i}", "ordinal": i, "type": "message", "message": m, "metadata": {"message_index": i}}
        for i, m in enumerate(messages)
    ]
    last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=None)
    if last is not None:
        events.append({
            "event_id": "final-response", "parent_event_id": f"message-{last}", "ordinal": len(events), "type": "final_response",
            "message": {**messages[last], "content": ctx.output}, "metadata": {"message_index": last},
        })
    return {
        "event_count": 0,
        "tool_calls": {},
        "error_count": 0,
        "llm_call_count": sum(1 for m in messages if m["role"] == "assistant"),
        "messages": messages,
        "events": events,
        "token_usage": _usage(ctx),
        "cost_usd": ctx.cost_usd or None,
        "duration_ms": ctx.duration_ms,
        "metadata": {"provider": ctx.provider, "target": ctx.target, "eval_case_id": ctx.case.id},
    }


def _usage(ctx: Context) -> dict[str, int] | None:
    if ctx.provider == "cli" and not (ctx.input_tokens or ctx.output_tokens):
        return None
    return {"input": ctx.input_tokens, "output": ctx.output_tokens}


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
        "input_files": [str(f) for f in ctx.case.input_files()],
        "input": input_messages(ctx),
        "metadata": ctx.case.metadata or None,
        "trace": full,
        "trace_summary": {k: full[k] for k in ("event_count", "tool_calls", "error_count", "llm_call_count")},
        "token_usage": full["token_usage"],
        "cost_usd": full["cost_usd"],
        "duration_ms": ctx.duration_ms,
        "start_time": None,
        "end_time": None,
        "file_changes": ctx.file_changes,
        "workspace_path": str(ctx.workspace_path) if ctx.workspace_path else None,
        "config": config or None,
        # ours, kept for graders written against earlier autoresearch versions
        "test_id": ctx.case.id,
        "input_text": ctx.question,
    }
    if output_path is not None:
        payload["output_path"] = str(output_path)
    return snake_case(payload)


def prompt_script_input(ctx: Context, config: dict[str, Any] | None) -> dict[str, Any]:
    """The stdin of an llm-grader's prompt script (`prompt: {command: [...]}`), as AgentV writes it."""
    messages = transcript(ctx)
    return snake_case({
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
    })
