"""A detached linked worktree made and removed in-process, as `git worktree add --detach` and `remove` would.

A sandboxed mutator works in a throwaway checkout every cycle; `git worktree
add` starts three git processes (itself, `update-ref`, `reset --hard`) and
`remove` and `prune` two more, most of the loop's own time per cycle
(bench/loop_overhead.py). Here git's records are written by hand, in git's
layout (`<common dir>/worktrees/<id>/{gitdir,commondir,HEAD}` and the
worktree's `.git` file), and libgit2 checks the files out and writes the index.

libgit2 checks out what git would only when no program of the user's
converts files on the way out: a configured filter driver (git-lfs), a
`working-tree-encoding` attribute, a sparse checkout. Then `add` returns
None and the caller runs git, as it does when anything here fails.

A kill at any point leaves what `git worktree prune` and the candidates'
`clear` remove: git's folder is written first, then the worktree's `.git`
file, then the files.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pygit2
from pygit2.enums import CheckoutStrategy

from autoresearch.optimizer.gitrepo import gitconfig
from autoresearch.optimizer.gitrepo.handles import checkout_tree, common_dir, opened
from autoresearch.optimizer.gitrepo.workspace import Workspace
from autoresearch.plumbing import trees

_plain_trees: set[pygit2.Oid] = set()  # the trees of the HEADs looked at, found plain
_REMEMBERED = 20_000  # trees at most (about 2 MiB); a KEEP adds the few on its path


def add(main: Workspace, path: Path, commit: str) -> bool:
    """Make a worktree at `path` (which must not exist) detached at `commit`; False, having made nothing,
    when git must do it (see the module's docstring). git's folder is `locked` until the files are out, as
    git's own `worktree add` keeps it, so that a `git worktree prune` meanwhile does not take it."""
    repo = main.lib
    tree = repo[commit].peel(pygit2.Tree)
    common = common_dir(main)
    if os.path.lexists(path) or not _plain(repo, common, tree):
        return False
    admin = _new_admin(common, path.name)
    if admin is None:
        return False
    made = False
    try:
        (admin / "locked").write_text("initializing\n", encoding="utf-8")
        (admin / "commondir").write_text("../..\n", encoding="utf-8")
        (admin / "HEAD").write_text(commit + "\n", encoding="utf-8")
        (admin / "gitdir").write_text(f"{path.resolve()}/.git\n", encoding="utf-8")
        path.mkdir(parents=True)
        made = True
        (path / ".git").write_text(f"gitdir: {admin}\n", encoding="utf-8")
        with opened(path) as checkout:
            checkout_tree(checkout, checkout[tree.id], strategy=CheckoutStrategy.FORCE)
        (admin / "locked").unlink()
    except (pygit2.GitError, OSError, UnicodeError):  # made nothing, then: git does it
        if made:
            trees.remove(path, ignore_errors=True)
        trees.remove(admin, ignore_errors=True)
        return False
    return True


def remove(main: Workspace, path: Path) -> bool:
    """Remove the worktree at `path` and git's folder for it, as `git worktree remove --force`; False, having
    removed nothing, when its `.git` file and git's folder do not name each other (git must look)."""
    admin = admin_of(main, path)
    if admin is None:
        return False
    trees.remove(path)
    trees.remove(admin, ignore_errors=True)  # a `git worktree prune` meanwhile may have taken it already
    return True


def admin_of(main: Workspace, path: Path) -> Path | None:
    """git's folder for the worktree at `path` (`<common dir>/worktrees/<id>`), when the worktree's .git is
    a file (not a link: a mutator could point it at another worktree's, whose folder would then name it
    back), it names that folder, the folder names this very path back, and it is not locked; None otherwise."""
    try:
        if path.is_symlink() or not stat.S_ISREG(os.lstat(path / ".git").st_mode):
            return None
        named = (path / ".git").read_text(encoding="utf-8").strip()
        if not named.startswith("gitdir: ") or not os.path.isabs(named.removeprefix("gitdir: ")):
            return None
        admin = Path(named.removeprefix("gitdir: ")).resolve()
        if admin.parent != common_dir(main) / "worktrees" or (admin / "locked").exists():
            return None
        back = Path((admin / "gitdir").read_text(encoding="utf-8").strip())
    except (OSError, UnicodeError):
        return None
    return admin if back == path.resolve() / ".git" else None


def _new_admin(common: Path, name: str) -> Path | None:
    """git's folder for a new worktree, made under a name as git picks one (the folder's name, numbered if
    taken); made at once, so that two made at the same time (a cycle's next candidates) never share one."""
    (common / "worktrees").mkdir(exist_ok=True)
    for n in range(100):
        admin = common / "worktrees" / (name if n == 0 else f"{name}{n}")
        try:
            admin.mkdir()
        except FileExistsError:
            continue
        return admin
    return None


def plain(main: Workspace, commit: str, common: Path | None = None) -> gitconfig.Settings | None:
    """The configuration's settings when libgit2 checks `commit` out as git would (see `_plain`), None
    otherwise; `common` is `main`'s common git folder, when known. The settings are the same object for as
    long as none of the files they come from changes (see autoresearch.optimizer.gitrepo.gitconfig)."""
    repo = main.lib
    found = gitconfig.settings(repo, common or common_dir(main))
    return found if not found.converts and _plain_tree(repo[commit].peel(pygit2.Tree)) else None


def _plain(repo: pygit2.Repository, common: Path, tree: pygit2.Tree) -> bool:
    """Whether libgit2 checks `tree` out as git would: no filter driver or sparse checkout configured, and
    no attributes file (the tree's, the repository's, the user's) naming a filter or an encoding."""
    return not gitconfig.settings(repo, common).converts and _plain_tree(tree)


def _plain_tree(tree: pygit2.Tree) -> bool:
    """No `.gitattributes` in `tree` or below names a filter or an encoding. The trees found plain are
    remembered by id, so that a new HEAD reads only the folders its commit changed (a folder already known
    is not read, nor are the folders below it); forgotten all at once past `_REMEMBERED`, so that a night's
    KEEPs do not make it grow without end."""
    seen: set[pygit2.Oid] = set()
    if not _walk(tree, _plain_trees, seen):
        return False
    if len(_plain_trees) + len(seen) > _REMEMBERED:
        _plain_trees.clear()
    _plain_trees.update(seen)
    return True


def _walk(tree: pygit2.Tree, known: set[pygit2.Oid], seen: set[pygit2.Oid]) -> bool:
    if tree.id in known:
        seen.add(tree.id)
        return True
    for entry in tree:
        if entry.name == ".gitattributes" and isinstance(entry, pygit2.Blob):
            if any(word in entry.data for word in gitconfig.CONVERTING):
                return False
        elif isinstance(entry, pygit2.Tree) and not _walk(entry, known, seen):
            return False
    seen.add(tree.id)
    return True
