"""`${{ VAR }}` references in eval and target files, and the repository's `.env`.

AgentV resolves these from the environment, after loading `.env` at the
repository root without overriding what is already set; we do the same.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

REFERENCE = re.compile(r"\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
WHOLE_REFERENCE = re.compile(r"^\s*\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$")


def load_dotenv(repo_root: Path) -> None:
    """Set the variables of `<repo_root>/.env` that the environment does not already define."""
    path = repo_root / ".env"
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        os.environ.setdefault(key.strip(), value)


def interpolate(value: Any) -> Any:
    """Every string inside `value` (dicts and lists walked) with its references replaced; unset variables become ''."""
    if isinstance(value, str):
        return REFERENCE.sub(lambda m: os.environ.get(m.group(1), ""), value)
    if isinstance(value, list):
        return [interpolate(item) for item in value]
    if isinstance(value, dict):
        return {key: interpolate(item) for key, item in value.items()}
    return value


def reference_name(value: Any) -> str | None:
    """The VAR of a value that is exactly `${{ VAR }}`, else None."""
    if not isinstance(value, str):
        return None
    match = WHOLE_REFERENCE.match(value)
    return match.group(1) if match else None


def find_repo_root(start: Path) -> Path:
    """The nearest directory above `start` holding `.git`; else the working directory when it contains `start`, else `start`."""
    start = start.resolve()
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    cwd = Path.cwd().resolve()
    return cwd if start.is_relative_to(cwd) else start
