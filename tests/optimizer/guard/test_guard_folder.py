"""The guard's folder, taken back at each look from whatever a mutator put in its place: one lstat when it is
the folder it should be, and a file or a link (to a folder, or to nothing) still goes."""

from __future__ import annotations

import os

import pytest

from autoresearch.optimizer.guard import scope


def test_the_folder_in_place_is_one_lstat_and_no_stat(tmp_path, monkeypatch):
    folder = tmp_path / "guard"
    folder.mkdir()
    calls: list[str] = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counted(path, *args, _real=real, _name=name, **kwargs):
            if os.fspath(path) == str(folder):
                calls.append(_name)
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, counted)
    scope._reclaim(folder)
    assert calls == ["lstat"]  # was an lstat (is_symlink), then a stat each for exists and is_dir
    assert folder.is_dir()


@pytest.mark.parametrize("kind", ["file", "link-to-a-folder", "dangling-link"])
def test_what_a_mutator_put_in_its_place_goes(tmp_path, kind):
    folder, elsewhere = tmp_path / "guard", tmp_path / "elsewhere"
    elsewhere.mkdir()
    if kind == "file":
        folder.write_text("x")
    else:
        os.symlink(elsewhere if kind == "link-to-a-folder" else tmp_path / "nowhere", folder)
    scope._reclaim(folder)
    assert not os.path.lexists(folder)
    assert elsewhere.is_dir()


def test_nothing_there_is_left_as_it_is(tmp_path):
    scope._reclaim(tmp_path / "guard")
    assert not os.path.lexists(tmp_path / "guard")
