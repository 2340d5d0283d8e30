"""The sandboxed mutator's throwaway checkout, kept from cycle to cycle (autoresearch.optimizer.gitrepo.throwaway),
is at every cycle exactly what a fresh one would be: whatever a mutator left in it or in git's folder for it,
files, links, folders, a `.git` file edited or replaced, a hook, a mode, a file changed with its time set back."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo import candidates, gitconfig, linked
from autoresearch.optimizer.gitrepo import throwaway as throwaway_module
from autoresearch.optimizer.gitrepo.throwaway import Throwaway
from autoresearch.optimizer.gitrepo.workspace import Workspace, open_workspace
from autoresearch.plumbing import faults
from tests.helpers.repos import cli, git, make_repo
from tests.helpers.scenario import iterations
from tests.optimizer.startup.test_reconcile_unit import crashed, repair
from tests.optimizer.startup.test_sandbox import RESULTS, hostile_repo

ROOT = Path(__file__).resolve().parents[3]  # where `tests.helpers` is found by a child
FILES = {
    "prompt.md": "p\n",
    "docs/a.md": "a\n",
    "docs/deep/b.md": "b\n",
    "run.sh": "echo hi\n",
    ".gitignore": "ign/\n*.log\n",
}


def fresh(main: Workspace, path: Path) -> dict[str, object]:
    """What a checkout made anew at `path` holds (then removed)."""
    assert linked.add(main, path, main.head())
    seen = state(path)
    assert linked.remove(main, path)
    return seen


def state(root: Path) -> dict[str, object]:
    """Every path of the checkout but its `.git` file (kind and mode, content or link target), what git says
    of it, and git's folder for it: which files, the contents of those that name places."""
    files = {}
    for directory, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git" or directory != str(root))
        for name in [*names, *dirs]:
            path = Path(directory) / name
            if path == root / ".git":
                continue
            if path.is_symlink() or not (path.is_dir() or path.is_file()):  # a link, a fifo: never read
                content = os.readlink(path) if path.is_symlink() else "?"
            else:
                content = "/" if path.is_dir() else path.read_text()
            files[path.relative_to(root).as_posix()] = (path.lstat().st_mode, content)
    admin = Path((root / ".git").read_text().removeprefix("gitdir: ").strip())
    assert admin.parent.name == "worktrees"
    return {
        "files": files,
        "status": git(root, "status", "--porcelain", "--ignored", "--untracked-files=all"),
        "index": git(root, "ls-files", "--stage"),
        "head": git(root, "rev-parse", "HEAD"),
        "git folder": sorted(p.relative_to(admin).as_posix() for p in admin.rglob("*")),
        "names": {n: (admin / n).read_text() for n in ("commondir", "HEAD")},
        "gitdir": (admin / "gitdir").read_text() == f"{root}/.git\n",
        "git file": (root / ".git").read_text() == f"gitdir: {admin}\n",
    }


def setup(tmp_path: Path) -> tuple[Workspace, Throwaway, Path]:
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "prompt.md")
    return main, Throwaway(main, repo / "results" / ".exp"), repo


def test_a_checkout_a_mutator_only_edited_the_artifact_of_is_kept_and_put_back_to_the_new_head(tmp_path):
    main, throwaway, repo = setup(tmp_path)
    ws = throwaway.take()
    kept_inode = os.stat(ws.root / "docs" / "a.md").st_ino
    (ws.artifact_path).write_text("a candidate\n")
    (repo / "prompt.md").write_text("kept\n")  # the cycle's KEEP, committed in the user's checkout
    git(repo, "commit", "-qam", "keep")
    again = throwaway.take()
    assert again.root == ws.root and os.stat(again.root / "docs" / "a.md").st_ino == kept_inode  # not made anew
    assert again.head() == main.head()
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    assert (again.root / "prompt.md").read_text() == "kept\n"
    throwaway.drop()
    assert not again.root.exists()
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1


