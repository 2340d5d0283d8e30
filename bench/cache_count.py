"""The CPU of the scope guard's settle of the result cache, by how many entries its eval folder holds (issue 34).

Each cycle the eval stores an entry and the guard settles the cache with inotify's paths: it counted the
folder's paths by listing it (growing with the night), and now sets the names inotify gave. Timed by process
time (the kernel's share included) over `--times` cycles, each after one new entry appended to the folder's
log (as runs/cache.py does: the settle extends the log's digest by its bytes), from folders of `--entries`
entries (files of the format before the log, and the log); the clock probe's read is in both.

Usage: python bench/cache_count.py [--times N] [--entries N N ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.guard.cachefolders import CacheFolders  # noqa: E402
from autoresearch.runs.cachelog import NAME as LOG  # noqa: E402

ROW = b'\n{"format": "autoresearch-cache-v3", "artifact": "' + b"0" * 40 + b'", "n": 1, "mac": "00"}\t{"score": 1}\n'


def settle_cpu(root: Path, entries: int, times: int) -> float:
    folder = root / "cache" / "eval-key"
    folder.mkdir(parents=True)
    for n in range(entries):
        (folder / f"{n:040x}-sample-1.jsonl").write_text("rows\n")
    log = folder / LOG
    log.write_bytes(ROW * entries)
    folders = CacheFolders(str(root / "cache"))
    folders.settle(None)
    spent = 0.0
    for n in range(times + 1):
        with log.open("ab") as f:
            f.write(ROW)
        time.sleep(0.005)  # the decision and its git: a clock tick passes (the settle waits for none)
        started = time.process_time()
        folders.settle({str(log)})
        if n:  # the first settle after a walk lists the folder once
            spent += time.process_time() - started
    assert folders.counts[str(folder)] == entries + 1
    return spent / times * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=200)
    parser.add_argument("--entries", type=int, nargs="+", default=[100, 2000])
    args = parser.parse_args()
    for entries in args.entries:
        with tempfile.TemporaryDirectory() as folder:
            print(f"{entries:6} entries {settle_cpu(Path(folder), entries, args.times):8.0f} us of CPU a settle")


if __name__ == "__main__":
    main()
