"""The result cache under the scope guard: a night writes one entry a cycle, and the guard keeps no copy of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard import pack, rescue, scope
from tests.helpers import unprivileged
from tests.helpers.repos import cli, make_repo
from tests.helpers.scenario import iterations, scenario_repo, scores

# In a process of its own: tracemalloc counts every thread's allocations, and a test worker may still run
# threads an earlier test left, whose allocations would be counted as the guard's.
HELD = """
import gc, sys, tracemalloc
from pathlib import Path
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard import scope
repo = Path(sys.argv[1])
cache = repo / ".autoresearch" / "cache"
folder = cache / "eval-key"
folder.mkdir(parents=True)
guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", cache, Path(sys.argv[2]))
guard.open()
def cycle(n):  # what the daemon's eval stores each cycle, then the settle before the next mutation
    (folder / f"{n:040x}-sample-1.jsonl").write_bytes(b"%d" % n * 1000)
    guard.settle()
for n in range(200):  # what the first cycles load and cache once
    cycle(n)
gc.collect()
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
for n in range(200, 700):
    cycle(n)
gc.collect()
print((tracemalloc.get_traced_memory()[0] - before) / 500)
guard.arm(Path(sys.argv[2]) / "run")  # the copies of what it holds in memory written down
"""


def test_a_night_of_cache_entries_costs_the_guard_no_copy_of_their_bytes(tmp_path):
    """Each cycle's eval stores an entry (a few KiB of rows); the guard kept its bytes in the daemon's
    memory, and a copy on disk, until the run ended: 3.8 KiB a cycle here, then its manifest's entry
    alone, 0.6 KiB; now a count per folder."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    guard = tmp_path / "guard"
    held = subprocess.run(
        [sys.executable, "-c", HELD, str(repo), str(guard)], capture_output=True, text=True, check=True
    )
    assert float(held.stdout) < 64, f"{float(held.stdout):.0f} bytes a cycle"
    entries = {p.read_bytes() for p in (repo / ".autoresearch/cache/eval-key").iterdir()}
    copies = {p.read_bytes() for p in (guard / "objects").rglob("*") if p.is_file()}
    packed = (guard / pack.NAME).read_bytes()
    assert len(entries) == 700 and not entries & copies  # nor a copy on disk
    assert packed and not any(entry in packed for entry in entries)


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "stat-walk"])
def test_cache_entries_a_mutation_wrote_or_deleted_are_saved_then_removed(tmp_path, monkeypatch, poll):
    """A forged, an edited and a deleted entry are each a change (the candidate is dropped); the undo
    removes what the mutation left there (saved first) instead of putting old bytes back: an absent entry
    is evaluated again."""
    if poll:
        monkeypatch.setenv("AUTORESEARCH_GUARD_POLL", "1")
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    cache = repo / ".autoresearch" / "cache"
    folder = cache / "eval-key"
    folder.mkdir(parents=True)
    (cache / "key").write_bytes(b"k" * 32)
    edited, deleted, kept = (folder / f"{name}-sample-1.jsonl" for name in ("a" * 40, "b" * 40, "c" * 40))
    for entry in (edited, deleted, kept):
        entry.write_text('{"test_id": "t", "score": 0.1}\n')
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", cache, tmp_path / "guard")
    guard.open()
    guard.settle()
    edited.write_text('{"test_id": "t", "score": 1.0}\n')
    deleted.unlink()
    forged = folder / f"{'d' * 40}-sample-1.jsonl"
    forged.write_text('{"test_id": "t", "score": 1.0}\n')
    (cache / "key").write_bytes(b"m" * 32)
    run_dir = tmp_path / "run"
    changes, _ = rescue.undo_all(guard, run_dir)
    # a removed entry's name is not held: its folder is the change, one entry short
    assert sorted(os.path.basename(c.path) for c in changes) == sorted(["key", edited.name, folder.name, forged.name])
    assert (cache / "key").read_bytes() == b"k" * 32  # the secret is put back
    assert not edited.exists() and not deleted.exists() and not forged.exists()
    assert kept.read_text() == '{"test_id": "t", "score": 0.1}\n'
    left = {p.name: p.read_text() for p in run_dir.rglob("*-sample-1.jsonl")}
    assert left == {edited.name: '{"test_id": "t", "score": 1.0}\n', forged.name: '{"test_id": "t", "score": 1.0}\n'}
    assert guard.changes() == []
    guard.close()


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "stat-walk"])
def test_entries_the_eval_stores_just_before_the_settle_are_not_the_mutations(tmp_path, monkeypatch, poll):
    """The settle's mark is past every entry's change time, however soon after the eval's write it comes."""
    if poll:
        monkeypatch.setenv("AUTORESEARCH_GUARD_POLL", "1")
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    folder = repo / ".autoresearch" / "cache" / "eval-key"
    folder.mkdir(parents=True)
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", folder.parent, tmp_path / "guard")
    guard.open()
    for n in range(30):
        (folder / f"{n:040x}-sample-1.jsonl").write_text("rows\n")
        guard.settle()
        assert guard.changes() == []
    assert guard.cache.counts == {str(folder): 30}
    guard.close()


