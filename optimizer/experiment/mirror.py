"""Hard links to the experiment's files under git's folder, so that what a mutator deletes comes back whole.

Without the sandbox a command mutator's `git clean -ffdx` or `rm -rf .autoresearch`
removes the experiment's folder: its history (iterations.jsonl), the run
directories every later decision and `rollback` read, the log. Before each
mutation every file there is hard-linked under the vault (see
autoresearch.optimizer.experiment.vault), where git never cleans; after it, each
file and folder that is gone is linked back. A link costs no disk and is the
file itself: a log the daemon goes on appending to while it is deleted keeps
every line. Bytes changed in place are another matter: the records a decision
reads back are checked by content (autoresearch.optimizer.guard.trusted).

Left out are the files the daemon itself removes while a mutation runs (a
command's process-group file, an atomic write's temporary file, a pending
journal) and the parallel candidates' worktrees (git's, made and removed by
the daemon): linking one of those back would resurrect what is over.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from autoresearch.optimizer.gitrepo.candidates import FOLDER as CANDIDATES
from autoresearch.plumbing.paths import META
from autoresearch.plumbing.process import PGID_SUFFIX

_PASSING_SUFFIXES = (".tmp", PGID_SUFFIX, ".autoresearch-restore")
_PASSING_NAMES = frozenset({"lock", "STOP", "pending-keep.json", "git-write.json", "version-command.json"})


def passing(name: str) -> bool:
    """A file the daemon removes on its own (see the module's docstring)."""
    return name in _PASSING_NAMES or name.endswith(_PASSING_SUFFIXES)


@dataclass(frozen=True)
class Mirror:
    source: Path  # the experiment's folder, <results_dir>/runs/<experiment>
    root: Path  # its mirror in the vault

    def refresh(self, busy: tuple[Path, ...] = ()) -> bool:
        """Link every file of the experiment now (a file the daemon replaced since is linked anew) and
        drop what it no longer holds, but those under `busy`: the run directory of a cycle evaluated while
        the mutators run, whose files the eval makes and removes meanwhile. False when no hard link can be
        made here (another filesystem)."""
        source, root = str(self.source), str(self.root)
        skipped = tuple(os.path.relpath(b, source) + os.sep for b in busy if b.is_relative_to(self.source))
        found = {} if any(self.source.is_relative_to(b) for b in busy) else self._files(self.source)
        wanted = {rel: st for rel, st in found.items() if not (rel + os.sep).startswith(skipped)}
        mirrored = self._files(self.root)  # read once: a folder or link already there costs no call of its own
        for relative, st in wanted.items():
            copy = os.path.join(root, relative)
            held = mirrored.get(relative)
            if stat.S_ISDIR(st.st_mode):
                if held is None or not stat.S_ISDIR(held.st_mode):
                    os.makedirs(copy, exist_ok=True)
                continue
            if held is not None and (held.st_dev, held.st_ino) == (st.st_dev, st.st_ino):
                continue
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            tmp = os.path.join(
                os.path.dirname(copy), ".link.mirror"
            )  # not the name plus a suffix: no room near the limit
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            try:
                os.link(os.path.join(source, relative), tmp)
            except FileNotFoundError:  # removed by the daemon since it was listed
                continue
            except OSError:
                return False
            os.replace(tmp, copy)
        for relative in sorted(set(mirrored) - set(wanted), key=lambda p: -p.count(os.sep)):
            copy = os.path.join(root, relative)
            if os.path.isdir(copy) and not os.path.islink(copy):
                os.rmdir(copy)
            else:
                os.unlink(copy)
        return True

    def restore(self) -> list[Path]:
        """Link back every mirrored file and folder that is gone from the experiment; returns them."""
        back = []
        source, root = str(self.source), str(self.root)
        for relative, st in self._files(self.root).items():
            path = os.path.join(source, relative)
            if os.path.lexists(path):
                continue
            if stat.S_ISDIR(st.st_mode):
                os.makedirs(path, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                os.link(os.path.join(root, relative), path)
            back.append(Path(path))
        return back

    @staticmethod
    def _files(top: Path) -> dict[str, os.stat_result]:
        """The regular files and folders under `top` (their paths relative to it), but those passing and the
        worktrees. Plain strings and scandir, no pathlib: it runs before and after every mutation, over every
        run directory of the experiment, and Path objects were most of the daemon's own time per cycle."""
        found: dict[str, os.stat_result] = {}
        worktrees = os.path.join(META, CANDIDATES)
        stack = [(str(top), "")]
        while stack:
            directory, under = stack.pop()
            try:
                entries = list(os.scandir(directory))
            except OSError:  # gone since it was listed
                continue
            for entry in entries:
                relative = os.path.join(under, entry.name)
                if relative == worktrees:
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                except FileNotFoundError:
                    continue
                if stat.S_ISDIR(st.st_mode):
                    stack.append((entry.path, relative))
                if passing(entry.name) or entry.name.endswith(".mirror"):
                    continue
                if stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode):
                    found[relative] = st
        return found
