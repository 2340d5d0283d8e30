"""The inodes the loop makes and frees a cycle, a KEEP's and a DROP's apart (issue 34).

On an ext4 without a journal every new inode is searched for past each inode freed in the last minutes
(fs/ext4/ialloc.c `recently_deleted`): a cycle's new files cost in proportion to the files deleted before them
(docs/benchmarks.md, the fourteenth round). The kernel's own count is read: the `ext4:ext4_allocate_inode` and
`ext4:ext4_free_inode` tracepoints (`perf stat`, which counts the daemon's process and its children), over
the real loop on a temporary repository with an instant eval and mutator (bench/loop_overhead.py's, the sandbox
as a command mutator has it) making only KEEPs, or only DROPs. Two runs of each, of `--cycles` and of twice as
many: their difference over the extra cycles is a cycle's, without the start and the end. `--names` also lists,
from `strace`, the calls that make or remove a name in the longer run (an `openat` that creates, `mkdir`,
`rename`, `unlink`, `link`), by path with the digits made `#`, a cycle's count of each.

Needs `perf` (and the tracepoints: root, or perf_event_paranoid allowing them) and, for `--names`, `strace`;
TMPDIR on the ext4 file system measured.

Usage: python bench/cycle_inodes.py [--cycles N] [--names]
"""

from __future__ import annotations

import argparse
import collections
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.mutators.base import MutationResult  # noqa: E402
from autoresearch.optimizer import daemonlog  # noqa: E402
from autoresearch.optimizer.config import load  # noqa: E402
from autoresearch.optimizer.cycle import loop  # noqa: E402
from autoresearch.optimizer.startup.opening import open_session  # noqa: E402
from bench.loop_overhead import SETTLED_S, InstantEval, Stopwatch, make_repo  # noqa: E402

EVENTS = ("ext4:ext4_allocate_inode", "ext4:ext4_free_inode")
CALLS = "openat,open,creat,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat,rmdir,link,linkat,symlink,symlinkat"


class OneWay:
    """A mutator whose every candidate is kept (a line more) or dropped (a line less, its first line new)."""

    def __init__(self, keep: bool):
        self.keep = keep

    def check(self) -> None: ...

    def mutate(self, request) -> MutationResult:
        lines = request.artifact.read_text().splitlines()
        if self.keep:
            lines.append(f"line {request.cycle}")
        else:
            lines = [f"line 0 of cycle {request.cycle}", *lines[1:-1]]
        request.artifact.write_text("\n".join(lines) + "\n")
        return MutationResult(f"cycle {request.cycle}")


def child(decision: str, cycles: int, at: Path) -> None:
    """The loop's `cycles` cycles, each a `decision`, on a new repository in `at` (the measured process; the
    caller removes it, so that its files' removal is not counted)."""
    repo = make_repo(at / "loop")
    time.sleep(SETTLED_S)  # the repository's configuration files as a night's are: settled (see SETTLED_S)
    config = load(repo / "autoresearch.yaml", {"stop.max_cycles": cycles})
    daemonlog.setup(None, quiet=True)
    session = open_session(config, repo)
    session.evaluator = InstantEval(repo / "prompt.md", Stopwatch())
    session.mutator = OneWay(decision == "keep")
    loop.run(session)
    session.close()


def _argv(decision: str, cycles: int, at: str) -> list[str]:
    return [sys.executable, __file__, "--child", decision, "--cycles", str(cycles), "--at", at]


def counted(decision: str, cycles: int) -> dict[str, int]:
    """The tracepoints' counts over a child run of `cycles` cycles."""
    events = ",".join(EVENTS)
    with tempfile.TemporaryDirectory() as at:
        argv = ["perf", "stat", "-x,", "-e", events, "--", *_argv(decision, cycles, at)]
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
    counts = {}
    for row in done.stderr.splitlines():
        fields = row.split(",")
        if len(fields) > 2 and fields[2] in EVENTS:
            counts[fields[2]] = int(fields[0])
    return counts


def names(decision: str, cycles: int) -> collections.Counter[str]:
    """The calls that made or removed a name in a child run, by call and path (digits made `#`)."""
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as at:
        trace = Path(tmp) / "trace"
        strace = ["strace", "-f", "-qq", "-e", f"trace={CALLS}", "-e", "status=successful", "-o", str(trace)]
        subprocess.run([*strace, *_argv(decision, cycles, at)], check=True)
        found: collections.Counter[str] = collections.Counter()
        for line in trace.read_text(errors="replace").splitlines():
            call = re.search(r"(\w+)\((.*)\) += ", line)
            if call is None or call[1] in ("openat", "open") and "O_CREAT" not in call[2]:
                continue
            paths = re.findall(r'"([^"]*)"', call[2])
            found[f"{call[1]:9} {' -> '.join(map(_short, paths))}"] += 1
        return found


def _short(path: str) -> str:
    """A path without the run's folder, its random and numbered parts made `#`."""
    path = re.sub(r"^.*/loop/", "", path)
    for random in (r"\.[\w-]{8}\.tmp$", r"tmp_obj_[\w-]{6}$", r"/tmp/tmp[\w-]{8}", r"[0-9a-f]{7,}"):
        path = re.sub(random, lambda found: re.sub(r"[\w-]+", "#", found[0]), path)
    return re.sub(r"\d+", "#", path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--names", action="store_true")
    parser.add_argument("--child", choices=["keep", "drop"])
    parser.add_argument("--at", type=Path)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.cycles, args.at)
        return
    short, long = args.cycles, 2 * args.cycles
    print(f"a cycle's inodes, the difference of runs of {short} and {long} cycles (kernel tracepoints)")
    for decision in ("keep", "drop"):
        few, many = counted(decision, short), counted(decision, long)
        made, freed = ((many[e] - few[e]) / (long - short) for e in EVENTS)
        print(f"{decision:5} new inodes {made:5.2f}  freed {freed:5.2f}")
        if args.names:
            more, less = names(decision, long), names(decision, short)
            for what, n in sorted((more - less).items(), key=lambda item: (-item[1], item[0])):
                if n / (long - short) >= 0.1:  # what every cycle or every few cycles does
                    print(f"      {n / (long - short):5.2f}  {what}")


if __name__ == "__main__":
    main()
