"""Problems found in an eval file or its targets, collected so `validate` can list them all at once."""

from __future__ import annotations

from dataclasses import dataclass, field

from autoresearch.runs.errors import RunsError


@dataclass(frozen=True)
class Problem:
    file: str
    test_id: str | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: " + (f"test '{self.test_id}': " if self.test_id else "")
        return f"{where}field '{self.field}': {self.message}"


class EvalFileError(RunsError):
    """The eval file (or its targets) cannot run; carries every problem found, each with file, test id and field."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__(summary(problems))


def summary(problems: list[Problem]) -> str:
    """One problem is one line (file, test, field, what); several are a count and one line each."""
    if len(problems) == 1:
        return str(problems[0])
    return f"{len(problems)} problems in the eval file or its targets:\n" + "\n".join(f"  {p}" for p in problems)


def one_line(exc: Exception) -> str:
    """A parser's error as one line: YAML's multi-line report (with its caret drawing) becomes what and where."""
    mark, problem = getattr(exc, "problem_mark", None), getattr(exc, "problem", None)
    if mark is not None and problem:
        return f"{problem} at line {mark.line + 1}, column {mark.column + 1}"
    return " ".join(str(exc).split())


@dataclass
class Problems:
    """A collector: parsers add to it and keep going, so one run reports everything."""

    file: str
    items: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(
        default_factory=list
    )  # what AgentV accepts and we ignore as it does: said, never an error
    refused: list[Problem] = field(
        default_factory=list
    )  # what `agentv eval` refuses and `agentv validate` accepts: a note to `validate`, an error to a run

    def add(self, test_id: str | None, field_name: str, message: str) -> None:
        self.items.append(Problem(self.file, test_id, field_name, message))

    def note(self, test_id: str | None, field_name: str, message: str) -> None:
        """Record a construct that is accepted but ignored, once per field (a suite of 50 tests says it once)."""
        if not any(n.field == field_name and n.message == message for n in self.notes):
            self.notes.append(Problem(self.file, test_id, field_name, message))

    def refuse(self, test_id: str | None, field_name: str, message: str) -> None:
        """Record what AgentV's validate accepts and its eval refuses: `validate` notes it, a run fails on it."""
        self.refused.append(Problem(self.file, test_id, field_name, message))
        self.note(
            test_id, field_name, f"{message} (`validate` accepts it, as `agentv validate` does; a run refuses it)"
        )

    def extend(self, other: "Problems") -> None:
        self.items.extend(other.items)
        self.notes.extend(other.notes)
        self.refused.extend(other.refused)