def _hook_in_git_folder(ws: Workspace) -> None:
    admin = Path((ws.root / ".git").read_text().removeprefix("gitdir: ").strip())
    (admin / "hooks").mkdir()
    (admin / "hooks" / "post-checkout").write_text("#!/bin/sh\necho pwned\n")


def _git_file_replaced_by_a_folder(ws: Workspace) -> None:
    (ws.root / ".git").unlink()
    (ws.root / ".git" / "hooks").mkdir(parents=True)
    (ws.root / ".git" / "hooks" / "post-checkout").write_text("#!/bin/sh\necho pwned\n")


def _changed_with_its_time_set_back(ws: Workspace) -> None:
    path = ws.root / "docs" / "a.md"
    was = os.stat(path)
    path.write_text("A\n")  # the same size
    os.utime(path, ns=(was.st_atime_ns, was.st_mtime_ns))


HOSTILE = {
    "a new file": lambda ws: (ws.root / "docs" / "new.md").write_text("x\n"),
    "an ignored file": lambda ws: (ws.root / "ign").mkdir() or (ws.root / "ign" / "x").write_text("x\n"),
    "an ignored log": lambda ws: (ws.root / "out.log").write_text("x\n"),
    "a file made a link": lambda ws: (
        (ws.root / "docs" / "a.md").unlink() or os.symlink("/etc/hostname", ws.root / "docs" / "a.md")
    ),
    "a folder made a link": lambda ws: (
        shutil.rmtree(ws.root / "docs" / "deep") or os.symlink("/etc", ws.root / "docs" / "deep")
    ),
    "a file removed": lambda ws: (ws.root / "run.sh").unlink(),
    "a mode changed": lambda ws: (ws.root / "run.sh").chmod(0o644),
    "a file changed, its time set back": _changed_with_its_time_set_back,
    "the .git file edited": lambda ws: (ws.root / ".git").write_text((ws.root / ".git").read_text() + "\n"),
    "the .git file made a folder with a hook": _git_file_replaced_by_a_folder,
    "a hook in git's folder": _hook_in_git_folder,
    "a fifo": lambda ws: os.mkfifo(ws.root / "docs" / "pipe"),
}


@pytest.mark.parametrize("leave", HOSTILE, ids=list(HOSTILE))
def test_whatever_a_mutator_leaves_the_next_cycle_s_checkout_equals_a_fresh_one(tmp_path, leave):
    main, throwaway, _ = setup(tmp_path)
    ws = throwaway.take()
    ws.artifact_path.write_text("a candidate\n")
    HOSTILE[leave](ws)
    again = throwaway.take()
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    assert again.head() == main.head()
    throwaway.drop()


def test_a_sandboxed_run_keeps_one_checkout_through_its_cycles_and_removes_it_at_its_end(tmp_path):
    repo, _ = hostile_repo(tmp_path, "none", stop={"max_cycles": 3})
    meta = repo / RESULTS / "runs" / "exp" / "_autoresearch"
    left = Throwaway(open_workspace(repo, "prompts/p.md"), meta).take()  # as a daemon killed between cycles leaves it
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep", "error"]  # cycle 3: no change
    assert "removed the worktree" not in done.stdout + done.stderr
    assert not left.root.exists()
    assert not (meta / "candidates").exists() or not any((meta / "candidates").iterdir())
    assert git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1


def test_the_checkout_a_killed_daemon_left_between_cycles_is_removed_at_start_unsaid(tmp_path):
    """Kept between cycles, a kill at any time leaves it: no crash to report, unlike a candidate's worktree."""
    session = crashed(tmp_path)
    kept = Throwaway(session.ws, session.paths.meta).take()
    candidate = candidates.make(session.ws, session.paths.meta, "3", 1)[0]
    assert repair(session) == ["removed the worktree of parallel candidate 3/0"]
    assert not kept.root.exists() and not candidate.root.exists()
    assert git(session.ws.root, "worktree", "list", "--porcelain").count("worktree ") == 1


