"""Content keys for the result cache: what the artifact is, and what the eval is.

The artifact's key is the git object id it has (or would have once committed),
so a candidate's samples become HEAD's samples after its KEEP without copying.
"""

from __future__ import annotations

import hashlib
import json
import os

import pygit2

from autoresearch.optimizer.gitrepo.workspace import Workspace, blob_id, blob_of, inside
from autoresearch.plumbing import owned
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.runs.config import EvalConfig


def artifact_key(ws: Workspace, data: bytes | None = None) -> str:
    """The object id of the artifact in the working tree: equal to `git rev-parse <commit>:<artifact>` once committed.
    `data`: a file artifact's bytes, when the caller has read them (`artifact_bytes`)."""
    if ws.mode == "file":
        return blob_id(ws.artifact_path) if data is None else blob_of(data)
    with owned.temporary("autoresearch-index-") as folder:
        index = os.path.join(folder, "index")  # a throwaway index: the user's staging area is never touched
        # Only `git add` runs as a process (it runs the repository's clean filters, which libgit2 does not: the
        # key must be the tree git commits). HEAD's entries, so that a file HEAD tracks though it is ignored
        # stays as `add -A` keeps it in a commit, and the tree are written by libgit2 (they were three more git
        # processes a key, a key twice a cycle). The index git writes is kept to what libgit2 reads.
        head = pygit2.Index(index)
        head.read_tree(ws.lib.revparse_single("HEAD^{tree}").peel(pygit2.Tree))
        head.write()
        ws.git(*_READABLE, "add", "-A", "--", ws.artifact, env={"GIT_INDEX_FILE": index})
        tree = ws.lib[pygit2.Index(index).write_tree(ws.lib)].peel(pygit2.Tree)
        try:
            return str(tree[ws.artifact].id)
        except KeyError:
            raise IntegrityError(f"{ws.artifact}: the artifact is no longer in the working tree") from None


_READABLE = ("-c", "core.splitIndex=false", "-c", "index.sparse=false", "-c", "index.skipHash=false")
"""A split or sparse index has extensions libgit2 refuses; a skipped checksum, one its older versions refuse."""


def eval_key(ws: Workspace, config: EvalConfig) -> str:
    """The eval's definition: its settings and every committed file outside the artifact (scripts, eval
    files, graders). Uncommitted edits to the eval are not seen: use --no-cache after changing it by hand."""
    tree = [line for line in ws.git("ls-tree", "-r", "HEAD").splitlines() if not inside(ws, line.split("\t", 1)[-1])]
    text = json.dumps(config.model_dump(mode="json"), sort_keys=True) + "\n" + "\n".join(tree)
    return hashlib.sha256(text.encode()).hexdigest()[:20]
