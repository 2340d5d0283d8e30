"""`autoresearch schedule`: a long-running process that starts a run of one experiment at each cron firing.

Each firing runs `autoresearch run -q` as a subprocess (so every run is an
ordinary resume, with its own lock, state.json and exit code) and waits for it.
APScheduler does the timing: `max_instances=1` skips a firing while a run is
still going, `coalesce` + `misfire_grace_time` turn firings missed while the
machine slept into one late run (or a logged miss past the grace time).

The scheduler's own files live in `<results_dir>/schedules/<experiment>/`:
`schedule.json` (pid, cron, next firing, recent runs), a `lock` held for the
scheduler's life (as the daemon's), `schedule.log` and `runs/` (each run's
output). SIGTERM ends it cleanly: the run in progress gets SIGTERM too (it
restores the tree and records itself), then the scheduler exits with 130.

Its paths are autoresearch.plumbing.paths.SchedulePaths (`status` reads them without loading this).
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from apscheduler import events
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from tzlocal import get_localzone

from autoresearch.optimizer import daemonlog, signals
from autoresearch.optimizer.daemon import launch
from autoresearch.optimizer.experiment.lockfile import Lock
from autoresearch.optimizer.experiment.overview import read_json
from autoresearch.plumbing import atomic, process
from autoresearch.plumbing.clock import utc_now
from autoresearch.plumbing.errors import Interrupted, InvalidInput
from autoresearch.plumbing.paths import SchedulePaths

DURATION = re.compile(r"^(\d+(?:\.\d+)?)([smhd])$")
UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400}
CRON_DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
KEEP_RECORDS = 20


def parse_duration(text: str, option: str) -> float:
    """`90m`, `6h`, `2d` (or `30s`) in seconds."""
    match = DURATION.match(text.strip())
    if not match:
        raise InvalidInput(f"{option}: {text!r} is not a duration like 90m, 6h or 2d")
    return float(match.group(1)) * UNIT_S[match.group(2)]


def cron_weekdays(field_text: str) -> str:
    """A crontab day-of-week field (0 or 7 = Sunday) as APScheduler 3 day names (its 0 is Monday)."""
    if field_text == "*":
        return field_text
    days: set[int] = set()
    for item in field_text.lower().split(","):
        span, _, step = item.partition("/")
        first, _, last = span.partition("-")
        start = 0 if first == "*" else _cron_day(first)
        end = 6 if first == "*" else _cron_day(last) if last else (6 if step else start)
        end = 7 if end == 0 and last else end  # `5-0` and `1-7` run up to Sunday
        days.update(d % 7 for d in range(start, end + 1, int(step or 1)))
    return ",".join(CRON_DAYS[d] for d in sorted(days))


def _cron_day(token: str) -> int:
    if token in CRON_DAYS:
        return CRON_DAYS.index(token)
    if token.isdigit() and int(token) <= 7:
        return int(token)
    raise ValueError(f"{token!r} is not a day of the week")


def make_trigger(cron: str, tz: str | None) -> CronTrigger:
    """A CronTrigger from 5 crontab fields, or 6 with seconds first (to fire every few seconds in tests)."""
    fields = cron.split()
    if len(fields) not in (5, 6):
        raise InvalidInput(f"--cron: {cron!r} needs 5 fields (minute hour day month weekday)")
    second = fields.pop(0) if len(fields) == 6 else "0"
    minute, hour, day, month, weekday = fields
    try:
        return CronTrigger(
            second=second,
            minute=minute,
            hour=hour,
            day=day,
            month=month,
            day_of_week=cron_weekdays(weekday),
            timezone=zone(tz),
        )
    except ValueError as exc:
        raise InvalidInput(f"--cron: {cron!r}: {exc}") from None


def zone(tz: str | None) -> tzinfo:
    """The named time zone, or the machine's own (what a crontab line means by its times)."""
    if tz is None:
        return get_localzone()
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(f"--tz: {tz!r} is not a known time zone (e.g. Europe/Paris)") from None


@dataclass
class Record:
    """schedule.json, rewritten whole at every change so `status` always reads a consistent file."""

    path: Path
    data: dict
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def update(self, **values: object) -> None:
        with self._lock:
            self.data.update(values)
            self._save()

    def append(self, key: str, entry: dict) -> None:
        with self._lock:
            self.data[key] = [*self.data.get(key, []), entry][-KEEP_RECORDS:]
            self._save()

    def _save(self) -> None:
        self.data["updated_at"] = utc_now()
        atomic.write_text(self.path, json.dumps(self.data, indent=2) + "\n", durable=False)