def test_a_directory_artifact_is_put_back_whole_new_files_and_all(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "docs")
    throwaway = Throwaway(main, repo / "results" / ".exp")
    ws = throwaway.take()
    kept_inode = os.stat(ws.root / "run.sh").st_ino
    (ws.artifact_path / "new.md").write_text("new\n")
    (ws.artifact_path / "deep" / "b.md").unlink()
    (ws.artifact_path / "a.md").write_text("changed\n")
    (repo / "docs" / "deep" / "c.md").write_text("kept\n")  # the cycle's KEEP
    git(repo, "add", "docs")
    git(repo, "commit", "-qm", "keep")
    again = throwaway.take()
    assert os.stat(again.root / "run.sh").st_ino == kept_inode  # put back, not made anew
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    assert (again.root / "docs" / "deep" / "c.md").read_text() == "kept\n"
    throwaway.drop()


def test_put_back_after_a_drop_the_index_is_not_written_and_the_checkout_equals_a_fresh_one(tmp_path, settled):
    """After a DROP (HEAD as recorded) only the artifact is written again: git's index for the checkout,
    whose entry already names HEAD's blob, is left as it was (writing it was half of the put-back)."""
    main, throwaway, _ = setup(tmp_path)
    ws = throwaway.take()
    index = Path((ws.root / ".git").read_text().removeprefix("gitdir: ").strip()) / "index"
    before = index.stat()
    ws.artifact_path.write_text("a dropped candidate\n")
    again = throwaway.take()
    after = index.stat()
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (before.st_ino, before.st_mtime_ns, before.st_size)
    assert again.root == ws.root and (again.root / "prompt.md").read_text() == "p\n"
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}


@pytest.fixture
def settled(monkeypatch):
    """Configuration files written by the test count as settled at once (they are seconds old in a real run):
    until they are, autoresearch.optimizer.gitrepo.gitconfig reads them again, and the put-back opens its
    repository anew every cycle."""
    monkeypatch.setattr(gitconfig, "_SETTLED", 0)


def _dropped(throwaway: Throwaway, ws: Workspace, candidate: str = "a dropped candidate\n") -> Workspace:
    ws.artifact_path.write_text(candidate)
    return throwaway.take()


def test_after_a_drop_the_same_workspace_and_repository_are_kept_and_equal_a_fresh_one(tmp_path, settled):
    main, throwaway, _ = setup(tmp_path)
    ws = throwaway.take()
    repo = ws.lib
    again = _dropped(throwaway, ws)
    assert again is ws and again.lib is repo  # not opened anew
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


def test_a_configuration_changed_between_cycles_opens_the_repository_anew_and_is_checked_out_by(tmp_path, settled):
    """libgit2 keeps what it read of the configuration while a repository is open: the put-back of a
    repository kept open would write the artifact without the end-of-line conversion set since."""
    main, throwaway, repo = setup(tmp_path)
    ws = throwaway.take()
    git(repo, "config", "core.autocrlf", "true")
    again = _dropped(throwaway, ws)
    assert (again.root / "prompt.md").read_bytes() == b"p\r\n"
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


@pytest.mark.parametrize("attributes", ["prompt.md eol=crlf\n", "prompt.md ident\n"], ids=["eol", "ident"])
def test_after_a_drop_an_artifact_libgit2_filters_is_written_as_it_would(tmp_path, settled, attributes):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p $Id$\n", ".gitattributes": attributes})
    main = open_workspace(repo, "prompt.md")
    throwaway = Throwaway(main, repo / "results" / ".exp")
    ws = throwaway.take()
    again = _dropped(throwaway, ws)
    assert again is ws
    assert (again.root / "prompt.md").read_bytes() != b"p $Id$\n"  # converted, as a fresh checkout has it
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


def test_after_a_drop_an_executable_artifact_is_written_as_a_new_program(tmp_path, settled):
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, "run.sh")
    throwaway = Throwaway(main, repo / "results" / ".exp")
    ws = throwaway.take()
    ws.artifact_path.chmod(0o644)
    again = _dropped(throwaway, ws, "echo candidate\n")
    assert again is ws and os.access(again.artifact_path, os.X_OK)
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


