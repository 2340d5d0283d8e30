"""The files an eval file reads or runs besides itself: what defines its tests as much as the file does.

The datasets its `tests:` name, its `environment:` recipe and the recipe's setup script, its `extensions:`
modules (run by Node with the user's environment), the scripts its graders run, the prompt files they read,
and the targets file. A mutator that rewrote one of them would grade itself, or run its code outside any
sandbox at the next eval, so the optimizer keeps them read-only to the LLM mutator (see
autoresearch.optimizer.cycle.mutate.scoring_files).

What a test hands the system under test (its `input`, `files`, `vars`, the `prompts`) is left out: that is
often the artifact being improved. So are a target's command, which may run the code being improved, and the
files a command is handed (only the script it runs counts).
"""

from __future__ import annotations

import glob
import shlex
from pathlib import Path
from typing import Any

import yaml

from autoresearch.runs.evalfile.extensions import HOOKS
from autoresearch.runs.evalfile.yamlload import load_yaml
from autoresearch.runs.targets.specs import find_targets_file

FILE_PREFIX = "file://"
HANDED = frozenset({"input", "input_files", "files", "messages", "vars", "prompts", "target", "targets", "execution"})
"""Fields whose files are the test's input or the system under test, not the eval's own."""
RUN = ("command", "script")


def sources(path: Path, raw: Any) -> list[Path]:
    """Every existing file the eval file at `path` (parsed as `raw`) references, resolved, without repeats
    (the targets file aside: where it is found depends on the repository, see `targets_file`)."""
    found: dict[Path, None] = {}
    _walk(raw, path.parent, found)
    tests = raw.get("tests") if isinstance(raw, dict) else None
    if isinstance(tests, str) and not tests.startswith(FILE_PREFIX):  # a path to a dataset, or a folder of cases
        _walk(FILE_PREFIX + tests, path.parent, found)
        _walk(FILE_PREFIX + tests.rstrip("/") + "/**/case.y*ml", path.parent, found)
    for file in list(found):  # a recipe's setup script, a dataset's graders' scripts
        if file.suffix in (".yaml", ".yml"):
            _walk(_read(file), file.parent, found)
    found.pop(path.resolve(), None)
    return list(found)


def targets_file(path: Path, repo_root: Path) -> Path | None:
    """The targets file the tests of the eval file at `path` read, as the runner finds it."""
    found = find_targets_file(path.parent, repo_root)
    return found.resolve() if found is not None else None


def _walk(raw: Any, base: Path, found: dict[Path, None]) -> None:
    if isinstance(raw, dict):
        for key, value in raw.items():
            if key in HANDED:
                continue
            if key in RUN:
                _scripts(value, (base / str(raw.get("cwd") or "."), base), found)
            _walk(value, base, found)
    elif isinstance(raw, list):
        for item in raw:
            _walk(item, base, found)
    elif isinstance(raw, str) and raw.startswith(FILE_PREFIX):
        for file in glob.glob(str(_resolve(base, raw)), recursive=True):
            if Path(file).is_file():
                found[Path(file).resolve()] = None


def _resolve(base: Path, reference: str) -> Path:
    """A `file://` reference's path; an extension's `:HOOK` taken off."""
    target = reference.removeprefix(FILE_PREFIX)
    module, _, hook = target.rpartition(":")
    return (base / (module if module and hook in HOOKS else target)).resolve()


def _scripts(value: Any, bases: tuple[Path, ...], found: dict[Path, None]) -> None:
    """The first word of a command that names a file (the script it runs; the files it is handed may be the
    artifact), from its `cwd` or the folder of the file that gives it (a setup's `cwd` is the workdir's,
    which need not exist yet)."""
    if isinstance(value, str):
        try:
            words = shlex.split(value)
        except ValueError:
            words = value.split()
    elif isinstance(value, list):
        words = [w for w in value if isinstance(w, str)]
    else:
        return
    relative = [w for w in words if not w.startswith(("/", "-"))]  # not an interpreter's own path, nor an option
    script = next((f for w in relative for b in bases if (f := (b / w).resolve()).is_file()), None)
    if script is not None:
        found[script] = None


def _read(file: Path) -> Any:
    try:
        return load_yaml(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):  # unreadable: the parse says so, naming the field
        return None
