"""Real git repositories in temp directories, and the real CLI run as a subprocess."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True, env={**os.environ, **GIT_ENV}
    ).stdout


def made_once(build: Callable[[Path], Path]) -> Any:
    """A module's fixture (`the_run = made_once(ran)`): `build(folder)`, a costly run several of the module's tests
    act on, made once for the module, with the git environment of a test; each test acts on a `copy_of` it. The
    module's tests are then best grouped on one xdist worker (`pytest.mark.xdist_group`), which makes it once."""

    @pytest.fixture(scope="module")
    def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
        # tests/conftest.py's _git_identity gives each test this environment, after any module's fixture
        with pytest.MonkeyPatch.context() as env:
            for key, value in {**GIT_ENV, "GIT_CONFIG_NOSYSTEM": "1"}.items():
                env.setenv(key, value)
            return build(tmp_path_factory.mktemp("made-once"))

    return made


def copy_of(repo: Path, to: Path) -> Path:
    """A copy of a repository a module's fixture made once (a costly run: its records, its .git, its untracked
    files), for a test that acts on it: each test changes its own copy. Not of a worktree experiment: git
    links a worktree to its repository by absolute paths."""
    return Path(shutil.copytree(repo, to, symlinks=True))


def make_repo(path: Path, files: dict[str, str], commit: bool = True) -> Path:
    """A git repo at `path` holding `files` ({relative path: text}), committed unless told not to."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    with open(path / ".git" / "config", "a") as config:  # as `git config user.name/email` writes it, minus 2 processes
        config.write(f"[user]\n\tname = {GIT_ENV['GIT_AUTHOR_NAME']}\n\temail = {GIT_ENV['GIT_AUTHOR_EMAIL']}\n")
    for relative, text in files.items():
        target = path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        if relative.endswith((".sh", ".py")):
            target.chmod(0o755)
    if commit:
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", "initial")
    return path


def cli(cwd: Path, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `python -m autoresearch.optimizer ARGS` in `cwd` as a user would, capturing its output."""
    return subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **GIT_ENV, "NO_COLOR": "1", **(env or {})},
    )


def assert_one_line_error(done: subprocess.CompletedProcess, code: int, *needles: str) -> None:
    """Bad input ends in exactly one `autoresearch:` line (with these words), its exit code, and no traceback."""
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("autoresearch:")]
    assert len(lines) == 1, done.stderr
    for needle in needles:
        assert needle in lines[0]


def cli_imports(cwd: Path, *args: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run the CLI as `cli` does, and the names of every module its process imported (Python's verbose report on
    stderr, `import 'NAME' # ...`): what a command loads, not how long it took, so a test of it holds on a loaded
    machine too. Not `-X importtime`: it reports `import` statements alone and misses a module loaded by
    `importlib.import_module`, as the commands' and the graders' registries load theirs."""
    done = cli(cwd, *args, env={"PYTHONVERBOSE": "1"})
    return done, set(re.findall(r"^import '([^']+)' #", done.stderr, flags=re.MULTILINE))
