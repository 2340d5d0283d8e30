"""AgentV's EVAL.yaml → a Suite: suite-level input and input_files prepended and suite-level assertions appended (unless a test skips the defaults), per-test `vars` rendered, tests inline, from files or from a directory."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from autoresearch.runs.evalfile import conversation, dependencies, fields, run_controls, tests_source
from autoresearch.runs.evalfile import workspace as workspace_config
from autoresearch.runs.evalfile.interpolate import interpolate, render_vars
from autoresearch.runs.evalfile.messages import parse_files, parse_input
from autoresearch.runs.evalfile.model import Case, GraderSpec, Message, Suite, TargetRef
from autoresearch.runs.evalfile.problems import Problems, one_line
from autoresearch.runs.evalfile.workspace import Workspace, target_hooks
from autoresearch.runs.evalfile.yamlload import load_yaml
from autoresearch.runs.graders import IMPLICIT, agentv_skips, parse_list
from autoresearch.runs.parse import imports
from autoresearch.runs.parse.assertions import normalize, skipped


@dataclass(frozen=True)
class Defaults:
    """What the suite gives every test unless the test sets `execution.skip_defaults: true`."""

    input: list[Message] = field(default_factory=list)
    input_files: Any = None
    graders: list[GraderSpec] = field(default_factory=list)
    workspace: Workspace | None = None  # merged into every test's, `skip_defaults` or not (as AgentV does)


def file_suite_name(path: Path) -> str:
    """The suite's name when the file gives none, as AgentV's: the file name without `.eval.yaml` (any case),
    else without `.yaml`, else `eval`."""
    return re.sub(r"\.ya?ml$", "", re.sub(r"\.eval\.ya?ml$", "", path.name, flags=re.I), flags=re.I) or "eval"


def parse(
    path: Path, raw: Any, problems: Problems, chain: tuple[Path, ...] = (), ungraded: float | None = None
) -> Suite:
    """The suite of a 4.x-shaped file; `ungraded`: the score of a test left with no grader (AgentV 5's 1 for a
    lowered 5.x file; None: such a test is an error, and one with only criteria gets the implicit llm-grader)."""
    suite = Suite(path=path, name=file_suite_name(path))
    if not isinstance(raw, dict):
        problems.add(None, "(root)", "an eval file must be a mapping with `tests`")
        return suite
    raw = interpolate(raw)
    fields.check_fields(raw, fields.SUITE, fields.SUITE_UNSUPPORTED, problems, None, ignored=fields.SUITE_IGNORED)
    suite.name = str(raw.get("name") or suite.name)
    suite.description = str(raw.get("description") or "")
    suite.tags = imports.as_tags(raw.get("tags")) + imports.as_tags(
        fields.mapping(raw, "metadata", problems, None, "metadata").get("tags")
    )
    _run_controls(raw, suite, problems)
    _execution(raw.get("execution"), suite, problems)
    execution = raw.get("execution")
    run_controls.suite_controls(raw, execution if isinstance(execution, dict) else {}, suite, problems)
    run_controls.extensions(raw.get("extensions"), suite.directory, problems)
    defaults = Defaults(
        parse_input(raw.get("input"), suite.directory, problems, None, "input"),
        raw.get("input_files"),
        parse_graders(raw.get("assertions", raw.get("assert")), problems, None, "assertions"),
        workspace_config.parse(raw.get("workspace"), suite.directory, problems, None),
    )
    suites, rows = imports.imported(
        raw.get("imports"), suite.directory, problems, chain or (path.resolve(),), load_child
    )
    tests = raw.get("tests", raw.get("eval_cases", raw.get("evalcases")))
    if tests is None and (suites or rows):
        tests = []
    for index, item in enumerate(tests_source.expand(tests, suite.directory, problems) + rows):
        case = parse_case(item, index, suite.directory, problems, defaults)
        if case is None:
            continue
        skip = incomplete(item) or agentv_skips(case, suite.directory)
        if skip:
            problems.note(case.id, "assertions", f"the test is skipped, as AgentV skips it: {skip}")
            suite.skipped.append(case.id)
            continue
        case.ungraded_score = ungraded
        finish_case(case, problems)
        suite.cases.append(case)
    suite.cases.extend(suites)
    if not chain:  # the file that runs owns the run controls; an imported suite's own are not applied
        for case in suite.cases:
            case.timeout_s = case.timeout_s or suite.timeout_s
    check_unique_ids(suite, problems)
    dependencies.check(suite.cases, problems)
    return suite


def load_child(path: Path, problems: Problems, chain: tuple[Path, ...]) -> Suite:
    """An imported suite, parsed with its own contract; its problems are reported under its own file name."""
    own = Problems(str(path))
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        own.add(None, "(file)", f"cannot read the imported suite ({one_line(exc)})")
        raw = None
    suite = parse(path, raw, own, chain) if raw is not None else Suite(path=path, name=path.stem)
    problems.extend(own)
    return suite


def _run_controls(raw: dict[str, Any], suite: Suite, problems: Problems) -> None:
    """The Experiments page's flat run controls: `target` (a name, or `{extends: name, <overrides>}`, see
    `autoresearch.runs.targets.extend`) and `threshold`; `execution` wins."""
    target = raw.get("target")
    if isinstance(target, dict):
        if (
            not isinstance(target.get("extends"), str)
            or not target["extends"].strip()
            or not isinstance(target.get("id", ""), str)
        ):
            problems.add(
                None,
                "target.extends",
                "must name a target of targets.yaml: target: {extends: NAME, <fields to override>}",
            )
            return
        suite.target_extends = target
        hooks = target_hooks(target.get("hooks"))
        target = target.get("id") or target["extends"]
        if hooks:  # run as an `execution.targets` entry's are: in the workspace, after the workspace's own
            suite.target_refs[target] = TargetRef(hooks=hooks)
    if target is not None and not isinstance(target, str):
        problems.add(None, "target", "must be a target name or {extends: name, <overrides>}")
    elif target is not None:
        suite.target = target
    _threshold(raw.get("threshold", suite.threshold), "threshold", suite, problems)


def _threshold(value: Any, field_name: str, suite: Suite, problems: Problems) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        problems.add(None, field_name, "must be a score in [0, 1]")
    else:
        suite.threshold = float(value)


def _execution(raw: Any, suite: Suite, problems: Problems) -> None:
    if raw is None:
        return
    if not isinstance(raw, dict):
        problems.add(None, "execution", "must be a mapping")
        return
    fields.check_fields(
        raw, fields.EXECUTION, fields.EXECUTION_UNSUPPORTED, problems, None, "execution.", fields.EXECUTION_IGNORED
    )
    suite.target = fields.text(raw, "target", problems, None, "execution.target") or suite.target
    _threshold(raw.get("threshold", suite.threshold), "execution.threshold", suite, problems)


def incomplete(item: dict[str, Any]) -> str | None:
    """Why AgentV 4.42.4's parser skips the test as incomplete: it runs a test only when the test itself has
    criteria, an expected_output, `assertions` / `assert` (even empty) or `turns`; the suite's assertions
    do not count."""
    criteria = [item.get(key) for key in ("criteria", "expected_outcome")]
    expected = item.get("expected_output")
    turns = item.get("turns")
    if (
        any(isinstance(text, str) and text for text in criteria)
        or expected is not None  # an empty list too (the real agentv runs such a test)
        or "assertions" in item
        or "assert" in item
        or (isinstance(turns, list) and turns)
    ):
        return None
    return "it has no criteria, expected_output, assertions or turns of its own (the suite's assertions do not count)"


def parse_case(
    item: dict[str, Any], index: int, base: Path, problems: Problems, defaults: Defaults = Defaults()
) -> Case | None:
    test_id = item.get("id")
    if not isinstance(test_id, (str, int)) or str(test_id) == "":
        problems.add(None, f"tests[{index}].id", "every test needs an `id`")
        test_id = f"tests[{index}]"
    test_id = str(test_id)
    fields.check_fields(item, fields.TEST, fields.TEST_UNSUPPORTED, problems, test_id, ignored=fields.TEST_IGNORED)
    item = _with_vars(item, problems, test_id)
    execution = fields.mapping(item, "execution", problems, test_id, "execution")
    fields.check_fields(execution, fields.TEST_EXECUTION, {}, problems, test_id, "execution.")
    own = execution.get("skip_defaults") is not True
    case = Case(id=test_id, messages=_input(item, defaults if own else Defaults(), base, problems, test_id))
    if "input" not in item:
        problems.add(test_id, "input", "every test needs an `input`")
    case.expected_output = item.get("expected_output")
    case.criteria = (
        fields.text(item, "criteria", problems, test_id, "criteria")
        or fields.text(item, "expected_outcome", problems, test_id, "expected_outcome")
        or ""
    )
    case.metadata = fields.mapping(item, "metadata", problems, test_id, "metadata")
    inline = parse_graders(_inline_rubrics(item.get("rubrics")), problems, test_id, "rubrics")
    case.graders = inline + parse_graders(item.get("assertions", item.get("assert")), problems, test_id, "assertions")
    if own:
        case.graders += defaults.graders
    case.target = fields.text(execution, "target", problems, test_id, "execution.target")
    case.files = parse_files(item.get("files"), base, problems, test_id)
    case.conversation = conversation.parse(item, problems, test_id, parse_graders)
    case.workspace = workspace_config.merge(
        defaults.workspace, workspace_config.parse(item.get("workspace"), base, problems, test_id)
    )
    run_controls.case_controls(item, execution, case, problems)
    return case


def _with_vars(item: dict[str, Any], problems: Problems, test_id: str) -> dict[str, Any]:
    """The test with its `{{ var }}` references rendered in the fields AgentV renders them in."""
    variables = item.get("vars")
    if variables is None:
        return item
    if not isinstance(variables, dict):
        problems.note(test_id, "vars", "not a mapping, so ignored (as in AgentV)")
        return item
    rendered = {**item, **{k: render_vars(item[k], variables) for k in VAR_FIELDS if k in item}}
    if isinstance(item.get("turns"), list):  # AgentV renders each turn's input and expected_output too
        rendered["turns"] = [
            {**t, **{k: render_vars(t[k], variables) for k in ("input", "expected_output") if k in t}}
            if isinstance(t, dict)
            else t
            for t in item["turns"]
        ]
    return rendered


VAR_FIELDS = ("criteria", "expected_outcome", "input", "input_files", "expected_output")


def _input(item: dict[str, Any], defaults: Defaults, base: Path, problems: Problems, test_id: str) -> list[Message]:
    """The suite's input, then the test's; `input_files` (the test's, else the suite's) go before a string input's text."""
    files = item.get("input_files", defaults.input_files)
    raw = item.get("input")
    if files is not None:
        where = "input_files" if "input_files" in item else "input_files (suite)"
        if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
            problems.add(test_id, where, "must be a list of paths")
        elif isinstance(raw, str) and files:
            raw = [
                {
                    "role": "user",
                    "content": [*({"type": "file", "value": f} for f in files), {"type": "text", "value": raw}],
                }
            ]
        elif files:
            problems.note(test_id, where, "ignored because the input is not a single string (as in AgentV)")
    return defaults.input + parse_input(raw, base, problems, test_id, "input")


