"""The one masker: every value that can be a secret, masked wherever text leaves the daemon.

A key echoed by an eval, a target, a grader, a provider or a mutator must not
reach a log, an error message, a result file, a commit message, the chart, the
API, a notification or the mutator's provider. The values to mask are read
from the environment's variables named like secrets and, fed once at the start
of each command (`learn`, by optimizer/masking.py), from every `.env` file the
daemon or its evals may load (an eval command's own dotenv, AgentV's chain of
folders) and from the variables the config names as keys whatever their names.

A value is masked as it appears: whole, collapsed onto one line, escaped as in
JSON or HTML, and each of its lines alone, so that a PEM key is masked in
output read line by line (`search`) or cut into lines, not only where it
appears whole. Text from outside passes through `redact` where it enters
(`process.tail`, mutation summaries, the mutator's tool answers) and at the
sinks (an iterations line, the log processor, the chart, the API, the
notifier, the CLI's error boundary). providers stays a leaf: its errors are
masked at those sinks.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

SECRET_SUFFIXES = ("_KEY", "_TOKEN", "_SECRET", "_PASSWORD")
MASK = "***"
MIN_LENGTH = 8  # shorter values ("1", "true") would mask ordinary words
ARMOUR = re.compile(r"-----(BEGIN|END) [A-Z0-9 ]*-----")  # a PEM key's first and last lines: the same in every key


def secret_name(name: str) -> bool:
    return name.upper().endswith(SECRET_SUFFIXES)


@dataclass(frozen=True)
class _Found:
    """`values()` as last computed, with what it was computed from: the environment's raw variables and
    the very objects `learn` had set (it replaces them whole, never changes them in place)."""

    environ: dict[bytes, bytes]
    names: frozenset[str]
    files: dict[Path, dict[str, str]]
    forms: tuple[str, ...]


class Masker:
    """What is masked: the environment's secret-looking variables (read at each use: the built-in runner
    loads `.env` into it later) and what `learn` was told."""

    def __init__(self) -> None:
        self._names: frozenset[str] = frozenset()  # named as keys by the config, whatever their names
        self._files: dict[Path, dict[str, str]] = {}  # each `.env` learned, as python-dotenv reads it
        self._found: _Found | None = None

    def learn(self, names: Iterable[str] = (), dotenv_files: Iterable[Path] = ()) -> None:
        """Mask the values of these variables too, and those of these `.env` files (missing ones are skipped)."""
        self._names = self._names | frozenset(names)
        for path in dotenv_files:
            if path not in self._files and (bindings := _read_dotenv(path)) is not None:
                self._files = {**self._files, path: bindings}  # replaced whole: other threads read it meanwhile

    def sources(self) -> tuple[list[str], list[Path]]:
        """What `learn` was told, for a child process of ours to learn the same (it reads the files itself)."""
        return sorted(self._names), list(self._files)

    def values(self) -> tuple[str, ...]:
        """Every form of every secret, longest first, so that a whole value is masked before its lines.

        Asked several times a cycle (every line, log record and message masked), and walking the
        environment decodes each of its variables: the forms are kept with the environment's raw
        variables they came from, and made again only once those (compared whole, at C speed) or what
        `learn` was told differ. Code that sets os.environ (the built-in runner loading `.env`) is seen
        at the next call, as before."""
        found, raw = self._found, _raw_environ()
        if found is not None and found.names is self._names and found.files is self._files and found.environ == raw:
            return found.forms
        environ, names, files = dict(raw), self._names, self._files  # copied first: what the forms come from
        secrets = [os.environ[n] for n in os.environ if n in names or secret_name(n)]
        for bindings in files.values():
            secrets += [value for name, value in bindings.items() if name in names or secret_name(name)]
        forms = _forms(frozenset(secrets))
        self._found = _Found(environ, names, files, forms)  # one assignment: other threads read it meanwhile
        return forms


def _raw_environ() -> dict[bytes, bytes]:
    """The dict behind os.environ: CPython keeps each variable there encoded, as the process's
    environment holds it, and updates it with every change made through os.environ."""
    raw: dict[bytes, bytes] = os.environ._data  # type: ignore[attr-defined]
    return raw


def _read_dotenv(path: Path) -> dict[str, str] | None:
    """A `.env` as python-dotenv (and so the built-in runner and AgentV) reads it; None when it cannot be read."""
    from dotenv.parser import parse_stream  # here: `status`, which learns no file, stays fast

    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:  # missing, a folder, unreadable: nothing loads it either
        return None
    return {b.key: b.value for b in parse_stream(io.StringIO(text)) if b.key is not None and b.value}


@lru_cache(maxsize=16)
def _forms(values: frozenset[str]) -> tuple[str, ...]:
    """Each value as output may show it: whole, joined onto one line, escaped (JSON, HTML), and each of
    its lines (a PEM key's armour aside: it is no secret, and masking it would hide which key was meant)."""
    forms: set[str] = set()
    for value in values:
        forms |= {value, " ".join(value.split()), json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
        forms.add(html.escape(value))
        for line in value.splitlines():
            if not ARMOUR.fullmatch(line.strip()):
                forms |= {line.strip(), " ".join(line.split())}
    return tuple(sorted((f for f in forms if len(f) >= MIN_LENGTH), key=len, reverse=True))


_masker = Masker()


def learn(names: Iterable[str] = (), dotenv_files: Iterable[Path] = ()) -> None:
    """Feed the process's masker (see `Masker.learn`)."""
    _masker.learn(names, dotenv_files)


def learned() -> tuple[list[str], list[Path]]:
    """The process's masker's names and `.env` files (see `Masker.sources`)."""
    return _masker.sources()


def secret_values() -> list[str]:
    """The process's masker's forms to mask, read now: `.env` loading may have added some."""
    return list(_masker.values())


def redact(text: str, secrets: Iterable[str] | None = None) -> str:
    for secret in secret_values() if secrets is None else secrets:
        text = text.replace(secret, MASK)
    return text


def shown_in_json(text: str) -> bool:
    """Whether `text`, JSON written with `ensure_ascii=False`, may show a secret: a string that holds one of
    its forms holds it escaped as JSON escapes a string, a character at a time. When not, `redact_tree` of
    what `text` encodes would change nothing, and the walk through every string of it (the most of writing
    an iterations line) is not needed."""
    return any(form in text for form in _json_forms(_masker.values()))


@lru_cache(maxsize=16)
def _json_forms(forms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(json.dumps(form, ensure_ascii=False)[1:-1] for form in forms)


def redact_tree(value: Any, secrets: list[str] | None = None) -> Any:
    """A JSON-like value with every string in it, keys included, passed through `redact`. A tuple is walked
    as the list JSON writes it; a value JSON cannot write (a path, an exception: a log line writes its
    repr) becomes its repr, masked."""
    secrets = secret_values() if secrets is None else secrets
    if type(value) in _PLAIN:  # most of a line's values: its figures
        return value
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {redact(str(k), secrets): redact_tree(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_tree(v, secrets) for v in value]
    if value is None or isinstance(value, (int, float)):  # an int's or a float's subclass: bool, an enum
        return value
    return redact(repr(value), secrets)


_PLAIN = frozenset({int, float, bool, type(None)})
