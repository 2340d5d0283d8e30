"""The guard's inotify watch: what one look saw must not blind the next one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard import scope
from autoresearch.optimizer.guard.fswatch import Unavailable, Watcher
from tests.helpers.repos import make_repo


def _watch(tmp_path) -> tuple[Watcher, str]:
    root = tmp_path / "repo"
    (root / "a" / "sub").mkdir(parents=True)
    watcher = Watcher([str(root)], lambda path: False, str(tmp_path / "sentinel"))
    assert watcher.changed() == set()
    return watcher, str(root)


def _names_alone(watcher: Watcher, path: str) -> bool:
    """A file written at `path` is what the next look names, and all it names."""
    with open(path, "w") as f:
        f.write("a mutator's\n")
    return watcher.changed() == {path}


def _sees(watcher: Watcher, path: str) -> bool:
    """Seen: named, under a folder named (it stands for all under it), or a walk asked for (None)."""
    changed = watcher.changed()
    return changed is None or any(path == p or path.startswith(p + os.sep) for p in changed)


def test_a_write_into_a_folder_renamed_since_the_last_look_is_seen(tmp_path):
    """A folder the user renamed between two mutations: the rename is seen at one look, and a mutator's write
    into the folder under its new name must be seen at the next (the move's own event once dropped the
    folder's watch, which the rename had just pointed at the new name)."""
    watcher, root = _watch(tmp_path)
    os.rename(os.path.join(root, "a"), os.path.join(root, "b"))
    assert _sees(watcher, os.path.join(root, "b"))
    for written in ("b/new.txt", "b/sub/deeper.txt"):
        path = os.path.join(root, written)
        with open(path, "w") as f:
            f.write("a mutator's\n")
        assert _sees(watcher, path), written
    watcher.close()


def test_a_folder_moved_away_and_another_made_under_its_name_are_both_watched_right(tmp_path):
    watcher, root = _watch(tmp_path)
    os.rename(os.path.join(root, "a"), os.path.join(root, "b"))
    os.mkdir(os.path.join(root, "a"))
    assert _sees(watcher, os.path.join(root, "a"))
    for written in ("a/new.txt", "b/new.txt", "b/sub/new.txt"):
        path = os.path.join(root, written)
        with open(path, "w") as f:
            f.write("x\n")
        assert _sees(watcher, path), written
    watcher.close()


def test_a_look_writes_nothing_to_its_sentinel_and_still_sees_every_write(tmp_path):
    """The sentinel's close is the event a look waits for: truncating it as well wrote its inode (its times,
    a journaled change, ~100 us) twice a cycle for nothing."""
    watcher, root = _watch(tmp_path)
    sentinel = tmp_path / "sentinel" / ".guard-sentinel"
    os.utime(sentinel, ns=(1, 1))
    for n in range(3):
        path = os.path.join(root, "a", f"{n}.txt")
        with open(path, "w") as f:
            f.write("a mutator's\n")
        assert _sees(watcher, path)
    assert os.stat(sentinel).st_mtime_ns == 1
    watcher.close()


def test_a_path_written_many_times_is_asked_about_once_a_look(tmp_path):
    """Each write of a file is several events (open, modify, close); whether the guard leaves the path out is
    asked of the first only."""
    root = tmp_path / "repo"
    root.mkdir()
    asked: list[str] = []
    watcher = Watcher([str(root)], lambda path: asked.append(path) or False, str(tmp_path / "sentinel"))
    assert watcher.changed() == set()
    path = os.path.join(root, "f.txt")
    for n in range(5):
        with open(path, "w") as f:
            f.write(f"write {n}\n")
    assert watcher.changed() == {path}
    assert asked.count(path) == 1
    watcher.close()


def test_a_path_left_out_is_asked_about_once_however_many_times_it_is_written(tmp_path):
    """The artifact, left out of the guard, is written several times a cycle, each write several events: the
    events after the first are dropped by their raw watch and name, not asked about again."""
    root = tmp_path / "repo"
    root.mkdir()
    path = os.path.join(root, "artifact.md")
    asked: list[str] = []
    watcher = Watcher([str(root)], lambda p: asked.append(p) or p == path, str(tmp_path / "sentinel"))
    assert watcher.changed() == set()
    for n in range(5):
        with open(path, "w") as f:
            f.write(f"write {n}\n")
    assert watcher.changed() == set()
    assert asked.count(path) == 1
    watcher.close()


def test_a_file_replaced_by_a_folder_within_one_look_has_the_folder_watched(tmp_path):
    """The path was already named (a file's write) when a folder came under its name: its creation is still
    followed, and what is written in the folder later is seen."""
    watcher, root = _watch(tmp_path)
    path = os.path.join(root, "x")
    with open(path, "w") as f:
        f.write("a file first\n")
    os.unlink(path)
    os.mkdir(path)
    assert _sees(watcher, path)
    assert _names_alone(watcher, os.path.join(path, "y.txt"))
    watcher.close()


def test_a_sentinel_folder_that_cannot_be_made_is_unavailable_and_leaves_no_descriptor(tmp_path):
    (tmp_path / "blocked").write_text("a file where the folder would be\n")
    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(Unavailable):
        Watcher([str(tmp_path)], lambda path: False, str(tmp_path / "blocked" / "sentinel"))
    assert len(os.listdir("/proc/self/fd")) == before


def test_forget_drops_this_process_writes_without_the_sentinel_and_the_next_look_names_what_followed(tmp_path):
    """The throwaway checkout's put-back is this process's own writing: `forget` drops its events without
    the sentinel's round trip, and the look after the mutation names the mutation's writes alone."""
    watcher, root = _watch(tmp_path)
    put_back = os.path.join(root, "a", "put-back.txt")
    with open(put_back, "w") as f:
        f.write("the put-back's\n")
    assert watcher.forget() is True
    mutated = os.path.join(root, "a", "sub", "mutated.txt")
    with open(mutated, "w") as f:
        f.write("a mutator's\n")
    assert watcher.changed() == {mutated}
    watcher.close()


def test_forget_after_the_queue_overflowed_says_the_watch_missed_something(tmp_path):
    """Events lost to an overflowed queue: `forget` says so (False), and the check after the mutation reads
    git's status instead of trusting inotify."""
    watcher, root = _watch(tmp_path)
    names = [os.path.join(root, "a", "one"), os.path.join(root, "a", "two")]  # alternated: never merged
    for name in names:
        open(name, "w").close()
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    for n in range(limit + 10):
        os.utime(names[n % 2])
    assert watcher.forget() is False
    watcher.close()


def test_a_look_asks_nothing_of_a_root_it_watches(tmp_path, monkeypatch):
    """A watched root's removal or move is an event of its own watch: a look reads no lstat of it (each
    look made one of every root, several a cycle, where `isdir` and `islink` had made two)."""
    watcher, root = _watch(tmp_path)
    calls: list[str] = []
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counted(path, *args, _real=real, _name=name, **kwargs):
            if os.fspath(path) == root:
                calls.append(_name)
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, counted)
    watcher.changed()
    watcher.forget()
    assert calls == []
    watcher.close()