def _inline_rubrics(raw: Any) -> Any:
    """A test's own `rubrics:` list is one rubrics grader put before its assertions, as AgentV does."""
    if raw is None:
        return None
    return [{"type": "rubrics", "name": "rubrics", "criteria": raw}]


def parse_graders(raw: Any, problems: Problems, test_id: str | None, where: str) -> list[GraderSpec]:
    """Typed assertions become specs; plain strings become one LLM-graded rubric (`autoresearch.runs.graders.parse_list`)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.add(test_id, where, "must be a list")
        return []
    kept: list[Any] = []  # AgentV's forms translated, in order; plain strings stay where they are
    for index, item in enumerate(raw):
        here = f"{where}[{index}]"
        if isinstance(item, str):
            kept.append(item)
            continue
        reason = skipped(item)
        if reason:
            problems.note(test_id, here, f"skipped: {reason}")
            continue
        item = normalize(item, problems, test_id, here)
        if item is not None:
            kept.append(item)
    return parse_list(kept, problems, test_id, where)


def finish_case(case: Case, problems: Problems) -> None:
    """A test with criteria and no graders gets the implicit llm-grader; one with neither cannot be scored."""
    if case.conversation is not None:
        return  # its turns are graded; its own assertions, if any, grade the whole transcript
    if case.ungraded_score is not None:
        return  # AgentV 5 lowered its criteria to a rubric line already; no grader left scores it as it says
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
