"""The decision's writes in the user's checkout, timed alone: a KEEP (`Candidate.commit`: commit_artifact) and a
DROP (`Candidate.discard`: the candidate's patch saved, then restore_artifact) of a file artifact, alternating
as in bench/loop_overhead.py, on a repository of FILES files. Prints the CPU a KEEP and a DROP, in the
process (user) and in the kernel (system: the file system's work, which swings with the machine's load), the
median of ROUNDS rounds of CYCLES each. Run it from two checkouts in turn (A B A B) to compare them: the
machine's speed drifts. Usage: python bench/decision_writes.py [--cycles N] [--rounds R] [--files F] [--profile F] [--marks]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.cycle.tree import Candidate  # noqa: E402
from autoresearch.optimizer.gitrepo.workspace import open_workspace  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--profile", help="save a cProfile of the last round here")
    parser.add_argument("--marks", action="store_true", help="mark each KEEP and DROP on stderr (decision_syscalls.py)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        repo, runs = Path(folder) / "r", Path(folder) / "runs"
        (repo / "d").mkdir(parents=True)
        runs.mkdir()
        (repo / "d/prompt.md").write_text("".join(f"line {n}\n" for n in range(40)))
        for n in range(args.files):
            (repo / f"f{n}.txt").write_text(str(n))
        for git in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
            subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", *git], cwd=repo, check=True)
        subprocess.run(["git", "config", "user.name", "b"], cwd=repo, check=True)
        subprocess.run(["git", "config", "user.email", "b@b"], cwd=repo, check=True)
        time.sleep(1.2)  # the configuration a second old, as in a run
        ws = open_workspace(repo, "d/prompt.md")
        keeps: list[tuple[float, float]] = []
        drops: list[tuple[float, float]] = []
        for round_ in range(args.rounds):
            profile = cProfile.Profile() if args.profile and round_ == args.rounds - 1 else None
            keep, drop = [0.0, 0.0], [0.0, 0.0]
            for cycle in range(args.cycles):
                lines = ws.artifact_path.read_text().splitlines(keepends=True)
                lines[cycle % len(lines)] = f"round {round_} cycle {cycle}\n"
                ws.artifact_path.write_text("".join(lines))
                candidate = Candidate(ws, runs)
                if profile:
                    profile.enable()
                if args.marks:
                    os.write(2, b"=== DROP\n" if cycle % 2 else b"=== KEEP\n")
                started = resource.getrusage(resource.RUSAGE_SELF)
                if cycle % 2:
                    candidate.discard()
                else:
                    candidate.commit(f"cycle {cycle}: kept")
                ended = resource.getrusage(resource.RUSAGE_SELF)
                if args.marks:
                    os.write(2, b"=== end\n")
                spent = drop if cycle % 2 else keep
                spent[0] += ended.ru_utime - started.ru_utime
                spent[1] += ended.ru_stime - started.ru_stime
                if profile:
                    profile.disable()
            keeps.append((keep[0] / (args.cycles / 2) * 1e3, keep[1] / (args.cycles / 2) * 1e3))
            drops.append((drop[0] / (args.cycles / 2) * 1e3, drop[1] / (args.cycles / 2) * 1e3))
            if profile:
                profile.dump_stats(args.profile)
    print(f"KEEP {_summary(keeps)}; DROP {_summary(drops)}")


def _summary(rounds: list[tuple[float, float]]) -> str:
    user, system = [r[0] for r in rounds], [r[1] for r in rounds]
    return (
        f"user {statistics.median(user):.3f} ms ({min(user):.3f}-{max(user):.3f}), "
        f"system {statistics.median(system):.3f} ms ({min(system):.3f}-{max(system):.3f})"
    )


if __name__ == "__main__":
    main()
