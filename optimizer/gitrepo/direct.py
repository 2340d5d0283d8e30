"""The decision's git writes in the user's checkout made in-process (libgit2 and the index entry written as git
writes it), where that gives what git's command would: a git process was 3-4 ms of the loop's own time a
cycle, the whole of what bench/loop_overhead.py allows it.

- A KEEP (`commit`), as `git commit --only -- ARTIFACT`: the artifact's blob and HEAD's trees with it
  written, the commit (the identity, dates and message as git would make them: gitident), the user's index
  entry for the artifact set to the new blob and the file's status (indexentry; the user's other staged
  changes stay staged and out of the commit), then the branch (or a detached HEAD) moved with git's lock
  file, only if it still names the parent (compare-and-swap), its reflog and HEAD's given `commit: <subject>`
  (by branchmove where the branch's loose ref and both reflogs are there, by libgit2 otherwise), with
  `HEAD.lock` held meanwhile as git's commit holds it (branchmove.head_locked; held by another git: the
  commit fails as git's would, nothing moved).
  As git's commit: the new index written to `index.lock`, the branch moved, then the lock renamed over the
  index; the lock held throughout, so a user's `git commit` meanwhile is refused (it would take the staged
  candidate). A kill before the branch moved leaves the candidate in the tree on the old HEAD, which the next
  start saves as a patch and puts back (autoresearch.optimizer.startup.reconcile); a kill after it leaves the
  new index in the lock, which the next start renames over the index (gitcmd.clear_stale_locks, by the
  parent the journal notes): removed, the old index would stage the artifact's old text against HEAD.
- A DROP (`restore`), as `git checkout HEAD -- ARTIFACT`: the file made anew from HEAD's blob (its mode's
  executable bit, the umask's permissions) under git's folder and renamed over the artifact: never written
  through a link or a second name, never missing (see `_write`). The index entry is then written under
  `index.lock` as git's checkout writes it: HEAD's blob and the new file's status, also when it named HEAD's
  blob already (the usual DROP): left with the old file's status, git's plumbing (`git diff-index --quiet
  HEAD`, `git diff-files`), which never refreshes the index, called the artifact changed until a `git
  status` wrote the index.

Each is journaled as the git command it replaces (autoresearch.optimizer.gitrepo.gitcmd.journaled): a kill
leaves the note and the locks it took (`index.lock`, `HEAD.lock`, the branch's `.lock`), which the next start
clears.
Anything here that is not as simple is left to git (None or False, having written nothing the user sees):
a directory artifact; any GIT_* variable but the identity's and a few that change nothing written; a
configuration git would act on differently (commit.gpgSign, commit.cleanup, i18n.commitEncoding,
core.autocrlf, core.eol, core.fileMode false, core.logAllRefUpdates false, core.sharedRepository, core.fsync*,
core.splitIndex, a SHA-256 or reftable repository, an `includeIf` libgit2 may not judge as git does:
gitconfig.unjudged); an attribute that converts the artifact (filter, eol, crlf, ident, working-tree-encoding;
`text` too where the artifact holds a carriage return), from any attributes file git reads (the tree's, the
index's, the repository's, the user's, the system's); an identity git would guess or clean, a message, an
identity or GIT_REFLOG_ACTION that is not UTF-8, a date in another form or one git reads otherwise,
GIT_COMMITTER_DATE; a DROP where the artifact's folder would give the file another group or default ACL than
git's folder; a merge, cherry-pick or revert under way; HEAD not on a branch's own ref nor detached, or a link; the
artifact not a regular file (a link, a folder) at HEAD or in the tree, or under a folder that is a link; an
index or entry indexentry does not write; `index.lock` held.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import pygit2
from pygit2.enums import FileMode, ReferenceType

from autoresearch.optimizer.gitrepo import attributes, branchmove, gitcmd, gitconfig, gitident, indexentry, oids
from autoresearch.optimizer.gitrepo.handles import common_dir
from autoresearch.plumbing import faults
from autoresearch.plumbing.errors import IntegrityError

if TYPE_CHECKING:
    from autoresearch.optimizer.gitrepo.workspace import Workspace

# GIT_* variables that change nothing git writes here (the identity's and the reflog's are read as git reads
# them); and the prefixes of those for the network, the prompts and the editors. Any other is git's to read.
QUIET_ENV = frozenset(
    {
        *(f"GIT_{who}_{what}" for who in ("AUTHOR", "COMMITTER") for what in ("NAME", "EMAIL", "DATE")),
        *("GIT_REFLOG_ACTION", "GIT_CONFIG_NOSYSTEM", "GIT_TERMINAL_PROMPT", "GIT_PAGER", "GIT_EDITOR"),
        *("GIT_SEQUENCE_EDITOR", "GIT_ASKPASS", "GIT_CEILING_DIRECTORIES", "GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL"),
    }
)
QUIET_PREFIXES = ("GIT_SSL_", "GIT_HTTP_", "GIT_SSH", "GIT_PROXY_", "GIT_CURL_", "GIT_LFS_")
CONVERTING = ("filter", "eol", "crlf", "ident", "working-tree-encoding")  # attributes git converts a file by
REGULAR = (FileMode.BLOB, FileMode.BLOB_EXECUTABLE)
SCRATCH = "autoresearch-checkout"  # under git's folder: where a DROP's file is written before it is renamed in
UNDER_WAY = ("MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD")  # git refuses a partial commit during these


class Unchanged(Enum):
    """The artifact is HEAD's already: nothing to commit (git's commit would refuse) or put back. Found from
    HEAD's entry and the file's bytes the write reads: the caller no longer reads the file and resolves HEAD
    a second time to ask first (workspace.artifact_modified, now asked only where git is to write)."""

    UNCHANGED = "unchanged"


UNCHANGED = Unchanged.UNCHANGED


def commit(ws: Workspace, message: str, expected: tuple[str, int] | None = None) -> str | Unchanged | None:
    """The artifact committed as `git commit --only` would (see the module): its sha; UNCHANGED when it is HEAD's
    (nothing written); or None where git must (nothing written, the artifact not looked at more). `expected`: the
    blob id and the permission bits the file must have (what was evaluated); other bytes or another executable
    bit (what git records of the bits), written since the caller checked, are refused (IntegrityError, nothing
    written), by the id the commit works out anyway and the status it reads with the bytes."""
    writes = _settings(ws)
    if writes is None or _on(writes, "commit.gpgsign") or _off(writes, "core.filemode"):
        return None
    if _off(writes, "core.logallrefupdates"):  # git still appends to a reflog that exists, libgit2 never does
        return None
    if any(writes.get(key) is not None for key in ("commit.cleanup", "i18n.commitencoding")):
        return None
    timeout = gitconfig.integer(writes.get("core.filesreflocktimeout", str(branchmove.DEFAULT_TIMEOUT_MS)))
    if timeout is None:  # git stops at it ("bad numeric config value"): its words, not ours
        return None
    text, signed, head = gitident.cleaned(message), gitident.signatures(writes), _head(ws)
    line = None if text is None else gitident.reflog_message(text)
    entry = None if head is None else _at_head(ws, head[1].tree)
    if text is None or line is None or signed is None or head is None or entry is None or _busy(ws):
        return None
    read = _read(ws)
    if read is None:
        return None
    data, st = read
    blob_id = oids.blob(data)
    if expected is not None and (blob_id.hex() != expected[0] or bool(st.st_mode & 0o100) != bool(expected[1] & 0o100)):
        raise IntegrityError(f"{ws.artifact}: written during its commit, after it was evaluated: not committed")
    if blob_id == entry.id.raw:
        return UNCHANGED
    if b"\r" in data and _attribute(ws, "text") not in (None, False):
        return None
    mode = FileMode.BLOB_EXECUTABLE if st.st_mode & 0o100 else FileMode.BLOB
    author, committer = (pygit2.Signature(w.name, w.email, w.seconds, w.offset_minutes) for w in signed)
    ref, parent = head
    with gitcmd.journaled(ws.journal, ("commit", "--only"), str(parent.id)):
        lock = indexentry.Lock(ws.lib.path)
        try:
            index = indexentry.read(ws.lib.path, ws.artifact) if lock.taken else None
            if index is None:
                return None
            blob = ws.lib.create_blob(data)
            tree = _tree_with(ws.lib, parent.tree, ws.artifact.split("/"), blob, mode)
            sha = ws.lib.create_commit(None, author, committer, text, tree, [parent.id])
            faults.point("direct-objects-written")
            lock.write(indexentry.patched(index, ws.artifact, blob.raw, mode, st))
            faults.point("direct-index-written")
            _move(ws, ref, parent.id, sha, signed[1], line, timeout)
            faults.point("direct-ref-updated")
            lock.commit()
        except (OSError, pygit2.GitError) as exc:
            raise IntegrityError(f"git commit failed: {exc}") from None
        finally:
            lock.release()
    return str(sha)


def restore(ws: Workspace) -> bool | Unchanged:
    """The artifact put back from HEAD as `git checkout HEAD --` would (see the module): True; UNCHANGED when it
    is HEAD's, its bytes and its executable bit, and its index entry has its status (nothing written: a file of
    HEAD's bytes written anew, by a mutator that changed nothing, gets its entry's status, as git's checkout
    writes it); False where git must."""
    writes = _settings(ws)
    if writes is None:
        return False
    entry = _at_head(ws, ws.lib.head.peel(pygit2.Commit).tree)
    if entry is None or _folder_in_the_way(ws.artifact_path):
        return False
    read = _read(ws)
    kept = read[1] if read is not None and oids.blob(read[0]) == entry.id.raw else None
    if kept is not None and not _same_mode(writes, kept, entry.filemode):
        kept = None
    if kept is not None and indexentry.current(ws.lib.path, ws.artifact, entry.id.raw, entry.filemode, kept):
        return UNCHANGED
    with gitcmd.journaled(ws.journal, ("checkout", "HEAD")):
        lock = indexentry.Lock(ws.lib.path)
        try:
            index = indexentry.read(ws.lib.path, ws.artifact) if lock.taken else None
            if index is None:
                return False
            st = kept
            if st is None:  # the blob read once (`ws.lib[entry.id].read_raw()` read it twice)
                st = _write(ws.artifact_path, entry.data, entry.filemode, ws.lib.path)
                if st is None:
                    return False
                faults.point("direct-file-written")
            lock.commit(indexentry.patched(index, ws.artifact, entry.id.raw, entry.filemode, st))
        except OSError as exc:
            raise IntegrityError(f"git checkout failed: {exc}") from None
        finally:
            lock.release()
    return True


def _settings(ws: Workspace) -> dict[str, str | None] | None:
    """The configuration's `gitconfig.WRITES` keys when nothing in the environment, the configuration or the
    artifact's attributes asks for git itself (see the module), else None."""
    if ws.mode != "file" or any(key.startswith("GIT_") and _heard(key) for key in os.environ):
        return None
    writes = gitconfig.settings(ws.lib, common_dir(ws)).writes
    if not _off(writes, "core.autocrlf", absent=True) or _on(writes, "core.splitindex"):
        return None
    if any(writes.get(key) is not None for key in ("core.eol", "core.sharedrepository", "extensions.refstorage")):
        return None
    if any(key in writes for key in ("core.fsync", "core.fsyncobjectfiles", "core.fsyncmethod")):
        return None
    if (writes.get("extensions.objectformat") or "sha1").lower() != "sha1" or _folders_linked(ws):
        return None
    if any(key.startswith("includeif.") for key in writes):  # one libgit2 may not judge as git (gitconfig.unjudged)
        return None
    asks = functools.partial(_converting, ws)
    if attributes.converts(ws.lib, ws.root, common_dir(ws), ws.artifact, writes.get("core.attributesfile"), asks):
        return None
    return writes


