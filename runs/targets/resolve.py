"""Which target each test runs on, and which LLM grades it: found, built and checked before anything runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runs.evalfile.model import Case, Suite
from runs.evalfile.problems import Problem, Problems
from runs.graders import grader_targets, needs_llm
from runs.graders.base import GraderLLM
from runs.targets import Target
from runs.targets.cli import CliTarget
from runs.targets.extend import extend
from runs.targets.llm import LLMTarget
from runs.targets.specs import TargetSpec, find_targets_file, parse_targets, read_targets_file

INLINE_SOURCE = "autoresearch.yaml (eval.targets)"


@dataclass
class Targets:
    """The built targets of a run, keyed by name, and the name each test uses."""

    built: dict[str, Target] = field(default_factory=dict)
    graders: dict[str, GraderLLM | None] = field(default_factory=dict)
    per_case: dict[str, str] = field(default_factory=dict)
    llm: dict[str, TargetSpec] = field(default_factory=dict)  # every model that is called: targets and graders
    named_graders: dict[str, GraderLLM] = field(default_factory=dict)  # LLM targets graders name in their `target`

    def for_case(self, case: Case) -> tuple[Target, GraderLLM | None]:
        name = self.per_case[case.row_id]
        return self.built[name], self.graders[name]


def resolve(suite: Suite, repo_root: Path, inline: list[dict[str, Any]] | None = None, override: str | None = None) -> tuple[Targets, list[Problem]]:
    specs, problems, items = _specs(suite, repo_root, inline)
    in_eval = Problems(str(suite.path))
    if suite.target_extends and items is not None:
        extend(items, suite.target_extends, specs, in_eval)
    targets = Targets()
    for case in suite.cases:
        name = _name_for(case, suite, specs, override, in_eval)
        if name is None:
            continue
        targets.per_case[case.row_id] = name
        if name not in targets.built:
            _build(name, specs, suite.directory, targets, problems)
        if name in targets.built and targets.graders[name] is None and any(needs_llm(g) for g in case.graders):
            in_eval.add(case.id, "assertions", f"LLM-graded assertions need a grader: target {name!r} is a command, so set its `grader_target`")
    for name in sorted(grader_targets([g for case in suite.cases for g in case.graders])):
        spec = specs.get(name)
        if spec is not None and spec.valid and spec.provider != "cli":
            targets.named_graders[name] = LLMTarget(spec, suite.directory).grade
            targets.llm[name] = spec
    suite.notes.extend(problems.notes)
    return targets, problems.items + in_eval.items


def _specs(suite: Suite, repo_root: Path, inline: list[dict[str, Any]] | None) -> tuple[dict[str, TargetSpec], Problems, list[Any] | None]:
    """The defined targets, the problems of their definitions (no target at all is always one), and their raw items."""
    if inline is not None:
        problems = Problems(INLINE_SOURCE)
        return parse_targets(inline, problems), problems, inline
    path = find_targets_file(suite.directory, repo_root)
    if path is None:
        problems = Problems(str(suite.path))
        problems.add(None, "execution.target", f"no .agentv/targets.yaml or targets.yaml between {suite.directory} and {repo_root}")
        return {}, problems, None
    problems = Problems(str(path))
    items = read_targets_file(path, problems)
    return ({} if items is None else parse_targets(items, problems)), problems, items


def _name_for(case: Case, suite: Suite, specs: dict[str, TargetSpec], override: str | None, problems: Problems) -> str | None:
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


def _build(name: str, specs: dict[str, TargetSpec], eval_dir: Path, targets: Targets, problems: Problems) -> None:
    """Build a target and its grader; one whose definition has problems (already reported) is left out."""
    spec = specs[name]
    problems.items.extend(spec.deferred)
    problems.notes.extend(spec.notes)
    if not spec.valid:
        targets.graders[name] = None
        return
    target: Target = CliTarget(spec, eval_dir) if spec.provider == "cli" else LLMTarget(spec, eval_dir)
    targets.built[name] = target
    if spec.provider != "cli":
        targets.llm[name] = spec
    grader_name = spec.grader_target or (None if spec.provider == "cli" else name)
    if grader_name is None:
        targets.graders[name] = None
        return
    grader_spec = specs.get(grader_name)
    if grader_spec is not None and grader_name != name:
        problems.items.extend(grader_spec.deferred)
    if grader_spec is None or grader_spec.provider == "cli" or not grader_spec.valid:
        problems.add(None, f"targets[{name}].grader_target", f"{grader_name!r} is not an anthropic or openai target")
        targets.graders[name] = None
        return
    grader = target if grader_name == name else LLMTarget(grader_spec, eval_dir)
    targets.llm[grader_name] = grader_spec
    targets.graders[name] = grader.grade  # type: ignore[union-attr]
