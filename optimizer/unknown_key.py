"""A misspelt config key, named as the user wrote it, with the nearest key that exists there.

pydantic reports `mutater:` as two errors, `mutator: Field required` first, and the unknown key
second; the first says nothing of the typo. This finds the unknown key among the errors and the keys
known at its place, by walking the config's models along the error's location (a tagged union's tag,
which pydantic puts in the location, is no key the user wrote: it picks the member instead).
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Sequence
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError


def unknown_key(exc: ValidationError, model: type[BaseModel]) -> str | None:
    """`field 'a.b': unknown key (did you mean 'a.c'?)` for the first key no model knows, None when there is none."""
    unknown = [e["loc"] for e in exc.errors() if e["type"] == "extra_forbidden"]
    if not unknown:
        return None
    shown, known = _walk(model, unknown[0][:-1])
    key = str(unknown[0][-1])
    near = difflib.get_close_matches(key, known, n=1)
    if near:
        hint = f"did you mean '{_dotted([*shown, near[0]])}'?"
    else:
        hint = f"known keys: {', '.join(known)}" if known else "no key is known there"
    more = f"; and {len(unknown) - 1} more unknown key(s)" if len(unknown) > 1 else ""
    return f"field '{_dotted([*shown, key])}': unknown key ({hint}){more}"


def _walk(model: type[BaseModel], loc: Sequence[str | int]) -> tuple[list[str | int], list[str]]:
    """The location as the user wrote it, and the keys of the model found there (none if it is no model)."""
    shown: list[str | int] = []
    kind: Any = model
    for part in loc:
        kind = _unwrap(kind)
        if _is_model(kind):
            fields = {**kind.model_fields, **{f.alias: f for f in kind.model_fields.values() if f.alias}}
            kind = fields[str(part)].annotation if str(part) in fields else None
            shown.append(part)
        elif _members(kind):  # a tagged union: `part` is the tag that chose a member
            kind = next((m for m in _members(kind) if str(part) in _literals(m)), None)
        elif get_origin(kind) in (list, tuple, dict):
            kind = get_args(kind)[-1] if get_args(kind) else None
            shown.append(part)
        else:
            return shown, []
    kind = _unwrap(kind)
    known = [f.alias or name for name, f in kind.model_fields.items()] if _is_model(kind) else []
    return shown, known


def _unwrap(kind: Any) -> Any:
    """`Annotated[X, ...]` is X, and `X | None` is X."""
    if get_origin(kind) is Annotated:
        return _unwrap(get_args(kind)[0])
    if get_origin(kind) in (Union, types.UnionType):
        present = [a for a in get_args(kind) if a is not type(None)]
        if len(present) == 1:
            return _unwrap(present[0])
    return kind


def _is_model(kind: Any) -> bool:
    return isinstance(kind, type) and issubclass(kind, BaseModel)


def _members(kind: Any) -> list[type[BaseModel]]:
    """The models of a union of models (a tagged union), else nothing."""
    if get_origin(kind) not in (Union, types.UnionType):
        return []
    members = [_unwrap(a) for a in get_args(kind)]
    return members if all(_is_model(m) for m in members) else []


def _literals(model: type[BaseModel]) -> set[str]:
    """Every value a Literal field of the model takes: its tag is among them."""
    return {
        str(v)
        for f in model.model_fields.values()
        if get_origin(f.annotation) is Literal
        for v in get_args(f.annotation)
    }


def _dotted(parts: Sequence[str | int]) -> str:
    return ".".join(str(p) for p in parts)
