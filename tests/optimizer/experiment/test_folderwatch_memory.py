"""The mirror's watch of the experiment's folders: one new run directory a cycle, in each tree, each held
for the night, so each is held small, and still named whole in the events it reports."""

from __future__ import annotations

import subprocess
import sys

FOLDERS = 500

# In a process of its own: tracemalloc counts every thread's allocations, and a test worker may still run
# threads an earlier test left, whose allocations would be counted as the watch's.
HELD = (
    """
import os, sys, tracemalloc
from autoresearch.optimizer.experiment.folderwatch import FolderWatch
top = os.path.join(sys.argv[1], "a-repository-somewhere", ".autoresearch", "runs", "an-experiment")
os.makedirs(top)
watch = FolderWatch([top], lambda path: False)
assert watch.dirty() is None  # the first look walks, and watches everything first
for n in range(50):  # what the first cycles load once
    os.mkdir(os.path.join(top, f"warm-{n}"))
    watch.dirty()
tracemalloc.start()
for n in range(%d):  # a run directory a cycle, as the daemon makes them
    os.mkdir(os.path.join(top, f"2026-11-29T02-29-30-c{n:04d}"))
    assert watch.dirty() == {top: {f"2026-11-29T02-29-30-c{n:04d}"}}
print(tracemalloc.get_traced_memory()[0])
last = os.path.join(top, "2026-11-29T02-29-30-c0499")
open(os.path.join(last, "score.json"), "w").close()
assert watch.dirty() == {last: {"score.json"}}, watch.dirty()
"""
    % FOLDERS
)


def test_a_night_of_run_directories_costs_the_watch_its_name_not_its_whole_path(tmp_path):
    """Each watch held its folder's whole path, about 150 bytes more a run directory (bench/heap_probe.py)."""
    held = subprocess.run([sys.executable, "-c", HELD, str(tmp_path)], capture_output=True, text=True)
    assert held.returncode == 0, held.stderr
    assert int(held.stdout) / FOLDERS < 160, f"{int(held.stdout) / FOLDERS:.0f} bytes a folder"
