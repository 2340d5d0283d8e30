"""The API's routes that change something, each behind the bearer token: start, stop, roll back, eval."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import Response
from pydantic import BaseModel, Field

from autoresearch.optimizer.api import child
from autoresearch.optimizer.api.masked import MaskedJSONResponse
from autoresearch.optimizer.api.served import ServedHere, authorized, checked_name, experiment_paths, open_experiment
from autoresearch.optimizer.experiment import versions
from autoresearch.optimizer.experiment.lockfile import holder, task
from autoresearch.optimizer.experiment.settle import settle
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import load_rows
from autoresearch.trajectory import iterations

router = APIRouter(default_response_class=MaskedJSONResponse, dependencies=[Depends(authorized)])


class Rollback(BaseModel):
    cycle: int = Field(ge=1, description="The cycle whose KEEP to return to.")


class Stop(BaseModel):
    now: bool = Field(False, description="Interrupt the eval or mutator in progress too (as `stop --now`).")


@router.post(
    "/v1/experiments/{name}/start", status_code=202, summary="Start a run in the background, as `autoresearch start`"
)
def start(name: str, here: ServedHere) -> JSONObject:
    done = child.cli(here, "start", "--experiment", checked_name(name))
    return {"experiment": name, "started": True, "output": done.stdout}


@router.post(
    "/v1/experiments/{name}/stop",
    status_code=202,
    summary="Ask a running experiment to stop (after its phase, or now)",
)
def stop(name: str, here: ServedHere, body: Stop | None = None) -> JSONObject:
    paths = experiment_paths(here, name)
    pid = holder(paths.lock)
    if pid is None or pid < 0:
        raise HTTPException(409, f"experiment {name!r} is not running")
    if (doing := task(paths.lock)) not in (None, "run"):  # a rollback (maybe this server's own) is no daemon
        raise HTTPException(409, f"experiment {name!r} is not running: `autoresearch {doing}` holds it for a moment")
    now = body is not None and body.now
    if now:
        os.kill(pid, signal.SIGTERM)
    else:
        paths.stop_file.touch()
    return {"experiment": name, "pid": pid, "stopping": "now" if now else "after the current phase"}


@router.post(
    "/v1/experiments/{name}/rollback",
    summary="A new commit restoring a KEEP's artifact, as `rollback --to`",
    response_model=JSONObject,
)
def rollback(name: str, body: Rollback, here: ServedHere) -> Response:
    paths = experiment_paths(here, name)
    cfg, main = open_experiment(here, name)
    settled = settle(paths.results_dir)  # a rollback or promote cut short, finished or undone first
    done = versions.rollback(cfg, main, paths, body.cycle)
    record = iterations.fields(done.record) if done.record else None
    # answered as written, as the iterations are: pydantic's JSON mode made a grader's name with a lone surrogate "n���"
    return MaskedJSONResponse(
        {
            "experiment": name,
            "cycle": body.cycle,
            "changed": done.record is not None,
            "record": record,
            "settled": settled,
        }
    )


@router.post("/v1/eval", summary="Run the configured eval once on the working tree, as `autoresearch eval`")
def evaluate(here: ServedHere) -> JSONObject:
    report = child.evaluate(here)
    try:
        rows = load_rows(Path(report.results))
    except BadResults as exc:
        raise HTTPException(500, str(exc)) from None
    return {"output": report.text() + "\n", "results": report.results, "rows": rows}
