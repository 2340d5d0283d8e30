"""The snapshot shipped to Ray workers: what git would commit from the tree, minus keys and results, bounded."""

from __future__ import annotations

import io
import os
import tarfile

import pytest

from autoresearch.runs.errors import RunsError
from autoresearch.runs.executors.snapshot import build, unpack
from tests.helpers.repos import make_repo


def names(data: bytes) -> set[str]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return set(tar.getnames())


def test_the_tree_without_keys_results_git_or_ignored_files(tmp_path):
    root = make_repo(
        tmp_path / "repo",
        {
            "prompt.md": "p",
            "evals/suite.yaml": "tests: []",
            ".gitignore": "build/\n",
            ".env": "X_API_KEY=secret",
            "sub/.env.local": "Y=1",
        },
    )
    (root / "uncommitted.txt").write_text("edit")  # a candidate's uncommitted file goes too
    (root / "build").mkdir()
    (root / "build" / "big.bin").write_bytes(b"0" * 10)
    (root / ".autoresearch" / "runs").mkdir(parents=True)
    (root / ".autoresearch" / "runs" / "row.json").write_text("{}")
    (root / "outside").symlink_to("/etc/hostname")
    snapshot = build(root, [".autoresearch"], 10**6)
    assert names(snapshot.data) == {"prompt.md", "evals/suite.yaml", ".gitignore", "uncommitted.txt"}
    assert b"secret" not in snapshot.data
    into = tmp_path / "unpacked"
    unpack(snapshot.data, into)
    assert (into / "uncommitted.txt").read_text() == "edit"


def test_the_same_tree_gives_the_same_digest_and_an_edit_changes_it(tmp_path):
    root = make_repo(tmp_path / "repo", {"prompt.md": "p"})
    first, again = build(root, [], 10**6), build(root, [], 10**6)
    assert first.digest == again.digest
    assert first.data[4:8] == bytes(4)  # gzip's header holds no time: a build a second later digests the same
    (root / "prompt.md").write_text("q")
    assert build(root, [], 10**6).digest != first.digest


def test_a_tree_over_the_limit_is_refused(tmp_path):
    root = make_repo(tmp_path / "repo", {"prompt.md": "p"})
    (root / "data.bin").write_bytes(os.urandom(200_000))
    with pytest.raises(RunsError, match="is over 0.1 MB compressed"):
        build(root, [], 100_000)


def test_a_member_leading_outside_is_not_unpacked(tmp_path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo("../escaped")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(tarfile.TarError):
        unpack(buffer.getvalue(), tmp_path / "into")
    assert not (tmp_path / "escaped").exists()
