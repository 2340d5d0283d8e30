"""A command's scratch folder goes with everything in it, and nothing outside it."""

from __future__ import annotations

import os

from autoresearch.plumbing.scratch import scratch


def test_a_scratch_folder_of_flat_files_is_removed(tmp_path):
    with scratch("autoresearch-test-") as folder:
        for name in ("prompt.md", "output.txt", "target.stdout.log"):
            (folder / name).write_text("x")
    assert not folder.exists()


def test_what_a_command_made_in_its_scratch_folder_goes_too_and_no_link_is_followed(tmp_path):
    """A subfolder falls back to the careful walk; a link is removed, not what it names."""
    outside = tmp_path / "keep.txt"
    outside.write_text("the user's")
    with scratch("autoresearch-test-") as folder:
        (folder / "deep" / "deeper").mkdir(parents=True)
        (folder / "deep" / "deeper" / "file").write_text("x")
        (folder / "link").symlink_to(outside)
        (folder / "folder-link").symlink_to(tmp_path, target_is_directory=True)
    assert not folder.exists()
    assert outside.read_text() == "the user's"


def test_a_scratch_folder_the_command_removed_itself_is_no_error():
    with scratch("autoresearch-test-") as folder:
        (folder / "output.txt").write_text("x")
        os.unlink(folder / "output.txt")
        os.rmdir(folder)
    assert not folder.exists()
