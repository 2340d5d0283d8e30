"""Everything runs/ raises derives from the one root, `AutoresearchError` (issue 32), so the CLI's boundary maps
any of it to an exit code: a step's failure that escaped the runner's catching would end a command in one line
with 40 (the eval could not run), not with a traceback and exit 1, the code of a regression."""

from __future__ import annotations

import importlib

from autoresearch.plumbing.errors import KEEPS_FAILING, AutoresearchError, exit_code_for
from autoresearch.runs.errors import StepFailed
from autoresearch.runs.workspace.docker import DockerFailed
from tests.runs.test_import_alone import runs_modules


def exception_classes() -> list[type[BaseException]]:
    found = []
    for name in runs_modules():
        module = importlib.import_module(name)
        found += [
            value
            for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == name
        ]
    return found


def test_every_exception_class_of_runs_derives_from_the_one_root():
    classes = exception_classes()
    assert {"TargetFailed", "GraderFailed", "HookFailed", "GitFailed", "TaskFailed", "_Thrown"} <= {
        c.__name__ for c in classes
    }
    assert [c.__qualname__ for c in classes if not issubclass(c, AutoresearchError)] == []


def test_a_failed_step_maps_to_the_exit_code_of_an_eval_that_could_not_run():
    for step in [c for c in exception_classes() if issubclass(c, StepFailed)]:
        assert exit_code_for(step("it failed")) == KEEPS_FAILING, step


def test_docker_failing_is_still_an_os_error_for_the_runner_that_catches_it_so():
    assert issubclass(DockerFailed, OSError)