@pytest.mark.parametrize("keep", [False, True], ids=["drop", "keep"])
def test_the_checkout_s_own_artifact_is_put_back_in_place_not_made_anew(tmp_path, settled, keep):
    """A candidate longer than HEAD's text, left as the mutator wrote it (the checkout's own plain file), is
    written over with HEAD's bytes and cut to their length: its inode kept (a new file was an inode a cycle,
    issue 34), the checkout as a fresh one would be."""
    main, throwaway, repo = setup(tmp_path)
    ws = throwaway.take()
    inode = os.stat(ws.artifact_path).st_ino
    ws.artifact_path.write_text("a candidate far longer than the artifact's text at HEAD\n" * 4)
    if keep:
        (repo / "prompt.md").write_text("kept\n")
        git(repo, "commit", "-qam", "keep")
    again = throwaway.take()
    assert again.root == ws.root and os.stat(again.artifact_path).st_ino == inode
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


AT_THE_ARTIFACT = {
    "a second name of a file elsewhere": lambda path, elsewhere: path.unlink() or os.link(elsewhere, path),
    "a link to a file elsewhere": lambda path, elsewhere: path.unlink() or os.symlink(elsewhere, path),
    "a fifo": lambda path, elsewhere: path.unlink() or os.mkfifo(path),
    "a folder": lambda path, elsewhere: path.unlink() or path.mkdir() or (path / "x").write_text("x\n"),
    "another mode": lambda path, elsewhere: path.chmod(0o600),
}


@pytest.mark.parametrize("leave", AT_THE_ARTIFACT, ids=list(AT_THE_ARTIFACT))
@pytest.mark.parametrize("keep", [False, True], ids=["drop", "keep"])
def test_whatever_stands_at_the_artifact_the_put_back_writes_head_s_file_there_and_nothing_through_it(
    tmp_path, settled, leave, keep
):
    """The put-back writes the checkout's artifact over in place only when it is still the checkout's own file:
    a regular file of one name, with a new file's permissions. Anything else there is removed and the file
    made anew: a file elsewhere that the artifact is a second name of, or that a link there names, keeps its
    bytes."""
    main, throwaway, repo = setup(tmp_path)
    ws = throwaway.take()
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("someone's\n")
    AT_THE_ARTIFACT[leave](ws.artifact_path, elsewhere)
    if keep:
        (repo / "prompt.md").write_text("kept\n")
        git(repo, "commit", "-qam", "keep")
    again = throwaway.take()
    assert again is ws or keep  # kept, put back (a KEEP opens its repository anew)
    assert elsewhere.read_text() == "someone's\n" and os.stat(elsewhere).st_nlink == 1
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


def test_a_file_changed_during_the_put_back_is_not_taken_in_and_the_next_checkout_is_fresh(tmp_path, settled):
    """The record after a put-back takes the paths outside the artifact as the check before it found
    them: a process the mutator left that writes one meanwhile is seen at the next check, where walking
    the checkout again would have recorded its write as the checkout's state."""
    main, throwaway, _ = setup(tmp_path)
    ws = throwaway.take()
    kept = throwaway._kept
    assert kept is not None
    before = throwaway_module._unchanged_but_the_artifact(kept, ws, main.lib)  # the put-back's check
    (ws.root / "docs" / "a.md").write_text("written meanwhile\n")
    put = throwaway_module._Put(ws, kept.settings, before, unfiltered=False, written={})
    throwaway._kept = throwaway_module._record(ws, kept.settings, kept.admin, kept.commit, put)
    again = throwaway.take()
    assert again is not ws  # made anew
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


def test_the_record_after_a_put_back_neither_reads_nor_holds_the_artifact(tmp_path, settled):
    """The check never looks at the artifact's paths: the record keeps none of them, and no content of the
    artifact just written (the one file a put-back always leaves racily clean) is read for it."""
    main, throwaway, repo = setup(tmp_path)
    ws = throwaway.take()
    for cycle in ("drop", "keep"):
        if cycle == "keep":
            (repo / "prompt.md").write_text("kept\n")
            git(repo, "commit", "-qam", "keep")
        ws = _dropped(throwaway, ws)
        kept = throwaway._kept
        assert kept is not None and kept.ws is ws
        assert [p for p in [*kept.entries, *kept.digests] if p.startswith("w/prompt.md")] == []
        assert kept.entries["w/docs/a.md"]  # the rest of the checkout is recorded
    throwaway.drop()


