"""Problems found in an eval file or its targets, collected so `validate` can list them all at once."""

from __future__ import annotations

from dataclasses import dataclass, field

from runs.errors import RunsError


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
        super().__init__("invalid eval file:\n" + "\n".join(f"  {p}" for p in problems))


@dataclass
class Problems:
    """A collector: parsers add to it and keep going, so one run reports everything."""

    file: str
    items: list[Problem] = field(default_factory=list)

    def add(self, test_id: str | None, field_name: str, message: str) -> None:
        self.items.append(Problem(self.file, test_id, field_name, message))

    def extend(self, other: "Problems") -> None:
        self.items.extend(other.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise EvalFileError(list(self.items))
