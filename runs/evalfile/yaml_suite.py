"""AgentV's EVAL.yaml → a Suite: suite-level input prepended, suite-level assertions appended, tests inline or from a file."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import yaml

from runs.evalfile import fields
from runs.evalfile.interpolate import interpolate
from runs.evalfile.messages import parse_files, parse_input, resolve_file
from runs.evalfile.model import Case, GraderSpec, Suite
from runs.evalfile.problems import Problems, one_line
from runs.graders import IMPLICIT, agentv_skips, parse_list
from runs.graders.scoring import DEFAULT_THRESHOLD


def parse(path: Path, raw: Any, problems: Problems) -> Suite:
    suite = Suite(path=path, name=path.stem.removesuffix(".eval"))
    if not isinstance(raw, dict):
        problems.add(None, "(root)", "an eval file must be a mapping with `tests`")
        return suite
    raw = interpolate(raw)
    fields.check_fields(raw, fields.SUITE, fields.SUITE_UNSUPPORTED, problems, None)
    suite.name = str(raw.get("name") or suite.name)
    suite.description = str(raw.get("description") or "")
    _execution(raw.get("execution"), suite, problems)
    prefix = parse_input(raw.get("input"), suite.directory, problems, None, "input")
    shared = parse_graders(raw.get("assertions"), problems, None, "assertions")
    for index, item in enumerate(_tests(raw.get("tests"), suite.directory, problems)):
        case = parse_case(item, index, suite.directory, problems)
        if case is None:
            continue
        case.messages = prefix + case.messages
        case.graders = case.graders + shared
        skip = agentv_skips(case, suite.directory)
        if skip:
            logging.getLogger("autoresearch.runs").warning("%s: skipping test %r as AgentV does: %s", path, case.id, skip)
            continue
        finish_case(case, problems)
        suite.cases.append(case)
    check_unique_ids(suite, problems)
    return suite


def _execution(raw: Any, suite: Suite, problems: Problems) -> None:
    if raw is None:
        return
    if not isinstance(raw, dict):
        problems.add(None, "execution", "must be a mapping")
        return
    fields.check_fields(raw, fields.EXECUTION, fields.EXECUTION_UNSUPPORTED, problems, None, "execution.")
    suite.target = fields.text(raw, "target", problems, None, "execution.target")
    threshold = raw.get("threshold", DEFAULT_THRESHOLD)
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
        problems.add(None, "execution.threshold", "must be a score in [0, 1]")
    else:
        suite.threshold = float(threshold)


def _tests(raw: Any, base: Path, problems: Problems) -> list[Any]:
    """Inline tests, or a path to a YAML list or a JSONL file of tests."""
    if isinstance(raw, list):
        return raw
    if isinstance(raw, str):
        path = resolve_file(raw, base)
        if not path.is_file():
            problems.add(None, "tests", f"no such file {raw}")
            return []
        text = path.read_text(encoding="utf-8")
        try:
            if path.suffix == ".jsonl":
                loaded = [json.loads(line) for line in text.splitlines() if line.strip()]
            else:
                loaded = yaml.safe_load(text)
        except (ValueError, yaml.YAMLError) as exc:
            problems.add(None, "tests", f"{raw} is not valid {path.suffix.lstrip('.')}: {one_line(exc)}")
            return []
        loaded = loaded.get("tests") if isinstance(loaded, dict) else loaded
        if isinstance(loaded, list):
            return interpolate(loaded)
    problems.add(None, "tests", "must be a list of tests or a path to a .yaml/.jsonl file of tests")
    return []


def parse_case(item: Any, index: int, base: Path, problems: Problems) -> Case | None:
    if not isinstance(item, dict):
        problems.add(None, f"tests[{index}]", "a test must be a mapping")
        return None
    test_id = item.get("id")
    if not isinstance(test_id, (str, int)) or str(test_id) == "":
        problems.add(None, f"tests[{index}].id", "every test needs an `id`")
        test_id = f"tests[{index}]"
    test_id = str(test_id)
    fields.check_fields(item, fields.TEST, fields.TEST_UNSUPPORTED, problems, test_id)
    case = Case(id=test_id, messages=parse_input(item.get("input"), base, problems, test_id, "input"))
    if "input" not in item:
        problems.add(test_id, "input", "every test needs an `input`")
    case.expected_output = item.get("expected_output")
    case.criteria = fields.text(item, "criteria", problems, test_id, "criteria") or ""
    case.metadata = fields.mapping(item, "metadata", problems, test_id, "metadata")
    case.graders = parse_graders(item.get("assertions"), problems, test_id, "assertions")
    execution = fields.mapping(item, "execution", problems, test_id, "execution")
    fields.check_fields(execution, fields.TEST_EXECUTION, {}, problems, test_id, "execution.")
    case.target = fields.text(execution, "target", problems, test_id, "execution.target")
    case.files = parse_files(item.get("files"), base, problems, test_id)
    return case


def parse_graders(raw: Any, problems: Problems, test_id: str | None, where: str) -> list[GraderSpec]:
    """Typed assertions become specs; plain strings become one LLM-graded rubric (`runs.graders.parse_list`)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add(test_id, where, "must be a list")
        return []
    return parse_list(raw, problems, test_id, where)


def finish_case(case: Case, problems: Problems) -> None:
    """A test with criteria and no graders gets the implicit llm-grader; one with neither cannot be scored."""
    if not case.graders and case.criteria:
        case.graders = [IMPLICIT]
    if not case.graders and not any(p.test_id == case.id for p in problems.items):
        problems.add(case.id, "assertions", "the test has no assertions and no criteria, so nothing can score it")


def check_unique_ids(suite: Suite, problems: Problems) -> None:
    seen: set[str] = set()
    for case in suite.cases:
        if case.id in seen:
            problems.add(case.id, "id", "duplicate test id")
        seen.add(case.id)
