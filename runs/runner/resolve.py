"""Which target each test runs on, and which LLM grades it: found, built and checked before anything runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, cast

from autoresearch.runs.evalfile.model import Case, Suite
from autoresearch.runs.evalfile.problems import Problem, Problems
from autoresearch.runs.evalfile.workspace import Hook
from autoresearch.runs.grader_llm import GraderLLM
from autoresearch.runs.graders import grader_targets, needs_llm
from autoresearch.runs.targets import Target
from autoresearch.runs.targets.cli import CliTarget
from autoresearch.runs.targets.delegate import follow
from autoresearch.runs.targets.extend import extend
from autoresearch.runs.targets.llm import LLMTarget
from autoresearch.runs.targets.replay import ReplayTarget
from autoresearch.runs.targets.specs import (
    LLM_PROVIDERS,
    TargetSpec,
    find_targets_file,
    parse_targets,
    read_targets_file,
)


class Inline(NamedTuple):
    """Targets given in the config (`eval.targets`) instead of a targets file, and where their problems say
    they are: `<the config file> (eval.targets)`."""

    source: str
    items: list[dict[str, Any]]


GRADING_PROVIDERS = (*LLM_PROVIDERS, "cli")  # a replay target answers tests, never grades
Grading = GraderLLM | CliTarget
"""An LLM target's `grade`, or a `cli` target, which grades through its command and is bound to each test."""


def bound(grading: Grading, case: Case, attempt: int) -> GraderLLM:
    return grading.grader_for(case.id, attempt) if isinstance(grading, CliTarget) else grading


@dataclass
class Targets:
    """The built targets of a run, keyed by name, and the name each test uses."""

    built: dict[str, Target] = field(default_factory=dict)
    graders: dict[str, Grading | None] = field(default_factory=dict)
    per_case: dict[str, str] = field(default_factory=dict)
    llm: dict[str, TargetSpec] = field(default_factory=dict)  # every model that is called: targets and graders
    named_graders: dict[str, Grading] = field(default_factory=dict)  # targets graders name in their `target`
    # the hooks of the `execution.targets` entry each run group uses: by matrix target (None outside a matrix)
    hooks: dict[str | None, dict[str, Hook]] = field(default_factory=dict)
    unresolved: list[Problem] = field(default_factory=list)  # delegations only the run can follow (`delegate`)

    def for_case(self, case: Case, attempt: int = 0) -> tuple[Target, GraderLLM | None, dict[str, GraderLLM]]:
        """The test's target, its grader and the graders its assertions name, bound to this attempt."""
        name = self.per_case[case.row_id]
        grader = self.graders[name]
        named = {key: bound(value, case, attempt) for key, value in self.named_graders.items()}
        return self.built[name], None if grader is None else bound(grader, case, attempt), named


def resolve(
    suite: Suite, repo_root: Path, inline: Inline | None = None, override: str | None = None
) -> tuple[Targets, list[Problem]]:
    specs, problems, items = _specs(suite, repo_root, inline)
    in_eval = Problems(str(suite.path))
    if suite.target_extends and items is not None:
        extend(items, suite.target_extends, specs, in_eval)
    targets = Targets()
    _entry_aliases(suite, specs)
    for case in suite.cases:
        requested = _name_for(case, suite, specs, override, in_eval)
        if requested is None:
            continue
        name = _followed(requested, specs, case, targets, in_eval)
        if name is None:
            continue
        targets.per_case[case.row_id] = name
        entry = suite.target_refs.get(requested)
        if entry is not None and entry.hooks:
            targets.hooks.setdefault(case.matrix_target, entry.hooks)
        if name not in targets.graders:  # not `built`: a target may be built already as another's grader
            _build(name, specs, suite, targets, problems)
        if name in targets.built and targets.graders[name] is None and any(needs_llm(g) for g in case.graders):
            in_eval.add(
                case.id,
                "assertions",
                f"LLM-graded assertions need a grader: target {name!r} is a command, so set its `grader_target`",
            )
    for name in sorted(grader_targets([g for case in suite.cases for g in case.graders])):
        spec = specs.get(name)
        if spec is not None and spec.valid and spec.provider in GRADING_PROVIDERS:
            targets.named_graders[name] = _grading(name, specs, suite, targets)
    suite.notes.extend(problems.notes)
    return targets, problems.items + in_eval.items


