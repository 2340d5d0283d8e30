"""The digest written over its own file before each cycle (a new file a cycle cost a creation), and made
whole again after a kill in the middle of that write, before any mutator reads it."""

from __future__ import annotations

import os
import signal

import pytest

from autoresearch.optimizer.experiment.digest import Digest
from autoresearch.plumbing import sandbox
from autoresearch.plumbing.faults import ENV
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.trajectory.iterations import Iteration, append
from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo, scores

DIGEST = ".autoresearch/runs/exp/_autoresearch/digest.md"
START = {"alpha": 0, "bravo": 1}


def test_each_write_is_over_the_same_file_and_a_second_name_is_never_written_through(tmp_path):
    paths = ExperimentPaths(tmp_path / "exp")
    digest = Digest(paths)
    append(paths.iterations, Iteration(cycle=1, score=0.5, decision="keep", mutation="original", run_dir="r1"))
    digest.write()
    fd = os.open(paths.digest, os.O_RDONLY)  # the file as first made: made anew, it would be left unnamed
    try:
        append(paths.iterations, Iteration(cycle=2, score=0.7, decision="keep", mutation="better", run_dir="r2"))
        digest.write()
        assert os.fstat(fd).st_nlink == 1
        assert (
            os.pread(fd, 1 << 20, 0).decode() == paths.digest.read_text()
            and "Cycle 2: KEPT" in paths.digest.read_text()
        )
    finally:
        os.close(fd)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious user data\n")
    paths.digest.unlink()
    os.link(victim, paths.digest)  # what an unsandboxed mutator can do
    digest.write()
    assert victim.read_text() == "precious user data\n" and "Cycle 2: KEPT" in paths.digest.read_text()


def test_a_kill_in_the_middle_of_the_write_leaves_no_torn_digest_to_a_mutator(tmp_path):
    """A digest written over a longer one and killed before the cut holds the old one's tail: the next
    start writes it whole before its first mutation, whose mutator refuses to work on a torn one."""
    if sandbox.unavailable():  # without the sandbox the mirror holds a second name of the digest
        pytest.fail(f"the kernel sandbox is needed here: {sandbox.unavailable()}")
    whole = '! grep -q "OLD TAIL" "$AUTORESEARCH_DIGEST" && test "$(grep -c "^# What this" "$AUTORESEARCH_DIGEST")" = 1'
    plan = {
        2: {"run": [whole], "write": {"prompt.md": scores(**(START | {"alpha": 1}))}, "summary": "fix alpha"},
        3: {"run": [whole], "write": {"prompt.md": scores(**(START | {"bravo": 0}))}, "summary": "break bravo"},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(**START)}, plan, config={"mutator": {"sandbox": "on"}})
    assert cli(repo, "run", env={ENV: "before-mutate:1"}).returncode == -signal.SIGKILL
    digest = repo / DIGEST
    with open(digest, "a") as f:  # as an older, longer digest would be (a history rolled back since)
        f.write("OLD TAIL\n" * 4000)
    assert cli(repo, "run", env={ENV: "digest-overwritten:1"}).returncode == -signal.SIGKILL
    torn = digest.read_text()
    assert torn.startswith("# What this experiment has tried") and "OLD TAIL" in torn
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "drop"], iterations(repo)[-1].get("error")
    assert "OLD TAIL" not in digest.read_text()
