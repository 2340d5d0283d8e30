"""The one piece of state the API's routes share, and the checks they make with it.

`make_app` puts a `Served` on the app; a route asks for it as a dependency (`ServedHere`), so
every route is a plain module-level function of its request.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, cast

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from autoresearch.optimizer.api.admission import NEEDS_TOKEN, token_matches
from autoresearch.optimizer.config import NAME, Config
from autoresearch.optimizer.config import load as load_config
from autoresearch.optimizer.gitrepo.workspace import Workspace, open_workspace
from autoresearch.plumbing.paths import ExperimentPaths


@dataclass(frozen=True)
class Served:
    """What the app serves: the config it was started with, its repository and results directory."""

    config: Path
    repo_root: Path
    results_dir: Path
    token: str
    check_host: bool


def served(request: Request) -> Served:
    """The app's `Served`, which `make_app` set once and nothing changes."""
    return cast(Served, request.app.state.served)


ServedHere = Annotated[Served, Depends(served)]
bearer = HTTPBearer(auto_error=False)


def authorized(
    request: Request, here: ServedHere, _: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
) -> None:
    """Admission has already refused a change without the token, before its body; this marks the routes
    that need it in the OpenAPI description, and checks again should a route ever be reached another way."""
    if not token_matches(request.headers.get("authorization"), here.token):
        raise HTTPException(401, NEEDS_TOKEN, {"WWW-Authenticate": "Bearer"})


def checked_name(name: str) -> str:
    """`name` when it is an experiment name: checked before it touches a path, so `../x` is never resolved."""
    if not NAME.match(name):
        raise HTTPException(400, f"{name!r} is not an experiment name")
    return name


def experiment_paths(here: Served, name: str) -> ExperimentPaths:
    """The paths of an experiment that exists (404 otherwise)."""
    paths = ExperimentPaths.at(here.results_dir, checked_name(name))
    if not paths.meta.is_dir():
        raise HTTPException(404, f"no experiment {name!r}")
    return paths


def open_experiment(here: Served, name: str) -> tuple[Config, Workspace]:
    """The experiment's config (the served one, for `name`) and the repository's workspace for its artifact."""
    cfg = load_config(here.config, {"experiment": name})
    return cfg, open_workspace(here.repo_root, cfg.artifact)