def _heard(key: str) -> bool:
    """Whether git would act on the environment variable `key` in a way this module does not."""
    return key.startswith("GIT_") and key not in QUIET_ENV and not key.startswith(QUIET_PREFIXES)


def _on(writes: dict[str, str | None], key: str) -> bool:
    if key not in writes:
        return False
    value = writes[key]
    return (
        value is None or value.lower() in ("true", "yes", "on", "1") or value.lstrip("-").isdigit() and int(value) != 0
    )


def _off(writes: dict[str, str | None], key: str, absent: bool = False) -> bool:
    """Whether `key` is set false (or, with `absent`, not set at all)."""
    if key not in writes:
        return absent
    return (writes[key] or "true").lower() in ("false", "no", "off", "0", "")


def _converting(ws: Workspace) -> bool:
    """Whether an attribute converts the artifact: libgit2 asked, 30-40 us a name. Its cache of the files
    read is dropped first (~150 us, only when attributes.converts asks): it keeps a file by its modification
    time, size and inode, which a rewrite can keep (`cp -p`, `rsync -t`); git reads the file every time."""
    ws.lib.free()
    try:
        return any(_attribute(ws, name) not in (None, False) for name in CONVERTING)
    except pygit2.GitError:  # an index libgit2 cannot read (a split or sparse index): git's to read
        return True


