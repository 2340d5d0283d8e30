"""`autoresearch schedule`: real runs at each firing, never two at once, missed firings, SIGTERM, --detach.

Firings every second use the 6-field cron form (seconds first); "the machine
slept" is a SIGSTOP of the scheduler across its firing time, so APScheduler's
own misfire handling decides what happens on SIGCONT.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from autoresearch.optimizer.daemon.scheduler import cron_weekdays, parse_duration
from tests.helpers.repos import GIT_ENV, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for

SCHEDULE = ".autoresearch/schedules/exp/schedule.json"


def schedule_json(repo) -> dict:
    try:
        return json.loads((repo / SCHEDULE).read_text())
    except FileNotFoundError:
        return {}


def start_scheduler(repo, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "schedule", *args],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    return proc.returncode


def repo_with_plan(tmp_path, first: str = scores(a=0, b=0)):
    plan = {
        2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"},
        3: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix b"},
    }
    return scenario_repo(
        tmp_path / "r",
        {"prompt.md": first},
        plan,
        config={"stop": {"max_cycles": 0}},
        extra_files={".gitignore": "waiting\ngate\n"},
    )


@pytest.mark.parametrize(
    "field, days",
    [
        ("*", "*"),
        ("1-5", "mon,tue,wed,thu,fri"),
        ("0", "sun"),
        ("7", "sun"),
        ("*/2", "sun,tue,thu,sat"),
        ("sat,sun", "sun,sat"),
        ("5-7", "sun,fri,sat"),
        ("mon-wed", "mon,tue,wed"),
    ],
)
def test_crontab_weekdays_mean_what_they_mean_in_crontab(field, days):
    assert cron_weekdays(field) == days  # APScheduler 3 alone would read 0 as Monday


def test_durations():
    assert [parse_duration(t, "--for") for t in ("90m", "6h", "2d", "30s")] == [5400, 21600, 172800, 30]


def test_each_firing_resumes_the_experiment_for_max_cycles_more(tmp_path):
    repo = repo_with_plan(tmp_path)
    scheduler = start_scheduler(repo, "--cron", "* * * * * *", "--max-cycles", "1")
    wait_for(lambda: len(schedule_json(repo).get("runs", [])) >= 3, timeout=60)
    assert stop(scheduler) == 130, scheduler.stderr
    runs = schedule_json(repo)["runs"]
    assert [r["exit_code"] for r in runs[:3]] == [10, 0, 0]  # the original alone, then a KEEP per firing
    assert [(r["cycle"], r["decision"]) for r in iterations(repo)][:3] == [(1, "keep"), (2, "keep"), (3, "keep")]
    assert "scheduler exp: not running, cron '* * * * * *'" in cli(repo, "status").stdout


def test_a_firing_while_a_run_is_still_going_is_skipped_and_logged(tmp_path):
    repo = repo_with_plan(tmp_path, first=scores(a=0, b=0) + "WAITGATE\n")
    scheduler = start_scheduler(repo, "--cron", "* * * * * *", "--max-cycles", "1")
    try:
        wait_for(lambda: len(schedule_json(repo).get("skipped", [])) >= 2, timeout=60)
        assert schedule_json(repo)["runs"] == []  # the first run is still waiting at the gate
        (repo / "gate").touch()
        wait_for(lambda: len(schedule_json(repo).get("runs", [])) >= 2, timeout=60)
    finally:
        (repo / "gate").touch()
        stop(scheduler)
    data = schedule_json(repo)
    assert all(s["reason"] == "the previous run is still going" for s in data["skipped"])
    assert 30 not in [r["exit_code"] for r in data["runs"]]  # never a second run refused by the lock
    log = cli(repo, "logs", "--json").stdout  # the experiment's own log is untouched by skips
    assert "firing skipped" not in log
    assert "firing skipped" in (repo / ".autoresearch/schedules/exp/schedule.log").read_text()


def scheduler_held_in_cycle_2_eval(tmp_path):
    """A scheduler firing every second whose first run waits in cycle 2's eval until `gate` exists."""
    repo = repo_with_plan(tmp_path, first=scores(a=0, b=0))
    (repo / "plan.json").write_text(json.dumps({"2": {"write": {"prompt.md": scores(a=1, b=0) + "WAITGATE\n"}}}))
    git(repo, "commit", "-qam", "cycle 2 waits")
    scheduler = start_scheduler(repo, "--cron", "* * * * * *")
    wait_for(lambda: (repo / "waiting").exists(), timeout=60)
    return repo, scheduler


