"""One lstat tells a plain folder or a plain file, as the two calls it replaced did, for every kind of path."""

from __future__ import annotations

import os

import pytest

from autoresearch.plumbing import kinds


@pytest.fixture
def places(tmp_path):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    os.symlink(tmp_path / "folder", tmp_path / "link-to-folder")
    os.symlink(tmp_path / "file", tmp_path / "link-to-file")
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling")
    os.mkfifo(tmp_path / "fifo")
    return [
        *(str(tmp_path / name) for name in ("folder", "file", "link-to-folder", "link-to-file", "dangling", "fifo")),
        str(tmp_path / "absent"),
        str(tmp_path / "file" / "below-a-file"),  # ENOTDIR
        str(tmp_path / "nul\0name"),  # ValueError, which os.path's answer False to
    ]


def test_a_plain_folder_is_what_isdir_and_not_islink_said(places):
    assert [kinds.plain_folder(p) for p in places] == [os.path.isdir(p) and not os.path.islink(p) for p in places]


def test_a_plain_file_is_what_isfile_and_not_islink_said(places):
    assert [kinds.plain_file(p) for p in places] == [os.path.isfile(p) and not os.path.islink(p) for p in places]


def test_each_answer_is_one_lstat_and_no_stat(places, monkeypatch):
    calls: list[str] = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)
        monkeypatch.setattr(
            os, name, lambda path, *a, _real=real, _name=name, **k: calls.append(_name) or _real(path, *a, **k)
        )
    for path in places:
        kinds.plain_folder(path)
        kinds.plain_file(path)
    assert calls == ["lstat"] * 2 * len(places)
