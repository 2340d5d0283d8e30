"""`imports:` of AgentV's Experiments page: whole suites (`imports.suites`) and raw test rows (`imports.tests`).

An imported suite keeps its own contract (shared input, shared assertions,
its tests) and is filtered by `select`: `test_ids` globs, `tags` (the
suite's tags, then its metadata's, then the test's metadata's) and
`metadata` key/values (a list value matches any of its items). Raw test rows
are parsed in the importing file's context, as inline tests are. Paths may
be globs, taken in sorted order; a suite that imports itself, directly or
not, is an error naming the chain. The parent file still owns the run: its
target and threshold apply to every imported test, except where an import's
scoped `run:` (repeat, threshold) or the test's own says otherwise
(test.run > import run > the parent's run controls).
"""

from __future__ import annotations

import fnmatch
import glob
from pathlib import Path
from typing import Any, Callable

from autoresearch.runs.evalfile import fields, run_controls, tests_source
from autoresearch.runs.evalfile.model import Case, Suite
from autoresearch.runs.evalfile.problems import Problems

LoadChild = Callable[[Path, Problems, tuple[Path, ...]], Suite]
"""How an imported suite is read: the eval-file parser's own `load_child`, handed in (it calls this module)."""

ENTRY = {"path", "select", "run"}
SELECT = {"test_ids", "tags", "metadata"}


def imported(
    raw: Any, base: Path, problems: Problems, chain: tuple[Path, ...], load_child: LoadChild
) -> tuple[list[Case], list[dict[str, Any]]]:
    """The cases of the imported suites, and the raw rows of the imported test files."""
    if raw is None:
        return [], []
    if not isinstance(raw, dict):
        problems.add(None, "imports", "must be a mapping with `suites` and/or `tests`")
        return [], []
    fields.check_fields(raw, {"suites", "tests"}, {}, problems, None, "imports.")
    cases = [
        case
        for where, entry in _entries(raw.get("suites"), "imports.suites", problems)
        for case in _suite(entry, base, problems, chain, where, load_child)
    ]
    rows = [
        row
        for where, entry in _entries(raw.get("tests"), "imports.tests", problems)
        for row in _rows(entry, base, problems, where)
    ]
    return cases, rows


def _entries(raw: Any, where: str, problems: Problems) -> list[tuple[str, dict[str, Any]]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add(None, where, "must be a list of {path, select} entries")
        return []
    found = []
    for index, entry in enumerate(raw):
        here = f"{where}[{index}]"
        if isinstance(entry, str):
            entry = {"path": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            problems.add(None, here, "an import needs a `path` (a file or a glob)")
            continue
        fields.check_fields(entry, ENTRY, {}, problems, None, f"{here}.")
        found.append((here, entry))
    return found


def _paths(pattern: str, base: Path, problems: Problems, where: str) -> list[Path]:
    pattern = pattern.removeprefix(tests_source.FILE_PREFIX)
    matches = sorted(Path(p).resolve() for p in glob.glob(str(base / pattern), recursive=True) if Path(p).is_file())
    if not matches:
        problems.add(None, f"{where}.path", f"{pattern} matches no file (under {base})")
    return matches


def _suite(
    entry: dict[str, Any], base: Path, problems: Problems, chain: tuple[Path, ...], where: str, load_child: LoadChild
) -> list[Case]:
    cases: list[Case] = []
    for path in _paths(entry["path"], base, problems, where):
        if path in chain:
            problems.add(None, f"{where}.path", "circular import: " + " -> ".join(str(p) for p in (*chain, path)))
            continue
        child = load_child(path, problems, (*chain, path))
        select = entry.get("select") or {}
        cases.extend(c for c in child.cases if _selected(c, child.tags, select, problems, where))
    for case in cases:
        run_controls.scoped_run(entry.get("run"), case, problems, None, f"{where}.run", fill_only=True)
    return cases


def _rows(entry: dict[str, Any], base: Path, problems: Problems, where: str) -> list[dict[str, Any]]:
    rows = [
        row
        for path in _paths(entry["path"], base, problems, where)
        for row in tests_source.rows_of(path, problems, where)
    ]
    select = entry.get("select") or {}
    return [_with_run(row, entry.get("run")) for row in rows if _selected_row(row, select, problems, where)]


def _with_run(row: dict[str, Any], run: Any) -> dict[str, Any]:
    """A raw row with the import's `run:` under its own settings: what the test sets itself wins."""
    if not isinstance(run, dict):
        return row if run is None else {**row, "run": run}  # parsed, and refused, with the row
    own = given if isinstance(given := row.get("run"), dict) else {}
    execution = given if isinstance(given := row.get("execution"), dict) else {}
    options = given if isinstance(given := row.get("options"), dict) else {}
    inherited = {
        k: v
        for k, v in run.items()
        if not (k == "threshold" and "threshold" in execution) and not (k == "repeat" and "repeat" in options)
    }
    return {**row, "run": {**inherited, **own}}


def _selected(case: Case, suite_tags: list[str], select: Any, problems: Problems, where: str) -> bool:
    tags = [*suite_tags, *as_tags(case.metadata.get("tags"))]
    return _matches(case.id, tags, case.metadata, select, problems, where)


def _selected_row(row: dict[str, Any], select: Any, problems: Problems, where: str) -> bool:
    metadata = given if isinstance(given := row.get("metadata"), dict) else {}
    return _matches(str(row.get("id", "")), as_tags(metadata.get("tags")), metadata, select, problems, where)


def _matches(
    test_id: str, tags: list[str], metadata: dict[str, Any], select: Any, problems: Problems, where: str
) -> bool:
    if not isinstance(select, dict):
        problems.add(None, f"{where}.select", "must be a mapping of test_ids, tags and metadata")
        return False
    fields.check_fields(select, SELECT, {}, problems, None, f"{where}.select.")
    ids = as_tags(select.get("test_ids"))
    if ids and not any(fnmatch.fnmatchcase(test_id, pattern) for pattern in ids):
        return False
    wanted = as_tags(select.get("tags"))
    if wanted and not set(wanted) <= set(tags):
        return False
    wanted_metadata = given if isinstance(given := select.get("metadata"), dict) else {}
    return all(_value_matches(metadata.get(key), value) for key, value in wanted_metadata.items())


def _value_matches(actual: Any, wanted: Any) -> bool:
    options = wanted if isinstance(wanted, list) else [wanted]
    values = actual if isinstance(actual, list) else [actual]
    return any(v in options for v in values)


def as_tags(raw: Any) -> list[str]:
    """Tags in selection form: a string or a list of strings (the map form is run metadata, not tags to select on)."""
    if isinstance(raw, str):
        return [raw]
    if isinstance(raw, list):
        return [str(t) for t in raw if isinstance(t, (str, int))]
    return []
