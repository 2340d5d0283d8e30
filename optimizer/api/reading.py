"""The API's reading routes: experiments as `status --json` shows them, their cycles and their best artifact."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response

from autoresearch.optimizer.api.masked import MaskedJSONResponse
from autoresearch.optimizer.api.served import ServedHere, experiment_paths, open_experiment
from autoresearch.optimizer.experiment import overview, versions
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.trajectory import iterations

router = APIRouter(default_response_class=MaskedJSONResponse)


@router.get("/v1/experiments", summary="Every experiment and scheduler, as `status --json`")
def list_experiments(here: ServedHere) -> JSONObject:
    views = [overview.experiment(here.results_dir, n).as_dict() for n in overview.experiments(here.results_dir)]
    return {"experiments": views}


@router.get("/v1/experiments/{name}", summary="One experiment, as `status NAME --json`")
def show(name: str, here: ServedHere) -> JSONObject:
    experiment_paths(here, name)
    sched = overview.schedule(here.results_dir, name)
    return {**overview.experiment(here.results_dir, name).as_dict(), "scheduler": sched.as_dict() if sched else None}


@router.get(
    "/v1/experiments/{name}/iterations",
    summary="Every cycle's iterations.jsonl record",
    response_model=list[JSONObject],
)
def cycles(name: str, here: ServedHere) -> Response:
    # answered as written: fastapi's dump by the return type raised on a lone surrogate in a grader's name
    records, _ = iterations.read(experiment_paths(here, name).iterations)
    return MaskedJSONResponse([iterations.fields(r) for r in records])


@router.get(
    "/v1/experiments/{name}/artifact",
    summary="The best artifact (the last KEEP's): a file's text, or a directory's files",
    response_model=None,
)
def artifact(name: str, here: ServedHere) -> Response | JSONObject:
    paths = experiment_paths(here, name)
    cfg, main = open_experiment(here, name)
    best = versions.history(paths, name).best
    if best is None or not best.commit:
        raise HTTPException(404, f"experiment {name!r} has no KEEP yet")
    entry = main.lib.revparse_single(f"{best.commit}:{cfg.artifact}")
    if entry.type_str == "blob":
        return Response(
            entry.read_raw(), media_type="text/plain; charset=utf-8", headers={"X-Autoresearch-Cycle": str(best.cycle)}
        )
    files = main.git("ls-tree", "-r", "--name-only", best.commit, "--", cfg.artifact).splitlines()
    texts = {f: main.lib.revparse_single(f"{best.commit}:{f}").read_raw().decode("utf-8", "replace") for f in files}
    return {"cycle": best.cycle, "commit": best.commit, "files": texts}
