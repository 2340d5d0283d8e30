"""The decision's in-process writes against repositories, settings and inputs a user may have: each case runs
the same edit through the workspace and through git's own command on a twin, and the two must agree (or the
workspace leaves the write to git)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import ConfigLevel

from autoresearch.optimizer.gitrepo import direct, gitident
from autoresearch.optimizer.gitrepo.workspace import commit_artifact, open_workspace, restore_artifact
from tests.helpers.repos import git, make_repo

FILES = {"d/p.md": "one\n", "x.txt": "x\n"}


def twins(tmp_path: Path, files: dict[str, str] = FILES) -> tuple[Path, Path]:
    return make_repo(tmp_path / "ours", files), make_repo(tmp_path / "gits", files)


def both(repos: tuple[Path, Path], *args: str) -> None:
    for repo in repos:
        git(repo, *args)


def test_a_reflog_kept_with_log_all_ref_updates_false_gets_the_commits_line_as_git_writes_it(tmp_path):
    ours, gits = repos = twins(tmp_path)
    both(repos, "config", "core.logAllRefUpdates", "false")  # git still appends to the logs that exist
    for repo in repos:
        (repo / "d/p.md").write_text("two\n")
    commit_artifact(open_workspace(ours, "d/p.md"), "kept")
    git(gits, "commit", "-q", "--only", "-m", "kept", "--", "d/p.md")
    for log in ("HEAD", "main"):
        assert git(ours, "reflog", "--format=%gs", log) == git(gits, "reflog", "--format=%gs", log)
    assert git(ours, "reflog", "-1", "--format=%gs", "main") == "commit: kept\n"


def test_an_identity_from_a_file_included_on_a_condition_libgit2_skips_is_gits(tmp_path, monkeypatch):
    ours, gits = repos = twins(tmp_path)
    for key in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(key)
    for repo in repos:
        (repo / ".git/work.inc").write_text("[user]\n\temail = work@example.com\n")
        git(repo, "remote", "add", "origin", "https://example.com/team/x.git")
        git(repo, "config", "includeIf.hasconfig:remote.*.url:https://example.com/**.path", "work.inc")
        (repo / "d/p.md").write_text("two\n")
    commit_artifact(open_workspace(ours, "d/p.md"), "kept")
    subprocess.run(["git", "commit", "-q", "--only", "-m", "kept", "--", "d/p.md"], cwd=gits, check=True)
    show = ("log", "-1", "--format=%ae %ce")
    assert git(ours, *show) == git(gits, *show) == "work@example.com work@example.com\n"


def test_a_drop_converts_the_artifact_by_the_attributes_git_reads_from_the_index(tmp_path):
    files = {**FILES, ".gitattributes": "*.md ident\n", "d/p.md": "$Id$\n"}
    ours, gits = repos = twins(tmp_path, files)
    ws = open_workspace(ours, "d/p.md")
    for repo in repos:
        (repo / ".gitattributes").unlink()  # deleted from the tree: git reads the index's
        (repo / "d/p.md").write_text("candidate\n")
    restore_artifact(ws)
    git(gits, "checkout", "HEAD", "--", "d/p.md")
    assert (ours / "d/p.md").read_text() == (gits / "d/p.md").read_text() != "$Id$\n"


def test_the_systems_attributes_file_is_one_an_attribute_can_come_from(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    system = tmp_path / "etc"
    system.mkdir()
    (system / "gitattributes").write_text("*.md eol=crlf\n")
    saved = pygit2.settings.search_path[ConfigLevel.SYSTEM]
    pygit2.settings.search_path[ConfigLevel.SYSTEM] = str(system)  # where libgit2 reads it (git: /etc)
    try:
        ws = open_workspace(repo, "d/p.md")
        (repo / "d/p.md").write_text("two\n")
        assert not direct.restore(ws)  # git's checkout would write it with CRLF
        assert direct.commit(ws, "kept") is None
    finally:
        pygit2.settings.search_path[ConfigLevel.SYSTEM] = saved


def test_after_a_drop_gits_plumbing_finds_the_artifact_unchanged_as_after_gits_checkout(tmp_path):
    ours, gits = repos = twins(tmp_path)
    ws = open_workspace(ours, "d/p.md")
    for repo in repos:
        (repo / "d/p.md").write_text("candidate\n")
    restore_artifact(ws)
    git(gits, "checkout", "HEAD", "--", "d/p.md")
    for repo in repos:  # `git diff-index --quiet HEAD`, a script's clean check: it never refreshes the index
        assert subprocess.run(["git", "diff-index", "--quiet", "HEAD"], cwd=repo).returncode == 0
        assert git(repo, "diff-files", "--name-only") == ""


@pytest.mark.parametrize("filemode", ["true", "false"])
def test_a_drop_of_a_candidate_that_only_made_the_artifact_executable_leaves_the_mode_as_gits_checkout(
    tmp_path, filemode
):
    """HEAD's bytes with the executable bit set (a mutator's `chmod +x`): git's checkout puts HEAD's mode back
    (unless core.fileMode is false); the in-process DROP took the file for HEAD's by its bytes alone."""
    ours, gits = repos = twins(tmp_path)
    both(repos, "config", "core.fileMode", filemode)
    ws = open_workspace(ours, "d/p.md")
    for repo in repos:
        (repo / "d/p.md").chmod(0o755)
    restore_artifact(ws)
    git(gits, "checkout", "HEAD", "--", "d/p.md")
    assert os.stat(ours / "d/p.md").st_mode == os.stat(gits / "d/p.md").st_mode
    assert git(ours, "status", "--porcelain") == git(gits, "status", "--porcelain")
    assert (os.stat(ours / "d/p.md").st_mode & 0o111 == 0) == (filemode == "true")


