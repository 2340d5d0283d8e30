"""git's object store under the scope guard: every object file is held for the night, so each is held small."""

from __future__ import annotations

import os
import subprocess
import sys

from autoresearch.optimizer.guard.gitobjects import ObjectFiles
from tests.helpers.repos import make_repo

OBJECTS = 2000

# In a process of its own: tracemalloc counts every thread's allocations, and a test worker may still run
# threads an earlier test left (a server winding down), whose allocations would be counted as the guard's.
HELD = """
import sys, tracemalloc
from pathlib import Path
from autoresearch.optimizer.guard.gitobjects import ObjectFiles
ObjectFiles(sys.argv[1], Path(sys.argv[2]) / "warm-up").open()  # what a first open loads and caches once
objects = ObjectFiles(sys.argv[1], Path(sys.argv[2]) / "measured")
tracemalloc.start()
objects.open()
print(tracemalloc.get_traced_memory()[0])
"""


def test_a_night_of_new_objects_costs_the_guard_a_few_hundred_bytes_each(tmp_path):
    """A night adds a few loose objects a cycle (three a KEEP); the guard held a path and an `Entry` for
    each, about 600 bytes, for as long as the daemon ran (bench/heap_probe.py)."""
    repo = make_repo(tmp_path / "r", {"a.txt": "a\n"})
    (tmp_path / "blobs").mkdir()
    for n in range(OBJECTS):
        (tmp_path / "blobs" / str(n)).write_text(f"blob {n}\n")
    names = "\n".join(str(tmp_path / "blobs" / str(n)) for n in range(OBJECTS))
    subprocess.run(["git", "hash-object", "-w", "--stdin-paths"], cwd=repo, input=names, text=True, check=True)
    store = str(repo / ".git/objects")
    held = subprocess.run(
        [sys.executable, "-c", HELD, store, str(tmp_path / "guard-probe")], capture_output=True, text=True, check=True
    )
    assert int(held.stdout) / OBJECTS < 130, f"{int(held.stdout) / OBJECTS:.0f} bytes an object"
    objects = ObjectFiles(store, tmp_path / "guard")
    objects.open()
    removed = next(p for p in (repo / ".git/objects").rglob("*") if p.is_file() and "pack" not in p.parts)
    os.chmod(removed, 0o644)
    removed.unlink()
    [(path, before, after)] = objects.look(None)  # and the removal is still seen
    assert path == str(removed) and before.size > 0 and after is None


def test_each_file_is_found_by_its_whole_name_among_names_that_begin_alike(tmp_path):
    """Each folder's files are held as one run of records: a name that begins another's (a pack and its
    `.keep`, `x` and `xy`) is still told apart, and a removed file put back is held again."""
    store = tmp_path / "objects"
    (store / "ab").mkdir(parents=True)
    for name, text in {"x": "1", "xy": "22", "yx": "333", "ab/x": "4444"}.items():
        (store / name).write_text(text)
    objects = ObjectFiles(str(store), tmp_path / "guard")
    objects.open()
    (store / "x").unlink()
    (store / "xy").write_text("a longer one")
    changes = {
        os.path.relpath(path, store): (before.size, after and after.size) for path, before, after in objects.look(None)
    }
    assert changes == {"x": (1, None), "xy": (2, 12)}
    [(path, before, _)] = [c for c in objects.look(None) if c[0].endswith(os.sep + "x")]
    assert objects.put_back(path, before) and (store / "x").read_text() == "1"
    objects.adopt(str(store / "xy"), None)
    assert [os.path.relpath(c[0], store) for c in objects.look(None)] == []


NEW_FOLDERS = """
import os, sys
from pathlib import Path
from autoresearch.optimizer.guard.gitobjects import ObjectFiles
store = Path(sys.argv[1])
objects = ObjectFiles(str(store), Path(sys.argv[2]))
objects.open()
made = []
guard = os.fsdecode(sys.argv[2])
sys.addaudithook(lambda event, args: made.append(args[0]) if event == "os.mkdir" and guard in str(args[0]) else None)
for n in range(40):  # git's objects landing in new fan-out folders, as a night's first cycles bring
    os.makedirs(store / f"{n:02x}")
    (store / f"{n:02x}" / ("%038x" % n)).write_text(str(n))
    objects.look(None)
print(len(made))
"""


def test_objects_in_new_fan_out_folders_cost_the_guard_no_mkdir(tmp_path):
    """Counted by Python's audit events in a process of its own: each new fan-out folder of git's made one
    of the guard's (a mkdir, ~180 us); the links now lie flat in one folder."""
    store = tmp_path / "objects"
    (store / "ff").mkdir(parents=True)
    (store / "ff" / "0").write_text("the repository's first object")
    out = subprocess.run(
        [sys.executable, "-c", NEW_FOLDERS, str(store), str(tmp_path / "guard")], capture_output=True, text=True
    )
    assert out.stdout.strip() == "0", out.stderr
    links = tmp_path / "guard" / "git-objects"
    assert all(p.is_file() for p in links.iterdir()) and len(list(links.iterdir())) == 41


def test_links_in_folders_of_their_own_move_flat_and_still_put_back_a_removed_object(tmp_path):
    """Versions before the flat folder made a link folder per fan-out folder: an open moves each link to its
    flat name, and an object removed between the runs (its link the only copy) is still put back."""
    store, links = tmp_path / "objects", tmp_path / "guard" / "git-objects"
    (store / "ab").mkdir(parents=True)
    (links / "ab").mkdir(parents=True)
    for name in ("kept", "gone"):
        (store / "ab" / name).write_text(name)
        os.link(store / "ab" / name, links / "ab" / name)
    (store / "ab" / "gone").unlink()  # the user's gc between the runs: only the old link holds it
    objects = ObjectFiles(str(store), tmp_path / "guard")
    objects.open()
    assert sorted(p.name for p in links.iterdir()) == ["ab%2Fgone", "ab%2Fkept"]
    (store / "ab" / "kept").unlink()
    [(path, before, after)] = objects.look(None)
    assert after is None and objects.put_back(path, before) and (store / "ab" / "kept").read_text() == "kept"
