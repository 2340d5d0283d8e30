"""The artifact carried out of a sandboxed mutator's checkout into the user's: written over the user's artifact
only where that is a file of one name (as a copy of the candidate would be made), else a new file at the
artifact's path, whatever the user had there (a hard link to a file of theirs, a link, a named pipe), never
written into it."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo.candidates import carry_artifact
from autoresearch.optimizer.gitrepo.status import everything_changed
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.plumbing import faults
from tests.helpers.repos import git, make_repo

ROOT = Path(__file__).resolve().parents[3]  # where `tests.helpers` is found by a child


def _mutated(tmp_path: Path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n", "other.md": "x\n"})
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "work"), "HEAD")
    work = open_workspace(tmp_path / "work", "prompt.md")
    work.artifact_path.write_text("two\n")
    return open_workspace(repo, "prompt.md"), work


@pytest.mark.parametrize("linked", [Path("other.md"), Path("..") / "deployed.md"])
def test_a_hard_link_of_the_users_at_the_artifact_keeps_its_bytes(tmp_path, linked):
    user, work = _mutated(tmp_path)
    theirs = user.root / linked
    theirs.write_text("x\n")
    user.artifact_path.unlink()
    os.link(theirs, user.artifact_path)
    carry_artifact(work, user)
    assert (user.artifact_path.read_text(), theirs.read_text()) == ("two\n", "x\n")
    assert os.stat(theirs).st_nlink == 1


def test_a_named_pipe_at_the_artifact_is_replaced_not_opened(tmp_path):
    user, work = _mutated(tmp_path)
    user.artifact_path.unlink()
    os.mkfifo(user.artifact_path)
    carry_artifact(work, user)
    assert user.artifact_path.read_text() == "two\n"


def test_a_link_at_the_artifact_is_replaced_and_the_file_it_names_keeps_its_bytes(tmp_path):
    user, work = _mutated(tmp_path)
    theirs = tmp_path / "theirs.md"
    theirs.write_text("x\n")
    user.artifact_path.unlink()
    os.symlink(theirs, user.artifact_path)
    carry_artifact(work, user)
    assert not user.artifact_path.is_symlink() and user.artifact_path.read_text() == "two\n"
    assert theirs.read_text() == "x\n"


@pytest.mark.parametrize("permissions", [0o755, 0o600], ids=["a program", "private"])
def test_the_artifact_carried_has_the_candidate_s_permissions_and_times_as_a_copy_of_it_would(tmp_path, permissions):
    """Written over in place (the user's artifact a file of one name), it ends as `shutil.copy2` makes a new file:
    the candidate's bytes, permissions and modification time (git reads the executable bit from it)."""
    user, work = _mutated(tmp_path)
    work.artifact_path.write_text("a longer candidate than the user's one line\n")
    work.artifact_path.chmod(permissions)
    os.utime(work.artifact_path, ns=(1_000_000_007, 2_000_000_009))
    carry_artifact(work, user)
    carried, source = os.stat(user.artifact_path), os.stat(work.artifact_path)
    assert user.artifact_path.read_text() == "a longer candidate than the user's one line\n"
    assert (stat.S_IMODE(carried.st_mode), carried.st_mtime_ns) == (permissions, source.st_mtime_ns)
    (user.artifact_path).write_text("one\n")  # and back to a shorter one: cut to its length
    carry_artifact(work, user)
    assert user.artifact_path.read_text() == "a longer candidate than the user's one line\n"


CARRY = """
import sys
from pathlib import Path
from autoresearch.optimizer.gitrepo.candidates import carry_artifact
from autoresearch.optimizer.gitrepo.status import everything_changed
from autoresearch.optimizer.gitrepo.workspace import open_workspace
carry_artifact(open_workspace(Path(sys.argv[1]), "prompt.md"), open_workspace(Path(sys.argv[2]), "prompt.md"))
"""


def test_a_name_linked_to_the_artifact_during_the_carry_names_the_candidate_and_a_reader_finds_it_there(tmp_path):
    """Between the check that the user's artifact has one name and the end of the write, a second name made
    (by the user: a sandboxed mutator's processes are gone) is a name of the artifact's own file, as one made
    right after: it holds the candidate. No other file of the user's is written, and a reader meanwhile (an
    editor) finds the file there, the candidate's bytes first, never a missing file."""
    user, work = _mutated(tmp_path)
    user.artifact_path.write_text("the user's artifact, longer than the candidate\n")
    env = {**os.environ, faults.ENV: "carry-written:1:SIGSTOP"}
    proc = subprocess.Popen([sys.executable, "-c", CARRY, str(work.root), str(user.root)], env=env, cwd=ROOT)
    _, status = os.waitpid(proc.pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status), status
    assert user.artifact_path.read_text().startswith("two\n")  # the old text's tail after it, until the cut
    os.link(user.artifact_path, tmp_path / "linked.md")
    os.kill(proc.pid, signal.SIGCONT)
    assert proc.wait(timeout=60) == 0
    assert user.artifact_path.read_text() == (tmp_path / "linked.md").read_text() == "two\n"
    assert (user.root / "other.md").read_text() == "x\n"


def test_a_link_put_at_the_artifact_while_it_is_made_anew_is_removed_not_written_through(tmp_path):
    """The user's artifact not written over in place (a second name of it elsewhere), its name is removed and a
    new file made: a symbolic link put at the name in between (by the user, or a process of theirs) is not
    followed into the file it names, which keeps its bytes."""
    user, work = _mutated(tmp_path)
    os.link(user.artifact_path, tmp_path / "deployed.md")
    theirs = tmp_path / "theirs.md"
    theirs.write_text("x\n")
    env = {**os.environ, faults.ENV: "carry-removed:1:SIGSTOP"}
    proc = subprocess.Popen([sys.executable, "-c", CARRY, str(work.root), str(user.root)], env=env, cwd=ROOT)
    _, status = os.waitpid(proc.pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status), status
    os.symlink(theirs, user.artifact_path)
    os.kill(proc.pid, signal.SIGCONT)
    assert proc.wait(timeout=60) == 0
    assert not user.artifact_path.is_symlink() and user.artifact_path.read_text() == "two\n"
    assert theirs.read_text() == "x\n" and (tmp_path / "deployed.md").read_text() == "one\n"


def test_a_candidate_given_the_artifact_s_time_is_still_seen_changed_by_git_that_does_not_trust_change_times(tmp_path):
    """Written over in place, the artifact keeps its inode; a candidate of the same size whose time a mutator
    set to the artifact's would have left the file's status as git's index records it, and git with
    core.trustctime off took the candidate for HEAD's text (copy2's new file had a new inode)."""
    user, work = _mutated(tmp_path)
    git(user.root, "config", "core.trustctime", "false")
    os.utime(user.artifact_path, ns=(10**18, 10**18))  # older than the index: not racily clean
    git(user.root, "update-index", "--refresh")  # the index records the artifact's status
    work.artifact_path.write_text("owt\n")  # as many bytes as the user's "one\n"
    was = os.stat(user.artifact_path)
    os.utime(work.artifact_path, ns=(was.st_atime_ns, was.st_mtime_ns))
    carry_artifact(work, user)
    assert user.artifact_path.read_text() == "owt\n"
    assert git(user.root, "status", "--porcelain") == " M prompt.md\n"


# a candidate's time that git reads as the old file's: git (built without USE_NSEC, as Debian's) compares whole
# seconds alone, and git and libgit2 keep 32 bits of them in the index
AS_GIT_READS_IT = {"the same second": 5, "2**32 seconds later": 2**32 * 10**9}


@pytest.mark.parametrize("later", AS_GIT_READS_IT.values(), ids=list(AS_GIT_READS_IT))
@pytest.mark.parametrize("check_stat", ["default", "minimal"])
@pytest.mark.parametrize("elsewhere", [False, True], ids=["in place", "made anew"])
def test_a_candidate_given_a_time_git_reads_as_the_artifact_s_is_still_seen_changed(
    tmp_path, later, check_stat, elsewhere
):
    """As above, for a time other than the old file's to the nanosecond that git's index still takes for it: the
    same whole second, or one 2**32 seconds away; written in place, or made anew (the artifact a second name of
    a file elsewhere: git with core.checkStat minimal compares no inode). git's status, its checkout (a DROP's
    fallback), and libgit2's status (what a candidate's checks are carried by) must all see the candidate."""
    user, work = _mutated(tmp_path)
    if elsewhere:
        os.link(user.artifact_path, tmp_path / "deployed.md")
    git(user.root, "config", "core.trustctime", "false")
    git(user.root, "config", "core.checkStat", check_stat)
    os.utime(user.artifact_path, ns=(10**18, 10**18))  # older than the index: not racily clean
    git(user.root, "update-index", "--refresh")
    work.artifact_path.write_text("owt\n")
    was = os.stat(user.artifact_path).st_mtime_ns + later
    os.utime(work.artifact_path, ns=(was, was))
    carry_artifact(work, user)
    assert user.artifact_path.read_text() == "owt\n"
    assert git(user.root, "status", "--porcelain") == " M prompt.md\n"
    assert everything_changed(user) == {"prompt.md": " M"}
    git(user.root, "checkout", "HEAD", "--", "prompt.md")
    assert user.artifact_path.read_text() == "one\n"


def test_a_folder_artifact_s_files_are_carried_each_by_the_same_rule(tmp_path):
    repo = make_repo(tmp_path / "r", {"docs/a.md": "a\n", "docs/b.md": "b\n", "docs/c.md": "c\n"})
    git(repo, "worktree", "add", "-q", "--detach", str(tmp_path / "work"), "HEAD")
    work, user = open_workspace(tmp_path / "work", "docs"), open_workspace(repo, "docs")
    (work.artifact_path / "a.md").write_text("A, longer\n")
    (work.artifact_path / "b.md").write_text("B\n")
    (work.artifact_path / "c.md").unlink()
    (work.artifact_path / "new" / "d.md").parent.mkdir()
    (work.artifact_path / "new" / "d.md").write_text("d\n")
    theirs = tmp_path / "deployed-b.md"
    os.link(user.artifact_path / "b.md", theirs)
    carry_artifact(work, user)
    assert {p.relative_to(user.artifact_path).as_posix(): p.read_text() for p in user.artifact_path.rglob("*.md")} == {
        "a.md": "A, longer\n",
        "b.md": "B\n",
        "new/d.md": "d\n",
    }
    assert theirs.read_text() == "b\n" and os.stat(theirs).st_nlink == 1
