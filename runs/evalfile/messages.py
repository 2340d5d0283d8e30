"""AgentV's `input` forms → messages: a string, a list of messages, content as text or `{type: file, value}` parts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runs.evalfile.model import Message, Part
from runs.evalfile.problems import Problems

ROLES = {"system", "user", "assistant"}


def parse_input(raw: Any, base: Path, problems: Problems, test_id: str | None, field: str) -> list[Message]:
    if raw is None:
        return []
    if isinstance(raw, str):
        return [Message("user", (Part(text=raw),))]
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        problems.add(test_id, field, "must be a string or a list of messages")
        return []
    messages = []
    for index, item in enumerate(raw):
        where = f"{field}[{index}]"
        if not isinstance(item, dict) or "content" not in item:
            problems.add(test_id, where, "a message needs `role` and `content`")
            continue
        role = item.get("role", "user")
        if not isinstance(role, str) or role not in ROLES:
            problems.add(test_id, f"{where}.role", f"unsupported role {role!r} (tool messages are multi-turn tool trajectories)")
            continue
        parts = parse_content(item["content"], base, problems, test_id, f"{where}.content")
        messages.append(Message(role, tuple(parts)))
    return messages


def parse_content(raw: Any, base: Path, problems: Problems, test_id: str | None, field: str) -> list[Part]:
    if isinstance(raw, str):
        return [Part(text=raw)]
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        problems.add(test_id, field, "content must be text or a list of {type: text|file, value} parts")
        return []
    parts = []
    for index, item in enumerate(raw):
        part = _part(item, base, problems, test_id, f"{field}[{index}]")
        if part is not None:
            parts.append(part)
    return parts


def _part(item: Any, base: Path, problems: Problems, test_id: str | None, where: str) -> Part | None:
    if isinstance(item, str):
        return Part(text=item)
    kind = item.get("type") if isinstance(item, dict) else None
    value = item.get("value", item.get("text")) if isinstance(item, dict) else None
    if kind == "text" and isinstance(value, str):
        return Part(text=value)
    if kind == "file" and isinstance(value, str):
        path = resolve_file(value, base)
        if not path.is_file():
            problems.add(test_id, f"{where}.value", f"no such file {value} (resolved to {path})")
        return Part(file=path)
    problems.add(test_id, where, f"unsupported content part {item!r} (expected {{type: text|file, value}})")
    return None


def parse_files(raw: Any, base: Path, problems: Problems, test_id: str | None) -> list[Path]:
    """A test's `files`: paths resolved as input files are, each checked to exist now so `validate` names a missing one."""
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        problems.add(test_id, "files", "must be a list of paths")
        return []
    paths = [resolve_file(name, base) for name in raw]
    for index, (name, path) in enumerate(zip(raw, paths)):
        if not path.is_file():
            problems.add(test_id, f"files[{index}]", f"no such file {name} (resolved to {path})")
    return paths


def resolve_file(value: str, base: Path) -> Path:
    """An existing absolute path as is; anything else relative to the eval file's directory, as AgentV resolves it."""
    path = Path(value)
    if path.is_absolute() and path.exists():
        return path
    return (base / value.lstrip("/")).resolve()