def test_an_old_file_renamed_over_an_entry_and_a_removal_are_found_after_a_kill(tmp_path):
    """A file made before the settle and renamed over an entry during the mutation: a rename moves its
    change time. A start after a kill finds it, and the removed entry, from the journal's count and mark."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    folder = repo / ".autoresearch" / "cache" / "eval-key"
    folder.mkdir(parents=True)
    entries = [folder / f"{n:040x}-sample-1.jsonl" for n in range(3)]
    for entry in entries:
        entry.write_text('{"score": 0.1}\n')
    prepared = repo / ".autoresearch" / "forged.jsonl"  # the results directory: not guarded
    prepared.write_text('{"score": 1.0}\n')
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", folder.parent, tmp_path / "guard")
    guard.open()
    guard.settle()
    guard.arm(tmp_path / "run")
    guard.close()  # killed during the mutation, which does this:
    os.rename(prepared, entries[0])
    entries[1].unlink()
    resumed = scope.Guard.resume(open_workspace(tmp_path / "r", "prompt.md"), tmp_path / "guard")
    assert resumed is not None
    again, run_dir = resumed
    changes, _ = rescue.undo_all(again, run_dir)
    assert sorted(os.path.basename(c.path) for c in changes) == sorted([entries[0].name, folder.name])
    assert [p.name for p in folder.iterdir()] == [entries[2].name]
    assert (run_dir / "outside/files/.autoresearch/cache/eval-key" / entries[0].name).read_text() == '{"score": 1.0}\n'


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "stat-walk"])
def test_a_no_cache_run_drops_no_candidate_for_the_links_its_mirror_makes(tmp_path, monkeypatch, poll):
    """With --no-cache the samples are kept among the experiment's files, which the mirror hard-links before
    each mutation: a link moves the linked file's change time, so the guard settles after it."""
    if poll:
        monkeypatch.setenv("AUTORESEARCH_GUARD_POLL", "1")
    plan = {
        2: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix a"},
        3: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "worse"},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=1)}, plan)
    done = cli(repo, "run", "--no-cache")
    assert done.returncode == 0, done.stderr
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep", "drop"]


def test_a_cache_removed_between_mutations_is_settled_and_one_made_during_a_mutation_is_found(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    cache = repo / ".autoresearch" / "cache"
    (cache / "eval-key").mkdir(parents=True)
    (cache / "eval-key" / "entry").write_text("rows\n")
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", cache, tmp_path / "guard")
    guard.open()
    shutil.rmtree(repo / ".autoresearch")  # the user's, between two mutations
    guard.settle()
    assert guard.changes() == []
    (cache / "eval-key").mkdir(parents=True)  # the mutation's
    (cache / "eval-key" / "forged").write_text("rows\n")
    found = {os.path.relpath(c.path, cache) for c in guard.changes()}
    assert {".", "eval-key", "eval-key/forged"} <= found
    guard.close()


def _settled_log(tmp_path, entries: bytes) -> tuple[Path, scope.Guard]:
    """A repository whose cache holds one eval's log of `entries`, and a guard opened and settled over it."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n"})
    cache = repo / ".autoresearch" / "cache"
    log = cache / "eval-key" / "entries.log"
    log.parent.mkdir(parents=True)
    log.write_bytes(entries)
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", cache, tmp_path / "guard")
    guard.open()
    guard.settle()
    return log, guard


def _appended(log, data: bytes) -> None:
    with log.open("ab") as f:
        f.write(data)


@pytest.mark.parametrize("poll", [False, True], ids=["inotify", "stat-walk"])
def test_a_log_a_mutation_appended_to_is_cut_back_and_one_rewritten_is_removed(tmp_path, monkeypatch, poll):
    """The eval's log only grows: what a mutation appended (a signed entry for its candidate, the key being
    readable to it) is a change, and the undo cuts it back, keeping the entries before, which would else be
    evaluated again. One rewritten otherwise is removed as a file entry is. The daemon's own appends, after
    the undo, are the next settle's."""
    if poll:
        monkeypatch.setenv("AUTORESEARCH_GUARD_POLL", "1")
    log, guard = _settled_log(tmp_path, b"\nfirst\n\nsecond\n")
    _appended(log, b"\nforged\n")
    changes, _ = rescue.undo_all(guard, tmp_path / "run")
    assert [(os.path.basename(c.path), c.before is not None) for c in changes] == [("entries.log", True)]
    assert log.read_bytes() == b"\nfirst\n\nsecond\n" and guard.changes() == []
    saved = tmp_path / "run/outside/files/.autoresearch/cache/eval-key/entries.log.appended"
    assert saved.read_bytes() == b"\nforged\n"  # what the mutation appended, saved first
    _appended(log, b"\nthe daemon's\n")  # after the undo, as `held` ends
    guard.settle()
    assert guard.changes() == []
    with log.open("r+b") as f:  # an earlier entry rewritten in place, and the log grown
        f.write(b"\nforgd")
    _appended(log, b"\nmore\n")
    changes, _ = rescue.undo_all(guard, tmp_path / "run2")
    assert sorted((os.path.basename(c.path), c.before is None) for c in changes) == [
        ("entries.log", True),  # a new entry
        ("eval-key", False),  # and the folder, one entry short of its settled count
    ]
    assert not log.exists() and guard.changes() == []
    guard.close()