def test_a_mutators_git_status_after_a_drop_makes_no_checkout_anew(tmp_path, settled):
    """After a DROP the index keeps the dropped candidate's cached times for the artifact: the next mutator's
    `git status` refreshes them and writes the index, which names the same blobs. Each cycle's checkout is
    still the one put back, never made anew, and equal to a fresh one."""
    main, throwaway, _ = setup(tmp_path)
    ws = _dropped(throwaway, throwaway.take())
    kept_inode = os.stat(ws.root / "docs" / "a.md").st_ino
    remade = 0
    for cycle in range(3):
        git(ws.root, "status", "--porcelain")  # the mutator looks first: the index is written
        again = _dropped(throwaway, ws, f"candidate {cycle}\n")
        remade += again is not ws or os.stat(again.root / "docs" / "a.md").st_ino != kept_inode
        ws = again
    assert remade == 0
    assert state(ws.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


STAGED = {
    "the artifact staged": ["add", "prompt.md"],
    "a file marked skip-worktree": ["update-index", "--skip-worktree", "docs/a.md"],
    "a file marked assume-unchanged": ["update-index", "--assume-unchanged", "docs/a.md"],
    "a mode staged": ["update-index", "--chmod=+x", "docs/a.md"],
    "a file staged for removal": ["rm", "-q", "--cached", "docs/a.md"],
}


@pytest.mark.parametrize("command", STAGED.values(), ids=list(STAGED))
def test_an_index_a_mutator_staged_or_marked_in_makes_the_checkout_anew(tmp_path, settled, command):
    main, throwaway, _ = setup(tmp_path)
    ws = _dropped(throwaway, throwaway.take())
    ws.artifact_path.write_text("a candidate\n")
    git(ws.root, *command)
    again = throwaway.take()
    assert again is not ws
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    assert "S " not in git(again.root, "ls-files", "-t") and git(again.root, "ls-files", "-v").startswith("H ")
    throwaway.drop()


def _entries(root: Path) -> list[list[str]]:
    """The index's entries as git lists them, but the status fields a new file's write decides (times,
    device, inode): mode, object, stage, path, owner, size, flags."""
    lines = git(root, "ls-files", "--stage", "--debug").splitlines()
    return [
        [line for line in lines[at : at + 6] if not line.lstrip().startswith(("ctime", "mtime", "dev"))]
        for at in range(0, len(lines), 6)
    ]


@pytest.mark.parametrize("artifact", ["prompt.md", "docs/deep/b.md", "run.sh"])
def test_after_a_keep_the_artifact_s_entry_is_written_in_place_as_git_s_checkout_would(tmp_path, settled, artifact):
    """After a KEEP only the artifact's file and index entry are written, by the put-back itself, no repository
    opened for it (libgit2's checkout and the repository it needed were most of its time): the index names
    what `git checkout` of the new HEAD names, status fields and all, git sees the checkout clean, and the
    cache tree a mutator's `git write-tree` put in the index is invalidated on the artifact's path (else the
    next `write-tree` or commit in the checkout would name the old tree)."""
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, artifact)
    throwaway = Throwaway(main, repo / "results" / ".exp")
    ws = _dropped(throwaway, throwaway.take())
    old, kept_inode, repo_handle = main.head(), os.stat(ws.root / "docs" / "a.md").st_ino, ws.__dict__.get("lib")
    git(ws.root, "write-tree")  # the mutator's: the index gets a cache tree
    ws.artifact_path.write_text("a candidate\n")
    (repo / artifact).write_text("kept\n")  # the cycle's KEEP
    git(repo, "commit", "-qam", "keep")
    again = throwaway.take()
    assert os.stat(again.root / "docs" / "a.md").st_ino == kept_inode  # put back, not made anew
    assert again.__dict__.get("lib") is repo_handle  # no repository opened for it (one kept, its caches given back)
    assert git(again.root, "status", "--porcelain") == ""
    assert git(again.root, "write-tree") == git(repo, "rev-parse", "HEAD^{tree}")
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "twin"), old)
    git(tmp_path / "twin", "checkout", "-q", "--detach", main.head())
    assert _entries(again.root) == _entries(tmp_path / "twin")
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


