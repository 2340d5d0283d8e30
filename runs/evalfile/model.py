"""The parsed eval: a suite of test cases, each with its input, expectations and grader specs.

Input files are kept as paths and read when the test runs, so a mutated
artifact referenced by `{type: file, value: ...}` is what the target sees.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autoresearch.runs.evalfile.conversation import Conversation
    from autoresearch.runs.evalfile.problems import Problem
    from autoresearch.runs.evalfile.workspace import Hook, Workspace


@dataclass(frozen=True)
class Part:
    """One piece of a message: literal text, or a file read at run time."""

    text: str | None = None
    file: Path | None = None

    def render(self) -> str:
        if self.file is None:
            return self.text or ""
        return self.file.read_text(encoding="utf-8", errors="replace")


@dataclass(frozen=True)
class Message:
    role: str
    parts: tuple[Part, ...]

    def render(self) -> str:
        return "\n".join(part.render() for part in self.parts)


@dataclass(frozen=True)
class GraderSpec:
    """A grader as written in the file: its type, the common fields, and the type's own options."""

    type: str
    name: str
    options: dict[str, Any]
    weight: float = 1.0
    negate: bool = False
    required: float | None = None  # the minimum score this grader must reach, when required
    threshold: float | None = None


@dataclass(frozen=True)
class Trials:
    """Several attempts of each test, as AgentV's `execution.trials` (or the Experiments page's
    `evaluate_options.repeat`) asks: run one after another, stopped early by `early_exit` or
    `cost_limit_usd`, and combined by `strategy` (see `autoresearch.runs.runner.trials`)."""

    count: int
    strategy: str = "pass_at_k"  # pass_at_k | mean | confidence_interval | pass_any | pass_all
    cost_limit_usd: float | None = None  # the test's target spend after which no further trial starts
    early_exit: bool = True  # pass_at_k / pass_any stop at the first pass, pass_all at the first fail


@dataclass
class Case:
    id: str
    messages: list[Message]
    expected_output: Any = None
    criteria: str = ""
    graders: list[GraderSpec] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    target: str | None = None
    files: list[Path] = field(default_factory=list)
    conversation: Conversation | None = None  # a multi-turn test (`mode: conversation`): its turns, run one by one
    workspace: Workspace | None = None  # the suite's `workspace:` merged with the test's, as AgentV merges them
    depends_on: list[str] = field(default_factory=list)  # ids of tests that must finish first (AgentV's waves)
    on_dependency_failure: str = "skip"  # skip | fail | run, when a dependency ended in execution_error
    targets: list[str] = field(default_factory=list)  # the test's own `execution.targets`: which matrix targets run it
    trials: Trials | None = None  # a scoped `run: {repeat}` / `options.repeat`, over the suite's
    threshold: float | None = None  # the test's own pass line (`execution.threshold`, a scoped `run: {threshold}`)
    timeout_s: float | None = (
        None  # bounds the target's answer instead of its timeout_seconds (`run:` or the file's `timeout_seconds`)
    )
    matrix_target: str | None = None  # set on a test's copy for one target of a matrix run
    ungraded_score: float | None = None  # AgentV 5 runs a test whose graders are all gone and scores it 1

    @property
    def row_id(self) -> str:
        """The id of the test's result row: its own, or `id@target` for one target of a matrix run, so
        every reader of the rows (compare, the keep rules, `agentv compare`) pairs like with like."""
        return f"{self.id}@{self.matrix_target}" if self.matrix_target else self.id

    def render_messages(self) -> list[dict[str, str]]:
        """What an LLM target is sent: the input, with the `files` it does not already quote attached to the last user turn.

        AgentV copies `files` into an agent's workspace; an LLM target has none,
        so their contents travel in the message, read now, like `{type: file}` parts.
        """
        return _rendered(self._with_files())

    def prompt_text(self) -> str:
        """The input as written, as one text, for CLI targets (`files` go in {FILES}) and grader prompts: the user turns, or every turn labelled."""
        rendered = _rendered(self.messages)
        if all(m["role"] == "user" for m in rendered):
            return "\n\n".join(m["content"] for m in rendered)
        return "\n\n".join(f"@[{m['role']}]:\n{m['content']}" for m in rendered)

    def input_files(self) -> list[Path]:
        return self.quoted_files() + self._unquoted_files()

    def quoted_files(self) -> list[Path]:
        """The files the input quotes (`{type: file}` parts): what a `cli` target's prompt names by path only."""
        return [p.file for m in self.messages for p in m.parts if p.file is not None]

    def _unquoted_files(self) -> list[Path]:
        quoted = self.quoted_files()
        return [f for f in self.files if f not in quoted]

    def _with_files(self) -> list[Message]:
        attached = tuple(Part(file=f) for f in self._unquoted_files())
        if not attached:
            return self.messages
        users = [i for i, m in enumerate(self.messages) if m.role == "user"]
        if not users:
            return [*self.messages, Message("user", attached)]
        messages = list(self.messages)
        messages[users[-1]] = Message("user", messages[users[-1]].parts + attached)
        return messages

    def expected_text(self) -> str:
        return expected_as_text(self.expected_output)


