"""A candidate's mutation on a Ray worker (`executor: ray`), the part that runs there: the mutator in a shipped
copy of the candidate's tree, with what it reads (the run just decided, the history, its digest) beside it.

What comes back is values only: the mutation's result or failure (with its spend either way), the artifact as
the mutator left it, its changelog, its logs, and the paths it changed outside the artifact. The tree on the
worker is thrown away; as with a sandboxed mutator on this machine, only the artifact is taken back, and the
daemon's own scope guard then checks the candidate's worktree as it checks any other. A command mutator runs in
a bubblewrap sandbox on the worker too, when the run's mutator is sandboxed and the worker can make one.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import tarfile
from dataclasses import dataclass, replace
from pathlib import Path

from autoresearch.mutators.base import MutationRequest, MutationResult
from autoresearch.mutators.config import CommandMutatorConfig, MutatorConfig
from autoresearch.mutators.errors import MutationFailed, MutationsExhausted, MutatorUnusable
from autoresearch.mutators.registry import build
from autoresearch.optimizer.guard.reach import TOOL_CACHES
from autoresearch.plumbing import sandbox, trees
from autoresearch.runs.executors.snapshot import pack_dir, unpack
from autoresearch.runs.executors.worker import scratch

RUN, ITERATIONS, DIGEST = "run", "iterations.jsonl", "digest.md"  # the context's names on the worker


@dataclass(frozen=True)
class Failure:
    """A mutation that failed on the worker, as `MutationFailed` says it here (`reason` "exhausted" and
    "unusable": the errors that stop the run)."""

    message: str
    reason: str
    spent: MutationResult | None


@dataclass(frozen=True)
class Outcome:
    """What a mutation on a worker hands back."""

    result: MutationResult | None  # None: it failed (`failure`) or the mutator had no more mutations
    failure: Failure | None
    artifact: bytes | None  # a file's bytes, a folder as a gzipped tar (`pack_dir`); None: deleted
    changelog: str | None
    logs: bytes  # the mutator's log folder, packed
    outside: tuple[str, ...] = ()  # what it changed outside the artifact (tool caches aside)


def pack_context(request: MutationRequest) -> bytes:
    """What the mutator reads besides the tree, as one gzipped tar: the run just decided (without what the
    mutator may not read), the history and its digest."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        if request.run_dir.is_dir():
            for path in sorted(request.run_dir.rglob("*")):
                if path.is_file() and not path.is_symlink() and not _hidden(request, path):
                    _add(tar, path, f"{RUN}/{path.relative_to(request.run_dir)}")
        for path, name in ((request.iterations, ITERATIONS), (request.digest, DIGEST)):
            if path.is_file():
                _add(tar, path, name)
    return buffer.getvalue()


def _add(tar: tarfile.TarFile, path: Path, name: str) -> None:
    """A file, unless it went meanwhile: the other candidates' changelogs leave the run directory as their
    mutations end, while this one's context is packed."""
    try:
        tar.add(str(path), arcname=name)
    except FileNotFoundError:
        pass


def _hidden(request: MutationRequest, path: Path) -> bool:
    return any(path.is_relative_to(h) for h in request.hidden)


def mutate_in_tree(root: Path, config: MutatorConfig, request: MutationRequest, context: bytes) -> Outcome:
    """On the worker: the mutator run in `root` (a fresh copy of the candidate's tree), `request` being the
    daemon's with its paths moved to the worker's copies."""
    here = scratch("mutate")
    try:
        unpack(context, here)
        (here / RUN).mkdir(exist_ok=True)
        shield, why = _sandbox(config) if request.sandbox is not None else (None, None)
        moved = _moved(request, root, here, shield)
        before = _manifest(root)
        result, failure = _run(config, moved) if why is None else (None, Failure(why, "sandbox", None))
        outside = tuple(p for p in _changed(before, _manifest(root)) if not _inside(moved, root / p))
        changelog = moved.changelog.read_text(encoding="utf-8") if moved.changelog.is_file() else None
        return Outcome(result, failure, _artifact(moved), changelog, pack_dir(moved.log_dir), outside)
    finally:
        trees.remove(here, ignore_errors=True)