def test_after_a_keep_an_artifact_libgit2_filters_is_checked_out_by_it_its_caches_given_back(tmp_path, settled):
    """The repository kept from the cycle before reads the index, the configuration and the attributes again
    (pygit2's `free`): its checkout writes what a fresh one would."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", ".gitattributes": "prompt.md eol=crlf\n"})
    main = open_workspace(repo, "prompt.md")
    throwaway = Throwaway(main, repo / "results" / ".exp")
    ws = _dropped(throwaway, throwaway.take())
    (repo / "prompt.md").write_text("kept\n")
    git(repo, "commit", "-qam", "keep")
    again = throwaway.take()
    assert again is ws
    assert (again.root / "prompt.md").read_bytes() == b"kept\r\n"
    assert git(again.root, "status", "--porcelain") == ""
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


def test_a_file_written_in_git_s_folder_during_a_drop_s_put_back_is_not_taken_in(tmp_path, settled):
    """After a DROP the put-back writes nothing in git's folder for the checkout: the record takes that as
    the check before found it too, not walked again (a walk would take in what a process the mutator left
    wrote there meanwhile, and cost a tenth of the put-back)."""
    main, throwaway, _ = setup(tmp_path)
    ws = _dropped(throwaway, throwaway.take())
    kept = throwaway._kept
    assert kept is not None
    ws.artifact_path.write_text("a dropped candidate\n")
    put = throwaway._put_back(kept, kept.commit)
    assert put is not None and put.written == {}
    (kept.admin / "config.worktree").write_text("[core]\n\tsparseCheckout = true\n")  # written meanwhile
    throwaway._kept = throwaway_module._record(put.ws, put.settings, kept.admin, kept.commit, put)
    again = throwaway.take()
    assert again is not ws  # made anew
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


@pytest.mark.parametrize("keep", [False, True], ids=["drop", "keep"])
def test_an_attribute_set_since_the_last_put_back_makes_the_artifact_written_converted(tmp_path, settled, keep):
    """The put-back remembers that libgit2 writes the artifact unfiltered only while what decides it is as it
    was: an end-of-line attribute set in the repository's info/attributes since is taken."""
    main, throwaway, repo = setup(tmp_path)
    ws = _dropped(throwaway, throwaway.take())
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("*.md eol=crlf\n")
    if keep:
        (repo / "prompt.md").write_text("kept\n")
        git(repo, "commit", "-qam", "keep")
    again = _dropped(throwaway, ws)
    assert (again.root / "prompt.md").read_bytes() == (b"kept\r\n" if keep else b"p\r\n")
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


KILLED_TAKE = """
import sys
from pathlib import Path
from autoresearch.optimizer.gitrepo import gitconfig
from autoresearch.optimizer.gitrepo.throwaway import Throwaway
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import git
gitconfig._SETTLED = 0
repo = Path(sys.argv[1])
throwaway = Throwaway(open_workspace(repo, "prompt.md"), repo / "results" / ".exp")
ws = throwaway.take()
ws.artifact_path.write_text("a dropped candidate\\n")
ws = throwaway.take()  # a DROP's: git's folder is not written, its index no more racily clean
if sys.argv[2] == "cache tree":
    git(ws.root, "write-tree")  # the mutator's: the index gets a cache tree, which the KEEP's entry invalidates
ws.artifact_path.write_text("a candidate\\n")
(repo / "prompt.md").write_text("kept\\n")
git(repo, "commit", "-qam", "keep")
throwaway.take()
"""


