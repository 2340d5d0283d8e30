"""The mirror's listing holds an entry for every file of the experiment, all night: each is held small."""

from __future__ import annotations

import subprocess
import sys

FILES = 2000

# In a process of its own: tracemalloc counts every thread's allocations, and a test worker may still run
# threads an earlier test left, whose allocations would be counted as the listing's.
HELD = """
import gc, sys, tracemalloc
from autoresearch.optimizer.experiment.listing import Listing
Listing(sys.argv[1], lambda relative, st: True).update(0)  # what a first listing loads and caches once
gc.collect()
tracemalloc.start()
listing = Listing(sys.argv[1], lambda relative, st: True)
listing.update(0)
gc.collect()
print(tracemalloc.get_traced_memory()[0])
"""


def test_a_night_of_run_directories_costs_the_listing_little_per_file(tmp_path):
    """A night adds a run directory a cycle, a few files each; the listing held a whole `os.stat_result`
    for each file (about 500 bytes), twice (the experiment and its mirror), until the run ended."""
    top = tmp_path / "experiment"
    for n in range(FILES // 4):
        run = top / f"2026-11-28T22-{n:05d}"
        run.mkdir(parents=True)
        for name in ("index.jsonl", "grading.json", "timing.json", "benchmark.json"):
            (run / name).write_text("{}\n")
    held = subprocess.run([sys.executable, "-c", HELD, str(top)], capture_output=True, text=True, check=True)
    per_file = int(held.stdout) / (FILES + FILES // 4)
    assert per_file < 250, f"{per_file:.0f} bytes a listed entry"  # main's: 764


CYCLES = 150
NIGHT = """
import gc, sys, tracemalloc
from pathlib import Path
from autoresearch.optimizer.experiment.mirror import Mirror
source = Path(sys.argv[1]) / "experiment"
source.mkdir()
mirror = Mirror(source, Path(sys.argv[1]) / "vault" / "mirror", watched=True)
def cycle(n):
    run = source / f"2026-11-28T22-{n:05d}"
    run.mkdir()
    for name in ("index.jsonl", "grading.json", "timing.json", "benchmark.json"):
        (run / name).write_text("{}\\n")
    assert mirror.refresh() and mirror.restore() == []
for n in range(20):  # the watch's and the listing's first walks, and what the first looks cache once
    cycle(n)
gc.collect()
tracemalloc.start()
for n in range(20, 20 + int(sys.argv[2])):
    cycle(n)
gc.collect()
print(tracemalloc.get_traced_memory()[0])
"""


def test_a_watched_mirror_holds_nothing_of_the_files_of_the_run_directories_it_has_mirrored(tmp_path):
    """Its listings held every file of the night, twice (about 2.8 KiB a cycle of four files); what is
    left is the watch's path of each new folder (inotify names a folder by its watch alone)."""
    held = subprocess.run(
        [sys.executable, "-c", NIGHT, str(tmp_path), str(CYCLES)], capture_output=True, text=True, check=True
    )
    per_cycle = int(held.stdout) / CYCLES
    assert per_cycle < 600, f"{per_cycle:.0f} bytes a cycle"  # main's: 2,700-2,800
