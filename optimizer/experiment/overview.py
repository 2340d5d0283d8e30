"""What `status` reports, gathered from the files alone: state.json, iterations.jsonl, schedule.json, the locks.

Nothing here imports pydantic, git, the loop or an SDK: `autoresearch status`
must answer in well under 0.3 s, even while a daemon is busy. Liveness comes
from the lock files, never from a pid: the kernel drops an flock when its
process dies, so a state.json that still says "running" is recognised as stale
even when its pid has been reused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from autoresearch.optimizer.experiment.lockfile import holder
from autoresearch.plumbing import inplace, jsonlines
from autoresearch.plumbing.errors import InvalidInput
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.paths import META, RUNS, SCHEDULE_STATE, SCHEDULES, ExperimentPaths, SchedulePaths
from autoresearch.plumbing.repo import git_root

DEFAULT_RESULTS_DIR = ".autoresearch"
LAST_DECISIONS = 5


def results_root(config: Path, results_dir: str | None = None) -> Path:
    """`<repo>/<results_dir>`: from the config when there is one, else the repository's `.autoresearch`."""
    if config.is_file():
        results_dir = results_dir or _configured_results_dir(config)
        start = config.resolve().parent
    else:
        start = Path.cwd()
    root = git_root(start)
    if root is None:
        raise InvalidInput(f"{start}: not inside a git repository (no .git found above it)")
    return root / (results_dir or DEFAULT_RESULTS_DIR)


def _configured_results_dir(config: Path) -> str | None:
    """The config's `results_dir`; YAML is parsed only when the key is there (importing it costs ~20 ms)."""
    text = config.read_text(encoding="utf-8")
    if "results_dir" not in text:
        return None
    import yaml  # `run` validates the rest of the file; status needs this one key

    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError:
        raise InvalidInput(f"{config}: not valid YAML") from None
    return raw.get("results_dir") if isinstance(raw, dict) else None


def read_json(path: Path) -> JSONObject | None:
    try:
        text = inplace.whole(path, "the state file")  # a folder or a FIFO there: InvalidInput, never a wait
        if text is None:
            return None
        data = jsonlines.strict(text)  # a NaN a hand wrote reached `status --json`
    except ValueError:
        raise InvalidInput(f"{path}: not valid JSON; move it away to start over") from None
    return data if isinstance(data, dict) else None


def last_decisions(iterations: Path, count: int = LAST_DECISIONS) -> list[JSONObject]:
    """The last `count` records of iterations.jsonl, read from the end of the file (it can be long)."""
    try:
        with open(iterations, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64 * 1024))
            tail = f.read().splitlines()
    except FileNotFoundError:
        return []
    records = []
    for raw in tail[-count - 1 :]:
        try:
            record = jsonlines.strict(raw)
        except ValueError:
            continue  # the first line of the window may be cut, a crash may leave a partial last line; a NaN
        if isinstance(record, dict) and "cycle" in record:
            records.append(record)
    return records[-count:]


@dataclass
class ExperimentView:
    name: str
    state: JSONObject | None
    holder: int | None
    decisions: list[JSONObject] = field(default_factory=list)

    @property
    def running(self) -> bool:
        return self.holder is not None

    @property
    def stale_pid(self) -> int | None:
        """The pid a state.json still calls running although nobody holds the lock."""
        st = self.state or {}
        return st.get("pid") if st.get("status") == "running" and not self.running else None

    def as_dict(self) -> JSONObject:
        return {
            "experiment": self.name,
            "running": self.running,
            "pid": self.holder,
            "stale_pid": self.stale_pid,
            "state": self.state,
            "last_decisions": self.decisions,
        }


@dataclass
class ScheduleView:
    name: str
    state: JSONObject | None
    holder: int | None

    @property
    def running(self) -> bool:
        return self.holder is not None

    def as_dict(self) -> JSONObject:
        return {"experiment": self.name, "running": self.running, "pid": self.holder, "schedule": self.state}


def experiment(results: Path, name: str) -> ExperimentView:
    paths = ExperimentPaths.at(results, name)
    if not paths.meta.is_dir():
        known = ", ".join(experiments(results)) or "none yet"
        raise InvalidInput(f"no experiment '{name}' under {results / RUNS} (known: {known})")
    return ExperimentView(name, read_json(paths.state), holder(paths.lock), last_decisions(paths.iterations))


def schedule(results: Path, name: str) -> ScheduleView | None:
    paths = SchedulePaths.of(results, name)
    if not paths.state.exists():
        return None
    return ScheduleView(name, read_json(paths.state), holder(paths.lock))


def experiments(results: Path) -> list[str]:
    runs = results / RUNS
    return sorted(p.name for p in runs.iterdir() if (p / META).is_dir()) if runs.is_dir() else []


def schedules(results: Path) -> list[str]:
    root = results / SCHEDULES
    return sorted(p.name for p in root.iterdir() if (p / SCHEDULE_STATE).exists()) if root.is_dir() else []


def seconds_since(stamp: str | None, now: datetime | None = None) -> float | None:
    """Seconds from an ISO time to now (negative when it is still to come)."""
    if not stamp:
        return None
    try:
        at = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    at = at if at.tzinfo else at.astimezone()
    return ((now or datetime.now(timezone.utc)) - at).total_seconds()
