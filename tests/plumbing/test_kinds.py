"""One lstat tells a plain folder or a plain file, as the two calls it replaced did, for every kind of path."""

from __future__ import annotations

import errno
import os
from pathlib import Path

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


def test_strict_answers_as_pathlib_did(places):
    paths = [Path(p) for p in places]
    assert [kinds.plain_folder(p, strict=True) for p in paths] == [p.is_dir() and not p.is_symlink() for p in paths]
    assert [kinds.plain_file(p, strict=True) for p in paths] == [p.is_file() and not p.is_symlink() for p in paths]


def test_an_error_but_absence_is_raised_when_strict_as_pathlib_raised_it_and_none_as_os_path_said(tmp_path):
    """A name too long (EACCES, which root never meets, is the same case): pathlib's `is_dir` raised it, so a
    look that stopped there still stops; `os.path.isdir` said False, and so does the plain answer."""
    long = tmp_path / ("x" * 300)
    with pytest.raises(OSError) as raised:
        long.is_dir()
    assert raised.value.errno == errno.ENAMETOOLONG
    with pytest.raises(OSError):
        kinds.plain_folder(long, strict=True)
    with pytest.raises(OSError):
        kinds.plain_file(long, strict=True)
    assert not os.path.isdir(long) and not kinds.plain_folder(long) and not kinds.plain_file(long)


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