def test_sigterm_ends_the_run_in_progress_which_restores_the_tree(tmp_path):
    repo, scheduler = scheduler_held_in_cycle_2_eval(tmp_path)
    assert stop(scheduler) == 130, scheduler.stderr
    data = schedule_json(repo)
    assert (data["status"], data["runs"][-1]["exit_code"]) == ("stopped", 130)
    assert git(repo, "status", "--porcelain", "prompt.md") == ""
    assert (repo / "prompt.md").read_text() == scores(a=0, b=0)
    assert "not running" in cli(repo, "status", "exp").stdout


# How far ahead a test's firing is set: the scheduler must have started and written its next firing before it.
# A loaded machine (the suite runs four workers on two cores) took 8-9 s to start one (10 s was too little), so a
# scheduler that came up too late is tried again, in a fresh repository, with a lead twice as long.
LEADS_S = (10, 20, 40)


def at_second(offset_s: float) -> datetime:
    return (datetime.now(timezone.utc) + timedelta(seconds=offset_s)).replace(microsecond=0)


def asleep_through_a_firing(tmp_path, asleep_s: float, *args: str) -> tuple[Path, subprocess.Popen, datetime]:
    """A repository and its scheduler of one daily firing, SIGSTOPped (the machine asleep) from before that
    firing until `asleep_s` after it, then continued: the repository, the scheduler and the firing's time."""
    for lead_s in LEADS_S:
        repo = repo_with_plan(tmp_path / f"lead-{lead_s}")
        fire_at = at_second(lead_s)
        scheduler = start_scheduler(repo, "--cron", cron_at(fire_at), "--tz", "UTC", *args)
        wait_for(lambda: bool(schedule_json(repo).get("next_fire")), timeout=120)
        scheduler.send_signal(signal.SIGSTOP)
        if datetime.now(timezone.utc) < fire_at and schedule_json(repo)["next_fire"] == fire_at.isoformat():
            break
        scheduler.send_signal(signal.SIGCONT)
        stop(scheduler)  # it came up after its firing (and planned tomorrow's), or so close to it that it may have run
    else:
        raise AssertionError(f"no scheduler came up {LEADS_S[-1]} s before its firing")
    while datetime.now(timezone.utc) < fire_at + timedelta(seconds=asleep_s):  # the clock itself is the condition
        time.sleep(0.05)
    scheduler.send_signal(signal.SIGCONT)
    return repo, scheduler, fire_at


def cron_at(moment: datetime) -> str:
    return f"{moment.second} {moment.minute} {moment.hour} * * *"


def test_a_firing_missed_while_asleep_runs_once_on_wake_within_the_grace_time(tmp_path):
    repo, scheduler, fire_at = asleep_through_a_firing(tmp_path, 2, "--grace", "1h", "--max-cycles", "1")
    try:
        wait_for(lambda: schedule_json(repo).get("runs"), timeout=60)
    finally:
        stop(scheduler)
    (run,) = schedule_json(repo)["runs"]
    assert run["scheduled_for"] == fire_at.isoformat()
    assert datetime.fromisoformat(run["started_at"].replace("Z", "+00:00")) >= fire_at + timedelta(seconds=2)
    assert run["exit_code"] == 10  # one cycle: the original, evaluated


def test_a_firing_missed_by_more_than_the_grace_time_is_skipped_and_logged(tmp_path):
    repo, scheduler, fire_at = asleep_through_a_firing(tmp_path, 3, "--grace", "1s")
    try:
        wait_for(lambda: schedule_json(repo).get("skipped"), timeout=30)
    finally:
        stop(scheduler)
    data = schedule_json(repo)
    assert data["runs"] == [] and not (repo / ".autoresearch/runs/exp").exists()
    assert data["skipped"][0]["scheduled_for"] == fire_at.isoformat()
    assert "missed by more than the grace time" in data["skipped"][0]["reason"]


