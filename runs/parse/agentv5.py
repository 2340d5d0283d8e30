"""AgentV 5.x's promptfoo-aligned eval files, told from 4.x files and translated into the 4.x shape we run.

AgentV 5 itself lowers its new shape into the old one before anything runs
(`prompts` rendered with each test's `vars` become the test's `input`;
`default_test.assert` and `assert` become the suite's graders), so the
translation here follows its parser and hands the result to the 4.x parser
(`autoresearch.runs.parse.yaml_suite`). What 5.x adds and we cannot run yet
(environments, extensions, transforms, several prompts, ...) is a problem
naming the field, never a test scored differently.

A file is 5.x when it says so (`requires: {agentv: ">=5"}`) or uses a field
only 5.x has; otherwise it is read as 4.x, which also accepts `assert` and `vars`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from autoresearch.runs.evalfile import environment, extensions, tests_source
from autoresearch.runs.evalfile.docker_recipe import DockerEnvironment
from autoresearch.runs.evalfile.environment import HostEnvironment
from autoresearch.runs.evalfile.interpolate import env_references, interpolate, render_vars
from autoresearch.runs.evalfile.model import Suite
from autoresearch.runs.evalfile.problems import Problems, one_line
from autoresearch.runs.evalfile.workspace import Workspace
from autoresearch.runs.evalfile.yamlload import load_yaml
from autoresearch.runs.parse.graders5 import graders, listed
from autoresearch.runs.parse.version5 import list_or_none

PASSED = {
    "name",
    "description",
    "tags",
    "target",
    "threshold",
    "timeout_seconds",
    "evaluate_options",
    "input_files",
    "metadata",
    "version",
    "author",
    "license",
    "category",
    "requires",
    "$schema",
}
"""5.x suite fields whose meaning is the 4.x one: handed on as they are."""
REMOVED = {
    "execution": "removed in AgentV 5 (targets at the top level, repeat/budget/concurrency in evaluate_options)",
    "input": "removed in AgentV 5 (write `prompts` and put each test's data in `tests[].vars`)",
    "assertions": "renamed `assert` in AgentV 5",
    "expected_output": "removed in AgentV 5 (put it in `vars.expected_output`)",
    "eval_cases": "removed in AgentV 5 (use `tests`)",
    "evalcases": "removed in AgentV 5 (use `tests`)",
    "imports": "not supported by AgentV 5 (run the files together instead)",
    "preprocessors": "removed in AgentV 5 (use `transform`)",
}
UNSUPPORTED = {
    "scenarios": "scenarios",
    "graders": "shared grader definitions",
    "derived_metrics": "derived metrics",
    "nunjucks_filters": "nunjucks filters",
    "output_path": "output paths",
    "env": "per-file provider environment",
    "workspace": "workspaces",
}
TEST_PASSED = {
    "id",
    "description",
    "criteria",
    "input_files",
    "assert",
    "threshold",
    "execution",
    "run",
    "options",
    "metadata",
    "conversation_id",
    "depends_on",
    "on_dependency_failure",
    "mode",
    "turns",
    "aggregation",
    "on_turn_failure",
    "window_size",
    "tags",
}
TEST_UNSUPPORTED = {
    "provider": "per-test providers",
    "providers": "per-test providers",
    "prompts": "per-test prompts",
    "provider_output": "recorded provider output",
    "assert_scoring_function": "assert scoring functions",
    "suite": "per-test suites",
    "workspace": "workspaces",
}


@dataclass(frozen=True)
class Runtime:
    """Where a 5.x file's tests run: the suite's `environment` (host or docker) and `extensions`, and the tests'
    own environments (inline tests only), by test id."""

    host: HostEnvironment | DockerEnvironment | None = None
    hooks: tuple[extensions.Extension, ...] = ()
    own: dict[str, HostEnvironment | DockerEnvironment | None] = field(default_factory=dict)


def runtime(raw: dict[str, Any], directory: Path, problems: Problems) -> Runtime:
    """The file's recipes, read as AgentV 5 reads them (a test's own `environment` replaces the suite's)."""
    host = environment.parse(raw.get("environment"), directory, problems)
    hooks = extensions.parse(raw.get("extensions"), directory, problems)
    own = {}
    for index, test in enumerate(list_or_none(raw.get("tests"))):
        if isinstance(test, dict) and "environment" in test:
            test_id = str(test.get("id", f"tests[{index}]"))
            found = Problems(problems.file)
            own[test_id] = environment.parse(test["environment"], directory, found)
            for p in found.items:
                problems.add(test_id, p.field, p.message)
    return Runtime(host, hooks, own)