def iso(at: datetime | None) -> str | None:
    return at.isoformat(timespec="seconds") if at else None


@dataclass(frozen=True)
class Plan:
    """Everything a scheduler needs, checked by the command before anything starts."""

    config: Path  # absolute; each run is `autoresearch run --config <config>`
    repo: Path  # where each run starts: the config's repository (a config outside any repository names none)
    experiment: str
    results: Path  # <repo>/<results_dir>
    cron: str
    tz: str | None
    grace_s: float
    max_cycles: int | None  # per run
    max_hours: float | None  # per run
    lifetime_s: float | None  # the scheduler's own, from --for

    @property
    def paths(self) -> SchedulePaths:
        return SchedulePaths.of(self.results, self.experiment)

    def run_argv(self) -> list[str]:
        """`autoresearch run -q` (see autoresearch.optimizer.daemon.launch); `--max-cycles` is per run, as the scheduler's own."""
        argv = launch.argv("run", "--config", str(self.config), "--quiet")
        if self.max_cycles:
            argv += ["--max-cycles", str(self.max_cycles)]
        if self.max_hours:
            argv += ["--max-hours", str(self.max_hours)]
        return argv


class Firings:
    """The job APScheduler calls at each firing, and the listener that records what became of each."""

    def __init__(self, plan: Plan, record: Record, log: daemonlog.Logger):
        self.plan, self.record, self.log = plan, record, log
        self.current: Path | None = None  # the log prefix of the run in progress
        self.stopping = threading.Event()

    def run(self) -> dict:
        """One run of the experiment, waited for; its result becomes the EVENT_JOB_EXECUTED retval."""
        started = utc_now()
        prefix = self.plan.paths.run_logs / started.replace(":", "-")
        self.current = prefix  # before the check: `stop_run` either sees this run or stops it starting
        if self.stopping.is_set():
            self.current = None
            return {"skipped": "the scheduler is stopping"}
        self.record.update(current={"started_at": started, "pid_file": str(prefix) + process.PGID_SUFFIX})
        self.log.info("run started", output=f"{prefix}.stderr.log")
        try:
            done = process.run(self.plan.run_argv(), cwd=self.plan.repo, log_prefix=prefix, env=launch.env())
        finally:
            self.current = None
        return {
            "started_at": started,
            "ended_at": utc_now(),
            "exit_code": done.returncode,
            "output": f"{prefix}.stderr.log",
        }

    def on_event(self, event: events.JobExecutionEvent) -> None:
        when = iso(getattr(event, "scheduled_run_time", None))
        if event.code == events.EVENT_JOB_EXECUTED and "skipped" in event.retval:
            self._skipped(when, event.retval["skipped"])  # fired while stopping: no run started
        elif event.code == events.EVENT_JOB_EXECUTED:
            self._finished({"scheduled_for": when, **event.retval})
        elif event.code == events.EVENT_JOB_ERROR:
            self._finished({"scheduled_for": when, "exit_code": None, "error": repr(event.exception)})
        elif event.code == events.EVENT_JOB_MAX_INSTANCES:
            for at in event.scheduled_run_times:
                self._skipped(iso(at), "the previous run is still going")
        elif event.code == events.EVENT_JOB_MISSED:
            self._skipped(when, f"missed by more than the grace time ({self.plan.grace_s:g} s)")

    def _finished(self, entry: dict) -> None:
        self.record.append("runs", entry)
        self.record.update(current=None)
        code = entry.get("exit_code")
        level = self.log.info if code in (0, 10) else self.log.warning
        extra = {"error": entry["error"]} if entry.get("error") else {}
        level("run finished", exit_code=code, scheduled_for=entry["scheduled_for"], **extra)

    def _skipped(self, when: str | None, reason: str) -> None:
        self.record.append("skipped", {"scheduled_for": when, "reason": reason})
        self.log.warning("firing skipped", scheduled_for=when, reason=reason)

    def stop_run(self, poll_s: float = 0.05) -> None:
        """SIGTERM the run in progress (it restores the tree and records itself) and wait until it is over."""
        self.stopping.set()
        signalled = None
        while (prefix := self.current) is not None:
            pid_file = prefix.with_name(prefix.name + process.PGID_SUFFIX)
            pid = int(pid_file.read_text()) if pid_file.exists() else None
            if pid and pid != signalled:
                self.log.info("stopping the run in progress", pid=pid)
                try:  # the run alone, not its group: its git helpers must outlive its restore of the tree
                    os.kill(pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                signalled = pid
            time.sleep(poll_s)


def serve(plan: Plan, tick_s: float = 0.2, wakeup_s: float = 30.0) -> int:
    """Fire runs until --for runs out (exit 0); SIGTERM or Ctrl-C stops the run in progress, then raises Interrupted."""
    logging.getLogger("apscheduler").addHandler(logging.NullHandler())  # we log what matters ourselves
    logging.getLogger("apscheduler").propagate = False
    signals.install()
    log = daemonlog.get().bind(experiment=plan.experiment, phase="schedule")
    deadline = time.time() + plan.lifetime_s if plan.lifetime_s else None
    with Lock(plan.paths.lock) as lock:
        lock.acquire(f"{plan.experiment} (scheduler)")
        record = _fresh_record(plan, deadline)
        firings = Firings(plan, record, log)
        scheduler = _start(plan, firings)
        log.info("scheduler started", cron=plan.cron, tz=record.data["tz"], pid=record.data["pid"])
        reason = "interrupted"
        try:
            reason = _watch(scheduler, record, log, deadline, tick_s, wakeup_s)
        except Interrupted:
            firings.stop_run()
            raise
        finally:
            scheduler.shutdown(wait=True)  # a run still going at the deadline is waited for
            record.update(
                status="stopped" if reason == "interrupted" else "finished",
                stop_reason=reason,
                next_fire=None,
                current=None,
            )
            log.info("scheduler stopped", reason=reason)
    return 0


def _fresh_record(plan: Plan, deadline: float | None) -> Record:
    """schedule.json for this scheduler; the runs and skips of earlier ones are kept."""
    previous = read_json(plan.paths.state) or {}
    record = Record(
        plan.paths.state,
        {
            "pid": os.getpid(),
            "experiment": plan.experiment,
            "config": str(plan.config),
            "cron": plan.cron,
            "tz": str(zone(plan.tz)),
            "grace_s": plan.grace_s,
            "max_cycles": plan.max_cycles,
            "max_hours": plan.max_hours,
            "started_at": utc_now(),
            "status": "running",
            "stop_reason": None,
            "until": iso(datetime.fromtimestamp(deadline).astimezone()) if deadline else None,
            "next_fire": None,
            "current": None,
            "runs": previous.get("runs", []),
            "skipped": previous.get("skipped", []),
        },
    )
    record.update()
    return record


def _start(plan: Plan, firings: Firings) -> BackgroundScheduler:
    """One job: never two runs at once, missed firings coalesced into one late run within the grace time."""
    scheduler = BackgroundScheduler(timezone=zone(plan.tz))
    scheduler.add_job(
        firings.run,
        make_trigger(plan.cron, plan.tz),
        id="run",
        max_instances=1,
        coalesce=True,
        misfire_grace_time=max(1, int(plan.grace_s)),
    )
    mask = events.EVENT_JOB_EXECUTED | events.EVENT_JOB_ERROR | events.EVENT_JOB_MAX_INSTANCES | events.EVENT_JOB_MISSED
    scheduler.add_listener(firings.on_event, mask)
    scheduler.start()
    return scheduler


def _watch(
    scheduler: BackgroundScheduler,
    record: Record,
    log: daemonlog.Logger,
    deadline: float | None,
    tick_s: float,
    wakeup_s: float,
) -> str:
    """Keep schedule.json's next firing current until the deadline; wake APScheduler now and then,
    because its wait runs on a clock that stands still while the machine sleeps."""
    shown, woken = object(), time.monotonic()
    while deadline is None or time.time() < deadline:
        job = scheduler.get_job("run")
        if job is None:
            return "no more firings"
        if job.next_run_time != shown:
            shown = job.next_run_time
            record.update(next_fire=iso(shown))
            log.info("next firing", at=iso(shown))
        if time.monotonic() - woken >= wakeup_s:
            scheduler.wakeup()
            woken = time.monotonic()
        time.sleep(tick_s)
    return "--for ran out"
