"""The control API's routes: read experiments as `status --json` does, and start, stop, roll back and eval;
beside them, the live view's pages.

Every request that changes anything needs the bearer token of `api/token.py`, checked with
its body's size before the body is read (`api/admission.py`); names are
checked against the experiment-name rule before they touch a path, so `../x` (raw or
percent-encoded) is refused as a name, never resolved. Starting a run and running the eval
go through the real CLI as subprocesses: the API process holds no lock, runs no eval itself
and survives whatever they do.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, Field

from autoresearch.optimizer.api import masked
from autoresearch.optimizer.api.admission import NEEDS_TOKEN, Admission, token_matches
from autoresearch.optimizer.config import NAME
from autoresearch.optimizer.config import load as load_config
from autoresearch.optimizer.experiment import overview, versions
from autoresearch.optimizer.experiment.lockfile import holder, task
from autoresearch.optimizer.experiment.settle import settle
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.plumbing.errors import AutoresearchError
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import load_rows
from autoresearch.trajectory import iterations, server
from autoresearch.trajectory import served as served_files

NOT_CACHED = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}  # pages are rewritten every cycle
CLI_TIMEOUT_S = 3600.0  # the eval's own timeout bounds it first; this only keeps a request from hanging forever


@dataclass(frozen=True)
class Served:
    """What the app serves: the config it was started with, its repository and results directory."""

    config: Path
    repo_root: Path
    results_dir: Path
    token: str
    check_host: bool


class Rollback(BaseModel):
    cycle: int = Field(ge=1, description="The cycle whose KEEP to return to.")


class Stop(BaseModel):
    now: bool = Field(False, description="Interrupt the eval or mutator in progress too (as `stop --now`).")


def make_app(served: Served) -> FastAPI:
    # /docs (Swagger UI) and /redoc with their scripts and styles served from the installed package, not a
    # CDN: the pages work on a machine with no network, as everything else `serve` shows does.
    app = FastAPIOffline(
        title="autoresearch control API",
        version="1",
        description="Read experiments and start, stop, roll back and evaluate them. "
        "Requests that change anything need `Authorization: Bearer <token>` (the token file `serve` names).",
    )
    masked.install(app)
    app.add_middleware(Admission, token=served.token, check_host=served.check_host)
    bearer = HTTPBearer(auto_error=False)

    @app.exception_handler(AutoresearchError)
    async def refused(request: Request, exc: AutoresearchError) -> JSONResponse:
        """What the CLI would refuse with exit 30 (a running experiment, a cycle that was no KEEP, ...)."""
        return JSONResponse({"detail": str(exc)}, status_code=409)

    def authorized(request: Request, _: HTTPAuthorizationCredentials | None = Depends(bearer)) -> None:
        """Admission has already refused a change without the token, before its body; this marks the routes
        that need it in the OpenAPI description, and checks again should a route ever be reached another way."""
        if not token_matches(request.headers.get("authorization"), served.token):
            raise HTTPException(401, NEEDS_TOKEN, {"WWW-Authenticate": "Bearer"})

    def experiment_paths(name: str) -> ExperimentPaths:
        if not NAME.match(name):
            raise HTTPException(400, f"{name!r} is not an experiment name")
        paths = ExperimentPaths.at(served.results_dir, name)
        if not paths.meta.is_dir():
            raise HTTPException(404, f"no experiment {name!r}")
        return paths

    @app.get("/v1/experiments", summary="Every experiment and scheduler, as `status --json`")
    def list_experiments() -> dict[str, Any]:
        views = [overview.experiment(served.results_dir, n).as_dict() for n in overview.experiments(served.results_dir)]
        return {"experiments": views}

    @app.get("/v1/experiments/{name}", summary="One experiment, as `status NAME --json`")
    def show(name: str) -> dict[str, Any]:
        experiment_paths(name)
        sched = overview.schedule(served.results_dir, name)
        return {
            **overview.experiment(served.results_dir, name).as_dict(),
            "scheduler": sched.as_dict() if sched else None,
        }

    @app.get("/v1/experiments/{name}/iterations", summary="Every cycle's iterations.jsonl record")
    def cycles(name: str) -> list[dict[str, Any]]:
        records, _ = iterations.read(experiment_paths(name).iterations)
        return [r.model_dump(mode="json", exclude_none=True) for r in records]

    @app.get(
        "/v1/experiments/{name}/artifact",
        summary="The best artifact (the last KEEP's): a file's text, or a directory's files",
    )
    def artifact(name: str) -> Any:
        paths = experiment_paths(name)
        cfg, main = _open(served, name)
        best = versions.history(paths, name).best
        if best is None or not best.commit:
            raise HTTPException(404, f"experiment {name!r} has no KEEP yet")
        entry = main.lib.revparse_single(f"{best.commit}:{cfg.artifact}")
        if entry.type_str == "blob":
            return Response(
                entry.read_raw(),
                media_type="text/plain; charset=utf-8",
                headers={"X-Autoresearch-Cycle": str(best.cycle)},
            )
        files = main.git("ls-tree", "-r", "--name-only", best.commit, "--", cfg.artifact).splitlines()
        texts = {f: main.lib.revparse_single(f"{best.commit}:{f}").read_raw().decode("utf-8", "replace") for f in files}
        return {"cycle": best.cycle, "commit": best.commit, "files": texts}

    @app.post(
        "/v1/experiments/{name}/start",
        status_code=202,
        dependencies=[Depends(authorized)],
        summary="Start a run in the background, as `autoresearch start`",
    )
    def start(name: str) -> dict[str, Any]:
        if not NAME.match(name):
            raise HTTPException(400, f"{name!r} is not an experiment name")
        done = _cli(served, "start", "--experiment", name)
        if done.returncode:
            raise HTTPException(409, _last_line(done))
        return {"experiment": name, "started": True, "output": done.stdout}

    @app.post(
        "/v1/experiments/{name}/stop",
        status_code=202,
        dependencies=[Depends(authorized)],
        summary="Ask a running experiment to stop (after its phase, or now)",
    )
    def stop(name: str, body: Stop | None = None) -> dict[str, Any]:
        paths = experiment_paths(name)
        pid = holder(paths.lock)
        if pid is None or pid < 0:
            raise HTTPException(409, f"experiment {name!r} is not running")
        if (doing := task(paths.lock)) not in (None, "run"):  # a rollback (maybe this server's own) is no daemon
            raise HTTPException(
                409, f"experiment {name!r} is not running: `autoresearch {doing}` holds it for a moment"
            )
        if body is not None and body.now:
            os.kill(pid, signal.SIGTERM)
        else:
            paths.stop_file.touch()
        return {
            "experiment": name,
            "pid": pid,
            "stopping": "now" if body is not None and body.now else "after the current phase",
        }

    @app.post(
        "/v1/experiments/{name}/rollback",
        dependencies=[Depends(authorized)],
        summary="A new commit restoring a KEEP's artifact, as `rollback --to`",
    )
    def rollback(name: str, body: Rollback) -> dict[str, Any]:
        paths = experiment_paths(name)
        cfg, main = _open(served, name)
        settled = settle(paths.results_dir)  # a rollback or promote cut short, finished or undone first
        done = versions.rollback(cfg, main, paths, body.cycle)
        record = done.record.model_dump(mode="json", exclude_none=True) if done.record else None
        changed = done.record is not None
        return {"experiment": name, "cycle": body.cycle, "changed": changed, "record": record, "settled": settled}

    @app.post(
        "/v1/eval",
        dependencies=[Depends(authorized)],
        summary="Run the configured eval once on the working tree, as `autoresearch eval`",
    )
    def evaluate() -> dict[str, Any]:
        done = _cli(served, "eval")
        if done.returncode:
            raise HTTPException(409, _last_line(done))
        run_dir = next(
            (line.removeprefix("results: ") for line in done.stdout.splitlines() if line.startswith("results: ")),
            None,
        )
        if run_dir is None:  # an eval that printed no results line: say so, not a bare 500
            raise HTTPException(500, f"`autoresearch eval` named no results directory: {_last_line(done)}")
        try:
            rows = load_rows(Path(run_dir))
        except BadResults as exc:
            raise HTTPException(500, str(exc)) from None
        return {"output": done.stdout, "results": run_dir, "rows": rows}

    @app.api_route("/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
    def chart(request: Request, path: str) -> Response:
        """The live view: the index, and the pages and run files of `trajectory.served`'s allow-list only."""
        if path in ("", "index.html"):
            return _page(server.index_page(served.results_dir))
        found = served_files.locate(served.results_dir, request.scope.get("raw_path") or request.url.path.encode())
        if found is None:
            return PlainTextResponse("not found", status_code=404, headers=NOT_CACHED)
        if isinstance(found, served_files.Listing):
            return _page(server.listing_page(found))
        return Response(found.body, media_type=found.media_type, headers=NOT_CACHED)

    return app


def _page(html: str) -> Response:
    return Response(html, media_type="text/html; charset=utf-8", headers=NOT_CACHED)


def _open(served: Served, name: str):
    cfg = load_config(served.config, {"experiment": name})
    return cfg, open_workspace(served.repo_root, cfg.artifact)


def _cli(served: Served, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", *args, "-c", str(served.config)],
        cwd=served.repo_root,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )


def _last_line(done: subprocess.CompletedProcess) -> str:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return lines[-1].removeprefix("autoresearch: ") if lines else f"exit {done.returncode}"