def place(suite: Suite, runs_in: Runtime, problems: Problems) -> None:
    """Each test runs in its environment's workdir (its own, else the suite's) or, with extensions only, in the
    one shared empty workspace; a test with neither, beside tests with one, runs where the eval file is, as
    in AgentV 5. AgentV 5 sets up one host environment per file: tests naming different recipes fail there,
    every one, so such a file is refused. A test with a docker recipe runs its target in a container of its
    own; a file that has one beside a host environment or extensions is refused (not supported here)."""
    chosen = {case.id: runs_in.own.get(case.id, runs_in.host) for case in suite.cases}
    hosts = {key: value if isinstance(value, HostEnvironment) else None for key, value in chosen.items()}
    containers = {key: value if isinstance(value, DockerEnvironment) else None for key, value in chosen.items()}
    distinct: list[HostEnvironment] = []
    for host in hosts.values():
        if host is not None and host not in distinct:
            distinct.append(host)
    if len(distinct) > 1:
        problems.add(
            None,
            "environment",
            "the tests name different host environments, which AgentV 5 cannot set up in one run (it fails every "
            "test): give them one recipe, or split the file",
        )
        return
    if any(containers.values()) and (distinct or runs_in.hooks):
        problems.add(
            None,
            "environment",
            "a docker environment in a file that also has a host environment or extensions is not supported: "
            "split the file",
        )
        return
    for case in suite.cases:
        if hosts[case.id] is not None or runs_in.hooks:
            case.workspace = replace(case.workspace or Workspace(), host=hosts[case.id], extensions=runs_in.hooks)
        elif containers[case.id] is not None:
            case.workspace = replace(case.workspace or Workspace(), container=containers[case.id])


def translate(raw: dict[str, Any], directory: Path, problems: Problems) -> dict[str, Any]:
    """The 4.x-shaped suite AgentV 5 lowers this file to; every field it cannot carry is a problem naming it."""
    raw = env_references(raw)
    _refuse(raw, REMOVED, UNSUPPORTED, problems, None, "")
    if "defaults" in raw:
        problems.note(
            None,
            "defaults",
            "ignored, as AgentV 5 ignores it in an eval file (it reads `defaults` from .agentv/config.yaml)",
        )
    suite = {key: raw[key] for key in PASSED if key in raw}
    _target_object(interpolate(raw.get("target")), suite, problems)
    defaults = _default_test(raw.get("default_test"), directory, problems)
    _refuse(
        defaults, {"expected_output": REMOVED["expected_output"]}, TEST_UNSUPPORTED, problems, None, "default_test."
    )
    _targets(raw, suite, problems)
    shared = [
        *listed(defaults.get("assert"), problems, "default_test.assert"),
        *listed(raw.get("assert"), problems, "assert"),
    ]
    if shared:
        suite["assert"] = graders(shared, problems, None, "assert")
    if "threshold" in defaults and "threshold" not in suite:
        suite["threshold"] = defaults["threshold"]
    prompt = _prompt(raw.get("prompts"), directory, problems)
    rows = _rows(raw.get("tests"), directory, problems) if "tests" in raw else []
    suite["tests"] = [
        _test(row, i, inline, prompt, defaults, bool(graders), problems) for i, (row, inline) in enumerate(rows)
    ]
    return suite


