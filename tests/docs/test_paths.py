"""The docs name only files that exist: a module that moved leaves no page pointing at its old place.

Checked: every `name.py` and `folder/name.py` in the pages under docs/ and in README.md. A path with a folder
may be shortened from the front (`cycle/loop.py` for optimizer/cycle/loop.py), so it must end the path of a file
of this repository; a bare name must be some file's name. Not checked: CHANGELOG.md, which records modules
that were removed, and the files of a user's repository the docs show in examples (`USERS_FILES`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
PAGES = [*sorted((REPO / "docs").rglob("*.md")), REPO / "README.md"]
USERS_FILES = {"evals/score.py", "make_prompt.py", "optimizer.py", "sitecustomize.py", "autoresearch/__init__.py"}
SKIPPED = {".git", ".venv", "node_modules", ".mypy_cache", ".ruff_cache", ".pytest_cache", "__pycache__", "site"}
PYTHON_PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.py)\b")


def repository_files(root: Path) -> list[str]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED]
        found += [(Path(folder) / f).relative_to(root).as_posix() for f in files]
    return found


def missing_paths(text: str, files: list[str]) -> list[str]:
    """The Python paths `text` names that no file of `files` is (`USERS_FILES` aside)."""
    names = {f.rsplit("/", 1)[-1] for f in files}
    missing = []
    for named in PYTHON_PATH.findall(text):
        if named in USERS_FILES:
            continue
        exists = any(f == named or f.endswith("/" + named) for f in files) if "/" in named else named in names
        if not exists:
            missing.append(named)
    return missing


def test_every_python_file_the_docs_name_exists():
    files = repository_files(REPO)
    missing = [f"{page.relative_to(REPO)}: {path}" for page in PAGES for path in missing_paths(page.read_text(), files)]
    assert not missing, "moved or gone:\n" + "\n".join(missing)


def test_a_moved_module_is_found_and_a_shortened_path_is_not():
    files = ["optimizer/daemon/launch.py", "optimizer/cycle/loop.py"]
    text = "see `optimizer/launch.py`, `cycle/loop.py`, `daemon/launch.py`, `renovate.py` and `launch.py`"
    assert missing_paths(text, files) == ["optimizer/launch.py", "renovate.py"]