def test_a_root_removed_and_made_again_is_watched_by_the_look_that_names_it(tmp_path):
    """The look that reads a root's removal watches the folder made in its place before it answers: what
    is written there after that look is seen by the next."""
    watcher, root = _watch(tmp_path)
    os.rename(root, str(tmp_path / "moved"))
    os.mkdir(root)
    assert _sees(watcher, root)
    assert _names_alone(watcher, os.path.join(root, "after.txt"))
    watcher.close()


@pytest.mark.parametrize("kind", ["link", "file"])
def test_a_root_replaced_by_a_link_or_a_file_is_watched_through_its_parent(tmp_path, kind):
    """A root that is no longer a plain folder is not walked as one: its parent is watched, and a root made a
    folder again is reported whole."""
    watcher, root = _watch(tmp_path)
    os.rename(root, str(tmp_path / "moved"))
    if kind == "link":
        os.symlink(tmp_path / "moved", root)
    else:
        Path(root).write_text("x")
    watcher.changed()
    assert os.path.dirname(root) in watcher.wds
    os.unlink(root)
    os.mkdir(root)
    assert _sees(watcher, root)
    watcher.close()


@pytest.mark.parametrize("how", ["moved", "renamed over"])
def test_a_root_touched_then_replaced_within_one_look_is_watched_again(tmp_path, how):
    """A folder's own events (a touch or chmod of it, then its move or removal) carry the same empty name:
    the move or removal, dropped as a repeat of the touch, left the root's watch on the old folder, and
    every write into the one in its place went unseen for the rest of the run."""
    watcher, root = _watch(tmp_path)
    os.rmdir(os.path.join(root, "a", "sub"))
    os.rmdir(os.path.join(root, "a"))
    os.utime(root)
    if how == "moved":
        os.rename(root, str(tmp_path / "moved"))
        os.mkdir(root)
    else:  # an empty folder put over it in one rename, as `mv -T` does
        os.mkdir(tmp_path / "other")
        os.rename(tmp_path / "other", root)
    assert _sees(watcher, root)
    assert _names_alone(watcher, os.path.join(root, "after.txt"))
    watcher.close()


def test_a_folder_touched_or_chmod_is_named_as_itself(tmp_path):
    """A folder's own event (a touch, a chmod) has no name: it named `folder/`, a path the guard had never
    settled, which it then took for a folder the mutation made."""
    watcher, root = _watch(tmp_path)
    folder = os.path.join(root, "a")
    os.utime(folder)
    assert watcher.changed() == {folder}
    os.chmod(root, 0o700)
    assert watcher.changed() == {root}
    watcher.close()


def test_a_folder_the_mutation_only_touched_is_no_change_and_stays(tmp_path):
    """The guard took a touched folder for a new one named `folder/`: it removed it when empty (the user's
    folder gone) and, when not, failed to, which stops the run."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "full/notes.txt": "mine\n"})
    (repo / "empty").mkdir()
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", None, tmp_path / "guard")
    guard.open()
    guard.settle()
    os.utime(repo / "full")
    os.utime(repo / "empty")
    assert guard.changes() == []
    assert (repo / "empty").is_dir() and (repo / "full/notes.txt").read_text() == "mine\n"
    guard.close()


def test_a_root_made_again_before_forget_is_named_by_the_next_look(tmp_path):
    """`forget` drops this process's own writes, and watches again a root whose removal it read: what the new
    folder held before that watch was never an event, so the next look names the root whole (the look after
    a forget once watched it, and said so; forget doing it dropped the saying)."""
    watcher, root = _watch(tmp_path)
    os.rename(root, str(tmp_path / "moved"))
    os.mkdir(root)
    Path(root, "planted").write_text("before the watch\n")
    assert watcher.forget()
    assert _sees(watcher, os.path.join(root, "planted"))
    watcher.close()
