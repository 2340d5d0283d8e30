"""The `cli` provider: a command line with AgentV's placeholders, run in the eval file's directory.

Placeholders are shell-escaped. The answer is read from `{OUTPUT_FILE}` when
the command uses it, else from stdout; a JSON envelope with `text` or
`output` is unwrapped as AgentV does (and its `token_usage`/`cost_usd` kept).
"""

from __future__ import annotations

import json
import shlex
import tempfile
from pathlib import Path
from typing import Any, Literal

from plumbing import process
from runs.evalfile.model import Case
from runs.targets import Answer, TargetFailed
from runs.targets.prompt import question
from runs.targets.specs import TargetSpec


class CliTarget:
    prompt_mode: Literal["agent", "lm"] = "agent"  # AgentV gives a command file references, not file contents

    def __init__(self, spec: TargetSpec, eval_dir: Path):
        self.name, self.grader_target = spec.name, spec.grader_target
        self.eval_dir, self.provider = eval_dir, spec.provider
        self.template: str = spec.options["command"]
        self.cwd = eval_dir / spec.options["cwd"] if spec.options.get("cwd") else eval_dir
        self.timeout_s = spec.timeout_s
        self.files_format: str = spec.options.get("files_format") or "{path}"

    def answer(self, case: Case, attempt: int) -> Answer:
        with tempfile.TemporaryDirectory(prefix="autoresearch-test-") as scratch:
            return self._answer(case, attempt, Path(scratch))

    def _answer(self, case: Case, attempt: int, scratch: Path) -> Answer:
        prompt = question(case, "agent", self.eval_dir)
        prompt_file, output_file = scratch / "prompt.md", scratch / "output.txt"
        prompt_file.write_text(prompt, encoding="utf-8")
        values = {
            "PROMPT": prompt,
            "PROMPT_FILE": str(prompt_file),
            "EVAL_ID": case.id,
            "ATTEMPT": str(attempt),
            "FILES": format_files(list(dict.fromkeys(f.resolve() for f in case.input_files())), self.files_format),
            "OUTPUT_FILE": str(output_file),
        }
        command = self.template
        for key, value in values.items():
            command = command.replace("{" + key + "}", value if key == "FILES" else shlex.quote(value))
        done = process.run(command, cwd=self.cwd, log_prefix=scratch / "target", timeout_s=self.timeout_s)
        if done.timed_out:
            raise TargetFailed(f"target {self.name} timed out after {self.timeout_s:g}s")
        if done.returncode != 0:
            raise TargetFailed(f"target {self.name} exited {done.returncode}: {process.tail(done.stderr or done.stdout)}")
        if "{OUTPUT_FILE}" in self.template:
            if not output_file.is_file():
                raise TargetFailed(f"target {self.name} wrote no output file")
            return unwrap(output_file.read_text(encoding="utf-8", errors="replace"))
        return unwrap(done.stdout)


def format_files(files: list[Path], template: str) -> str:
    """{FILES}: each file through the target's `files_format` (`{path}`, `{basename}`, shell-escaped), space-joined, as AgentV."""
    return " ".join(template.replace("{path}", shlex.quote(str(f))).replace("{basename}", shlex.quote(f.name)) for f in files)


MAX_TOKENS = 10**9  # per answer, as providers.replies
MAX_COST_USD = 1e6


def unwrap(text: str) -> Answer:
    """A JSON object with `text` or `output` is an envelope; anything else is the answer itself."""
    try:
        value = json.loads(text)
    except ValueError:
        return Answer(text)
    if not isinstance(value, dict) or not ("text" in value or "output" in value):
        return Answer(text)
    usage = value.get("token_usage") if isinstance(value.get("token_usage"), dict) else {}
    return Answer(
        _content(value.get("text", value.get("output"))),
        int(_amount(usage.get("input"), MAX_TOKENS)),
        int(_amount(usage.get("output"), MAX_TOKENS)),
        _amount(value.get("cost_usd"), MAX_COST_USD),
    )


def _amount(value, limit: float) -> float:
    """A count or a cost as the envelope gave it, when it is a number from 0 to `limit`; anything else
    (text, a list, a negative cost that would lower the spend a budget bounds) counts as unknown: 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= limit:
        return 0.0
    return float(value)


def _content(value: Any) -> str:
    """`output` may be a list of messages: the answer is the content of the last one whose role is
    `assistant` (none: an empty answer), as AgentV's extractLastAssistantContent reads it."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for message in reversed(value):
            if isinstance(message, dict) and message.get("role") == "assistant" and "content" in message:
                return _text_of(message["content"])
        return ""
    return json.dumps(value)


CONTENT_TYPES = {"text", "image", "file"}


def _text_of(content: Any) -> str:
    """A message's text: a string as it is; content blocks (all of a known type) as their text
    blocks joined by newlines, as AgentV's getTextContent; anything else as compact JSON."""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and content and all(isinstance(b, dict) and b.get("type") in CONTENT_TYPES for b in content):
        return "\n".join(str(b.get("text", "")) for b in content if b["type"] == "text")
    return json.dumps(content, separators=(",", ":"), ensure_ascii=False)
