"""The daemon's memory over a long run: `autoresearch run` for 1,000 cycles, its resident set every 100.

A fresh repository, a trivial eval command (one row, its score the artifact's line count, so every
other candidate is kept) and a trivial command mutator (a line more on even cycles, a line less on
odd ones); no stop rule but the cycle count. The run is the real CLI in the foreground, as cron
starts it; this script reads its resident set (VmRSS, /proc) each time iterations.jsonl passes a
hundred more lines, and stops the run (SIGTERM) after the last sample, taken while the loop still runs:
a run that ends draws its final page, a peak of its own. Goal: at most 1 MiB of growth from cycle 100
to the last (the first hundred cycles load what the loop uses once: modules, caches, the chart's template).

With --interned, each sample also shows CPython 3.11's table of interned strings, read from the daemon's
memory (/proc/PID/mem, at the address `nm` gives libpython's static `interned`): the strings it holds, the
entries used (a string that died leaves its entry used until the table is built again) and its size. A table
built again past a third of its slots' worth of live strings is built twice as large, a step of its own
(docs/benchmarks.md, "the memory step near cycle 926").

Usage: python bench/run_memory.py [--cycles 1000] [--every 100] [--autoresearch PATH] [--interned]
"""

from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EVAL = (
    'printf \'{"test_id": "lines", "score": %s}\\n\' "$(awk \'END {print NR / 1e6}\' prompt.md)"'
    " > {run_dir}/index.jsonl"
)
MUTATE_SH = """n=$(wc -l < "$AUTORESEARCH_ARTIFACT")
if [ $((n % 2)) -eq 0 ]; then echo "line $n $$" >> "$AUTORESEARCH_ARTIFACT"
else sed -i "1s/.*/first line $$/" "$AUTORESEARCH_ARTIFACT"; fi
"""


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def make_repo(root: Path, cycles: int) -> Path:
    git(root, "init", "-q")
    git(root, "config", "user.name", "bench")
    git(root, "config", "user.email", "bench@example.com")
    (root / "prompt.md").write_text("line 0\nline 1\n")
    (root / "mutate.sh").write_text(MUTATE_SH)
    config = {
        "artifact": "prompt.md",
        "eval": {"command": EVAL},
        "mutator": {"provider": "command", "command": "sh mutate.sh"},
        "stop": {"max_cycles": cycles, "max_convergence": 0},
    }
    (root / "autoresearch.yaml").write_text(json.dumps(config, indent=2) + "\n")  # JSON is YAML
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return root


def rss_kib(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))


def interned_symbol(pid: int) -> int | None:
    """Where libpython's static `interned` is in the process, or None (another Python, a stripped library)."""
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 6 and "libpython3.11" in parts[5] and int(parts[2], 16) == 0:
            symbols = subprocess.run(["nm", parts[5]], capture_output=True, text=True).stdout.splitlines()
            found = [s.split()[0] for s in symbols if s.endswith(" b interned")]
            return int(parts[0].split("-")[0], 16) + int(found[0], 16) if found else None
    return None


def interned_table(pid: int, address: int) -> str:
    """The table's live strings, its entries used (live and dead) and its size, from CPython 3.11's layouts
    (PyDictObject: ma_used at 16, ma_keys at 32; PyDictKeysObject: dk_log2_size at 8, dk_nentries at 24)."""
    with open(f"/proc/{pid}/mem", "rb") as mem:

        def word(at: int, fmt: str = "q") -> int:
            mem.seek(at)
            return int(struct.unpack(fmt, mem.read(struct.calcsize(fmt)))[0])

        table = word(address, "Q")
        live, keys = word(table + 16), word(table + 32, "Q")
        log2, entries = word(keys + 8, "B"), word(keys + 24)
    usable = (2 << log2) // 3
    size = (1 << log2) * 4 + usable * 16  # int32 indices, then a key and a value a usable entry
    return f"interned {live} live, {entries} of {usable} entries used, table 2^{log2} ({size / 2**20:.2f} MiB)"


def cycles_done(repo: Path) -> int:
    found = list(repo.glob(".autoresearch/runs/*/_autoresearch/iterations.jsonl"))
    return found[0].read_bytes().count(b"\n") if found else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--autoresearch", default=str(Path(sys.executable).parent / "autoresearch"))
    parser.add_argument("--interned", action="store_true", help="show the table of interned strings at each sample")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # Half a sampling interval more than the last sample: the run ends by drawing its final page, a peak
        # of its own that the last sample would otherwise catch instead of the loop's growth.
        (Path(tmp) / "repo").mkdir()  # the run's output beside it, not in it: the scope guard would take the
        # daemon's own writes to it during a mutation for the mutator's and undo them
        repo = make_repo(Path(tmp) / "repo", args.cycles + args.every // 2)
        log = (Path(tmp) / "run.log").open("w")
        proc = subprocess.Popen([args.autoresearch, "run"], cwd=repo, stdout=log, stderr=subprocess.STDOUT)
        try:
            samples = watch(proc, repo, args.every, args.cycles, args.interned)
        finally:
            proc.terminate()  # a no-op once it has ended; else the run stops cleanly (SIGTERM)
            proc.wait()
        if proc.returncode not in (0, 10, 130):  # 130: stopped (SIGTERM) after the last sample
            sys.exit(f"autoresearch run exited {proc.returncode}: {(Path(tmp) / 'run.log').read_text()[-2000:]}")
    if len(samples) >= 2:
        (first, a), (last, b) = samples[0], samples[-1]
        print(
            f"growth from cycle {first} to {last}: {(b - a) / 1024:.2f} MiB ({(b - a) / (last - first):.1f} KiB a cycle)"
        )


def watch(proc: subprocess.Popen[bytes], repo: Path, every: int, last: int, interned: bool) -> list[tuple[int, int]]:
    """(cycle, RSS KiB) each time `every` more cycles are recorded, up to cycle `last`."""
    started, samples, mark = time.monotonic(), [], every
    symbol = None
    while proc.poll() is None and mark <= last:
        if cycles_done(repo) >= mark:
            kib = rss_kib(proc.pid)
            if kib is not None:
                samples.append((mark, kib))
                if interned and symbol is None:
                    symbol = interned_symbol(proc.pid) or sys.exit("--interned: no libpython3.11 with a symbol table")
                table = f"  {interned_table(proc.pid, symbol)}" if symbol else ""
                print(
                    f"cycle {mark:>5}  RSS {kib / 1024:6.1f} MiB  ({time.monotonic() - started:6.0f} s){table}",
                    flush=True,
                )
            mark += every
        time.sleep(0.2)
    return samples


if __name__ == "__main__":
    main()
