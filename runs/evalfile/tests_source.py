"""Where an EVAL.yaml's tests come from, as AgentV finds them.

`tests:` is a list (whose `file://` entries, globs allowed, are replaced by
the tests of the YAML or JSONL files they name), a path to such a file, or
a directory whose subdirectories each hold a `case.yaml` (the directory's
name is the test's id unless it sets one). An entry that is not a mapping
is skipped with a note, as AgentV skips it with a warning.
"""

from __future__ import annotations

import glob
import json
from pathlib import Path
from typing import Any, cast

import yaml

from autoresearch.plumbing import jsonlines
from autoresearch.runs.evalfile.interpolate import interpolate
from autoresearch.runs.evalfile.problems import Problems, one_line
from autoresearch.runs.evalfile.yamlload import load_yaml

FILE_PREFIX = "file://"
CASE_FILES = ("case.yaml", "case.yml")


def expand(raw: Any, base: Path, problems: Problems) -> list[dict[str, Any]]:
    """Every test mapping of the suite, in file order, each with its `${{ VAR }}` references resolved."""
    if isinstance(raw, str):
        path = (base / raw.removeprefix(FILE_PREFIX)).resolve()  # relative to the eval file only, not searched upwards
        if path.is_dir():
            return _directory(path, problems)
        return _file(path, raw, problems)
    if not isinstance(raw, list):
        problems.add(
            None,
            "tests",
            "must be a list of tests, a path to a .yaml/.jsonl file of tests, or a directory of case.yaml files",
        )
        return []
    tests: list[dict[str, Any]] = []
    for index, item in enumerate(raw):
        if isinstance(item, str) and item.startswith(FILE_PREFIX):
            tests.extend(_reference(item, base, problems, f"tests[{index}]"))
        elif isinstance(item, dict):
            tests.append(item)
        else:
            problems.note(None, f"tests[{index}]", "not a mapping, so skipped (AgentV skips it too)")
    return tests


def _reference(ref: str, base: Path, problems: Problems, where: str) -> list[dict[str, Any]]:
    pattern = ref.removeprefix(FILE_PREFIX)
    if not any(c in pattern for c in "*?{"):
        return _file((base / pattern).resolve(), ref, problems, where)
    matches = sorted(Path(p) for p in glob.glob(str(base / pattern), recursive=True) if Path(p).is_file())
    if not matches:
        problems.note(None, where, f"{ref} matches no file, so it adds no tests (as in AgentV)")
    return [test for match in matches for test in _file(match, ref, problems, where)]


def rows_of(path: Path, problems: Problems, where: str) -> list[dict[str, Any]]:
    """The raw test rows of one .yaml/.yml/.jsonl file (for `imports.tests`)."""
    return _file(path, str(path), problems, where)


def _file(path: Path, name: str, problems: Problems, where: str = "tests") -> list[dict[str, Any]]:
    """The tests of one YAML (a list, or a mapping with `tests`) or JSONL file."""
    if not path.is_file():
        problems.add(None, where, f"no such file {name} (resolved to {path})")
        return []
    if path.suffix not in (".yaml", ".yml", ".jsonl"):
        problems.add(None, where, f"{name}: tests must be in a .yaml, .yml or .jsonl file")
        return []
    text = path.read_text(encoding="utf-8")
    try:
        loaded = (
            [json.loads(line) for line in jsonlines.lines(text) if line.strip()]
            if path.suffix == ".jsonl"
            else load_yaml(text)
        )
    except (ValueError, yaml.YAMLError) as exc:
        problems.add(None, where, f"{name} is not valid {path.suffix.lstrip('.')}: {one_line(exc)}")
        return []
    loaded = loaded.get("tests") if isinstance(loaded, dict) else loaded
    if loaded is None:
        return []
    if not isinstance(loaded, list) or not all(isinstance(item, dict) for item in loaded):
        problems.add(None, where, f"{name} must hold a list of test mappings")
        return []
    return cast(list[dict[str, Any]], interpolate(loaded))  # a list of mappings, checked above


def _directory(path: Path, problems: Problems) -> list[dict[str, Any]]:
    tests = []
    for sub in sorted(p for p in path.iterdir() if p.is_dir()):
        case_file = next((sub / name for name in CASE_FILES if (sub / name).is_file()), None)
        if case_file is None:
            problems.note(None, "tests", f"{sub.name}/ has no case.yaml, so it is skipped (as in AgentV)")
            continue
        try:
            loaded = load_yaml(case_file.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            problems.add(None, "tests", f"{case_file} is not valid YAML: {one_line(exc)}")
            continue
        if not isinstance(loaded, dict):
            problems.add(None, "tests", f"{case_file} must be a mapping (one test)")
            continue
        loaded = interpolate(loaded)
        if loaded.get("id") is None:
            loaded["id"] = sub.name
        if "workspace" not in loaded and (sub / "workspace").is_dir():
            loaded["workspace"] = {"template": str(sub / "workspace")}
        tests.append(loaded)
    return tests