def _refuse(
    raw: dict[str, Any],
    removed: dict[str, str],
    unsupported: dict[str, str],
    problems: Problems,
    test_id: str | None,
    prefix: str,
) -> None:
    for key in raw:
        if key in removed:
            problems.add(test_id, f"{prefix}{key}", removed[key])
        elif key in unsupported:
            problems.add(test_id, f"{prefix}{key}", f"AgentV 5's {unsupported[key]} are not supported yet")


def _rows(raw: Any, directory: Path, problems: Problems) -> list[tuple[dict[str, Any], bool]]:
    """Every test, and whether it is written inline: only a raw case, from a file `tests` names, may keep an `input`."""
    entries = raw if isinstance(raw, list) else [raw]
    return [
        (row, isinstance(entry, dict))
        for entry in entries
        for row in tests_source.expand(entry if isinstance(raw, str) else [entry], directory, problems)
    ]


def _default_test(raw: Any, directory: Path, problems: Problems) -> dict[str, Any]:
    """`default_test` inline, or the mapping of the file a `file://` reference names."""
    if raw is None:
        return {}
    if isinstance(raw, str) and raw.strip().startswith("file://"):
        path = directory / raw.strip().removeprefix("file://")
        try:
            raw = load_yaml(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            problems.add(None, "default_test", f"cannot read {path} ({one_line(exc)})")
            return {}
    if not isinstance(raw, dict):
        problems.add(None, "default_test", "must be a mapping or a file:// reference to one")
        return {}
    return raw


def _target_object(target: Any, suite: dict[str, Any], problems: Problems) -> None:
    """A top-level target object as AgentV 5's eval reads it (its validate accepts them all): `name` and `label`
    are removed (it throws), and an `extends` that names nothing (an unset `{{ env.NAME }}`) leaves an
    eval-local target without a provider, which it cannot resolve; either is refused when the file runs."""
    if not isinstance(target, dict):
        return
    removed = [key for key in ("name", "label") if isinstance(target.get(key), str) and target[key].strip()]
    extends = target.get("extends")
    if removed:
        problems.refuse(
            None, f"target.{removed[0]}", "removed in AgentV 5, whose eval refuses the file: name the target by `id`"
        )
    elif isinstance(extends, str) and extends.strip():
        return
    elif "provider" in target or "extends" not in target:
        problems.add(None, "target", "eval-local target definitions are not supported yet: extend a defined target")
        return
    else:
        problems.refuse(
            None,
            "target.extends",
            "names no target (is the variable it reads unset?): AgentV 5's eval then has an eval-local target "
            "without a provider, and refuses the file",
        )
    suite.pop("target")


def _targets(raw: dict[str, Any], suite: dict[str, Any], problems: Problems) -> None:
    """Top-level `targets` (names, or `{id}` references) become 4.x's `execution.targets`."""
    targets = raw.get("targets")
    if targets is None:
        return
    names = []
    for index, item in enumerate(targets if isinstance(targets, list) else [targets]):
        name = item if isinstance(item, str) else item.get("id") if isinstance(item, dict) else None
        if not isinstance(name, str) or (isinstance(item, dict) and set(item) - {"id"}):
            problems.add(None, f"targets[{index}]", "only target names are supported yet, not eval-local targets")
            continue
        names.append(name)
    suite["execution"] = {"targets": names}


def _prompt(raw: Any, directory: Path, problems: Problems) -> Any:
    """The one prompt every test renders (text, or chat messages); None when the file has no `prompts`."""
    if raw is None:
        return None
    prompts = [raw] if isinstance(raw, str) or _is_chat(raw) else raw
    if not isinstance(prompts, list) or len(prompts) != 1:
        problems.add(None, "prompts", "only one prompt is supported yet (AgentV 5 runs each test once per prompt)")
        return None
    prompt = prompts[0]
    if isinstance(prompt, str) and prompt.strip().startswith("file://"):
        path = directory / prompt.strip().removeprefix("file://")
        try:
            return path.read_text(encoding="utf-8").replace("\r\n", "\n")
        except (OSError, UnicodeDecodeError) as exc:
            problems.add(None, "prompts[0]", f"cannot read {path} ({one_line(exc)})")
            return None
    if isinstance(prompt, str) or _is_chat(prompt):
        return prompt
    problems.add(None, "prompts[0]", "only a text or chat-message prompt is supported yet, not functions or objects")
    return None


def _is_chat(raw: Any) -> bool:
    return isinstance(raw, list) and bool(raw) and all(isinstance(m, dict) and "role" in m for m in raw)


def _test(
    row: dict[str, Any],
    index: int,
    inline: bool,
    prompt: Any,
    defaults: dict[str, Any],
    suite_graders: bool,
    problems: Problems,
) -> dict[str, Any]:
    """One test lowered as AgentV 5 lowers it: default vars under its own, the prompt rendered as its input
    (a raw case's own `input` becomes `vars.input` first), its fields rendered with the vars."""
    test_id = str(row.get("id", f"tests[{index}]"))
    removed = ("assertions", "expected_output") if inline else ("assertions",)  # a raw case keeps its reference
    _refuse(row, {k: v for k, v in REMOVED.items() if k in removed}, TEST_UNSUPPORTED, problems, test_id, "")
    for key in row:
        if key not in TEST_PASSED | REMOVED.keys() | TEST_UNSUPPORTED.keys() | {"vars", "input", "environment"}:
            problems.note(test_id, key, "unknown field, ignored")
    if "environment" in row and not inline:  # an inline test's is read by `runtime`
        problems.add(test_id, "environment", "a test's own environment is supported yet in the eval file's tests only")
    variables = {**_mapping(defaults.get("vars")), **_mapping(row.get("vars"))}
    if "input" in row and inline:
        problems.add(test_id, "input", REMOVED["input"])
    elif "input" in row and prompt is not None:
        variables["input"] = row["input"]
    if any(isinstance(v, list) and (not v or isinstance(v[0], str)) for v in variables.values()):
        problems.add(test_id, "vars", "a list of values (one test per value) is not supported yet")
    test = {k: render_vars(row[k], variables) for k in TEST_PASSED if k in row}
    if "options" in defaults:
        test["options"] = {**defaults["options"], **test.get("options", {})}
    _refuse(test.get("options", {}), {}, {"transform": "output transforms"}, problems, test_id, "options.")
    if prompt is not None:
        test["input"] = render_vars(render_vars(prompt, variables), variables)  # AgentV 5 renders it twice
    elif not inline and "input" in row:
        test["input"] = render_vars(row["input"], variables)
    if not inline and "expected_output" in row:
        test["expected_output"] = render_vars(row["expected_output"], variables)
    if "assert" in test:
        test["assert"] = graders(test["assert"], problems, test_id, "assert")
    elif suite_graders:
        test["assert"] = []  # AgentV 5 runs a test the suite's graders alone grade; 4.42.4 skips it
    elif isinstance(test.get("criteria"), str) and test["criteria"].strip():
        test["assert"] = [test["criteria"]]  # AgentV 5 grades lone criteria as one rubric line
    if isinstance(test.get("turns"), list):
        test["turns"] = [_turn(t, problems, test_id, i) for i, t in enumerate(test["turns"])]
    return test


def _turn(turn: Any, problems: Problems, test_id: str, index: int) -> Any:
    if not isinstance(turn, dict) or "assert" not in turn:
        return turn
    return {**turn, "assert": graders(turn["assert"], problems, test_id, f"turns[{index}].assert")}


def _mapping(raw: Any) -> dict[str, Any]:
    return raw if isinstance(raw, dict) else {}