def test_a_drop_left_to_git_of_a_candidate_that_only_made_the_artifact_executable_puts_heads_mode_back(tmp_path):
    """The same candidate where git itself makes the DROP (core.eol set: a case left to git): the check before
    git's checkout compared the bytes alone, found HEAD's, and left the file executable."""
    ours, gits = repos = twins(tmp_path)
    both(repos, "config", "core.eol", "lf")
    ws = open_workspace(ours, "d/p.md")
    for repo in repos:
        (repo / "d/p.md").chmod(0o755)
    assert direct.restore(ws) is False  # left to git
    restore_artifact(ws)
    git(gits, "checkout", "HEAD", "--", "d/p.md")
    assert os.stat(ours / "d/p.md").st_mode == os.stat(gits / "d/p.md").st_mode
    assert os.stat(ours / "d/p.md").st_mode & 0o111 == 0
    assert git(ours, "status", "--porcelain") == ""


def test_a_drop_of_the_same_bytes_written_anew_leaves_gits_plumbing_finding_the_artifact_unchanged(tmp_path):
    """A mutator that wrote HEAD's bytes back (a "no change" cycle) gives the file new times: git's checkout
    writes it and its entry anew, and `git diff-index --quiet HEAD` then finds nothing; the in-process DROP
    took it for HEAD's by its bytes, wrote nothing, and left the entry's old status (the artifact changed to
    git's plumbing until a `git status`)."""
    ours, gits = repos = twins(tmp_path)
    ws = open_workspace(ours, "d/p.md")
    for repo in repos:
        (repo / "d/p.md").write_text("one\n")
        os.utime(repo / "d/p.md", ns=(1_600_000_000_000_000_000,) * 2)  # as a write at another moment leaves it
    assert direct.restore(ws) is True
    git(gits, "checkout", "HEAD", "--", "d/p.md")
    for repo in repos:
        assert subprocess.run(["git", "diff-index", "--quiet", "HEAD"], cwd=repo).returncode == 0
        assert git(repo, "diff-files", "--name-only") == ""
    assert direct.restore(ws) is direct.UNCHANGED  # the entry has the file's status now: nothing to write


