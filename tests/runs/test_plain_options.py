"""The text graders' options, checked without pydantic, say what pydantic says of the same values, word for word."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, model_validator

from autoresearch.runs.graders import jsregex, validated
from autoresearch.runs.graders.text import ListOptions, RegexOptions, ValueOptions


class _Forbid(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PydanticValue(_Forbid):  # the text graders' models as they were, the reference
    value: str


class PydanticList(_Forbid):
    value: list[str]


class PydanticRegex(_Forbid):
    value: str
    flags: str = ""

    @model_validator(mode="after")
    def _compiles(self) -> PydanticRegex:
        problem = jsregex.problem(self.value, self.flags)
        if problem is not None:
            raise ValueError(f"invalid regex /{self.value}/{self.flags}: {problem}")
        return self


VALUES: list[Any] = ["s", "", 1, 1.5, True, None, [], ["a"], ["a", 1, None], ("a",), {"a"}, {1, 2}, {"a": 1}]
VALUES += [b"by", b"\xff", bytearray(b"x"), datetime.date(2020, 1, 1)]  # YAML's !!binary and plain dates
OPTIONS: list[dict[str, Any]] = [{}, *({"value": v} for v in VALUES), {"zz": 1, "value": 2, "aa": 3}]
OPTIONS += [{"value": "a", "flags": f} for f in ("i", "q", 1, None)] + [{"value": "(", "flags": "g"}]


@pytest.mark.parametrize(
    "plain, reference", [(ValueOptions, PydanticValue), (ListOptions, PydanticList), (RegexOptions, PydanticRegex)]
)
def test_the_text_graders_plain_options_agree_with_pydantic_on_every_kind_of_value(plain, reference):
    for options in OPTIONS:
        ours, our_errors = validated(plain, options)
        theirs, their_errors = validated(reference, options)
        assert [(e["loc"], e["type"], e["msg"]) for e in our_errors] == [
            (e["loc"], e["type"], e["msg"]) for e in their_errors
        ], options
        if theirs is not None:
            assert {name: getattr(ours, name) for name in plain.model_fields} == theirs.model_dump(), options
