"""The workspaces of a run, one lifecycle per target: AgentV 4.42.4 runs a matrix as one evaluation per target.

Each target of `execution.targets` therefore gets its own shared
workspace, its own `before_all` and `after_all`, and the hooks of its own
entry; outside a matrix there is one group, keyed None.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace

from autoresearch.runs.evalfile.model import Case, Suite
from autoresearch.runs.evalfile.workspace import Hook
from autoresearch.runs.workspace.lifecycle import SuiteWorkspaces


class RunWorkspaces:
    def __init__(self, suite: Suite, hooks: dict[str | None, dict[str, Hook]]):
        keys = list(dict.fromkeys(case.matrix_target for case in suite.cases))
        self.groups = {
            key: SuiteWorkspaces(
                replace(suite, cases=[c for c in suite.cases if c.matrix_target == key]), hooks.get(key)
            )
            for key in keys
        }

    def __getitem__(self, case: Case) -> SuiteWorkspaces:
        return self.groups[case.matrix_target]

    @property
    def active(self) -> bool:
        return any(group.active for group in self.groups.values())

    @property
    def shares(self) -> bool:
        """Some target's tests share one workspace (see SuiteWorkspaces.shares)."""
        return any(group.shares for group in self.groups.values())

    @property
    def serial(self) -> bool:
        """A shared workspace takes one test at a time; the runner's slots are shared by every target."""
        return any(group.serial for group in self.groups.values())

    def open(self) -> None:
        for group in self.groups.values():
            group.open()

    def close(self, run_hooks: bool = True) -> None:
        """Every group closed, in order, even when closing one of them raises (raised once all are closed)."""
        with ExitStack() as stack:
            for group in reversed(self.groups.values()):
                stack.callback(group.close, run_hooks)


@contextmanager
def for_one_attempt(
    suite: Suite, hooks: dict[str | None, dict[str, Hook]], case: Case, run_id: str
) -> Iterator[SuiteWorkspaces]:
    """The lifecycle of one attempt run on its own, where an executor runs it (its target's group shares no
    workspace): the group opened for it alone (the Docker and preflight checks made there, where the
    target runs), its own workspace made, used and removed there. `run_id` is the driver's for that group,
    so every test of the run sees one `eval_run_id`, as locally."""
    group = RunWorkspaces(suite, hooks)[case]
    group.run_id = run_id
    group.open()
    try:
        yield group
    finally:
        group.close()