def test_detach_prints_the_pid_status_lists_it_and_sigterm_stops_it(tmp_path):
    repo = repo_with_plan(tmp_path)
    done = cli(repo, "schedule", "--cron", "0 1 * * *", "--detach")
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout.split("(pid ")[1].split(")")[0])
    assert schedule_json(repo)["pid"] == pid
    listed = cli(repo, "status").stdout
    assert f"scheduler exp: running (pid {pid}), cron '0 1 * * *'" in listed and "next run" in listed
    again = cli(repo, "schedule", "--cron", "0 2 * * *")
    assert again.returncode == 30 and f"already has a scheduler (pid {pid})" in again.stderr
    os.kill(pid, signal.SIGTERM)
    wait_for(lambda: schedule_json(repo).get("status") == "stopped", timeout=30)
    wait_for(lambda: "scheduler exp: not running" in cli(repo, "status").stdout, timeout=30)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--cron", "0 1 * *"], "--cron"),
        (["--cron", "0 25 * * *"], "--cron"),
        (["--cron", "0 1 * * 1", "--tz", "Mars/Olympus"], "--tz"),
        (["--cron", "0 1 * * *", "--for", "soon"], "--for"),
    ],
)
def test_bad_schedules_exit_30_with_one_line(tmp_path, args, needle):
    repo = repo_with_plan(tmp_path)
    done = cli(repo, "schedule", *args)
    assert done.returncode == 30 and "Traceback" not in done.stderr
    assert done.stderr.startswith("autoresearch: ") and needle in done.stderr
    assert not (repo / SCHEDULE).exists()


def test_run_from_system_cron_needs_no_tty_is_quiet_and_exits_with_the_outcome(tmp_path):
    repo = repo_with_plan(tmp_path)
    cron_env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SHELL": "/bin/sh", **GIT_ENV}
    done = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "run", "-q", "--max-cycles", "2"],
        cwd=repo,
        env=cron_env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr  # improved
    assert done.stdout.startswith("experiment exp: 2 cycles")
    assert "evaluating" not in done.stderr and "mutating" not in done.stderr
    (repo / "autoresearch.yaml").write_text("artifact: [\n")
    broken = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", "run", "-q"],
        cwd=repo,
        env=cron_env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (broken.returncode, broken.stdout) == (30, "")  # one line on stderr: what cron mails
    assert broken.stderr.count("\n") == 1 and broken.stderr.startswith("autoresearch: ")


def test_stop_ends_the_run_in_progress_and_then_its_scheduler(tmp_path):
    repo, scheduler = scheduler_held_in_cycle_2_eval(tmp_path)
    stopping = subprocess.Popen(
        [sys.executable, "-m", "autoresearch.optimizer", "stop"],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for(lambda: (repo / ".autoresearch/runs/exp/_autoresearch/STOP").exists())
    (repo / "gate").touch()  # the eval in progress finishes: a graceful stop records it
    out, err = stopping.communicate(timeout=60)
    assert stopping.returncode == 0, err
    assert "stopped: finished (stop-requested)" in out and "stopping the scheduler of exp" in out
    assert scheduler.wait(timeout=30) == 130
    assert [r["cycle"] for r in iterations(repo)] == [1, 2]
    assert schedule_json(repo)["status"] == "stopped"
    assert git(repo, "status", "--porcelain", "prompt.md") == ""


def test_a_config_kept_outside_any_repository_fires_in_the_repository_it_was_scheduled_from(tmp_path):
    repo = repo_with_plan(tmp_path)
    outside = tmp_path / "configs" / "exp.yaml"
    outside.parent.mkdir()
    outside.write_text((repo / "autoresearch.yaml").read_text())
    scheduler = start_scheduler(repo, "--config", str(outside), "--cron", "* * * * * *", "--max-cycles", "1")
    try:
        wait_for(lambda: len(schedule_json(repo).get("runs", [])) >= 2, timeout=60)
    finally:
        stop(scheduler)
    assert [r["exit_code"] for r in schedule_json(repo)["runs"][:2]] == [10, 0]
    assert [r["decision"] for r in iterations(repo)][:2] == ["keep", "keep"]