def _attribute(ws: Workspace, name: str) -> object:
    return ws.lib.get_attr(ws.artifact, name)


def _folders_linked(ws: Workspace) -> bool:
    """Whether a folder on the artifact's path is not a plain folder (a link: git refuses to go through it)."""
    for folder in list(Path(ws.artifact).parents)[:-1]:
        try:
            if not stat.S_ISDIR(os.lstat(ws.root / folder).st_mode):
                return True
        except FileNotFoundError:
            return True
    return False


def _folder_in_the_way(path: Path) -> bool:
    """A folder where the artifact was (git would remove it and all it holds: left to git)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def _head(ws: Workspace) -> tuple[pygit2.Reference, pygit2.Commit] | None:
    """The ref a commit moves (the branch HEAD is on, or HEAD detached) and the commit it names; None when HEAD
    names a ref that is not a branch's own, or is a link (`core.preferSymlinkRefs`): git reads it as naming the
    branch, takes `HEAD.lock` and writes both reflogs, where libgit2 reads it as detached and, through the
    link, would move the branch with HEAD's reflog line alone."""
    if os.path.islink(os.path.join(ws.lib.path, "HEAD")):
        return None
    head = ws.lib.lookup_reference("HEAD")
    if head.type == ReferenceType.SYMBOLIC:
        name = str(head.target)
        if not name.startswith("refs/heads/"):
            return None
        try:
            head = ws.lib.lookup_reference(name)
        except KeyError:
            return None
        if head.type != ReferenceType.DIRECT:
            return None
    return head, ws.lib[head.target].peel(pygit2.Commit)


