"""A KEEP's iterations line written down before its commit, so that a kill -9 between the commit and the
line loses none of the line's fields.

The line is only known whole at the decision (a parallel cycle's `candidates` and `strategy`, the
significant rule's `samples` and p-value, the mutation's spend): rebuilt after a crash from the run
directory alone, it would lack them. So the line goes to `pending-keep.json` (atomically) right before
the commit, with the commit's parent and message; a resume that finds HEAD to be exactly that commit
(autoresearch.optimizer.startup.reconcile) writes the pending line with HEAD's sha. Any line appended
makes the file stale, and it is removed then; a resume removes a stale one too.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from autoresearch.optimizer.cycle.tree import Candidate
from autoresearch.plumbing import atomic
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.plumbing.redact import redact_tree
from autoresearch.trajectory.iterations import Iteration

FILE = "pending-keep.json"


class Pending(BaseModel):
    """The file's content: the line, and the commit it is the line of (by its parent and message)."""

    parent: str
    message: str
    line: Iteration


def path(paths: ExperimentPaths) -> Path:
    return paths.meta / FILE


def commit(paths: ExperimentPaths, cand: Candidate, line: Iteration, message: str) -> tuple[str, Iteration]:
    """Commit the candidate with its line written down first; returns (sha, the line with its commit)."""
    fields = redact_tree(line.model_dump(mode="json", exclude_none=True))  # as iterations.jsonl gets them
    atomic.write_text(path(paths), json.dumps({"parent": cand.ws.head(), "message": message, "line": fields}))
    sha = cand.commit(message)
    return sha, line.model_copy(update={"commit": sha})


def clear(paths: ExperimentPaths) -> None:
    path(paths).unlink(missing_ok=True)


def take(paths: ExperimentPaths, cycle: int, parent: str, message: str) -> Iteration | None:
    """The pending line of `cycle`, if it was written for the commit of `parent` with `message` (HEAD's, as
    git keeps it: whitespace aside); the file is removed either way. An unreadable file is no line: the caller rebuilds one."""
    try:
        pending = Pending.model_validate_json(path(paths).read_bytes())
    except (OSError, ValueError):  # missing, or not what we write (pydantic's ValidationError is a ValueError)
        return None
    finally:
        clear(paths)
    matches = (pending.parent, pending.message.split(), pending.line.cycle) == (parent, message.split(), cycle)
    return pending.line if matches else None
