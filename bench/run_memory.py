"""The daemon's memory over a long run: `autoresearch run` for 1,000 cycles, its resident set every 100.

A fresh repository, a trivial eval command (one row, its score the artifact's line count, so every
other candidate is kept) and a trivial command mutator (a line more on even cycles, a line less on
odd ones); no stop rule but the cycle count. The run is the real CLI in the foreground, as cron
starts it; this script reads its resident set (VmRSS, /proc) each time iterations.jsonl passes a
hundred more lines, and stops the run (SIGTERM) after the last sample, taken while the loop still runs:
a run that ends draws its final page, a peak of its own. Goal: at most 1 MiB of growth from cycle 100
to the last (the first hundred cycles load what the loop uses once: modules, caches, the chart's template).

Usage: python bench/run_memory.py [--cycles 1000] [--every 100] [--autoresearch PATH]
"""

from __future__ import annotations

import argparse
import json
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


def cycles_done(repo: Path) -> int:
    found = list(repo.glob(".autoresearch/runs/*/_autoresearch/iterations.jsonl"))
    return found[0].read_bytes().count(b"\n") if found else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--autoresearch", default=str(Path(sys.executable).parent / "autoresearch"))
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
            samples = watch(proc, repo, args.every, args.cycles)
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


def watch(proc: subprocess.Popen[bytes], repo: Path, every: int, last: int) -> list[tuple[int, int]]:
    """(cycle, RSS KiB) each time `every` more cycles are recorded, up to cycle `last`."""
    started, samples, mark = time.monotonic(), [], every
    while proc.poll() is None and mark <= last:
        if cycles_done(repo) >= mark:
            kib = rss_kib(proc.pid)
            if kib is not None:
                samples.append((mark, kib))
                print(f"cycle {mark:>5}  RSS {kib / 1024:6.1f} MiB  ({time.monotonic() - started:6.0f} s)", flush=True)
            mark += every
        time.sleep(0.2)
    return samples


if __name__ == "__main__":
    main()
