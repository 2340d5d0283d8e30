"""rawread.whole: a file's bytes, or None for what cannot be read as one (missing, a folder)."""

from __future__ import annotations

from autoresearch.optimizer.gitrepo import rawread


def test_a_file_is_read_whole_and_a_folder_or_a_missing_file_is_none(tmp_path):
    data = bytes(range(256)) * (rawread.CHUNK // 256 + 3)  # more than one read
    (tmp_path / "index").write_bytes(data)
    (tmp_path / "folder").mkdir()
    assert rawread.whole(str(tmp_path / "index")) == data
    assert rawread.whole(str(tmp_path / "folder")) is None
    assert rawread.whole(str(tmp_path / "missing")) is None