def test_a_log_appended_to_during_a_mutation_is_cut_back_after_a_kill(tmp_path):
    """A start after a kill finds the log as settled in the journal (its inode, size and digest)."""
    log, guard = _settled_log(tmp_path, b"\nfirst\n")
    guard.arm(tmp_path / "run")
    _appended(log, b"\nsecond\n")  # the daemon's, then a settle and an arm that appends to the journal
    guard.settle()
    guard.arm(tmp_path / "run")
    guard.close()  # killed during the mutation, which does this:
    _appended(log, b"\nforged\n")
    resumed = scope.Guard.resume(open_workspace(tmp_path / "r", "prompt.md"), tmp_path / "guard")
    assert resumed is not None
    again, run_dir = resumed
    changes, _ = rescue.undo_all(again, run_dir)
    assert [os.path.basename(c.path) for c in changes] == ["entries.log"]
    assert log.read_bytes() == b"\nfirst\n\nsecond\n"


def test_what_a_mutation_appended_to_a_log_is_saved_not_the_whole_log(tmp_path):
    """The save before the cut keeps the bytes the mutation appended: a copy of the whole log each time
    (a night's, tens of MB) filled the disk with the entries before, which the cut keeps anyway."""
    log, guard = _settled_log(tmp_path, b"\nfirst\n" * 1000)
    _appended(log, b"\nforged\n")
    rescue.undo_all(guard, tmp_path / "run")
    saved = tmp_path / "run/outside/files/.autoresearch/cache/eval-key"
    assert os.listdir(saved) == ["entries.log.appended"]
    assert (saved / "entries.log.appended").read_bytes() == b"\nforged\n"
    guard.close()


@pytest.mark.parametrize("killed", [False, True], ids=["undone", "resumed"])
def test_a_log_a_mutation_appended_to_and_made_read_only_is_cut_back_and_writable_again(killed):
    """A mutator with `sandbox: off` appends a forged entry, then `chmod 444`s the log: as a user whom mode bits
    bind, the cut failed with EACCES, and the daemon stopped with exit 50 at that cycle and at every resume
    after (the journal's undo failing again). The log is the daemon's own: the write bit is given back through
    the file opened, the log cut back to its settled entries, and the next store appends to it."""
    with unprivileged.tree() as top:
        repo = make_repo(top / "r", {"prompt.md": "p\n"})
        log = repo / ".autoresearch" / "cache" / "eval-key" / "entries.log"
        log.parent.mkdir(parents=True)
        log.write_bytes(b"\nfirst\n")

        def undone() -> None:
            guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", log.parents[1], top / "g")
            guard.open()
            guard.settle()
            guard.arm(top / "run")
            _appended(log, b"\nforged\n")
            log.chmod(0o444)
            if killed:
                guard.close()
                resumed = scope.Guard.resume(open_workspace(repo, "prompt.md"), top / "g")
                assert resumed is not None
                guard, _ = resumed
            rescue.undo_all(guard, top / "run")
            assert log.read_bytes() == b"\nfirst\n" and log.stat().st_mode & 0o200
            assert guard.changes() == []
            guard.close()

        unprivileged.run(top, undone)
