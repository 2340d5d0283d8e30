"""The MLflow worker: `python -P -m autoresearch.optimizer.tracking.worker`, fed JSON lines on stdin by the
daemon's tracker (autoresearch.optimizer.tracking). It runs in the repository, logs each event to the MLflow
tracking server, and says on stdout only what the user must hear: that the server stopped answering, and
that it answers again. Its stdin closing without an `end` means the daemon died: the MLflow run is ended as
FAILED and the worker exits.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import TextIO

from mlflow.entities import Metric, Param
from mlflow.tracking import MlflowClient

from autoresearch.plumbing import owned, redact
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.trajectory import chartdata, image, iterations

NAME_CHARS = re.compile(r"[^\w./\- ]")  # what MLflow takes in a metric's or parameter's name
MAX_NAME = 250
USERINFO = re.compile(r"//[^/@\s]*@")
# the reason requests buries in three wrappers: the socket's, a server that never answers, or one that answers 5xx
REASON = re.compile(r"\[Errno -?\d+\] [^'\")]+|Read timed out|too many \d+ error responses")


class Worker:
    def __init__(self) -> None:
        self.opening: JSONObject = {}
        self.client: MlflowClient | None = None
        self.run_id: str | None = None
        self.failing: str | None = None  # the error of the first event not delivered, until one is
        self.missed = 0
        self.spent = 0.0

    def handle(self, event: JSONObject) -> None:
        if event["kind"] == "start":
            self.opening = event
            masking = event.get("masking", {})  # what the daemon's masker learned: a KEEP's diff is read here
            redact.learn(masking.get("names", []), [Path(p) for p in masking.get("dotenv", [])])
        try:
            self._ensure_run()
            if event["kind"] == "cycle":
                self._cycle(event)
            elif event["kind"] == "end":
                self._end(event)
        except Exception as exc:  # the server, the network, a refusal: never the daemon's failure
            self._failed(event, exc)
        else:
            self._recovered()

    def _ensure_run(self) -> None:
        if self.run_id is not None or not self.opening:
            return
        self.client = MlflowClient(tracking_uri=self.opening["uri"])
        name = self.opening["experiment"]
        found = self.client.get_experiment_by_name(name)
        experiment_id = found.experiment_id if found else self.client.create_experiment(name)
        run = self.client.create_run(experiment_id, run_name=self.opening["run_name"])
        self.run_id = run.info.run_id
        params = [Param(_name(k), str(v)[:6000]) for k, v in self.opening.get("params", {}).items()]
        self.client.log_batch(self.run_id, params=params)

    def _cycle(self, event: JSONObject) -> None:
        assert self.client is not None and self.run_id is not None
        line = event["line"]
        step, now = int(line["cycle"]), int(time.time() * 1000)
        self.spent += float(line.get("cost_usd") or 0) + float(line.get("mutation_cost_usd") or 0)
        values: dict[str, float] = {
            "kept": float(line["decision"] == "keep"),
            "error": float(line["decision"] == "error"),
            "spent_usd": self.spent,
        }
        for key in ("score", "cost_usd", "mutation_cost_usd", "duration_s", "wins", "losses", "ties", "mean_delta"):
            values[key] = line.get(key)
        for key in ("holdout_score", "composite", "tests", "tokens_in", "tokens_out"):
            values[key] = line.get(key)
        values |= {f"pass_rate/{k}": v for k, v in (line.get("assertions") or {}).items()}
        values |= {f"objective/{k}": v for k, v in (line.get("objectives") or {}).items()}
        named: dict[str, float] = {}
        for key, value in values.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                name, seen = _name(key), 1
                while name in named:  # `c:d` and `c_d` both read `c_d`: the second is `c_d_2`, not mixed in
                    seen += 1
                    name = f"{_name(key)}_{seen}"
                named[name] = float(value)
        metrics = [Metric(name, value, now, step) for name, value in named.items()]
        self.client.log_batch(self.run_id, metrics=metrics)
        self.client.log_text(self.run_id, json.dumps(line, indent=2), f"cycles/cycle-{step:04d}.json")
        if line["decision"] == "keep" and line.get("commit") and step > 1:
            patch = redact.redact(_diff(line["commit"], self.opening["artifact"]))
            self.client.log_text(self.run_id, patch, f"diffs/cycle-{step:04d}.patch")

    def _end(self, event: JSONObject) -> None:
        assert self.client is not None and self.run_id is not None
        if event.get("dropped"):
            self.client.set_tag(self.run_id, "autoresearch.cycles_not_logged", str(event["dropped"]))
        self._chart()
        self.client.set_terminated(self.run_id, status=event["status"])
        self.run_id = None

    def _chart(self) -> None:
        """The chart and the records, as the run ends."""
        assert self.client is not None and self.run_id is not None
        source = Path(self.opening.get("iterations", ""))
        if not source.is_file():
            return
        records, _ = iterations.read(source)
        reading = chartdata.Reading(**self.opening.get("reading", {}))
        with owned.temporary("autoresearch-chart-") as folder:
            chart = Path(folder, "chart.png")
            chart.write_bytes(image.png(image.score_svg(records, reading)))
            self.client.log_artifact(self.run_id, str(chart))
        self.client.log_artifact(self.run_id, str(source))

    def _failed(self, event: JSONObject, exc: Exception) -> None:
        self.missed += 1
        full = _shown(" ".join(str(exc).split())) or type(exc).__name__
        reason = REASON.search(full)
        error = full[:300]
        cycle = f" of cycle {event['line']['cycle']}" if event["kind"] == "cycle" else ""
        print(f"not logged: the {event['kind']} event{cycle}: {error}", file=sys.stderr, flush=True)
        if self.failing is None:
            self.failing = reason.group(0) if reason else error[:200]
            uri = _shown(self.opening.get("uri", "?"))
            say(f"{uri} did not answer ({self.failing}); cycles go unlogged until it does", failing=True)

    def _recovered(self) -> None:
        if self.failing is not None:
            uri = _shown(self.opening.get("uri", "?"))
            say(f"{uri} answers again; {self.missed} event(s) were not logged", failing=False)
            self.failing, self.missed = None, 0


def _shown(uri: str) -> str:
    """A tracking URI as a log may show it: a user and password in it (`https://user:token@host`) masked."""
    return USERINFO.sub("//***@", uri)


def _name(text: str) -> str:
    """A name MLflow takes: its characters, and nothing it would read as a path to another name (`a/../b`,
    `a//b`, `t/`, `..a`), which would refuse the whole batch: every metric of the cycle."""
    kept = NAME_CHARS.sub("_", text)[: MAX_NAME - 1].split("/")
    name = "/".join("_" if part in (".", "..") else part for part in kept if part) or "_"
    return f"_{name}" if name.startswith("..") else name


def _diff(commit: str, artifact: str) -> str:
    done = subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", "diff", "--no-color", f"{commit}^", commit, "--", artifact],
        capture_output=True,
        text=True,
        errors="replace",
    )
    return done.stdout if done.returncode == 0 else f"(no diff: {done.stderr.strip()})"


class _Masked(io.TextIOBase):
    """A stream that masks a URI's user and password (`_shown`) in what is written to it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(_shown(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()


_said = sys.stdout


def say(warning: str, failing: bool) -> None:
    """A warning for the daemon's log, and whether the server is failing (the only writes to the real stdout,
    one JSON object a line). None reads it when the daemon was killed: the worker ends there, rather than go
    on failing event after event for no one."""
    try:
        _said.write(json.dumps({"warning": warning, "failing": failing}) + "\n")
        _said.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), _said.fileno())  # the line left in its buffer goes nowhere
        raise SystemExit(0) from None


def main() -> None:
    # MLflow's own prints ("View run at <uri>/...") go to the worker's log, not the daemon's, the URI's password masked
    sys.stdout = sys.stderr = _Masked(sys.stderr)
    worker = Worker()
    ended = False
    for raw in sys.stdin:
        if raw.strip():
            event = json.loads(raw)
            worker.handle(event)
            ended = ended or event["kind"] == "end"
    if not ended and worker.opening:  # the daemon died without saying how the run ended
        worker.handle({"kind": "end", "status": "FAILED", "dropped": 0})


if __name__ == "__main__":
    main()
