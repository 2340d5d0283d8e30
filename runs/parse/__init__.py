"""Eval files: AgentV's EVAL.yaml (4.x, or 5.x translated to it by `agentv5`, imported for a 5.x file alone) and skill-creator's evals.json, parsed into one Suite model
(`autoresearch.runs.evalfile.model`). Above the graders, which check the specs of their own fields.

`load` raises `EvalFileError` (exit 30) listing every problem with its file,
test id and field; `check` returns the problems instead, for `validate`.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from autoresearch.runs.evalfile.model import Suite
from autoresearch.runs.evalfile.problems import EvalFileError, Problem, Problems, one_line
from autoresearch.runs.evalfile.yamlload import load_yaml
from autoresearch.runs.parse import skill_json, yaml_suite
from autoresearch.runs.parse.sources import sources
from autoresearch.runs.parse.version5 import is_v5

__all__ = ["EvalFileError", "Problem", "Suite", "check", "load", "runnable"]


def check(path: Path) -> tuple[Suite | None, list[Problem]]:
    problems = Problems(str(path))
    path = path.resolve()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(None, "(file)", f"cannot read the eval file ({one_line(exc)})")
        return None, problems.items
    try:
        raw = json.loads(text) if path.suffix == ".json" else load_yaml(text)
    except (ValueError, yaml.YAMLError) as exc:
        problems.add(None, "(file)", f"not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {one_line(exc)}")
        return None, problems.items
    runs_in, referenced = None, sources(path, raw)
    v5 = path.suffix != ".json" and is_v5(raw)
    if v5:
        from autoresearch.runs.parse import agentv5  # the 5.x translator and its graders: not for a 4.x file

        runs_in = agentv5.runtime(raw, path.parent, problems)
        raw = agentv5.translate(raw, path.parent, problems)
    if path.suffix == ".json":
        suite = skill_json.parse(path, raw, problems)
    else:  # AgentV 5 runs a test all of whose graders are gone, and scores it 1
        suite = yaml_suite.parse(path, raw, problems, ungraded=1.0 if v5 else None)
    if runs_in is not None:  # only a 5.x file has one: agentv5 was imported above
        agentv5.place(suite, runs_in, problems)
    suite.agentv = 5 if v5 else 4
    suite.notes, suite.refused, suite.sources = problems.notes, problems.refused, referenced
    if not suite.cases and not suite.skipped and not problems.items:
        problems.add(None, "evals" if path.suffix == ".json" else "tests", "the eval file has no tests")
    return suite, problems.items


def runnable(suite: Suite) -> None:
    """Raise when every test is one AgentV skips: `validate` accepts such a file, as `agentv validate` does,
    but running it fails before anything is written, as `agentv eval` fails ("No tests matched"); and so for
    everything else `agentv eval` alone refuses (`Problems.refuse`)."""
    if suite.refused:
        raise EvalFileError(suite.refused)
    if not suite.cases and suite.skipped:
        problem = Problem(
            str(suite.path),
            None,
            "tests",
            f"nothing to run: AgentV skips every test ({', '.join(suite.skipped)}); `validate` says why",
        )
        raise EvalFileError([problem])


def load(path: Path) -> Suite:
    suite, problems = check(path)
    if problems or suite is None:
        raise EvalFileError(problems)
    return suite
