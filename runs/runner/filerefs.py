"""`cli` targets whose prompt names files by path that their command never reads.

AgentV gives a command target each `{type: file}` part of a test's input as a
reference, a line `<file: path="/abs/path">`, not the file's text: it can open
the file itself (a coding agent does). A program that only passes the prompt on
(to an LLM, say) answers without the file, and every such test scores 0 with no
hint. AgentV's behaviour is kept; this says so, once per target, before any test
runs.

The rule, decided from the command line alone: a command reads the files when it
names `{FILES}` (the test's files as paths to open, quoted ones included), one of
the files by name (`python3 agent.py --system ../prompt.md {PROMPT}`), or the
references themselves (`<file:`, as the line `autoresearch init` writes, which
replaces each by the file's text). Otherwise its `{PROMPT}` / `{PROMPT_FILE}`
carries nothing but the references, and only a program that opens the paths it
finds in them (a coding agent) ever sees the files: said, in a line that says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from autoresearch.runs.evalfile.model import Suite
from autoresearch.runs.runner.resolve import Targets
from autoresearch.runs.targets.cli import CliTarget


@dataclass(frozen=True)
class Unread:
    """A `cli` target whose tests' files reach it only as `<file: path=…>` references its command never reads."""

    target: str
    tests: int  # how many of its tests quote a file

    def __str__(self) -> str:
        return (
            f'target {self.target!r} gets the files of {self.tests} test(s) as <file: path="..."> lines, not their '
            "text, and its command names neither {FILES} nor the files: unless its program opens those paths itself "
            "(a coding agent does), it never sees them; pass {FILES} and read each path, or replace each "
            '<file: path="..."> line of the prompt by the file\'s text (`autoresearch init` shows how)'
        )


def unread(suite: Suite, targets: Targets) -> list[Unread]:
    """Each `cli` target of the suite that gets file references and whose command does not read the files."""
    tests: dict[str, int] = {}
    names: dict[str, set[str]] = {}
    commands: dict[str, str] = {}
    for case in suite.cases:
        target = targets.built.get(targets.per_case.get(case.row_id, ""))
        files = case.quoted_files()
        if not isinstance(target, CliTarget) or not files:
            continue
        tests[target.name] = tests.get(target.name, 0) + 1
        names.setdefault(target.name, set()).update(f.name for f in files)
        commands[target.name] = target.template
    return [Unread(name, count) for name, count in tests.items() if not _reads(commands[name], names[name])]


def _reads(command: str, file_names: set[str]) -> bool:
    return "{FILES}" in command or "<file:" in command or any(name in command for name in file_names)