def _specs(
    suite: Suite, repo_root: Path, inline: Inline | None
) -> tuple[dict[str, TargetSpec], Problems, list[Any] | None]:
    """The defined targets, the problems of their definitions (no target at all is always one), and their raw items."""
    if inline is not None:
        problems = Problems(inline.source)
        return parse_targets(inline.items, problems), problems, inline.items
    path = find_targets_file(suite.directory, repo_root)
    if path is None:
        problems = Problems(str(suite.path))
        problems.add(
            None,
            "execution.target",
            f"no .agentv/targets.yaml or targets.yaml between {suite.directory} and {repo_root}",
        )
        return {}, problems, None
    problems = Problems(str(path))
    items = read_targets_file(path, problems)
    return ({} if items is None else parse_targets(items, problems)), problems, items


def _name_for(
    case: Case, suite: Suite, specs: dict[str, TargetSpec], override: str | None, problems: Problems
) -> str | None:
    """The target a test runs on, or None after reporting why; with no targets defined, `_specs` has reported it."""
    name = override or case.target or suite.target
    if name is None and len(specs) == 1:
        return next(iter(specs))
    name = name or "default"
    if name not in specs:
        # a matrix target is the suite's: said once, not once per test
        where, test_id = ("execution.targets", None) if case.matrix_target else ("execution.target", case.id)
        message = f"no target named {name!r} (defined: {', '.join(sorted(specs))})"
        if specs and not any(p.field == where and p.message == message for p in problems.items):
            problems.add(test_id, where, message)
        return None
    return name


def _entry_aliases(suite: Suite, specs: dict[str, TargetSpec]) -> None:
    """The `use_target` of `execution.targets` entries the targets file does not define: AgentV adds them in a
    matrix run only (a one-target run looks its name up in the targets file alone)."""
    if not any(case.matrix_target for case in suite.cases):
        return
    for name, entry in suite.target_refs.items():
        if entry.use_target and name not in specs:
            specs[name] = TargetSpec(name, "", {}, use_target=entry.use_target)


def _followed(
    requested: str, specs: dict[str, TargetSpec], case: Case, targets: Targets, problems: Problems
) -> str | None:
    """The concrete target behind a requested name; None after reporting, once per name, why there is none."""
    followed = follow(requested, specs)
    where, test_id = ("execution.targets", None) if case.matrix_target else ("execution.target", case.id)
    if followed.problem and not any(p.message == followed.problem for p in problems.items):
        problems.add(test_id, where, followed.problem)
    if followed.unresolved and not any(p.message == followed.unresolved for p in targets.unresolved):
        targets.unresolved.append(Problem(problems.file, test_id, where, followed.unresolved))
    return followed.name


def _build(name: str, specs: dict[str, TargetSpec], suite: Suite, targets: Targets, problems: Problems) -> None:
    """Build a target and its grader; one whose definition has problems (already reported) is left out."""
    spec = specs[name]
    problems.items.extend(spec.deferred)
    problems.notes.extend(spec.notes)
    if not spec.valid:
        targets.graders[name] = None
        return
    target = targets.built.get(name) or _target(spec, suite)
    targets.built[name] = target
    if spec.provider in LLM_PROVIDERS:
        targets.llm[name] = spec
    grader_name = spec.grader_target or (name if spec.provider in LLM_PROVIDERS else None)
    if grader_name is None:
        targets.graders[name] = None
        return
    grader_spec = specs.get(grader_name)
    if grader_spec is not None and grader_name != name:
        problems.items.extend(grader_spec.deferred)
    if grader_spec is None or grader_spec.provider not in GRADING_PROVIDERS or not grader_spec.valid:
        problems.add(
            None, f"targets[{name}].grader_target", f"{grader_name!r} is not a defined anthropic, openai or cli target"
        )
        targets.graders[name] = None
        return
    targets.graders[name] = _grading(grader_name, specs, suite, targets)


def _target(spec: TargetSpec, suite: Suite) -> Target:
    if spec.provider == "cli":
        return CliTarget(spec, suite.directory, suite.agentv)
    if spec.provider == "replay":
        return ReplayTarget(spec, suite.path.resolve(), suite.name)
    return LLMTarget(spec, suite.directory)


def _grading(name: str, specs: dict[str, TargetSpec], suite: Suite, targets: Targets) -> Grading:
    """The target `name` as a grader: one built instance per name, so a cli target's healthcheck runs once."""
    target = targets.built.get(name)
    if target is None:
        target = (
            _target(specs[name], suite) if specs[name].provider == "cli" else LLMTarget(specs[name], suite.directory)
        )
        targets.built[name] = target
    if isinstance(target, CliTarget):
        return target
    targets.llm[name] = specs[name]
    return cast(LLMTarget, target).grade  # a grading target not `cli` is an LLM one (GRADING_PROVIDERS)
