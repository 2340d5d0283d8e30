"""AgentV's `input` forms → messages: a string, a list of messages, content as text or `{type: file, value}` parts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autoresearch.plumbing.repo import find_repo_root
from autoresearch.runs.evalfile.model import Message, Part
from autoresearch.runs.evalfile.problems import Problems

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
            problems.add(
                test_id, f"{where}.role", f"unsupported role {role!r} (tool messages are multi-turn tool trajectories)"
            )
            continue
        parts = parse_content(item["content"], base, problems, test_id, f"{where}.content")
        messages.append(Message(role, tuple(parts)))
    return messages


def parse_content(raw: Any, base: Path, problems: Problems, test_id: str | None, field: str) -> list[Part]:
    if isinstance(raw, str):
        return [Part(text=raw)]
    if isinstance(raw, dict):  # a structured payload, sent as its JSON (AgentV's processMessages)
        return [Part(text=json.dumps(raw, indent=2, ensure_ascii=False))]
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
            problems.note(
                test_id,
                f"{where}.value",
                f"no such file {value} (resolved to {path}), so the part is left out, as AgentV leaves it out",
            )
            return None
        return Part(file=path)
    if isinstance(item, dict) and kind not in ("text", "file", "image"):
        problems.note(test_id, where, "a content part of no known type is sent as its JSON")
        return Part(text=json.dumps(item, indent=2, ensure_ascii=False))
    problems.add(test_id, where, f"unsupported content part {item!r} (expected {{type: text|file, value}})")
    return None


def parse_files(raw: Any, base: Path, problems: Problems, test_id: str | None, required: bool = True) -> list[Path]:
    """A test's `files`: paths resolved as input files are, each checked to exist now so `validate` names a missing one.

    evals.json's `files` are not `required`: AgentV runs the test without a missing one, and so do we, with a note.
    """
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        problems.add(test_id, "files", "must be a list of paths")
        return []
    paths = []
    for index, name in enumerate(raw):
        path = resolve_file(name, base)
        if path.is_file():
            paths.append(path)
        elif required:
            problems.add(test_id, f"files[{index}]", f"no such file {name} (resolved to {path})")
        else:
            problems.note(
                test_id,
                f"files[{index}]",
                f"no such file {name} (resolved to {path}), so it is left out, as AgentV leaves it out",
            )
    return paths


def resolve_file(value: str, base: Path) -> Path:
    """The first existing of: the absolute path; the path under the eval file's directory and each directory above it
    up to the repository root; under the working directory (AgentV's search roots). None existing: under `base`."""
    path = Path(value)
    if path.is_absolute() and path.exists():
        return path
    relative = value.lstrip("/")
    for root in search_roots(base):
        candidate = (root / relative).resolve()
        if candidate.exists():
            return candidate
    return (base / relative).resolve()


def search_roots(base: Path) -> list[Path]:
    base = base.resolve()
    top = find_repo_root(base)
    chain = [base, *(p for p in base.parents if p.is_relative_to(top))]
    return [*chain, *([top] if top not in chain else []), Path.cwd()]
