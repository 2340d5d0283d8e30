"""skill-creator's evals.json → a Suite: `prompt` is the input, string assertions are LLM-graded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runs.evalfile import fields
from runs.evalfile.interpolate import interpolate
from runs.evalfile.messages import parse_files, parse_input
from runs.evalfile.model import Case, Suite
from runs.evalfile.problems import Problems
from runs.evalfile.yaml_suite import check_unique_ids, finish_case, parse_graders

TOP = {"skill_name", "evals", "name", "description"}
EVAL = {"id", "prompt", "expected_output", "files", "assertions", "expectations", "name", "metadata"}


def parse(path: Path, raw: Any, problems: Problems) -> Suite:
    suite = Suite(path=path, name=path.stem)
    if isinstance(raw, dict):
        for key in raw.keys() - TOP:
            problems.add(None, key, f"unknown field (expected one of: {', '.join(sorted(TOP))})")
        suite.name = str(raw.get("skill_name") or raw.get("name") or suite.name)
        raw = raw.get("evals")
    if not isinstance(raw, list):
        problems.add(None, "evals", "evals.json needs an `evals` list")
        return suite
    for index, item in enumerate(interpolate(raw)):
        case = _case(item, index, suite.directory, problems)
        if case is not None:
            finish_case(case, problems)
            suite.cases.append(case)
    check_unique_ids(suite, problems)
    return suite


def _case(item: Any, index: int, base: Path, problems: Problems) -> Case | None:
    if not isinstance(item, dict):
        problems.add(None, f"evals[{index}]", "an eval must be a mapping")
        return None
    test_id = str(item.get("id", index + 1))
    for key in item.keys() - EVAL:
        problems.add(test_id, key, f"unknown field (expected one of: {', '.join(sorted(EVAL))})")
    if not isinstance(item.get("prompt"), str):
        problems.add(test_id, "prompt", "every eval needs a `prompt` string")
    case = Case(id=test_id, messages=parse_input(item.get("prompt", ""), base, problems, test_id, "prompt"))
    case.expected_output = item.get("expected_output")
    case.metadata = fields.mapping(item, "metadata", problems, test_id, "metadata")
    case.files = parse_files(item.get("files"), base, problems, test_id)
    case.graders = parse_graders(item.get("assertions", item.get("expectations")), problems, test_id, "assertions")
    if not case.graders and case.expected_output:
        case.criteria = f"The answer matches this expected output: {case.expected_output}"
    return case