def _move(
    ws: Workspace,
    ref: pygit2.Reference,
    parent: pygit2.Oid,
    sha: pygit2.Oid,
    who: gitident.Who,
    line: str,
    timeout_ms: int,
) -> None:
    """The ref moved from `parent` to `sha`, its reflog and HEAD's given `line` signed by `who` (the committer,
    as git signs it): by branchmove where a branch's files are the plain case, else by libgit2; a branch with
    `HEAD.lock` held throughout, as git's commit holds it (branchmove.head_locked: libgit2 takes none for
    HEAD's line), a detached HEAD by libgit2, which locks HEAD itself to move it. Each lock is waited for as
    git waits (`timeout_ms`, branchmove.attempts): libgit2 tries its own once, so it is tried again while the
    lock it failed at is there."""
    branch = ref.name.startswith("refs/heads/")
    with branchmove.head_locked(ws.lib.path, ref.name, timeout_ms) if branch else contextlib.nullcontext():
        if branch and branchmove.move(ws.lib.path, ref.name, str(parent), str(sha), who, line, timeout_ms):
            return
        ws.lib.set_ident(who.name, who.email)
        held = os.path.join(common_dir(ws) if branch else ws.lib.path, *ref.name.split("/")) + ".lock"
        for last in branchmove.attempts(timeout_ms):
            try:
                ref.set_target(sha, line)
                return
            except (OSError, pygit2.GitError):  # pygit2 raises either for a lock file it cannot make
                if not os.path.exists(held):
                    raise
                if last:
                    raise branchmove.held(held, ref.name) from None


