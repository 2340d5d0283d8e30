"""Scratch folders a process killed with SIGKILL leaves in the temporary directory, removed by the next process
that makes one (or a daemon's start), never while their owner lives."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autoresearch.plumbing import owned
from tests.runs.evaltree import write_tree

GRADE = """\
import sys
from pathlib import Path
from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.runner.run import RunOptions
root = Path(sys.argv[1])
execute(prepare(root / "evals/suite.eval.yaml", root), root / "out", RunOptions(workers=1), show_progress=False)
"""
FORK = """\
import os, sys
from autoresearch.plumbing import owned
with owned.temporary("held-") as path:
    print(path, flush=True)
    if os.fork() == 0:  # a child forked without exec, alive after its parent is killed
        print("forked", flush=True)
        sys.stdin.read()
        os._exit(0)
    os.kill(os.getpid(), 9)
"""
HOLD = """\
import sys
from autoresearch.plumbing import owned
with owned.temporary("held-") as path:
    print(path, flush=True)
    sys.stdin.read()
"""


def leftovers(temp: Path) -> list[Path]:
    return sorted(temp.rglob("autoresearch-grader-*"))


def test_a_code_graders_scratch_left_by_a_sigkill_is_removed_by_the_next_process(tmp_path, monkeypatch):
    """The process grading is killed while its code grader runs (the grader kills it): its scratch folder,
    with the payload, stayed in the temporary directory for good."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    tests = [{"id": "c", "input": "x", "assertions": [{"type": "code-grader", "command": "kill -9 $PPID"}]}]
    write_tree(tmp_path, tests, {"c": "xxx"})
    env = {**os.environ, "TMPDIR": str(temp)}
    killed = subprocess.run([sys.executable, "-c", GRADE, str(tmp_path)], env=env, capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert leftovers(temp)  # the grader's folder, its owner gone
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    with owned.temporary("next-") as path:  # the next process's first scratch folder sweeps
        assert Path(path).is_dir()
    assert leftovers(temp) == []


def test_a_cli_targets_scratch_left_by_a_sigkill_is_removed_by_the_next_process(tmp_path, monkeypatch):
    """The other scratch folders (a `cli` target's, one a test, with the prompt and the answer; the cycle's
    index, the workspaces, docker's and the hooks' input) are made the same way: a kill -9 mid-target left
    `autoresearch-test-*` behind for good."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    killer = [
        {
            "name": "canned",
            "provider": "cli",
            "command": f"kill -9 $(cat {tmp_path}/pid) {{OUTPUT_FILE}}",
            "timeout_seconds": 30,
        }
    ]
    write_tree(
        tmp_path, [{"id": "c", "input": "x", "assertions": [{"type": "contains", "value": "x"}]}], {}, targets=killer
    )
    env = {**os.environ, "TMPDIR": str(temp)}
    grade = f"import os; open({str(tmp_path / 'pid')!r}, 'w').write(str(os.getpid()))\n{GRADE}"
    killed = subprocess.run([sys.executable, "-c", grade, str(tmp_path)], env=env, capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert sorted(temp.rglob("autoresearch-test-*"))  # the target's folder, its owner gone
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert owned.clear_leftovers()
    assert list(temp.iterdir()) == []


def test_a_live_processs_folder_is_never_swept(tmp_path, monkeypatch):
    temp = tmp_path / "tmp"
    temp.mkdir()
    holder, held = _holding(HOLD, temp)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert owned.clear_leftovers() == []
    assert held.is_dir()
    assert holder.stdin is not None
    holder.stdin.close()
    assert holder.wait() == 0
    assert list(temp.iterdir()) == []  # a normal exit removes the process's own folder too


STAGED = """\
import os, signal
from autoresearch.plumbing import owned
owned.claim(owned.PREFIX, owned._STAGING, lambda folder: os.kill(os.getpid(), signal.SIGKILL))
"""


def _left_by_a_killed_maker(tmp_path: Path) -> tuple[Path, Path]:
    """A temporary directory, and the folder a process killed before its rename left there under its staging name."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    killed = subprocess.run([sys.executable, "-c", STAGED], env=env, capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    (left,) = temp.iterdir()
    return temp, left


def test_a_folder_left_under_its_staging_name_is_swept_once_its_maker_died(tmp_path, monkeypatch):
    """A process killed between making its folder and renaming it (a window of a few system calls) left it
    under a name no sweep took: it stayed for good. A live maker's folder, not locked yet between mkdtemp and
    flock, one with no maker's id, one of another PID namespace (its ids are not ours to judge), and a link
    planted at either name (to a folder that is no scratch) stay."""
    temp, left = _left_by_a_killed_maker(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    space, dead = left.name.removeprefix(owned._STAGING).split("-")[:2]
    making = Path(tempfile.mkdtemp(prefix=f"{owned._STAGING}{space}-{os.getpid()}-"))
    unknown = Path(tempfile.mkdtemp(prefix=owned._STAGING))
    elsewhere = Path(tempfile.mkdtemp(prefix=f"{owned._STAGING}{int(space) + 1}-{dead}-"))  # another namespace
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep").write_text("x")
    links = [
        temp / f"{owned.PREFIX}planted",
        temp / f"{owned._STAGING}{space}-{dead}-planted",
    ]
    for link in links:
        link.symlink_to(victim)
    assert owned.clear_leftovers() == [left]
    assert (victim / "keep").read_text() == "x"
    assert sorted(temp.iterdir()) == sorted([making, unknown, elsewhere, *links])


def test_a_folder_left_under_its_staging_name_is_swept_though_its_makers_id_was_given_again(tmp_path, monkeypatch):
    """The maker killed before the rename and its process id given to another process (here, this one): the
    folder stayed for as long as that process lived. The name carries the maker's start time too: a live
    maker's folder (this process's id and start time) stays."""
    temp, left = _left_by_a_killed_maker(tmp_path)
    space, _, start, letters = left.name.removeprefix(owned._STAGING).split("-")
    reused = left.rename(left.with_name(f"{owned._STAGING}{space}-{os.getpid()}-{start}-{letters}"))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    making = Path(tempfile.mkdtemp(prefix=f"{owned._STAGING}{space}-{os.getpid()}-{owned.started()}-"))
    assert owned.clear_leftovers() == [reused]
    assert list(temp.iterdir()) == [making]


def test_staging_names_any_user_may_craft_neither_end_the_sweep_nor_are_taken(tmp_path, monkeypatch):
    """Any user may make a folder in the temporary directory under the staging name: one whose process id
    int() refuses (a superscript digit) or the system does (twenty digits) ended the sweep with a traceback,
    and with it every scratch folder's making. They stay, and the killed maker's folder is swept still."""
    temp, left = _left_by_a_killed_maker(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    space = left.name.removeprefix(owned._STAGING).split("-")[0]
    crafted = [temp / f"{owned._STAGING}{space}-{pid}-x" for pid in ("\u00b2", "9" * 20, "0", "-1")]
    for folder in crafted:
        folder.mkdir()
    assert owned.clear_leftovers() == [left]
    assert sorted(temp.iterdir()) == sorted(crafted)


def test_a_folder_is_swept_once_its_maker_is_killed_though_a_child_it_forked_lives(tmp_path, monkeypatch):
    """A child forked without exec shared its parent's lock (one open file): the folder of a killed parent
    stayed locked, and never swept, for as long as the child lived."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    maker, held = _holding(FORK, temp)
    assert maker.stdout is not None and maker.stdin is not None
    assert maker.wait() == -signal.SIGKILL and maker.stdout.readline() == "forked\n"
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert owned.clear_leftovers() == [held.parent]
    maker.stdin.close()  # the child reads its end and exits
    assert list(temp.iterdir()) == []


def test_a_claim_that_fails_leaves_no_folder_and_no_descriptor(tmp_path, monkeypatch):
    """No room for the mark (the agents' homes write their record there): the staging folder stayed, and its
    descriptor stayed open, holding the lock, for the process's life."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    before = sorted(os.listdir("/proc/self/fd"))

    def full(folder: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        owned.claim(owned.PREFIX, owned._STAGING, full)
    assert list(tmp_path.iterdir()) == []
    assert sorted(os.listdir("/proc/self/fd")) == before


def _holding(code: str, temp: Path) -> tuple[subprocess.Popen[str], Path]:
    """A process running `code` with its temporary directory at `temp`, and the folder it printed first."""
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        env={**os.environ, "TMPDIR": str(temp)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    return process, Path(process.stdout.readline().strip())
