"""A cycle's mutation: the mutator asked for a candidate, then held to its scope.

The mutator may change the artifact and nothing else: whatever it wrote
outside (files, .git, the experiment's own records) is saved and undone, and
makes the candidate out of scope; a mutator that moved HEAD or switched
branches stops the run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from autoresearch.mutators.base import MutationRequest, MutationResult, Mutator
from autoresearch.mutators.errors import MutationFailed
from autoresearch.optimizer import signals
from autoresearch.optimizer.config import DEFAULT_PATH, Config
from autoresearch.optimizer.cycle import tree
from autoresearch.optimizer.cycle.holdout import hidden_from_mutator
from autoresearch.optimizer.cycle.tree import Candidate
from autoresearch.optimizer.daemonlog import get
from autoresearch.optimizer.experiment.session import Session
from autoresearch.optimizer.gitrepo import candidates as worktrees
from autoresearch.optimizer.gitrepo.heads import head_state, reattach, switched_from
from autoresearch.optimizer.gitrepo.status import everything_changed
from autoresearch.optimizer.gitrepo.throwaway import Throwaway
from autoresearch.optimizer.gitrepo.workspace import Workspace, artifact_modified, artifact_present, inside, link_out
from autoresearch.optimizer.guard import reach, rescue, trusted
from autoresearch.optimizer.guard.checkoutwatch import CheckoutWatch
from autoresearch.optimizer.guard.reach import TOOL_CACHES
from autoresearch.plumbing import atomic, faults, kinds
from autoresearch.plumbing.errors import IntegrityError, Interrupted, SafetyStop


def mutate(session: Session, cycle: int, candidate: Candidate, mutator: Mutator) -> MutationResult:
    """Ask the mutator for a candidate, then check what it did: only the artifact changed, and changed;
    HEAD and the branch where they were. Whatever it wrote elsewhere is saved, then undone."""
    session.set_phase("mutate")
    with _workplace(session) as work:
        return _mutate_in(session, cycle, candidate, work, mutator)


@contextmanager
def _workplace(session: Session) -> Iterator[Workspace]:
    """Where the mutator works: the checkout, or, in a sandbox, a throwaway checkout of HEAD. That one is
    made (or put back to HEAD: autoresearch.optimizer.gitrepo.throwaway) before the guard settles, since
    both write into .git/worktrees; it is kept for the next cycle only after a mutation that ended well."""
    if session.sandbox is None:
        yield session.ws
        return
    if session.throwaway is None:
        session.throwaway = Throwaway(session.ws, session.paths.meta)
    try:
        yield session.throwaway.take()
    except BaseException:
        session.throwaway.drop()
        raise


def _mutate_in(session: Session, cycle: int, candidate: Candidate, work: Workspace, mutator: Mutator) -> MutationResult:
    log_dir = candidate.run_dir
    ws = session.ws
    request = mutation_request(session, cycle, work, log_dir, read_only=(session.paths.results_dir,))
    get().info("mutating")
    _set_aside_changelog(session, request.changelog)
    kept = open_window(session, log_dir)
    watch = _watch(session, work) if work is not ws else None  # after the guard's: its watches come first
    branch, head = head_state(ws)
    faults.point("before-mutate")
    try:
        result = run_mutator(session, mutator.mutate, request)
        if work is not ws:  # only the artifact comes back from the throwaway checkout
            worktrees.carry_artifact(work, ws, check_worktree(work, head, result, watch))
    except (MutationFailed, Interrupted) as exc:  # however the mutator ended, what it wrote outside goes
        outside = undo_outside(session, log_dir, kept)
        reattach(ws, branch, head)
        if outside and isinstance(exc, MutationFailed):
            raise MutationFailed(
                f"{exc}; it also changed files outside the artifact", "out-of-scope", exc.spent
            ) from exc
        raise
    switched, moved_to = switched_from(ws, branch, head)
    outside = undo_outside(session, log_dir, kept)  # the guard puts .git back (HEAD, refs, index), saving it first
    reattach(ws, branch, head)  # and if it could not, HEAD goes back on the user's branch here
    if switched:  # the KEEPs would have gone off the user's branch; nothing needs the user's repair: exit 20
        candidate.discard()
        raise SafetyStop(f"stopped: the mutator switched branches ({switched}); HEAD is back and nothing was committed")
    if moved_to != head:
        raise head_moved_error(head, moved_to)
    if outside:
        raise MutationFailed(
            f"the mutator changed files outside the artifact: {', '.join(outside[:5])}", "out-of-scope", result
        )
    check_artifact(ws, result, head)  # HEAD was just read at `head` (moved_to), on the branch reattached
    get().info("mutated", summary=result.summary)
    return result


def run_mutator(
    session: Session, mutate: Callable[[MutationRequest], MutationResult], request: MutationRequest
) -> MutationResult:
    """`mutate(request)`, the warnings its result carries said once per run, whether it failed or not."""
    try:
        result = mutate(request)
    except MutationFailed as exc:
        if exc.spent is not None:
            session.warn_once(*exc.spent.notes)
        raise
    session.warn_once(*result.notes)
    return result


def check_worktree(
    ws: Workspace, head: str, result: MutationResult, watch: CheckoutWatch | None = None
) -> dict[str, str]:
    """The scope guard of a candidate's worktree, or of a sandboxed mutator's throwaway checkout: only its
    artifact changed (ignored files included: the worktree had none), and HEAD did not move. New files in a
    tool's cache folder (a coding agent that ran the tests) are removed, as the checkout's guard does, and
    not held against it. Returns what changed: read once (libgit2's status), unless `watch` (the throwaway
    checkout's, started before the mutation) saw the artifact alone move."""
    if not ws.head_is(head):
        raise MutationFailed("the mutator committed in its worktree; mutators must not commit", "out-of-scope", result)
    changes = watch.artifact_alone(ws) if watch is not None else None
    try:
        changes = everything_changed(ws) if changes is None else changes
    except IntegrityError as exc:  # git no longer reads it as a worktree
        raise MutationFailed(f"the mutator changed its worktree's .git ({exc})", "out-of-scope", result) from exc
    outside = []
    for path, code in sorted(changes.items()):
        if inside(ws, path):
            continue
        if code in ("??", "!!") and TOOL_CACHES.intersection(path.split("/")):
            tree.remove(ws.root / path)
        else:
            outside.append(path)
    if outside:
        raise MutationFailed(
            f"the mutator changed files outside the artifact: {', '.join(outside[:5])}", "out-of-scope", result
        )
    check_artifact(ws, result, head)  # HEAD was read at `head` above
    return changes


def _watch(session: Session, work: Workspace) -> CheckoutWatch:
    """The throwaway checkout's watch, started (see autoresearch.optimizer.guard.checkoutwatch)."""
    if session.checkout_watch is None:
        session.checkout_watch = CheckoutWatch(session.vault.root / "checkout-watch")
    session.checkout_watch.start(work)
    return session.checkout_watch


def head_moved_error(head: str, moved_to: str) -> IntegrityError:
    """A commit made on the branch during a mutation, whose branch the guard put back: where to find it."""
    return IntegrityError(
        f"HEAD moved during the mutation (from {head[:10]}): a commit by the mutator, or by you meanwhile; "
        f"the branch was put back and the commit kept (`git merge --ff-only {moved_to[:12]}` brings it back, "
        "if it is yours); mutators must not commit"
    )


def mutation_request(
    session: Session, cycle: int, ws: Workspace, log_dir: Path, read_only: tuple[Path, ...] = (), **sibling: Any
) -> MutationRequest:
    """What a mutator working in `ws` is handed: paths to the run just decided and the history; `sibling`
    says which of a cycle's parallel candidates it makes, and by which strategy."""
    decided = session.history.last_evaluated
    assert decided is not None, "a cycle runs after the original's evaluation"
    return MutationRequest(
        repo_root=ws.root,
        artifact=ws.artifact_path,
        mode=ws.mode,
        run_dir=session.paths.run_dir(decided.run_dir),
        iterations=session.paths.iterations,
        digest=session.paths.digest,
        initial_sha=session.state.initial_sha,
        pass_rates=decided.assertions,
        cycle=cycle,
        log_dir=log_dir,
        read_only=(*read_only, *(f for f in scoring_files(session.config, ws.root) if f != ws.artifact_path)),
        hidden=_hidden(session, ws.root),
        sandbox=session.sandbox,
        **sibling,
    )


def _hidden(session: Session, root: Path) -> tuple[Path, ...]:
    """What the mutator may not read, but the tree it works in: a parallel candidate's worktree lies inside
    the experiment's hidden folder, and hiding its ancestor would hide the artifact from its own mutator."""
    hidden = (*hidden_from_mutator(session, root), session.cache_root)
    below = os.fspath(root) + os.sep  # absolute paths, compared as strings: `is_relative_to` cost 10 us each
    return tuple(p for p in hidden if not below.startswith(os.fspath(p) + os.sep))


def check_artifact(ws: Workspace, result: MutationResult, head: str) -> None:
    """The candidate is a changed artifact of the kind it was, with no link leading out of it; changed from
    `head`, the commit the caller has just read HEAD at (HEAD is not read a third time). A file artifact that
    one lstat finds a regular file is there, of its kind, and no link: the two looks that ask it (a stat and an
    lstat) are for the other cases, to say which of them it is."""
    if not (ws.mode == "file" and kinds.plain_file(ws.artifact_path, strict=True)):
        _check_kind(ws, result)
    if not artifact_modified(ws, head):
        raise MutationFailed("the mutator left the artifact unchanged", "no-change", result)


def _check_kind(ws: Workspace, result: MutationResult) -> None:
    """The artifact is there as the kind it was, with no link leading out of it."""
    if not artifact_present(ws):
        raise MutationFailed(
            f"the mutator deleted the artifact (or made it no longer a {ws.mode})", "artifact-deleted", result
        )
    if link := link_out(ws):
        raise MutationFailed(f"the candidate's {link} is a symlink leading out of the artifact", "out-of-scope", result)


def scoring_files(config: Config, root: Path) -> list[Path]:
    """What defines the tests, read-only for the LLM mutator even inside a directory artifact (where an eval
    file often sits beside the skill it tests): the config, the eval file and every file it reads or runs
    (autoresearch.runs.parse.sources: datasets, an environment recipe, extension modules Node runs with the
    user's environment, graders' scripts, the targets file). A model that rewrote them would grade itself, or
    run its code unsandboxed at the next eval. An eval command's own script is not among them: it may be the
    code being improved."""
    files = [root / DEFAULT_PATH]
    if not (config.eval.file or config.eval.agentv):
        return files
    # the parser brings the built-in runner's graders (asyncio among them): not for an eval command's run
    from autoresearch.runs.parse import check
    from autoresearch.runs.parse.sources import targets_file

    for name in filter(None, (config.eval.file, config.eval.agentv)):
        eval_file = root / name
        suite, _ = check(eval_file)  # a file the eval refuses grades nothing; its problems are the eval's to say
        targets = targets_file(eval_file.resolve(), root)
        files += [eval_file, *(suite.sources if suite is not None else ()), *filter(None, [targets])]
    return files


def records(session: Session, evaluated: Path | None = None) -> trusted.Watched:
    """The experiment's files a later decision reads back (see autoresearch.optimizer.guard.trusted), but
    the held-out results of the cycle at `evaluated`, evaluated while the mutators run."""
    paths, best = session.paths, session.history.best
    folders = [(paths.run_dir(best.run_dir), "*.jsonl")] if best is not None and best.run_dir else []
    busy: tuple[Path, ...] = ()
    if session.holdout is not None:
        folders.append((session.holdout.root, "*"))
        busy = (session.holdout.root / evaluated.name,) if evaluated is not None else ()
    return trusted.Watched((paths.holdout,), tuple(folders), busy, session.ledger)


def open_window(session: Session, run_dir: Path, evaluated: Path | None = None) -> trusted.Snapshot:
    """Before the mutators start: the guard settled and armed (its manifest on disk, for a start after a
    kill), the experiment's files mirrored where no mutator reaches, and the records a decision reads
    back taken (see `records`). `run_dir` is where what the mutation changes outside is saved."""
    guard = session.scope_guard()
    kept = trusted.take(records(session, evaluated))
    if session.mirroring and not session.mirror.refresh(tuple(filter(None, [evaluated]))):
        session.mirrored = False
        get().warning(
            "the experiment's files cannot be hard-linked under .git (another filesystem): "
            "a mutator that deletes them is reported, but what it deleted is not put back"
        )
    # after the mirror's links, which move the change time of what they link (with --no-cache, the cache's
    # entries are among the experiment's files): the guard takes a later one for the mutation's write
    guard.settle()
    guard.arm(run_dir)
    return kept


def undo_outside(session: Session, run_dir: Path, kept: trusted.Snapshot) -> list[str]:
    """Put back the experiment's files and lock, save then undo every change outside the artifact since
    the guard settled, and every change to the experiment's records; returns the paths that make the
    candidate out of scope: all of them, unless they are only new tool caches (see reach.byproduct).
    Whoever made them, nothing is lost: see autoresearch.optimizer.guard.rescue and
    autoresearch.optimizer.guard.trusted."""
    guard = session.scope_guard()
    aside = run_dir / "outside" / "records"
    with signals.critical():
        back = [rescue.printable(str(p)) for p in session.mirror.restore()] if session.mirroring else []
        if session.lock.restore(session.config.experiment_name):
            back.append(rescue.printable(str(session.paths.lock)))
        forged = [rescue.printable(str(p)) for p in trusted.restore(kept, aside, session.paths.results_dir)]
        changes, saved = rescue.undo_all(guard, run_dir)
        guard.disarm()
    if back:  # a `git clean -ffdx` each cycle deletes the whole results folder, a run directory more each time
        listed = run_dir / "outside" / "put-back.txt"
        atomic.write_text(listed, "".join(f"{path}\n" for path in back), durable=False)
        get().warning(
            f"put back {len(back)} of the experiment's own files deleted during the mutation (listed in {listed})"
        )
    if forged:
        get().warning(
            f"put back {len(forged)} of the experiment's own records changed during the mutation; "
            f"what it left there is in {aside}",
            paths=forged[:20],
        )
    lost = back + forged
    if saved is None:  # nothing changed outside
        return lost
    paths = [rescue.printable(os.path.relpath(c.path, session.ws.root)) for c in changes]
    if all(reach.byproduct(c) for c in changes):
        get().info("removed tool caches the mutator created outside the artifact", paths=paths[:20], saved=str(saved))
        return lost
    get().warning(
        f"undid {len(paths)} change(s) outside the artifact made during the mutation; saved first in {saved}",
        paths=paths[:20],
        restore=rescue.restore_hint(guard, saved),
    )
    return lost + paths


def _set_aside_changelog(session: Session, changelog: Path) -> None:
    """The decided run's mutation.md is the next candidate's changelog. One found there before the
    mutator runs was written for an earlier attempt from the same baseline, and must not become this
    candidate's summary: after an error cycle it moves to that cycle's run directory (beside its
    candidate.patch); after a crash cut a mutation short it is kept as mutation.interrupted.md."""
    if not changelog.is_file():
        return
    last = session.history.last
    if last is not None and last.decision == "error":
        changelog.replace(session.paths.run_dir(last.run_dir) / changelog.name)
    else:
        changelog.replace(changelog.with_name("mutation.interrupted.md"))