def _busy(ws: Workspace) -> bool:
    return any(os.path.exists(os.path.join(ws.lib.path, name)) for name in UNDER_WAY)


def _at_head(ws: Workspace, tree: pygit2.Tree) -> pygit2.Blob | None:
    """The artifact's entry in `tree`, when it is a regular file's (its blob not read until asked)."""
    try:
        entry = tree[ws.artifact]
    except KeyError:
        return None
    return entry if isinstance(entry, pygit2.Blob) and entry.filemode in REGULAR else None


def _read(ws: Workspace) -> tuple[bytes, os.stat_result] | None:
    """The artifact's bytes and status, read through no link; None when it is not a regular file."""
    try:
        fd = os.open(ws.artifact_path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def _same_mode(writes: dict[str, str | None], st: os.stat_result, mode: int) -> bool:
    """Whether git's checkout would leave a file of HEAD's bytes and status `st` as it is: its executable bit
    is HEAD's `mode`'s, or core.fileMode is false (git then ignores the bit). A candidate that only ran `chmod
    +x` is put back to HEAD's mode, as git's checkout puts it back."""
    return _off(writes, "core.filemode") or bool(st.st_mode & 0o100) == (mode == FileMode.BLOB_EXECUTABLE)


def _tree_with(repo: pygit2.Repository, tree: pygit2.Tree, parts: list[str], blob: pygit2.Oid, mode: int) -> pygit2.Oid:
    """`tree` with the file at `parts` naming `blob`: each tree on the path written anew, the rest as it was."""
    builder = repo.TreeBuilder(tree)
    if len(parts) == 1:
        builder.insert(parts[0], blob, mode)
    else:
        below = repo[tree[parts[0]].id].peel(pygit2.Tree)
        builder.insert(parts[0], _tree_with(repo, below, parts[1:], blob, mode), FileMode.TREE)
    return builder.write()


def _write(path: Path, data: bytes, mode: int, git_dir: str) -> os.stat_result | None:
    """The file at `path` made anew as git's checkout makes it (a new file, 0777 or 0666 less the umask), but
    written first under git's folder and renamed over `path`: a kill never leaves the artifact missing or cut
    short (git's checkout, a process of its own, finishes when the daemon is killed; this write would not),
    and a link or a second name at `path` is replaced, never written through. Its status after the rename
    (which changes its change time); None, nothing changed, when git's folder is on another file system or
    would make the file otherwise than the artifact's folder (another group, or default ACL)."""
    if _made(path.parent) != _made(git_dir):
        return None
    scratch = os.path.join(git_dir, SCRATCH)
    try:
        os.unlink(scratch)  # one a kill left
    except FileNotFoundError:
        pass
    except OSError:
        return None  # not a file a kill left (a folder, say): git's checkout has no use for it
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(scratch, flags, 0o777 if mode & 0o100 else 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        faults.point("direct-scratch-written")
        try:
            os.rename(scratch, path)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            os.unlink(scratch)
            return None
        return os.fstat(fd)
    finally:
        os.close(fd)


def _made(folder: str | Path) -> tuple[int, bytes | None]:
    """What a file made in `folder` takes from it: its group (the folder's when set-group-ID, else this
    process's), and its default ACL. git's checkout makes the artifact in its own folder: a shared project
    folder (`chmod g+s`, `setfacl -d`) gives it the team's group and rights, which git's folder may not."""
    st = os.stat(folder)
    try:
        acl: bytes | None = os.getxattr(folder, "system.posix_acl_default")
    except OSError:  # none (ENODATA), or a file system without ACLs
        acl = None
    return (st.st_gid if st.st_mode & stat.S_ISGID else os.getegid()), acl