def _run(config: MutatorConfig, request: MutationRequest) -> tuple[MutationResult | None, Failure | None]:
    """The mutation's result, or its failure as a value: an exception would reach the daemon as one line of
    text, and the attempt's spend with it would be lost."""
    try:
        return build(config, request.repo_root).mutate(request), None
    except MutationFailed as exc:
        return None, Failure(str(exc), exc.reason, exc.spent)
    except MutationsExhausted:
        return None, Failure("the mutator has no more mutations", "exhausted", None)
    except MutatorUnusable as exc:  # a key the worker lacks, a model unknown: the run stops, as it would here
        return None, Failure(str(exc), "unusable", None)


def _moved(request: MutationRequest, root: Path, here: Path, shield: sandbox.Sandbox | None) -> MutationRequest:
    """The request as the worker's copies place it; the paths the mutator may not read are not there at all."""
    return replace(
        request,
        repo_root=root,
        artifact=root / request.artifact.relative_to(request.repo_root),
        run_dir=here / RUN,
        iterations=here / ITERATIONS,
        digest=here / DIGEST,
        log_dir=here / "log",
        read_only=tuple(root / p.relative_to(request.repo_root) for p in request.read_only if _under(p, request)),
        hidden=(),
        sandbox=shield,
    )


def _under(path: Path, request: MutationRequest) -> bool:
    return path.is_relative_to(request.repo_root)


def _sandbox(config: MutatorConfig) -> tuple[sandbox.Sandbox | None, str | None]:
    """The worker's own sandbox for a sandboxed command mutator (its tree is the work folder, so nothing of the
    node's can change but the writable folders), or why there is none when `mode: on` requires one (this
    mutation's failure; `auto` runs it unsandboxed, as on a machine without bubblewrap)."""
    if not isinstance(config, CommandMutatorConfig):
        return None, None
    if why := sandbox.unavailable():
        on = config.sandbox.mode == "on"
        return None, (f"no sandbox on the Ray worker {os.uname().nodename}: {why}" if on else None)
    shield = sandbox.Sandbox(
        writable=config.writable(),
        network=config.sandbox.network,
        program=sandbox.program() or sandbox.PROGRAM,
    )
    return shield, None


def _manifest(root: Path) -> dict[str, str]:
    """Every file under `root` by its path, with a digest of its content (a symbolic link: of its target;
    anything else, a FIFO that reading would block on: of its kind)."""
    found = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder, name)
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                data = os.readlink(path).encode()
            else:
                data = path.read_bytes() if stat.S_ISREG(mode) else str(stat.S_IFMT(mode)).encode()
            found[str(path.relative_to(root))] = hashlib.sha256(data).hexdigest()
    return found


def _changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """Paths created, changed or removed, but new files in a tool's cache folder (a coding agent that ran the
    tests), as the guard on this machine allows."""
    changed = []
    for path in sorted(before.keys() | after.keys()):
        if before.get(path) == after.get(path):
            continue
        if path not in before and TOOL_CACHES.intersection(Path(path).parts):
            continue
        changed.append(path)
    return changed


def _inside(request: MutationRequest, path: Path) -> bool:
    return path == request.artifact or path.is_relative_to(request.artifact) and request.mode == "directory"


def _artifact(request: MutationRequest) -> bytes | None:
    path = request.artifact
    if request.mode == "directory":
        return pack_dir(path) if path.is_dir() and not path.is_symlink() else None
    return path.read_bytes() if path.is_file() and not path.is_symlink() else None


def put_back(outcome: Outcome, request: MutationRequest) -> None:
    """On the daemon: the artifact as the mutator left it, its changelog and its logs, where the request says."""
    path = request.artifact
    if path.is_dir() and not path.is_symlink():
        trees.remove(path)
    else:
        path.unlink(missing_ok=True)
    if outcome.artifact is not None:
        if request.mode == "directory":
            unpack(outcome.artifact, path)
        else:
            path.write_bytes(outcome.artifact)
    if outcome.changelog is not None:
        request.changelog.write_text(outcome.changelog, encoding="utf-8")
    unpack(outcome.logs, request.log_dir)
