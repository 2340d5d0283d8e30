"""The in-process (libgit2) reads of autoresearch.optimizer.gitrepo.workspace and .status and of autoresearch.optimizer.guard.scope agree with git's command line."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo.status import status
from autoresearch.optimizer.gitrepo.workspace import (
    artifact_id,
    artifact_modified,
    artifact_size,
    candidate_patch,
    open_workspace,
)
from autoresearch.optimizer.guard import scope
from tests.helpers.repos import cli, git, make_repo
from tests.helpers.scenario import iterations, scenario_repo, scores


def test_file_patch_is_what_git_diff_writes_and_applies(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\ntwo\n", "other.md": "x\n"})
    ws = open_workspace(repo, "prompt.md")
    (repo / "prompt.md").write_text("one\n2\nthree")  # no newline at the end, too
    assert artifact_modified(ws)
    assert candidate_patch(ws) == git(repo, "diff", "--binary", "HEAD", "--", "prompt.md").removesuffix("\n")
    _applies_after_restore(repo, candidate_patch(ws), "prompt.md")


def test_file_patch_is_git_diffs_at_every_size(tmp_path):
    """libgit2's patch points into the artifact's bytes: freed before its text was read, that memory went to
    the text being written, and 59 of these 399 sizes gave a mangled patch (saved, merged, carried onto a KEEP)."""
    text = "".join(f"## slot {i}\n" for i in range(40))
    repo = make_repo(tmp_path / "r", {"prompt.md": text})
    ws = open_workspace(repo, "prompt.md")
    mangled = []
    for n in range(1, 400):
        (repo / "prompt.md").write_text(text + "".join(f"edit {i}\n" for i in range(n)))
        if candidate_patch(ws) != git(repo, "diff", "--binary", "HEAD", "--", "prompt.md").removesuffix("\n"):
            mangled.append(n)
    assert mangled == []


def test_binary_and_mode_changes_make_patches_that_apply(tmp_path):
    repo = make_repo(tmp_path / "r", {"model.bin": "placeholder\n"})
    ws = open_workspace(repo, "model.bin")
    (repo / "model.bin").write_bytes(b"\x00\x01binary\xff\n")
    patch = candidate_patch(ws)
    assert "GIT binary patch" in patch
    _applies_after_restore(repo, patch, "model.bin")
    (repo / "model.bin").chmod(0o755)  # a mode change is left to git, which records it
    assert "new mode 100755" in candidate_patch(ws)


def test_status_codes_match_git_porcelain(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.md": "a\n", "b.md": "b\n", "c.md": "c\n", "prompt.md": "p\n"})
    (repo / "a.md").write_text("changed\n")
    (repo / "b.md").unlink()
    (repo / "new").mkdir()
    (repo / "new" / "n.txt").write_text("n\n")
    (repo / "c.md").write_text("staged\n")
    git(repo, "add", "c.md")
    (repo / ".gitignore").write_text("ignored.log\n")
    (repo / "ignored.log").write_text("never seen\n")
    porcelain = {
        line[3:]: line[:2] for line in git(repo, "status", "--porcelain", "--untracked-files=all").splitlines()
    }
    assert status(open_workspace(repo, "prompt.md")) == porcelain


def test_sizes_and_ids_read_in_process_match_git(tmp_path):
    repo = make_repo(tmp_path / "r", {"skill/a.md": "a\nb\n", "skill/sub/c.md": "ccc\n", "prompt.md": "1\n2\n3\n"})
    ws = open_workspace(repo, "skill")
    assert artifact_id(ws) == git(repo, "rev-parse", "HEAD:skill").strip()
    assert artifact_size(ws, "HEAD") == artifact_size(ws) == len("a\nb\n") + len("ccc\n")
    assert artifact_size(open_workspace(repo, "prompt.md"), "HEAD") == 3


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "stat-walk"])
def test_a_same_size_rewrite_of_a_clean_file_in_the_same_second_is_seen(tmp_path, monkeypatch, poll):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "config.toml": "level = 1\n"})
    ws = open_workspace(repo, "prompt.md")
    if poll:
        monkeypatch.setenv("AUTORESEARCH_GUARD_POLL", "1")
    guard = scope.Guard(ws, repo / ".autoresearch", None)
    guard.open()
    stat = (repo / "config.toml").stat()
    (repo / "config.toml").write_text("level = 9\n")
    os.utime(
        repo / "config.toml", ns=(stat.st_atime_ns, stat.st_mtime_ns)
    )  # same size and mtime: ctime and content tell
    changed = guard.changes()
    assert [os.path.relpath(c.path, repo) for c in changed] == ["config.toml"]
    assert guard.undo(changed) == []
    assert (repo / "config.toml").read_text() == "level = 1\n"
    assert guard.changes() == []
    guard.close()


def test_a_split_index_that_libgit2_cannot_read_falls_back_to_git_status(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {
            2: {"write": {"prompt.md": scores(a=1), "notes.txt": "clobbered\n"}},
            3: {"write": {"prompt.md": scores(a=1)}},
        },
        extra_files={"notes.txt": "committed notes\n"},
    )
    git(repo, "config", "core.splitIndex", "true")
    git(repo, "update-index", "--split-index")
    (repo / "notes.txt").write_text("mine\n")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "error", "keep"]
    assert lines[1]["error_reason"] == "out-of-scope" and "notes.txt" in lines[1]["error"]
    assert (repo / "notes.txt").read_text() == "mine\n"
    assert git(repo, "status", "--porcelain").strip() == "M notes.txt"
    assert list((repo / ".git").glob("sharedindex.*"))  # still a split index: the fallback was what ran
    patch = (repo / ".autoresearch/runs/exp" / lines[1]["run_dir"] / "candidate.patch").read_text()
    assert "+a 1" in patch  # the failed candidate's diff, taken by git where libgit2 could not


def _applies_after_restore(repo: Path, patch: str, path: str) -> None:
    wanted = (repo / path).read_bytes()
    git(repo, "checkout", "HEAD", "--", path)
    (repo / "candidate.patch").write_text(patch + "\n")
    git(repo, "apply", "candidate.patch")
    assert (repo / path).read_bytes() == wanted


def test_the_artifact_path_is_made_once_a_workspace_and_anew_for_another(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n", "other.md": "x\n"})
    ws = open_workspace(repo, "prompt.md")
    assert ws.artifact_path is ws.artifact_path and ws.artifact_path == repo / "prompt.md"
    assert replace(ws, artifact="other.md").artifact_path == repo / "other.md"
