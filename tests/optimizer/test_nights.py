"""Night after night: the cron line of docs/unattended.md makes new cycles every night, and each exit says where things stand."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from autoresearch.plumbing.faults import ENV
from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, state

UNATTENDED_PAGE = Path(__file__).resolve().parents[2] / "docs" / "unattended.md"

NIGHTS = {  # max_cycles 3 and max_convergence 2: night 1 makes cycles 1-3, night 2 plateaus at 4-5, night 3 makes 6-8
    2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"},
    3: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "break a"},
    4: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "break a again"},
    5: {"write": {"prompt.md": scores(a=1, b=0) + "# longer\n"}, "summary": "pad"},
    6: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix b"},
    7: {"write": {"prompt.md": scores(a=0, b=1)}, "summary": "break a"},
    8: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "break both"},
}


def docs_cron_line(repo: Path) -> str:
    """The docs' system-cron line for a virtual environment, its command part, with the placeholders pointing at this test's repo."""
    line = next(
        ln for ln in UNATTENDED_PAGE.read_text().splitlines() if re.match(r"^0 1 \* \* \* cd /path/to/repo && ", ln)
    )
    command = line.split(" ", 5)[5]
    autoresearch = f"{sys.executable} -m autoresearch.optimizer"
    return command.replace("/path/to/repo", str(repo)).replace("/path/to/venv/bin/autoresearch", autoresearch)


def night(repo: Path) -> int:
    done = subprocess.run(docs_cron_line(repo), shell=True, cwd="/", env={**os.environ, **GIT_ENV, "NO_COLOR": "1"})
    return done.returncode


def assert_status_report_and_state_agree(repo: Path) -> None:
    lines = iterations(repo)
    st = state(repo)
    best = [r for r in lines if r["decision"] == "keep"][-1]
    assert (st["cycle"], st["best_cycle"], st["best_score"]) == (lines[-1]["cycle"], best["cycle"], best["score"])
    counts = {d: sum(r["decision"] == d for r in lines) for d in ("keep", "drop", "error")}
    assert (st["keeps"], st["drops"], st["errors"]) == (counts["keep"], counts["drop"], counts["error"])
    report = cli(repo, "report").stdout
    assert f"experiment exp: {len(lines)} cycles, {st['status']} ({st['stop_reason']})" in report
    assert f"keeps {counts['keep']}, drops {counts['drop']}, errors {counts['error']}" in report
    assert f"-> {best['score']:.4f} (best, cycle {best['cycle']})" in report
    status = cli(repo, "status", "exp")
    assert f"not running: {st['status']} ({st['stop_reason']}), {len(lines)} cycles" in status.stdout
    assert f"best {best['score']:.3f} (cycle {best['cycle']})" in status.stdout
    assert json.loads(cli(repo, "status", "exp", "--json").stdout)["state"] == st


def test_the_docs_cron_line_makes_new_cycles_night_after_night(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0)},
        NIGHTS,
        config={"stop": {"max_cycles": 3, "max_convergence": 2}},
    )
    assert not (repo / ".autoresearch").exists()  # as after `init`: the line must work on the first night too
    cron_log = repo / ".autoresearch/cron.log"
    expected = [
        (0, [(1, "keep"), (2, "keep"), (3, "drop")], "max_cycles", "cycles 1-3"),
        (10, [(4, "drop"), (5, "drop")], "converged", "cycles 4-5"),  # a fresh plateau count, and nothing better
        (0, [(6, "keep"), (7, "drop"), (8, "drop")], "max_cycles", "cycles 6-8"),
    ]
    for code, cycles, reason, run in expected:
        before = len(iterations(repo)) if (repo / ".autoresearch/runs").exists() else 0
        assert night(repo) == code, cron_log.read_text()
        assert [(r["cycle"], r["decision"]) for r in iterations(repo)[before:]] == cycles
        assert state(repo)["stop_reason"] == reason
        assert_status_report_and_state_agree(repo)
        assert f"last run: {run}" in cron_log.read_text()  # the summary reached cron's output
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1)


def test_a_run_that_makes_no_cycle_never_exits_0_and_state_agrees_with_the_report(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan)
    assert cli(repo, "run").returncode == 0  # 2 cycles at $0.002 each
    again = cli(repo, "run", "--budget-usd", "0.004")  # the next cycle would overspend: none starts
    assert again.returncode == 10, again.stderr
    assert len(iterations(repo)) == 2
    assert state(repo)["stop_reason"] == "budget"
    assert "last run: no cycle" in again.stdout
    assert_status_report_and_state_agree(repo)


def test_a_run_interrupted_is_continued_not_started_afresh(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, NIGHTS, config={"stop": {"max_cycles": 3}})
    stopped = cli(repo, "run", env={ENV: "after-mutate:1:SIGTERM"})
    assert stopped.returncode == 130, stopped.stderr
    assert [r["cycle"] for r in iterations(repo)] == [1]
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert [r["cycle"] for r in iterations(repo)] == [1, 2, 3]  # the run's 3 cycles, as if never stopped
    assert "last run: cycles 1-3" in resumed.stdout
    assert_status_report_and_state_agree(repo)


FAILING = {n: {"exit": 2} for n in range(2, 5)}
OUT_OF_SCOPE = {n: {"write": {"prompt.md": scores(a=1), "stray/new.txt": "x\n"}} for n in range(2, 5)}


@pytest.mark.parametrize(
    "plan, env, code, ending",
    [
        (FAILING, {}, 40, "4 cycles, finished (errors)"),
        (OUT_OF_SCOPE, {}, 20, "4 cycles, finished (out-of-scope)"),
        (
            {2: {"write": {"prompt.md": scores(a=1)}}},
            {ENV: "after-mutate:1:SIGTERM"},
            130,
            "1 cycles, stopped (interrupted)",
        ),
    ],
    ids=["40", "20", "130"],
)
def test_every_exit_of_run_prints_the_summary(tmp_path, plan, env, code, ending):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    done = cli(repo, "run", "-q", env=env)
    assert done.returncode == code, done.stderr
    assert f"experiment exp: {ending}" in done.stdout
    assert "score 0.0000 (original) -> 0.0000 (best, cycle 1)" in done.stdout
    assert "no commits: HEAD is still the original artifact" in done.stdout
    assert f"chart: {repo}/.autoresearch/runs/exp/_autoresearch/trajectory.html" in done.stdout


def test_an_integrity_stop_on_resume_prints_the_summary_with_its_one_error_line(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})
    assert cli(repo, "run").returncode == 0
    (repo / "prompt.md").write_text(scores(a=0.5))
    git(repo, "commit", "-qam", "hand edit")
    done = cli(repo, "run", "-q")
    assert done.returncode == 50, done.stderr
    assert [ln for ln in done.stderr.splitlines() if ln.startswith("autoresearch:")] == [
        ln for ln in done.stderr.splitlines() if "changed outside autoresearch" in ln
    ]
    assert "experiment exp: 2 cycles, finished (max_cycles)" in done.stdout
    assert "score 0.0000 (original) -> 1.0000 (best, cycle 2)" in done.stdout