@dataclass(frozen=True)
class TargetRef:
    """An `execution.targets` entry's own settings: the target it delegates to and the hooks it adds."""

    use_target: str | None = None  # a name, or `${{ VAR }}`; read from the environment when the run starts
    hooks: dict[str, Hook] = field(default_factory=dict)


@dataclass
class Suite:
    path: Path
    name: str
    description: str = ""
    target: str | None = None
    threshold: float = 0.8
    cases: list[Case] = field(default_factory=list)
    trials: Trials | None = None  # `execution.trials` or `evaluate_options.repeat`
    timeout_s: float | None = (
        None  # the top-level `timeout_seconds`: each test's answer, unless its `run:` says otherwise
    )
    budget_usd: float | None = (
        None  # `execution.budget_usd` or `evaluate_options.budget_usd`: later tests are budget errors
    )
    max_concurrency: int | None = None  # `evaluate_options.max_concurrency`
    targets: list[str] = field(default_factory=list)  # `execution.targets`: every test runs on each (a matrix)
    target_refs: dict[str, TargetRef] = field(default_factory=dict)  # the object entries of `execution.targets`
    target_extends: dict[str, Any] = field(
        default_factory=dict
    )  # `target: {extends: NAME, <overrides>}`, applied to NAME
    tags: list[str] = field(
        default_factory=list
    )  # selection tags (a string or list `tags:`, and `metadata.tags`), for imports' `select`
    notes: list[Any] = field(
        default_factory=list
    )  # Problems accepted and ignored, as AgentV ignores them; `validate` prints them
    skipped: list[str] = field(
        default_factory=list
    )  # ids of the tests AgentV would not run (`autoresearch.runs.graders.agentv_skips`)
    agentv: int = 4  # the AgentV major whose rules run this file: 5 for a 5.x file (`autoresearch.runs.parse.agentv5`)
    refused: list[Problem] = field(
        default_factory=list
    )  # what `agentv eval` refuses and `agentv validate` accepts: `validate` notes it, a run raises it
    sources: list[Path] = field(
        default_factory=list
    )  # the files it reads or runs besides itself (`autoresearch.runs.parse.sources`): read-only to the LLM mutator

    @property
    def directory(self) -> Path:
        return self.path.parent


def _rendered(messages: list[Message]) -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.render()} for m in messages]


def expected_as_text(expected: Any) -> str:
    """expected_output as text: a string as is, messages by their last content, anything else as JSON."""
    if expected is None:
        return ""
    if isinstance(expected, str):
        return expected
    if isinstance(expected, list) and expected and all(isinstance(m, dict) and "content" in m for m in expected):
        return expected_as_text(expected[-1]["content"])
    return json.dumps(expected)
