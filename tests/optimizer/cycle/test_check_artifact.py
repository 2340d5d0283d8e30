"""The candidate's check after a mutation: a changed regular file passes on two looks at its path, and every
other thing in its place still fails as it did (a link, a dangling link, a folder, nothing, the same bytes)."""

from __future__ import annotations

import os

import pytest

from autoresearch.mutators.base import MutationResult
from autoresearch.mutators.errors import MutationFailed
from autoresearch.optimizer.cycle.mutate import check_artifact
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from tests.helpers.repos import make_repo

RESULT = MutationResult("an edit")


@pytest.fixture
def ws(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "v1\n", "other.md": "elsewhere\n"})
    return open_workspace(repo, "prompt.md")


def test_a_changed_regular_file_is_looked_at_twice_with_lstat_alone(ws, monkeypatch):
    ws.artifact_path.write_text("v2\n")
    head = ws.head()
    calls: list[str] = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counted(path, *args, _real=real, _name=name, **kwargs):
            if os.fspath(path) == str(ws.artifact_path):
                calls.append(_name)
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, counted)
    check_artifact(ws, RESULT, head)
    assert calls == ["lstat", "lstat"]  # was a stat and an lstat to find it there, then another of each


@pytest.mark.parametrize(
    ("put", "reason"),
    [
        (lambda path: (path.unlink(), os.symlink("other.md", path)), "out-of-scope"),  # a link to a regular file
        (lambda path: (path.unlink(), os.symlink("nowhere.md", path)), "artifact-deleted"),
        (lambda path: (path.unlink(), path.mkdir()), "artifact-deleted"),
        (lambda path: path.unlink(), "artifact-deleted"),
        (lambda path: None, "no-change"),
    ],
    ids=["link-to-a-file", "dangling-link", "folder", "gone", "unchanged"],
)
def test_anything_but_a_changed_regular_file_fails_as_before(ws, put, reason):
    head = ws.head()
    put(ws.artifact_path)
    with pytest.raises(MutationFailed) as failed:
        check_artifact(ws, RESULT, head)
    assert failed.value.reason == reason
