"""kill -9 at many points: a restart always reconciles to what an uninterrupted run gives.

Each case crashes the daemon with SIGKILL at one exact place (a kill point
that only tests turn on, see plumbing/faults.py), or from outside while its
eval runs, then checks the invariants on disk, runs `autoresearch run` again,
and requires the same decisions, commits and artifact as a run never killed.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable

import pytest

from autoresearch.plumbing.faults import ENV
from tests.helpers.lines import comparable
from tests.helpers.procs import ended
from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import scenario_repo, scores, wait_for

PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0, c=0)}, "summary": "fix a"},
    3: {"write": {"prompt.md": scores(a=0, b=0, c=0)}, "summary": "break a"},
    4: {"write": {"prompt.md": scores(a=1, b=1, c=0)}, "summary": "fix b"},
    5: {"write": {"prompt.md": scores(a=1, b=1, c=0) + "# longer\n"}, "summary": "pad"},
}
ORIGINAL = scores(a=0, b=0, c=0)
EXPECTED = [(1, "keep"), (2, "keep"), (3, "drop"), (4, "keep"), (5, "drop")]
# (kill point, how many times it is passed in an uninterrupted run)
POINTS = {
    "before-eval": 5,
    "after-eval": 4,
    "before-mutate": 4,
    "after-mutate": 4,
    "before-commit": 2,
    "after-commit": 2,
    "after-patch": 2,
    "before-append": 5,
    "between-appends": 5,  # the line in the daemon's copy, not yet in iterations.jsonl (optimizer.guard.ledger)
    "after-append": 5,
    "after-state": 5,
}
CASES = [(point, n) for point, times in POINTS.items() for n in range(1, times + 1)]


GATE = (  # holds the eval of one cycle until a file named `gate` exists; os alone (scenario.JSON_WRITING says why)
    "import os, sys, time\n"
    "if sys.argv[2].endswith('-c%04d' % int(sys.argv[1])) and not os.path.exists('gate'):\n"
    "    with open('waiting', 'w') as waiting:\n"
    "        waiting.write(str(os.getpid()))\n"
    "    time.sleep(600)\n"
)


def make(tmp_path, **config):
    extra = {".gitignore": "waiting\ngate\n", "gate.py": GATE}
    return scenario_repo(tmp_path / "r", {"prompt.md": ORIGINAL}, PLAN, config=config or None, extra_files=extra)


def lines_of(repo) -> list[dict]:
    path = repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl"
    if not path.exists():
        return []
    text = path.read_text()
    assert text == "" or text.endswith("\n"), "a torn last line"
    return [json.loads(line) for line in text.splitlines()]  # every line whole


def assert_consistent_after_crash(repo) -> None:
    lines = lines_of(repo)
    keeps = [r for r in lines if r["decision"] == "keep"]
    head = git(repo, "rev-parse", "HEAD").strip()
    if keeps and keeps[-1]["commit"] != head:
        # the only allowed difference: our own KEEP, committed, its line not yet written
        assert git(repo, "log", "-1", "--format=%s").startswith(f"autoresearch cycle {lines[-1]['cycle'] + 1}:")
        assert git(repo, "rev-parse", "HEAD^").strip() == keeps[-1]["commit"]


def assert_same_as_uninterrupted(repo) -> None:
    lines = lines_of(repo)
    assert [(r["cycle"], r["decision"]) for r in lines] == EXPECTED
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1, c=0)
    assert git(repo, "status", "--porcelain").strip() == ""
    subjects = git(repo, "log", "--format=%s").splitlines()
    assert subjects == ["autoresearch cycle 4: fix b", "autoresearch cycle 2: fix a", "initial"]
    assert lines[3]["commit"] == git(repo, "rev-parse", "HEAD").strip()


def test_the_uninterrupted_reference(tmp_path):
    repo = make(tmp_path)
    assert cli(repo, "run").returncode == 0
    assert_same_as_uninterrupted(repo)


def kill_at_then_resume(repo, point: str, n: int) -> None:
    crashed = cli(repo, "run", env={ENV: f"{point}:{n}"})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert_consistent_after_crash(repo)
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_same_as_uninterrupted(repo)


@pytest.mark.parametrize("point, n", CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_kill_at_a_point_then_resume(tmp_path, point, n):
    kill_at_then_resume(make(tmp_path), point, n)


@pytest.mark.parametrize("cycle", [1, 4])
@pytest.mark.parametrize("watcher", ["alive", "killed too"])
def test_kill_during_the_eval_ends_the_orphaned_eval_and_resumes(tmp_path, cycle, watcher):
    """The eval runs in a session of its own: its watcher (plumbing.reaper's) ends it when the daemon dies; when
    the watcher was killed too, the next start ends it (its process group is in the run directory)."""
    repo = make(
        tmp_path,
        eval={"command": f"python3 gate.py {cycle} {{run_dir}} && python3 evals/score.py {{run_dir}} prompt.md"},
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"], cwd=repo, env={**os.environ, **GIT_ENV}
    )
    wait_for(lambda: (repo / "waiting").exists() and (repo / "waiting").read_text())
    orphan = int((repo / "waiting").read_text())
    if watcher == "killed too":
        (reaper,) = _watchers_of(proc.pid)
        os.kill(reaper, signal.SIGKILL)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    if watcher == "alive":
        wait_for(lambda: ended(orphan))
    else:
        os.kill(orphan, 0)  # the eval outlived its daemon
    assert_consistent_after_crash(repo)
    (repo / "gate").touch()
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    if watcher == "killed too":
        assert "recovered after a crash" in resumed.stderr and "left running" in resumed.stderr
    wait_for(lambda: ended(orphan))
    assert_same_as_uninterrupted(repo)


def _watchers_of(pid: int) -> list[int]:
    """The watchers (plumbing/watcher.py, started by plumbing.reaper) watching `pid` (not its children: they name it last on their command line)."""
    found = []
    for other in filter(str.isdigit, os.listdir("/proc")):
        try:
            args = open(f"/proc/{other}/cmdline", "rb").read().split(b"\0")
        except OSError:  # ended meanwhile
            continue
        if any(arg.endswith(b"plumbing/watcher.py") for arg in args) and args[-2:-1] == [str(pid).encode()]:
            found.append(int(other))
    return found


SIGNIFICANT_POINTS = [
    ("before-eval", 3),
    ("before-eval", 6),
    ("before-eval", 9),
    ("after-commit", 1),
    ("before-append", 3),
]


@pytest.mark.parametrize("point, n", SIGNIFICANT_POINTS, ids=[f"{p}-{n}" for p, n in SIGNIFICANT_POINTS])
def test_significant_cycles_of_several_runs_resume_to_the_same_end(tmp_path, point, n):
    """Kills between the runs of one decision, including while the candidate is set aside for a HEAD run."""
    kill_at_then_resume(make(tmp_path, policy={"rule": "significant"}), point, n)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Callable[[str], list[dict]]:
    """The lines of a run never killed, under a keep rule: made once a rule, for the kill points compared to it."""
    made: dict[str, list[dict]] = {}

    def lines(rule: str) -> list[dict]:
        if rule not in made:
            reference = make(tmp_path_factory.mktemp("reference"), policy={"rule": rule})
            assert cli(reference, "run").returncode == 0
            made[rule] = lines_of(reference)
        return made[rule]

    return lines


@pytest.mark.xdist_group("crash-references")  # (on one worker, each rule's reference run is made once)
@pytest.mark.parametrize("rule", ["wins-losses", "significant"])
@pytest.mark.parametrize("point", ["after-commit", "before-append"])
def test_a_keep_logged_after_a_crash_has_every_field_of_its_line(tmp_path, uninterrupted, rule, point):
    """The line of a KEEP committed just before a kill -9 is the line the cycle would have written."""
    repo = make(tmp_path / "crashed", policy={"rule": rule})
    kill_at_then_resume(repo, point, {"after-commit": 1, "before-append": 2}[point])  # cycle 2's KEEP
    line, expected = lines_of(repo)[1], uninterrupted(rule)[1]
    assert comparable(line) == comparable(expected)
    assert line["reason"] == f"{expected['reason']}; recovered: committed just before a crash"


@pytest.mark.parametrize("forged", ["{not json", '{"parent": "0000", "message": "x", "line": {"cycle": 2}}'])
def test_a_pending_line_that_is_not_the_commits_is_ignored_and_the_line_rebuilt(tmp_path, forged):
    repo = make(tmp_path)
    assert cli(repo, "run", env={ENV: "after-commit:1"}).returncode == -signal.SIGKILL
    pending = repo / ".autoresearch/runs/exp/_autoresearch/pending-keep.json"
    assert json.loads(pending.read_text())["line"]["mutation"] == "fix a"
    pending.write_text(forged)
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_same_as_uninterrupted(repo)
    assert lines_of(repo)[1]["reason"] == "recovered: committed just before a crash"  # rebuilt from the run
    assert pending.read_text().strip() == ""  # taken: no line left in it


# (kill point, n): inside the commit of a KEEP, inside the restore of a DROP, and between decisions
TERM_POINTS = [("before-commit", 1), ("after-commit", 2), ("after-patch", 1), ("before-append", 3), ("after-mutate", 2)]


@pytest.mark.parametrize("point, n", TERM_POINTS, ids=[f"{p}-{n}" for p, n in TERM_POINTS])
def test_sigterm_never_splits_a_decision_and_the_run_resumes(tmp_path, point, n):
    """Unlike SIGKILL, SIGTERM is handled: it waits for the decision in progress, so the run stops
    exactly at a decision (HEAD is the last KEEP's logged commit) and no recovery is needed."""
    repo = make(tmp_path)
    stopped = cli(repo, "run", env={ENV: f"{point}:{n}:SIGTERM"})
    assert stopped.returncode == 130, stopped.stderr
    keeps = [r for r in lines_of(repo) if r["decision"] == "keep"]
    assert keeps[-1]["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert git(repo, "status", "--porcelain").strip() == ""
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "recovered after a crash" not in resumed.stderr
    assert_same_as_uninterrupted(repo)


def test_the_repairs_of_a_foreground_resume_are_in_daemon_log(tmp_path):
    repo = make(tmp_path)
    assert cli(repo, "run", env={ENV: "after-mutate:1"}).returncode == -signal.SIGKILL
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "recovered after a crash" in resumed.stderr
    log = repo / ".autoresearch/runs/exp/_autoresearch/daemon.log"
    events = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    repairs = [e for e in events if e["event"] == "recovered after a crash"]
    assert repairs and "saved the candidate" in repairs[0]["action"]


def test_an_index_the_mutator_broke_before_a_kill_is_put_back_by_the_next_start(tmp_path):
    """The mutator writes over git's index and its daemon is killed before the undo: the next start read the
    index (the artifact tracked? the results directory untracked?) before the undo that puts it back, and
    refused every start with git's `index file smaller than expected` (exit 50) until the user repaired it."""
    plan = {**PLAN, 2: {**PLAN[2], "write": {**PLAN[2]["write"], ".git/index": "junk\n"}, "hold": True}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": ORIGINAL}, plan)
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "run"], cwd=repo, env={**os.environ, **GIT_ENV}
    )
    wait_for(lambda: (repo / ".autoresearch/mutating").exists())  # the index written over, the mutator waiting
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert (repo / ".git/index").read_bytes() == b"junk\n"
    (repo / ".autoresearch/go-on").touch()  # the orphaned mutator ends
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert "recovered after a crash" in resumed.stderr and ".git/index" in resumed.stderr
    assert git(repo, "status", "--porcelain").strip() == ""  # git reads its index again, as the daemon left it
    assert git(repo, "diff", "--cached", "--name-only").strip() == ""
    assert [r["cycle"] for r in lines_of(repo)] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("pending", ["kept", "forged"])
def test_a_keep_logged_after_a_crash_holds_the_split_digest(tmp_path, pending):
    """With a holdout, the line of a KEEP committed just before a kill -9, from the line written down before the
    commit or rebuilt from the run, holds the split's digest as every KEEP's line does: the next resume checks it."""
    repo = make(tmp_path, eval={"holdout": 0.4})
    assert cli(repo, "run", env={ENV: "after-commit:1"}).returncode == -signal.SIGKILL
    if pending == "forged":
        (repo / ".autoresearch/runs/exp/_autoresearch/pending-keep.json").write_text("{not json")
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    split = (repo / ".autoresearch/runs/exp/_autoresearch/holdout.json").read_bytes()
    keeps = [line for line in lines_of(repo) if line["decision"] == "keep"]
    assert any("recovered" in line["reason"] for line in keeps)
    assert {line.get("holdout_sha256") for line in keeps} == {hashlib.sha256(split).hexdigest()}
