"""A KEEP's iterations line written down before its commit, so that a kill -9 between the commit and the
line loses none of the line's fields.

The line is only known whole at the decision (a parallel cycle's `candidates` and `strategy`, the
significant rule's `samples` and p-value, the mutation's spend): rebuilt after a crash from the run
directory alone, it would lack them. So the line goes to `pending-keep.json` (fsync'd) right before
the commit, with the commit's parent and message; a resume that finds HEAD to be exactly that commit
(autoresearch.optimizer.startup.reconcile) writes the pending line with HEAD's sha. Any line appended
makes the file stale, and it is blanked then; a resume blanks a stale one too.

The file is written over in place (autoresearch.plumbing.inplace), not replaced: a new file a KEEP and its
removal after were most of the cost of this record. Only the daemon's next start reads it, and a record cut
short by a kill during its write is never its commit's: the commit is made after the write returns, so the
record names a parent that HEAD's commit does not have, or is not JSON, and the line is rebuilt.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from autoresearch.optimizer.cycle.eval_writes import Evaluated
from autoresearch.optimizer.cycle.tree import Candidate
from autoresearch.plumbing import folders, inplace
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.plumbing.redact import redact_tree
from autoresearch.plumbing.surrogates import validate_json
from autoresearch.trajectory import iterations
from autoresearch.trajectory.iterations import Iteration

FILE = "pending-keep.json"


class Pending(BaseModel):
    """The file's content: the line, and the commit it is the line of (by its parent and message)."""

    parent: str
    message: str
    line: Iteration


def path(paths: ExperimentPaths) -> Path:
    return paths.meta / FILE


def commit(
    paths: ExperimentPaths, cand: Candidate, line: Iteration, message: str, evaluated: Evaluated | None = None
) -> tuple[str, Iteration]:
    """Commit the candidate (as it was `evaluated`: `Candidate.commit`) with its line written down first;
    returns (sha, the line with its commit)."""
    written = redact_tree(iterations.fields(line))  # as iterations.jsonl gets them
    record = json.dumps({"parent": cand.ws.head(), "message": message, "line": written}).encode()
    folders.within(paths.meta, lambda: inplace.write(path(paths), record, durable=True))
    sha = cand.commit(message, evaluated)
    return sha, line.model_copy(update={"commit": sha})


def clear(paths: ExperimentPaths) -> None:
    inplace.blank(path(paths))


def take(paths: ExperimentPaths, cycle: int, parent: str, message: str) -> Iteration | None:
    """The pending line of `cycle`, if it was written for the commit of `parent` with `message` (HEAD's, as
    git keeps it: whitespace aside); the file is blanked either way. An unreadable file is no line: the caller rebuilds one."""
    try:
        pending = validate_json(Pending, inplace.read(path(paths)))
    except (OSError, ValueError):  # missing, blank, or not what we write (pydantic's ValidationError is a ValueError)
        return None
    finally:
        clear(paths)
    matches = (pending.parent, pending.message.split(), pending.line.cycle) == (parent, message.split(), cycle)
    return pending.line if matches else None