@pytest.mark.parametrize("index", ["cache tree", "no cache tree"])
def test_a_kill_while_a_keep_s_index_entry_is_written_leaves_the_user_s_git_working_and_the_next_start_remakes_it(
    tmp_path, index
):
    """The checkout's index lies in the user's `.git/worktrees`, where the user's `git gc` reads it (the
    objects it names are kept). A kill in the middle of its write must leave it whole: an index written over
    in place and cut short of its new length (the cache tree invalidated: fewer bytes) left the old tail,
    and every `git gc` of the user's repository failed until the daemon started again."""
    repo = make_repo(tmp_path / "r", FILES)
    env = {**os.environ, faults.ENV: "putback-index-written:1"}
    code = subprocess.run([sys.executable, "-c", KILLED_TAKE, str(repo), index], env=env, cwd=ROOT).returncode
    assert code == -signal.SIGKILL
    written = (repo / ".git" / "worktrees" / "0" / "index").read_bytes()
    assert hashlib.sha1(written[:-20]).digest() == written[-20:]  # whole: old or new, no old tail after the new
    assert subprocess.run(["git", "gc", "-q"], cwd=repo, capture_output=True).returncode == 0
    main = open_workspace(repo, "prompt.md")
    throwaway = Throwaway(main, repo / "results" / ".exp")  # the next start's
    assert state(throwaway.take().root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


@pytest.mark.parametrize("artifact", ["prompt.md", "docs/deep/b.md"])
def test_a_file_written_in_git_s_folder_during_a_keep_s_put_back_is_not_taken_in(tmp_path, settled, artifact):
    """After a KEEP the put-back writes HEAD and the index in git's folder for the checkout, nothing else:
    the record takes the rest as the check before found it, the two files as they are now. A walk of the
    folder took in what a process the mutator left wrote there meanwhile (here a worktree configuration
    that turns on a sparse checkout), and the checkout was kept with it."""
    repo = make_repo(tmp_path / "r", FILES)
    main = open_workspace(repo, artifact)
    throwaway = Throwaway(main, repo / "results" / ".exp")
    _dropped(throwaway, throwaway.take())
    kept = throwaway._kept
    assert kept is not None
    (repo / artifact).write_text("kept\n")
    git(repo, "commit", "-qam", "keep")
    put = throwaway._put_back(kept, main.head())
    assert put is not None
    (kept.admin / "config.worktree").write_text("[core]\n\tsparseCheckout = true\n")  # written meanwhile
    throwaway._kept = throwaway_module._record(put.ws, put.settings, kept.admin, main.head(), put)
    again = throwaway.take()
    assert again is not put.ws  # made anew
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()


@pytest.mark.parametrize("name", ["HEAD", "index"])
def test_a_write_to_head_or_the_index_after_a_keep_s_put_back_is_not_taken_in(tmp_path, settled, name):
    """After a KEEP the put-back writes HEAD and the index in git's folder for the checkout, and the record
    takes them by the bytes it wrote: a process the mutator left that writes either before the record (here
    HEAD named the old commit again, or the index's checksum blanked, each the same length) is seen at the
    next check, whichever clock tick it wrote in, where the record took in the file as it then was."""
    main, throwaway, repo = setup(tmp_path)
    _dropped(throwaway, throwaway.take())
    kept = throwaway._kept
    assert kept is not None
    old = main.head()
    (repo / "prompt.md").write_text("kept\n")
    git(repo, "commit", "-qam", "keep")
    put = throwaway._put_back(kept, main.head())
    assert put is not None and set(put.written) == {"a/HEAD", "a/index"}
    target = kept.admin / name
    data = target.read_bytes()
    target.write_bytes(f"{old}\n".encode() if name == "HEAD" else data[:-20] + bytes(20))  # written meanwhile
    throwaway._kept = throwaway_module._record(put.ws, put.settings, kept.admin, main.head(), put)
    again = throwaway.take()
    assert again is not put.ws  # made anew
    assert state(again.root) == fresh(main, tmp_path / "fresh" / "0") | {"gitdir": True}
    throwaway.drop()
