"""Shared fixtures. Subpackages keep their own fixtures in their own conftest.py."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from tests.helpers.browser import browser, watched  # noqa: F401  (headless Chromium, for every package's page tests)
from tests.helpers.claude_code import claude_code, claude_program  # noqa: F401  (the real Claude Code CLI, offline)
from tests.helpers.fake_llm import fake_llm  # noqa: F401  (the wire-level fake LLM server, for every package's tests)
from tests.helpers.mlflow_server import mlflow_server  # noqa: F401  (a real MLflow tracking server, for tracking's)
from tests.runs.executors import scenarios

# pytest keeps the test modules it rewrites for assertions as .pyc files unless bytecode writing is off, which
# the environment may say for every Python process (PYTHONDONTWRITEBYTECODE): then every xdist worker rewrites
# every module again, about 3 CPU-s each. This process writes them; the commands the tests start still obey it.
sys.dont_write_bytecode = False


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    """Commits made in tests need an identity; never read the developer's own git config."""
    from tests.helpers.repos import GIT_ENV

    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def pytest_configure(config: pytest.Config) -> None:
    """A suite started in the background (`cmd &`) inherits SIGINT ignored, and so would every command it
    starts: the tests that send Ctrl-C would then wait in vain. A handler of our own is reset to the default
    in each child, so the commands take SIGINT as a user's terminal gives it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    _python3_first(config)
    _state_home(config)
    _no_pydantic_plugin_scan()


def _state_home(config: pytest.Config) -> None:
    """`serve` lists its token file in the user's state folder (autoresearch.plumbing.service_secrets): the
    tests' servers list theirs in a folder of the suite's, never in the home of the user running it."""
    root = Path(tempfile.mkdtemp(prefix="autoresearch-tests-state-"))
    os.environ["XDG_STATE_HOME"] = str(root)
    config.add_cleanup(lambda: shutil.rmtree(root, ignore_errors=True))


def _python3_first(config: pytest.Config) -> None:
    """The tests' evals and mutators are `python3 ...` commands, as users write them. Behind a version
    manager's shim (pyenv's), each `python3` first runs a dozen shell scripts: 50 ms of CPU, paid by every
    eval and mutator a test starts. On the tests' PATH, `python3` is the interpreter this suite runs on,
    reached directly, outside the suite's virtual environment: in one of its own that holds nothing, so that
    it starts as a clean `python3` does. Without one, each start would also run the `.pth` files of the
    interpreter's own site-packages (a machine's global packages: on ours, one imports certifi), 40 ms more."""
    root = Path(tempfile.mkdtemp(prefix="autoresearch-tests-bin-"))
    interpreter = Path(os.path.realpath(sys.executable))
    (root / "pyvenv.cfg").write_text(f"home = {interpreter.parent}\ninclude-system-site-packages = false\n")
    (root / "bin").mkdir()
    (root / "bin" / "python3").symlink_to(interpreter)
    os.environ["PATH"] = f"{root / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    config.add_cleanup(lambda: shutil.rmtree(root, ignore_errors=True))


def _no_pydantic_plugin_scan() -> None:
    """pydantic looks for plugins in every installed distribution's entry points when a process builds its
    first model: 10-15 ms of CPU in each command a test starts. The suite's environment holds no pydantic
    plugin (the scan finds nothing), so the commands are told not to look; a user's environment is unchanged."""
    assert not entry_points(group="pydantic"), "a pydantic plugin is installed: the suite would not load it"
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


UNGROUPED = pytest.StashKey[str]()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `xdist_group` share what is costly to start (a tracking server, a Ray cluster) and Ray's
    run last on one worker: under `--dist loadgroup` xdist marks them in their ids, after the marks are set.
    Where a pytest release stops it doing so (pytest 9.2: pytest-xdist#1386), the groups would be spread
    over every worker without a word: each such test fails instead, saying why."""
    if getattr(config.option, "loadgroup", False):
        for item in items:
            if any(item.iter_markers("xdist_group")) and "@" not in item.nodeid:
                item.stash[UNGROUPED] = "--dist loadgroup did not group this test (pytest-xdist#1386: pin pytest)"


def pytest_runtest_setup(item: pytest.Item) -> None:
    if UNGROUPED in item.stash:
        pytest.fail(item.stash[UNGROUPED], pytrace=False)


def pytest_xdist_node_collection_finished(node, ids: list[str]) -> None:
    """Under xdist, the controller starts the Ray scenarios as soon as a worker has collected test_ray.py."""
    if any(nodeid.startswith(scenarios.TESTS) for nodeid in ids):
        scenarios.start_for(node.config, node.workerinput["testrunuid"])


def pytest_sessionfinish(session: pytest.Session) -> None:
    scenarios.stop(session.config)
