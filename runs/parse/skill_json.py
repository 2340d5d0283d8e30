"""skill-creator's evals.json → a Suite as AgentV reads it: `prompt` is the input, `expected_output` the criteria, string assertions are LLM-graded, a test without assertions gets the default llm-grader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoresearch.runs.evalfile import fields
from autoresearch.runs.evalfile.interpolate import interpolate
from autoresearch.runs.evalfile.messages import parse_files, parse_input
from autoresearch.runs.evalfile.model import Case, GraderSpec, Suite
from autoresearch.runs.evalfile.problems import Problems
from autoresearch.runs.graders import IMPLICIT, parse_spec, string_graders
from autoresearch.runs.parse.yaml_suite import check_unique_ids, finish_case

TOP = {"skill_name", "evals"}
EVAL = {"id", "prompt", "expected_output", "files", "assertions"}
IGNORED = {
    "should_trigger": "a trigger eval (does the skill load?) needs an agent harness; AgentV runs the prompt and ignores it too",
    "expectations": "AgentV reads `assertions`, not skill-creator's `expectations`; the test is graded on its expected_output",
}


def parse(path: Path, raw: Any, problems: Problems) -> Suite:
    suite = Suite(path=path, name=path.stem)
    if isinstance(raw, dict):
        fields.check_fields(raw, TOP, {}, problems, None)
        suite.name = str(raw.get("skill_name") or suite.name)
        raw = raw.get("evals")
    if not isinstance(raw, list) or not raw:
        problems.add(None, "evals", "evals.json needs a non-empty `evals` list")
        return suite
    for index, item in enumerate(interpolate(raw)):
        case = _case(item, index, suite.directory, problems)
        if case is not None:
            finish_case(case, problems)
            suite.cases.append(case)
    check_unique_ids(suite, problems)
    return suite


def _case(item: Any, index: int, base: Path, problems: Problems) -> Case | None:
    """One eval as AgentV's agent-skills parser reads it; one without a prompt is skipped, as there."""
    if not isinstance(item, dict):
        problems.add(None, f"evals[{index}]", "an eval must be a mapping")
        return None
    test_id = str(item.get("id", index + 1))
    fields.check_fields(item, EVAL, {}, problems, test_id, ignored=IGNORED)
    prompt = item.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        problems.note(test_id, "prompt", "missing or empty, so the eval is skipped (as in AgentV)")
        return None
    case = Case(id=test_id, messages=parse_input(prompt, base, problems, test_id, "prompt"))
    case.expected_output = item.get("expected_output")
    case.criteria = case.expected_output if isinstance(case.expected_output, str) else ""
    case.files = parse_files(item.get("files"), base, problems, test_id, required=False)
    case.graders = _graders(item.get("assertions"), problems, test_id)
    if not case.graders:  # AgentV's default grader: an llm-grader on the criteria (the expected output, maybe empty)
        case.graders = [IMPLICIT]
    return case


def _graders(raw: Any, problems: Problems, test_id: str) -> list[GraderSpec]:
    """Each string its own llm-grader (as AgentV); a typed assertion (our extension) parsed as in EVAL.yaml."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add(test_id, "assertions", "must be a list")
        return []
    texts = [item for item in raw if isinstance(item, str)]
    typed = [
        parse_spec(item, problems, test_id, f"assertions[{i}]")
        for i, item in enumerate(raw)
        if not isinstance(item, str)
    ]
    return string_graders(texts) + [spec for spec in typed if spec is not None]
