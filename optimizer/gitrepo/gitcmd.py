"""How the daemon runs git: in its own session, with none of the repository's hooks, writes journaled.

- Its own session: a signal sent to the daemon's process group (Ctrl-C in a
  terminal, `timeout`, systemd's stop) does not reach a git that is writing.
  Each command is a critical block, so the daemon's handler waits for git to
  finish and the run stops after it (exit 130), never in the middle.
- No hooks (`core.hooksPath=/dev/null`) and no fsmonitor: the daemon's commits
  and restores run no program from the repository, so no hook (the user's, or
  one a mutator planted) can rewrite, reject or add to an artifact commit.
- No automatic maintenance (`maintenance.auto=false`): after each commit git would start
  `git maintenance run --auto`, a process more per KEEP, and once loose objects pile up a gc that
  detaches and packs and deletes them while the next mutation runs, under the scope guard's watch of
  git's object store (autoresearch.optimizer.guard.gitobjects). The user's own git does it as before.
- A journal written before each write and blanked once git has exited by
  itself: git killed mid-write (kill -9 of the whole service, the OOM killer)
  leaves its locks, and the journal lets the next run tell those from a lock a
  user's git holds (`clear_stale_locks`). It is one file written over in place
  (autoresearch.plumbing.inplace), not a file made and removed for each write:
  that was two of the loop's file creations and removals a cycle. A write is
  under way while the file holds a note (`under_way`); its modification time
  is when the write began.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from autoresearch.optimizer.daemonlog import get
from autoresearch.plumbing import folders, inplace
from autoresearch.plumbing.critical import critical
from autoresearch.plumbing.errors import IntegrityError
from autoresearch.plumbing.jsontypes import JSONObject

ISOLATED = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "maintenance.auto=false")
WAIT_FOR_GIT_S = 30.0


def run(root: Path, args: tuple[str, ...], env: JSONObject | None = None, journal: Path | None = None) -> str:
    """`git ARGS` in `root`; its stdout without the final newline. IntegrityError when git fails."""
    if journal is not None and under_way(journal):  # an earlier git was killed mid-write: its note stays
        journal = None  # for the next run's repair, whatever this command does
    with critical():
        if journal is not None:
            _note(journal, args[:2])
        proc = subprocess.Popen(
            ["git", *ISOLATED, *args],
            cwd=root,
            env={**os.environ, "LC_ALL": "C", "LANGUAGE": "C", **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        out, err = proc.communicate()
        if journal is not None and proc.returncode >= 0:  # killed by a signal: its locks may be left
            inplace.blank(journal)
    if proc.returncode:
        stderr = " ".join(err.decode(errors="replace").split())
        raise IntegrityError(f"git {' '.join(args[:2])} failed: {stderr or f'exit {proc.returncode}'}")
    return out.decode(errors="surrogateescape").removesuffix("\n")


@contextmanager
def journaled(journal: Path | None, what: tuple[str, ...], parent: str | None = None) -> Iterator[None]:
    """A write the daemon makes in-process (autoresearch.optimizer.gitrepo.direct), journaled as a git command is:
    noted as `git WHAT` before it begins, in a critical block, and blanked once it has ended, done or raised
    (its locks released on the way out); a kill leaves the note, and the locks it took, for the next run. A
    commit notes its `parent`: killed once HEAD moved, its `index.lock` holds the index to finish with."""
    if journal is not None and under_way(journal):
        journal = None
    with critical():
        if journal is not None:
            _note(journal, what, parent)
        try:
            yield
        finally:
            if journal is not None:
                inplace.blank(journal)


def _note(journal: Path, what: tuple[str, ...], parent: str | None = None) -> None:
    noted: dict[str, object] = {"git": list(what), "daemon": os.getpid(), **({"parent": parent} if parent else {})}
    note = json.dumps(noted).encode() + b"\n"
    folders.within(journal.parent, lambda: inplace.write(journal, note))  # a mutator may have deleted the folder


def under_way(journal: Path) -> bool:
    """Whether the journal notes a git write that never finished (git, or the daemon, killed during it)."""
    return bool(inplace.read(journal))


def clear_stale_locks(root: Path, journal: Path) -> list[str]:
    """Remove the locks a git of ours left when it was killed mid-write; returns what was done.

    Only when the journal says a write of ours never finished, only lock files made since that
    write began, and only once no git process works in this repository (a user's git, or ours
    still finishing its write after the daemon died: both are waited for, up to a bound) and no
    process holds one of them open (a libgit2 or JGit program's, wherever it works: `holding`).
    """
    if not under_way(journal):
        return []
    deadline = time.monotonic() + WAIT_FOR_GIT_S
    locks = _lock_files(root)
    running = processes_in(root, "git") + holding(locks)
    if running:
        get().info(
            "waiting for the git processes working in this repository, and those holding its locks open, before "
            "looking for stale locks",
            pids=running,
        )
    while running:
        if time.monotonic() > deadline:
            return []  # a git still works here: its locks are not ours to take
        time.sleep(0.05)
        running = processes_in(root, "git") + holding(locks)
    locks = _lock_files(root)  # as they are now: a git waited for may have left one
    if holding(locks):
        return []  # taken meanwhile by a program that holds it open: not ours to take
    since = journal.stat().st_mtime_ns
    command, parent = _noted_command(journal), _noted_parent(journal)
    removed = []
    for lock in locks:
        if lock.stat().st_mtime_ns >= since:
            shown = lock.relative_to(root) if lock.is_relative_to(root) else lock
            if lock.name == "index.lock" and parent is not None and _finishes(root, lock, parent):
                lock.rename(lock.with_name("index"))
                removed.append(f"finished {shown.with_name('index')}")
                continue
            lock.unlink(missing_ok=True)
            removed.append(f"removed {shown}")
    journal.unlink(missing_ok=True)
    return [f"{', '.join(removed)}, left by `{command}` killed mid-write"] if removed else []


def _noted_command(journal: Path) -> str:
    """The git command the journal notes ("git commit -q"); "git" when the note is not one of ours (bytes a
    mutator wrote there): the daemon must still start, and the locks are cleared as for any note."""
    try:
        return " ".join(["git", *(str(arg) for arg in json.loads(inplace.read(journal))["git"])])
    except (ValueError, TypeError, KeyError):
        return "git"


def _noted_parent(journal: Path) -> str | None:
    """The parent an in-process commit noted (see `journaled`), or None."""
    try:
        parent = json.loads(inplace.read(journal)).get("parent")
    except (ValueError, AttributeError):
        return None
    return parent if isinstance(parent, str) else None


def _finishes(root: Path, lock: Path, parent: str) -> bool:
    """Whether an in-process commit killed after moving HEAD left `lock` (git's order: the index written to
    its lock, HEAD moved, the lock renamed over the index): HEAD is a child of the noted parent, and the lock
    holds a whole index (its checksum right). Then the lock is the index git would have left."""
    try:
        shas = run(root, ("rev-parse", "HEAD", "HEAD^@")).split()
    except IntegrityError:  # HEAD unborn or broken since: not the commit's
        return False
    if shas[:1] == [parent] or parent not in shas[1:]:
        return False
    return _whole_index(lock.read_bytes())


def _whole_index(data: bytes) -> bool:
    """Whether git would read `data` as an index, as read-cache.c's do_read_index and verify_hdr check it: a
    header and a trailer at least, the signature, a version git reads (2 to 4), and the trailer the SHA-1 of
    all before it, or all zero: what git >= 2.40 writes with `index.skipHash=true`, which verify_hdr takes
    unchecked (the resume would otherwise remove a whole index in that setting, and stop)."""
    if len(data) < 12 + 20 or data[:4] != b"DIRC" or int.from_bytes(data[4:8], "big") not in (2, 3, 4):
        return False
    trailer = data[-20:]
    return _filled(data) if trailer == bytes(20) else hashlib.sha1(data[:-20]).digest() == trailer


def _filled(data: bytes) -> bool:
    """Whether the entries the header counts, then whole extensions, end exactly at the trailer. With no
    checksum to vouch for it, a lock cut short whose last bytes read zero (a write torn by a crash of the
    machine, a file's tail never written) is told so apart from a whole index: git would read such a lock
    past its entries' end (do_read_index trusts the header's count)."""
    version, count, end, at = int.from_bytes(data[4:8], "big"), int.from_bytes(data[8:12], "big"), len(data) - 20, 12
    for _ in range(count):
        flags = int.from_bytes(data[at + 60 : at + 62], "big")  # after the stat fields (40 bytes) and the id (20)
        name = at + 62 + (2 if version >= 3 and flags & 0x4000 else 0)  # the extended flags
        if version == 4:  # the length of the previous name to strip (a varint), then the rest, NUL-ended
            while name < end and data[name] & 0x80:
                name += 1
            name += 1
        nul = data.find(b"\0", name, end)
        if nul < 0:
            return False
        at = nul + 1 if version == 4 else at + ((nul - at + 8) & ~7)  # v2 and v3 pad the entry to 8 bytes
    while at + 8 <= end:  # extensions: a signature, a length, the data
        at += 8 + int.from_bytes(data[at + 4 : at + 8], "big")
    return at == end


def _lock_files(root: Path) -> list[Path]:
    """The locks a commit, checkout, add or clean can take: index, HEAD, refs, packed-refs."""
    git_dir, common = (Path(p) for p in run(root, ("rev-parse", "--absolute-git-dir", "--git-common-dir")).splitlines())
    common = common if common.is_absolute() else (root / common).resolve()
    found = [git_dir / "index.lock", git_dir / "HEAD.lock", common / "packed-refs.lock"]
    found += [*git_dir.glob("next-index-*.lock"), *(common / "refs").rglob("*.lock")]
    return [p for p in dict.fromkeys(found) if p.is_file()]


def holding(files: list[Path]) -> list[int]:
    """Live processes other than this one with one of `files` open: a program that writes a lock with libgit2
    (which keeps the lock open until it renames it) or JGit, named otherwise than `git` or working from
    another folder, which `processes_in` does not see. git itself closes a ref's lock once written: that
    check stays the one for git."""
    wanted = {os.path.realpath(file) for file in files}
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            fds = os.listdir(entry / "fd")
        except OSError:  # gone, or another user's
            continue
        for fd in fds:
            try:
                if os.readlink(entry / "fd" / fd) in wanted:
                    found.append(int(entry.name))
                    break
            except OSError:
                continue
    return found


def processes_in(root: Path, name: str | None = None) -> list[int]:
    """Live processes (named `name`, if given) working in `root`, other than this process's children
    (the daemon's own git readers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, ppid = (entry / "stat").read_text().rsplit(") ", 1)[-1].split()[:2]
            if state == "Z" or int(ppid) == os.getpid() or (name and (entry / "comm").read_text().strip() != name):
                continue
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:
            continue
        if cwd == root or cwd.is_relative_to(root):
            found.append(int(entry.name))
    return found
