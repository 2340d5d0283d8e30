"""Grader options checked without pydantic, worded as pydantic words them: for the text graders alone.

An eval of `contains` graders (the common case, and bench/eval_cli.py's) would otherwise import pydantic
and build its models before the first test starts: 0.13-0.15 s of CPU at load 30, all of it in the
run's serial start. The text graders' options are a string or a list of strings, so a plain model
checks them in a few lines; its problems carry pydantic's `loc`, `type` and `msg` (lax mode: bytes are
decoded, a tuple or set is a list), so `parse_spec` reports them as it reports a pydantic model's, and
tests/runs/test_plain_options.py checks both agree on every kind of YAML value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from autoresearch.plumbing.errors import InvalidInput

Loc = tuple[str | int, ...]
Problem = dict[str, Any]  # pydantic's error shape: {"loc", "type", "msg"}


class Invalid(InvalidInput):
    """A plain model's problems, in field order and then the unknown fields in the input's order, as pydantic's
    (`graders.validated` turns them into the eval file's problems: it never reaches the CLI on its own)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p["msg"] for p in problems))
        self._problems = problems

    def errors(self) -> list[Problem]:
        return self._problems


@dataclass(frozen=True)
class Field:
    """A plain model's field: its check (the value, or the problems found under `loc`) and whether it is required."""

    check: Callable[[Any, Loc], tuple[Any, list[Problem]]]
    default: Any = None
    required: bool = True
    validation_alias: None = None  # read by `parse.assertions.accepted_keys`, as of a pydantic field


def problem(loc: Loc, kind: str, msg: str) -> Problem:
    return {"loc": loc, "type": kind, "msg": msg}


def text(value: Any, loc: Loc) -> tuple[Any, list[Problem]]:
    """pydantic's lax `str`: a string, or bytes that decode as UTF-8."""
    if isinstance(value, str):
        return value, []
    if isinstance(value, (bytes, bytearray)):
        try:
            return value.decode("utf-8"), []
        except UnicodeDecodeError:
            return None, [
                problem(
                    loc,
                    "string_unicode",
                    "Input should be a valid string, unable to parse raw data as a unicode string",
                )
            ]
    return None, [problem(loc, "string_type", "Input should be a valid string")]


def texts(value: Any, loc: Loc) -> tuple[Any, list[Problem]]:
    """pydantic's lax `list[str]`: a list, tuple or set of them, each item checked under its index."""
    if not isinstance(value, (list, tuple, set, frozenset)):
        return None, [problem(loc, "list_type", "Input should be a valid list")]
    items, problems = [], []
    for index, item in enumerate(value):
        checked, found = text(item, (*loc, index))
        items.append(checked)
        problems += found
    return items, problems


class PlainOptions:
    """A grader's own fields without pydantic; unknown ones are errors reported by name (`extra="forbid"`)."""

    model_fields: ClassVar[dict[str, Field]] = {}

    def __init__(self, values: dict[str, Any]):
        self.__dict__.update(values)

    @classmethod
    def model_validate(cls, obj: dict[str, Any]) -> Any:
        """The options as this model; `Invalid` with every problem, as pydantic reports them, when they are not."""
        values: dict[str, Any] = {}
        problems: list[Problem] = []
        for name, field in cls.model_fields.items():
            if name not in obj:
                if field.required:
                    problems.append(problem((name,), "missing", "Field required"))
                values[name] = field.default
                continue
            values[name], found = field.check(obj[name], (name,))
            problems += found
        problems += [
            problem((key,), "extra_forbidden", "Extra inputs are not permitted")
            for key in obj
            if key not in cls.model_fields
        ]
        if problems:
            raise Invalid(problems)
        model = cls(values)
        try:
            model.after()
        except ValueError as exc:  # a model validator's own check, as pydantic words it
            raise Invalid([problem((), "value_error", f"Value error, {exc}")]) from None
        return model

    def after(self) -> None:
        """A check of the whole model once its fields are valid (pydantic's `model_validator(mode="after")`)."""
