"""test_ray.py's tests run last, all on one xdist worker, and its scenarios start when collection ends
(tests/runs/executors/scenarios.py): without xdist here, under xdist in the controller (tests/conftest.py)."""

from __future__ import annotations

import uuid

import pytest

from tests.runs.executors import scenarios


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the group marks into the tests' ids
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    on_ray = [item for item in items if item.nodeid.startswith(scenarios.TESTS)]
    if not on_ray:
        return
    items[:] = [item for item in items if not item.nodeid.startswith(scenarios.TESTS)] + on_ray
    for item in on_ray:
        item.add_marker(pytest.mark.xdist_group("ray"))
    if not hasattr(config, "workerinput") and not config.option.collectonly:
        scenarios.start_for(config, uuid.uuid4().hex)
