"""`${{ VAR }}` references in eval and target files, and the repository's `.env`.

AgentV resolves these from the environment, after loading `.env` at the
repository root without overriding what is already set; we do the same, with
python-dotenv reading the file (comments, quotes, escapes, `export`, multi-line
values) and, like AgentV's Node `dotenv`, no `${VAR}` expansion inside it.
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any

from dotenv.parser import parse_stream

from autoresearch.plumbing.errors import InvalidInput

log = logging.getLogger("autoresearch.runs")
REFERENCE = re.compile(r"\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
WHOLE_REFERENCE = re.compile(r"^\s*\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$")


def load_dotenv(repo_root: Path) -> None:
    """Set the variables of `<repo_root>/.env` that the environment does not already define."""
    path = repo_root / ".env"
    if not path.is_file():
        return
    try:
        with path.open(encoding="utf-8") as stream:
            bindings = list(parse_stream(stream))
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise InvalidInput(f"{path}: cannot read it ({exc.strerror})") from None
    for binding in bindings:  # checked before any is set: the environment cannot hold a NUL byte
        if "\0" in (binding.key or "") + (binding.value or ""):
            raise InvalidInput(f"{path}: line {binding.original.line} holds a NUL byte, which no variable can")
    for binding in bindings:
        if binding.error:  # python-dotenv skips it too; say which line, as its own warning does not name the file
            log.warning("%s:%d: not a NAME=value line, skipped", path, binding.original.line)
        elif binding.key is not None and binding.value is not None:  # a bare `NAME` line sets nothing
            os.environ.setdefault(binding.key, binding.value)


def interpolate(value: Any) -> Any:
    """Every string inside `value` (dicts and lists walked) with its references replaced; unset variables become ''."""
    if isinstance(value, str):
        return REFERENCE.sub(lambda m: os.environ.get(m.group(1), ""), value)
    if isinstance(value, list):
        return [interpolate(item) for item in value]
    if isinstance(value, dict):
        return {key: interpolate(item) for key, item in value.items()}
    return value


ENV_REFERENCE = re.compile(r"\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def env_references(value: Any) -> Any:
    """AgentV 5's `{{ env.NAME }}` (dicts and lists walked) written as 4.x's `${{ NAME }}`, which `interpolate` resolves."""
    if isinstance(value, str):
        return ENV_REFERENCE.sub(r"${{ \1 }}", value)
    if isinstance(value, list):
        return [env_references(item) for item in value]
    if isinstance(value, dict):
        return {key: env_references(item) for key, item in value.items()}
    return value


TEMPLATE_VAR = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}")
WHOLE_TEMPLATE_VAR = re.compile(r"^\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}$")
_MISSING = object()


def render_vars(value: Any, variables: dict[str, Any]) -> Any:
    """A test's `{{ name }}` (dotted paths allowed) replaced from its `vars`, as AgentV's interpolateTemplateVars.

    A string that is exactly one reference becomes the variable's value (a list
    stays a list); inside text, non-strings are written as JSON; an unknown
    name is left as written, so other template syntaxes survive.
    """
    if isinstance(value, str):
        whole = WHOLE_TEMPLATE_VAR.match(value)
        if whole:
            found = _lookup(variables, whole.group(1))
            return value if found is _MISSING else found
        return TEMPLATE_VAR.sub(lambda m: _as_text(_lookup(variables, m.group(1)), m.group(0)), value)
    if isinstance(value, list):
        return [render_vars(item, variables) for item in value]
    if isinstance(value, dict):
        return {key: render_vars(item, variables) for key, item in value.items()}
    return value


def _lookup(variables: dict[str, Any], expression: str) -> Any:
    current: Any = variables
    for segment in expression.split("."):
        if not isinstance(current, dict) or segment not in current:
            return _MISSING
        current = current[segment]
    return current


def _as_text(found: Any, written: str) -> str:
    if found is _MISSING:
        return written
    return found if isinstance(found, str) else json.dumps(found, separators=(",", ":"), ensure_ascii=False)


def reference_name(value: Any) -> str | None:
    """The VAR of a value that is exactly `${{ VAR }}`, else None."""
    if not isinstance(value, str):
        return None
    match = WHOLE_REFERENCE.match(value)
    return match.group(1) if match else None