def test_a_message_that_is_not_utf8_is_committed_by_git_as_given(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    (repo / "d/p.md").write_text("two\n")
    sha = commit_artifact(open_workspace(repo, "d/p.md"), "autoresearch cycle 2: caf\udce9")
    assert sha == git(repo, "rev-parse", "HEAD").strip()
    raw = subprocess.run(["git", "cat-file", "commit", "HEAD"], cwd=repo, capture_output=True).stdout
    assert raw.endswith(b"autoresearch cycle 2: caf\xc3\xa9\n")  # git's: the byte taken as Latin-1, made UTF-8


def test_noncharacters_in_a_message_and_a_name_are_written_as_gits_commit_writes_them(tmp_path, monkeypatch):
    """U+FFFE and U+FDD0 are valid UTF-8 to Python and libgit2, which wrote them as given; git's commit takes
    them for bytes that are not UTF-8 and writes each byte read as Latin-1, so the KEEP leaves them to git."""
    ours, gits = repos = twins(tmp_path)
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Ann\ufdd0")
    for repo in repos:
        (repo / "d/p.md").write_text("two\n")
    commit_artifact(open_workspace(ours, "d/p.md"), "kept \ufffe")
    subprocess.run(["git", "commit", "-q", "--only", "-m", "kept \ufffe", "--", "d/p.md"], cwd=gits, check=True)
    show = ("log", "-1", "--format=%B|%cn")
    assert git(ours, *show) == git(gits, *show) == "kept \u00ef\u00bf\u00be\n|Ann\u00ef\u00b7\u0090\n"


@pytest.mark.parametrize(
    "variable, value",
    [
        ("GIT_COMMITTER_NAME", "a\nb"),  # git drops the newline: `ab`
        ("GIT_COMMITTER_NAME", "x<y>z"),  # and the brackets: `xyz`
        ("GIT_COMMITTER_NAME", " .Ann, "),  # and the crud at either end: `Ann`
        ("GIT_COMMITTER_EMAIL", ""),  # git signs `<>`
        ("GIT_COMMITTER_EMAIL", "a\nb@c"),
    ],
)
def test_an_identity_git_cleans_is_signed_as_git_signs_it(tmp_path, monkeypatch, variable, value):
    ours, gits = repos = twins(tmp_path)
    monkeypatch.setenv(variable, value)
    for repo in repos:
        (repo / "d/p.md").write_text("two\n")
    commit_artifact(open_workspace(ours, "d/p.md"), "kept")
    subprocess.run(["git", "commit", "-q", "--only", "-m", "kept", "--", "d/p.md"], cwd=gits, check=True)
    show = ("log", "-1", "--format=%cn <%ce>")
    assert git(ours, *show) == git(gits, *show)


def test_an_identity_that_is_not_utf8_is_signed_by_git_as_given(tmp_path, monkeypatch):
    """A committer's name in Latin-1 (its bytes reach Python as surrogates): libgit2 takes only UTF-8, and the
    in-process KEEP raised out of the loop before it wrote anything; git signs the reflog with the bytes as
    given and the commit with them read as Latin-1."""
    repo = make_repo(tmp_path / "r", FILES)
    monkeypatch.setenv("GIT_COMMITTER_NAME", os.fsdecode(b"J\xe9r\xf4me"))
    (repo / "d/p.md").write_text("two\n")
    sha = commit_artifact(open_workspace(repo, "d/p.md"), "kept")
    assert sha == git(repo, "rev-parse", "HEAD").strip()
    raw = subprocess.run(["git", "cat-file", "commit", "HEAD"], cwd=repo, capture_output=True).stdout
    assert b"\ncommitter J\xc3\xa9r\xc3\xb4me <test@example.com> " in raw  # git's: taken as Latin-1, made UTF-8
    assert b" J\xe9r\xf4me <test@example.com> " in (repo / ".git/logs/HEAD").read_bytes().splitlines()[-1]


def test_a_configured_name_that_is_not_utf8_is_signed_by_git_and_the_drop_still_in_process(tmp_path, monkeypatch):
    """`user.name` in Latin-1 in the configuration: reading it raised out of the in-process KEEP and DROP (and
    the loop with them); the DROP is made in-process, the KEEP left to git, which signs as it always did."""
    for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.delenv(key)
    repo = make_repo(tmp_path / "r", FILES)
    with open(repo / ".git/config", "ab") as config:
        config.write(b"[user]\n\tname = J\xe9r\xf4me\n")
    ws = open_workspace(repo, "d/p.md")
    (repo / "d/p.md").write_text("candidate\n")
    assert direct.restore(ws) is True and (repo / "d/p.md").read_text() == "one\n"
    (repo / "d/p.md").write_text("two\n")
    assert commit_artifact(ws, "kept") == git(repo, "rev-parse", "HEAD").strip()
    raw = subprocess.run(["git", "cat-file", "commit", "HEAD"], cwd=repo, capture_output=True).stdout
    assert b"\ncommitter J\xc3\xa9r\xc3\xb4me <test@example.com> " in raw


def test_a_reflog_action_that_is_not_utf8_is_written_by_git_as_given(tmp_path, monkeypatch):
    """GIT_REFLOG_ACTION in Latin-1: the in-process KEEP raised out of the loop with its objects written and
    nothing moved (the reflog's line could not be encoded); git writes the bytes as given."""
    repo = make_repo(tmp_path / "r", FILES)
    monkeypatch.setenv("GIT_REFLOG_ACTION", os.fsdecode(b"caf\xe9"))
    (repo / "d/p.md").write_text("two\n")
    sha = commit_artifact(open_workspace(repo, "d/p.md"), "kept")
    assert sha == git(repo, "rev-parse", "HEAD").strip()
    for log in ("logs/HEAD", "logs/refs/heads/main"):
        assert (repo / ".git" / log).read_bytes().endswith(b"\tcaf\xe9: kept\n")


def test_a_folder_where_the_drops_scratch_file_goes_leaves_the_restore_to_git(tmp_path):
    repo = make_repo(tmp_path / "r", FILES)
    ws = open_workspace(repo, "d/p.md")
    (repo / ".git" / direct.SCRATCH).mkdir()
    (repo / "d/p.md").write_text("candidate\n")
    restore_artifact(ws)
    assert (repo / "d/p.md").read_text() == "one\n" and git(repo, "status", "--porcelain") == ""


@pytest.mark.parametrize(
    "date, signed",
    [
        ("@1700000000 +0130", (1700000000, 90)),
        ("1700000000 -0130", (1700000000, -90)),
        ("@1700000000 +9999", (1700000000, 6039)),  # git keeps it after `@`
        ("1700000000 +1260", None),  # without: not a zone to git, which puts the local one
        ("1700000000 +2400", None),
        ("99999999 +0000", None),  # git refuses a number this short
        ("4102444800 +0000", None),  # and one from 2100 on
    ],
)
def test_an_author_date_is_taken_only_as_git_reads_it(date, signed):
    assert gitident._date(date) == signed


@pytest.mark.parametrize("action, line", [(None, "commit: kept"), ("", ": kept"), (" my  step ", "my step : kept")])
def test_the_reflog_line_takes_git_reflog_action_as_git_does(action, line):
    env = {} if action is None else {"GIT_REFLOG_ACTION": action}
    assert gitident.reflog_message("kept\n", env) == line


def test_a_drop_in_a_shared_folder_gives_the_artifact_the_folders_group_as_gits_checkout(tmp_path):
    ours, gits = repos = twins(tmp_path)
    team = next((gid for gid in os.getgroups() if gid != os.getegid()), os.getegid() + 1)  # root may take any
    ws = open_workspace(ours, "d/p.md")
    for repo in repos:
        os.chown(repo / "d", -1, team)
        (repo / "d").chmod(0o2775)  # set-group-ID: what is made in it takes its group
        (repo / "d/p.md").write_text("candidate\n")
    restore_artifact(ws)
    git(gits, "checkout", "HEAD", "--", "d/p.md")
    assert (ours / "d/p.md").stat().st_gid == (gits / "d/p.md").stat().st_gid == team
    assert (ours / "d/p.md").read_text() == "one\n" and git(ours, "status", "--porcelain") == ""


@pytest.mark.parametrize("how", ["separate-git-dir", "linked-git-dir"])
def test_a_checkout_whose_git_folder_lies_elsewhere_is_worked_on_where_it_is(tmp_path, how):
    (tmp_path / "p.md").write_text("the git folder's neighbour: never the artifact\n")
    repo = tmp_path / "work"
    if how == "separate-git-dir":
        subprocess.run(["git", "init", "-q", "--separate-git-dir", str(tmp_path / "gitdir"), str(repo)], check=True)
    else:
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        (repo / ".git").rename(tmp_path / "gitdir")
        (repo / ".git").symlink_to(tmp_path / "gitdir")
    (repo / "p.md").write_text("one\n")
    git(repo, "add", "p.md")
    git(repo, "commit", "-q", "-m", "initial")
    ws = open_workspace(repo, "p.md")
    assert ws.root == repo.resolve()
    (repo / "p.md").write_text("candidate\n")
    restore_artifact(ws)
    assert (repo / "p.md").read_text() == "one\n"
    assert (tmp_path / "p.md").read_text() == "the git folder's neighbour: never the artifact\n"
