"""The mirror of the experiment's files reads only the folders that changed since it last looked, and
still misses no deletion: not one made in the same tick of the clock, nor one hidden by setting the
folder's modification time back."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from autoresearch.optimizer.experiment.listing import Listing
from autoresearch.optimizer.experiment.mirror import Mirror


def experiment(root: Path, runs: int) -> Path:
    source = root / "exp"
    for n in range(runs):
        run = source / f"run-{n:03d}"
        (run / "outside").mkdir(parents=True)
        (run / "index.jsonl").write_text(f"{n}\n")
        (run / "outside" / "note.txt").write_text("saved\n")
    (source / "_autoresearch").mkdir()
    (source / "_autoresearch" / "iterations.jsonl").write_text("{}\n")
    return source


def files(top: Path) -> dict[str, str]:
    return {p.relative_to(top).as_posix(): p.read_text() if p.is_file() else "/" for p in sorted(top.rglob("*"))}


def settle(top: Path) -> None:
    """Touch a file beside `top` until the file system's clock has moved past every folder's change time,
    so that the next look finds them settled (not a sleep: it waits for the clock's next tick)."""
    newest = max(os.lstat(p).st_ctime_ns for p in [top, *top.rglob("*")] if p.is_dir())
    tick = top.parent / "tick"
    tick.touch()
    while os.stat(tick).st_ctime_ns <= newest:
        os.utime(tick)


def test_what_is_deleted_comes_back_and_the_mirror_holds_every_file(tmp_path):
    source = experiment(tmp_path, 5)
    mirror = Mirror(source, tmp_path / "vault" / "mirror")
    assert mirror.refresh()
    assert files(tmp_path / "vault" / "mirror") == files(source)
    before = files(source)
    shutil.rmtree(source / "run-002")
    (source / "run-004" / "outside" / "note.txt").unlink()
    (source / "_autoresearch" / "iterations.jsonl").unlink()
    back = mirror.restore()
    assert files(source) == before
    assert {p.relative_to(source).as_posix() for p in back} == {
        "run-002",
        "run-002/index.jsonl",
        "run-002/outside",
        "run-002/outside/note.txt",
        "run-004/outside/note.txt",
        "_autoresearch/iterations.jsonl",
    }


def test_a_deletion_hidden_by_setting_the_folder_s_time_back_is_still_seen(tmp_path):
    source = experiment(tmp_path, 3)
    mirror = Mirror(source, tmp_path / "vault" / "mirror")
    settle(source)
    assert mirror.refresh()
    settle(source)
    assert mirror.refresh()  # every folder now read and settled
    folder = source / "run-001"
    was = os.stat(folder)
    (folder / "index.jsonl").unlink()
    os.utime(folder, ns=(was.st_atime_ns, was.st_mtime_ns))  # as `touch -d` would: only the change time moves
    assert os.stat(folder).st_mtime_ns == was.st_mtime_ns
    assert [p.relative_to(source).as_posix() for p in mirror.restore()] == ["run-001/index.jsonl"]
    assert (folder / "index.jsonl").read_text() == "1\n"


def test_a_file_replaced_at_once_after_a_refresh_is_linked_anew(tmp_path):
    """A change in the same tick as the listing: the folder is not settled, so it is read again."""
    source = experiment(tmp_path, 2)
    mirror = Mirror(source, tmp_path / "vault" / "mirror")
    assert mirror.refresh()
    record = source / "_autoresearch" / "iterations.jsonl"
    tmp = record.with_name("new")
    tmp.write_text("{}\n{}\n")
    tmp.replace(record)  # a new inode under the same name, as an atomic write makes it
    assert mirror.refresh()
    copy = tmp_path / "vault" / "mirror" / "_autoresearch" / "iterations.jsonl"
    assert os.stat(copy).st_ino == os.stat(record).st_ino
    record.unlink()
    mirror.restore()
    assert record.read_text() == "{}\n{}\n"


def test_a_folder_unchanged_since_it_was_listed_is_not_read_again(tmp_path):
    source = experiment(tmp_path, 50)
    listing = Listing(str(source), lambda relative, st: True)
    settle(source)
    stamp = os.stat(source.parent / "tick").st_ctime_ns + 1
    assert len(listing.update(stamp)) == 102  # the top, 50 runs and their `outside`, `_autoresearch`
    read = dict(listing.folders)
    (source / "run-051").mkdir()
    settle(source)
    assert list(listing.update(os.stat(source.parent / "tick").st_ctime_ns + 1)) == ["", "run-051"]
    assert [r for r in read if listing.folders[r] is not read[r]] == [""]  # only the top, which changed


def test_a_folder_the_mirror_left_out_while_busy_is_mirrored_once_it_is_not(tmp_path):
    source = experiment(tmp_path, 3)
    root = tmp_path / "vault" / "mirror"
    mirror = Mirror(source, root)
    assert mirror.refresh(busy=(source / "run-001",))
    assert not (root / "run-001").exists()
    assert mirror.refresh()
    assert files(root) == files(source)


def test_a_mirror_emptied_behind_its_back_is_filled_again(tmp_path):
    source = experiment(tmp_path, 3)
    root = tmp_path / "vault" / "mirror"
    mirror = Mirror(source, root)
    assert mirror.refresh()
    shutil.rmtree(root / "run-000")
    assert mirror.refresh()
    assert files(root) == files(source)


def test_a_watch_s_names_alone_are_read_and_a_folder_they_name_is_read_whole_with_all_below_it(tmp_path):
    source = experiment(tmp_path, 3)
    listing = Listing(str(source), lambda relative, st: True)
    settle(source)
    listing.update(os.stat(source.parent / "tick").st_ctime_ns + 1)
    (source / "run-001" / "index.jsonl").unlink()  # unseen: no watch names it
    (source / "run-009" / "deep").mkdir(parents=True)
    (source / "run-009" / "deep" / "index.jsonl").write_text("9\n")
    settle(source)
    read = listing.read
    assert listing.update(os.stat(source.parent / "tick").st_ctime_ns + 1, dirty={"": {"run-009"}}) == {
        "": {"run-009"},
        "run-009": None,
        "run-009/deep": None,
    }
    assert listing.read - read == 3  # the name, and the one entry of each folder below it
    assert sorted(listing.folders) == ["run-009", "run-009/deep"]  # nothing else is held
    assert list(listing.look("run-009/deep") or {}) == ["index.jsonl"]
    assert "index.jsonl" not in (listing.look("run-001") or {})  # the others read from disk when asked


def watched(tmp_path: Path, runs: int = 3) -> tuple[Path, Path, Mirror]:
    """A session's mirror (watched), refreshed twice: the second look is the watch's, not a walk's."""
    source = experiment(tmp_path, runs)
    root = tmp_path / "vault" / "mirror"
    mirror = Mirror(source, root, watched=True)
    assert mirror.refresh()
    settle(source)
    assert mirror.refresh()
    return source, root, mirror


def test_a_watched_mirror_puts_back_a_deletion_hidden_by_setting_the_folder_s_time_back(tmp_path):
    source, _, mirror = watched(tmp_path)
    settle(source)
    before = files(source)
    folder = source / "run-001"
    was = os.stat(folder)
    (folder / "index.jsonl").unlink()
    os.utime(folder, ns=(was.st_atime_ns, was.st_mtime_ns))
    assert [p.relative_to(source).as_posix() for p in mirror.restore()] == ["run-001/index.jsonl"]
    assert files(source) == before
    mirror.close()


def test_a_watched_mirror_puts_back_a_folder_moved_away_or_replaced_by_a_link(tmp_path):
    source, _, mirror = watched(tmp_path)
    before = files(source)
    (source / "run-002").rename(tmp_path / "elsewhere")
    shutil.rmtree(source / "run-000")
    (source / "run-000").symlink_to(tmp_path / "elsewhere")
    assert "run-002/outside/note.txt" in {p.relative_to(source).as_posix() for p in mirror.restore()}
    (source / "run-000").unlink()  # the link left in its place: the folder comes back once it is gone
    assert "run-000/index.jsonl" in {p.relative_to(source).as_posix() for p in mirror.restore()}
    assert files(source) == before
    mirror.close()


def test_a_watched_mirror_sees_deletions_in_folders_made_renamed_or_made_again_since_it_began(tmp_path):
    source, _, mirror = watched(tmp_path)
    (source / "run-003" / "outside").mkdir(parents=True)  # the next cycle's run directory, made by the daemon
    (source / "run-003" / "outside" / "note.txt").write_text("new\n")
    for _ in range(2):  # the second look finds the mirror's new folders settled too
        settle(source)  # no folder is looked at again for having changed in the same tick as the look
        assert mirror.refresh()
    settle(source)
    (source / "run-003" / "outside" / "note.txt").unlink()
    assert [p.relative_to(source).as_posix() for p in mirror.restore()] == ["run-003/outside/note.txt"]
    (source / "run-001").rename(source / "run-001-renamed")  # a rename: every path below it moves
    settle(source)
    assert mirror.refresh()
    before = files(source)
    settle(source)
    (source / "run-001-renamed" / "index.jsonl").unlink()
    assert [p.relative_to(source).as_posix() for p in mirror.restore()] == ["run-001-renamed/index.jsonl"]
    shutil.rmtree(source)  # the whole experiment: its folder is made again, and watched again
    mirror.restore()
    assert files(source) == before
    settle(source)
    assert mirror.refresh()
    settle(source)
    (source / "run-002" / "index.jsonl").unlink()
    assert [p.relative_to(source).as_posix() for p in mirror.restore()] == ["run-002/index.jsonl"]
    mirror.close()


def put_back(mirror: Mirror, source: Path) -> set[str]:
    return {p.relative_to(source).as_posix() for p in mirror.restore()}


def test_a_watched_mirror_reads_the_new_run_directory_not_the_whole_top_folder(tmp_path):
    """The top folder grows by a run directory a cycle: read whole at each look, a night of 1,000 cycles
    read a million entries."""
    source, root, mirror = watched(tmp_path, runs=200)
    before = mirror.read
    run = source / "run-200"
    (run / "outside").mkdir(parents=True)
    (run / "index.jsonl").write_text("200\n")
    assert mirror.refresh()
    assert mirror.restore() == []
    assert files(root) == files(source)
    assert mirror.read - before < 20, f"{mirror.read - before} entries read for one new run directory"
    mirror.close()


def test_a_watched_mirror_puts_back_a_folder_removed_and_made_again_between_two_looks(tmp_path):
    """Made again at once (its inode perhaps the old one's), before its watch began: listed whole."""
    source, _, mirror = watched(tmp_path)
    before = files(source)
    shutil.rmtree(source / "run-001")
    (source / "run-001" / "outside").mkdir(parents=True)
    assert put_back(mirror, source) == {"run-001/index.jsonl", "run-001/outside/note.txt"}
    assert files(source) == before
    mirror.close()


def test_a_watched_mirror_puts_back_a_file_once_the_folder_or_link_in_its_place_is_gone(tmp_path):
    source, _, mirror = watched(tmp_path)
    before = files(source)
    (source / "run-000" / "index.jsonl").unlink()
    (source / "run-000" / "index.jsonl").mkdir()
    (source / "run-001" / "index.jsonl").unlink()
    (source / "run-001" / "index.jsonl").symlink_to(tmp_path / "elsewhere")
    assert mirror.restore() == []  # something is there: not overwritten
    (source / "run-000" / "index.jsonl").rmdir()
    (source / "run-001" / "index.jsonl").unlink()
    assert put_back(mirror, source) == {"run-000/index.jsonl", "run-001/index.jsonl"} and files(source) == before
    mirror.close()


def test_a_watched_mirror_leaves_out_the_names_it_never_mirrors_and_a_file_made_and_deleted_between(tmp_path):
    source, root, mirror = watched(tmp_path)
    before = files(source)
    for name in ("lock", "run.tmp", ".link.mirror", "passing"):
        (source / name).write_text("x\n")
    assert mirror.refresh()
    assert sorted(p.name for p in root.iterdir() if p.is_file()) == ["passing"]
    for name in ("lock", "run.tmp", ".link.mirror", "passing"):
        (source / name).unlink()
    assert [p.name for p in mirror.restore()] == ["passing"]
    (source / "passing").unlink()
    assert mirror.refresh()
    (source / "run-002" / "brief.txt").write_text("made and deleted between two looks\n")
    (source / "run-002" / "brief.txt").unlink()
    assert mirror.restore() == []
    assert files(source) == before
    assert files(root) == before
    mirror.close()


def test_a_watched_mirror_mirrors_nothing_below_a_folder_it_leaves_out(tmp_path):
    source, root, mirror = watched(tmp_path)
    (source / "scratch.tmp").mkdir()
    settle(source)
    assert mirror.refresh()
    (source / "scratch.tmp" / "index.jsonl").write_text("made in a folder the mirror leaves out\n")
    assert mirror.refresh()
    assert not (root / "scratch.tmp").exists()
    shutil.rmtree(source / "scratch.tmp")
    assert mirror.restore() == []
    mirror.close()


def test_a_watched_mirror_that_must_walk_again_after_looks_by_name_still_finds_an_old_deletion(tmp_path):
    """A rename makes the watch's paths stale: the next look walks, though the listings hold nothing of
    the folders no event named since; a deletion in one of those, in the same window, is still found."""
    source, _, mirror = watched(tmp_path)
    (source / "run-003").mkdir()
    assert mirror.refresh()
    before = files(source)
    (source / "run-000" / "outside" / "note.txt").unlink()
    (source / "run-001").rename(source / "run-001-renamed")
    back = put_back(mirror, source)
    assert {"run-000/outside/note.txt", "run-001/index.jsonl", "run-001/outside/note.txt"} <= back
    shutil.rmtree(source / "run-001-renamed")
    assert files(source) == before
    mirror.close()


def test_a_watched_mirror_whose_queue_overflowed_after_looks_by_name_still_finds_an_old_deletion(tmp_path):
    """The deletion's own event comes after the queue is full: lost, and only the walk finds it."""
    source, _, mirror = watched(tmp_path)
    flood = source / "_autoresearch" / "flood"
    flood.mkdir()
    assert mirror.refresh()  # watched: each file made in it is an event
    for n in range(int(Path("/proc/sys/fs/inotify/max_queued_events").read_text()) + 1):
        (flood / f"{n}.tmp").touch()
    (source / "run-002" / "index.jsonl").unlink()
    assert put_back(mirror, source) == {"run-002/index.jsonl"}
    mirror.close()
