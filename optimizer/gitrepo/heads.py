"""Where HEAD is (a branch, or detached at a commit), read by libgit2, and put back there by git.

The loop reads HEAD before and after every mutation (a mutator may commit, switch branches or detach it):
one read of HEAD's file and of the branch's ref each time, no git process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygit2
from pygit2.enums import ReferenceType

if TYPE_CHECKING:
    from autoresearch.optimizer.gitrepo.workspace import Workspace


def head_ref(ws: Workspace) -> str | None:
    """The branch HEAD is on (`refs/heads/main`), or None when HEAD is detached: HEAD's file read once
    (libgit2's `head_is_detached` then `head` read it twice and the branch's ref besides)."""
    head = ws.lib.lookup_reference("HEAD")
    return head.target if head.type == ReferenceType.SYMBOLIC else None  # type: ignore[return-value]


def head_state(ws: Workspace) -> tuple[str | None, str]:
    """The branch HEAD is on (None when detached) and its commit, from one read of HEAD and of the branch's
    ref: `head_ref` then `ws.head()` read HEAD three times."""
    head = ws.lib.lookup_reference("HEAD")
    if head.type != ReferenceType.SYMBOLIC:
        return None, str(head.target)
    return str(head.target), str(head.resolve().target)


def reattach(ws: Workspace, ref: str | None, sha: str) -> None:
    """Point HEAD at `ref` again (or detach it at `sha`) if it is elsewhere, touching neither the index nor the files."""
    if head_ref(ws) == ref:
        return
    if ref is None:
        ws.write("update-ref", "--no-deref", "HEAD", sha)
    else:
        ws.write("symbolic-ref", "HEAD", ref)


def head_moved(ws: Workspace, ref: str | None, sha: str) -> str | None:
    """What changed since HEAD was on `ref` at `sha` (None when nothing did), in words for the user."""
    return _moved_from(ws, ref, sha, *head_state(ws))


def switched_from(ws: Workspace, ref: str | None, sha: str) -> tuple[str | None, str]:
    """HEAD as a mutator left it, read once: the branch it switched to, in words (None when it is still on
    `ref`: a commit on the branch is the caller's other check), and the commit it is at."""
    now_ref, now = head_state(ws)
    return (_moved_from(ws, ref, sha, now_ref, now) if now_ref != ref else None), now


def _moved_from(ws: Workspace, ref: str | None, sha: str, now_ref: str | None, now: str) -> str | None:
    if now_ref != ref:
        return f"HEAD is {_on(now_ref)} at {now[:10]}, not {_on(ref)}"
    if now != sha:
        subject = ws.lib.revparse_single(now).peel(pygit2.Commit).message.splitlines()[0][:60]
        return f"{_on(ref)} moved from {sha[:10]} to {now[:10]} ('{subject}')"
    return None


def _on(ref: str | None) -> str:
    return f"on branch {ref.removeprefix('refs/heads/')}" if ref else "detached"
