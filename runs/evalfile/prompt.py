"""A test's input as AgentV 4.42.4 writes it for a target (its prompt-builder), so targets and graders see the same text.

Two modes, as AgentV chooses them by provider: a command (`cli`) target gets
file *references*, `<file: path="/abs/path">`, since it can open the file
itself; an LLM target gets the file's text inside `<file path="...">` tags.
Several turns with visible content (or any assistant turn) are labelled
`@[System]:`, `@[User]:`, `@[Assistant]:`; a single turn is its plain text.
A test's `files` list is not part of the text: a command target gets it in
`{FILES}`, an LLM target does not get it at all (AgentV sends it nowhere).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from autoresearch.runs.evalfile.model import Case, Message, Part

Mode = Literal["agent", "lm"]
DEFAULT_SYSTEM_PROMPT = "You are a careful assistant. Follow all provided instructions and do not fabricate results."


@dataclass(frozen=True)
class ChatPrompt:
    """What an LLM target is sent: a system prompt and the turns after it."""

    system: str
    messages: list[dict[str, str]]


def question(case: Case, mode: Mode, base: Path) -> str:
    """The whole input as one text: what a `cli` target's {PROMPT} holds and what a grader's {{input}} is."""
    if _role_markers(case.messages):
        turns = []
        for message in case.messages:
            parts = _formatted(message, mode, base)
            if _visible(message) and parts:
                turns.append(f"@[{message.role.capitalize()}]:\n" + "\n".join(parts))
        return "\n\n".join(turns)
    parts = [text.strip() for message in case.messages for text in _formatted(message, mode, base)]
    return "\n\n".join(text for text in parts if text)


def turns(case: Case, base: Path, mode: Mode) -> list[dict[str, str]]:
    """The input as turns (AgentV's result `input` and the start of a grader's transcript)."""
    return _chat_turns(case, mode, base) or [{"role": "user", "content": question(case, mode, base)}]


def chat_prompt(case: Case, base: Path, attach_files: bool = False) -> ChatPrompt:
    """What an LLM target is sent: leading system turns as the system prompt (AgentV's default when none).
    With `attach_files`, the test's `files` not already in its input join the last user turn as file parts."""
    if attach_files:
        case = _with_files(case)
    chat = _chat_turns(case, "lm", base)
    if chat is None:
        system = _leading_system(case.messages, "lm", base)
        return ChatPrompt(
            system or DEFAULT_SYSTEM_PROMPT, [{"role": "user", "content": question(case, "lm", base).strip()}]
        )
    if chat[0]["role"] == "system":
        return ChatPrompt(chat[0]["content"], chat[1:])
    return ChatPrompt(DEFAULT_SYSTEM_PROMPT, chat)


def _with_files(case: Case) -> Case:
    quoted = {p.file for m in case.messages for p in m.parts if p.file is not None}
    extra = tuple(Part(file=f) for f in case.files if f not in quoted)
    if not extra:
        return case
    users = [i for i, m in enumerate(case.messages) if m.role == "user"]
    messages = list(case.messages)
    if users:
        messages[users[-1]] = Message("user", messages[users[-1]].parts + extra)
    else:
        messages.append(Message("user", extra))
    return replace(case, messages=messages)


def _chat_turns(case: Case, mode: Mode, base: Path) -> list[dict[str, str]] | None:
    """AgentV's chat prompt: None for a single visible turn; else the leading system turns as one, later
    system turns as assistant turns labelled `@[System]:`, empty turns left out."""
    if not _role_markers(case.messages):
        return None
    chat = []
    system = _leading_system(case.messages, mode, base)
    if system:
        chat.append({"role": "system", "content": system})
    start = next((i for i, m in enumerate(case.messages) if m.role != "system"), len(case.messages))
    for message in case.messages[start:]:
        parts = _formatted(message, mode, base)
        role = message.role
        if role == "system":
            role, parts = "assistant", ["@[System]:", *parts]
        if parts:
            chat.append({"role": role, "content": "\n".join(parts)})
    return chat or None


def _leading_system(messages: list[Message], mode: Mode, base: Path) -> str:
    texts = []
    for message in messages:
        if message.role != "system":
            break
        parts = _formatted(message, mode, base)
        if parts:
            texts.append("\n".join(parts))
    return "\n\n".join(texts)


def _role_markers(messages: list[Message]) -> bool:
    if any(m.role == "assistant" for m in messages):
        return True
    return sum(1 for m in messages if _visible(m)) > 1


def _visible(message: Message) -> bool:
    return any((file_text(p.file) if p.file is not None else (p.text or "")).strip() for p in message.parts)


def _formatted(message: Message, mode: Mode, base: Path) -> list[str]:
    return [text for text in (_segment(part, mode, base) for part in message.parts) if text]


def _segment(part: Part, mode: Mode, base: Path) -> str | None:
    if part.file is None:
        return part.text
    if mode == "agent":
        return f'<file: path="{part.file}">'
    text = file_text(part.file)
    return f'<file path="{display_path(part.file, base)}">\n{text.strip()}\n</file>' if text else None


def file_text(path: Path) -> str:
    """A file as AgentV reads it: UTF-8, CRLF as LF."""
    return path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")


def display_path(path: Path, base: Path) -> str:
    """The path as the eval file names it (relative to its directory), which is what AgentV shows an LLM."""
    return os.path.relpath(path, base)
