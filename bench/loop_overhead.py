"""The daemon's own time per cycle, next to the raw git operations it cannot avoid.

Runs 100 cycles of the real loop on a temporary repository with an instant
evaluator and an instant mutator (in-process, so only the daemon's work is
timed), alternating KEEPs and DROPs, then times the raw `git commit` and
`git checkout` of the same edits. The pair is measured in several rounds, one
after the other, so a machine whose speed drifts moves both sides of a round's
ratio; the median ratio is the figure. Goal: overhead per cycle at most 2x the
git operations. Usage: python bench/loop_overhead.py [--cycles N] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mutators.base import MutationResult  # noqa: E402
from optimizer import logs, loop  # noqa: E402
from optimizer.config import load  # noqa: E402
from optimizer.session import open_session  # noqa: E402
from runs.evaluators import EvalOutcome  # noqa: E402


class InstantEval:
    """Scores the artifact by its line count parity: every other candidate wins."""

    def __init__(self, artifact: Path):
        self.artifact = artifact

    def check(self) -> None: ...

    def run(self, run_dir: Path) -> EvalOutcome:
        n = len(self.artifact.read_text().splitlines())
        rows = [{"test_id": "t", "score": float(n)}]
        (run_dir / "index.jsonl").write_text(json.dumps(rows[0]) + "\n")
        return EvalOutcome(rows)


class InstantMutator:
    def __init__(self, artifact: Path):
        self.artifact = artifact

    def check(self) -> None: ...

    def mutate(self, request) -> MutationResult:
        text = self.artifact.read_text()
        lines = text.splitlines()
        # even cycles add a line (a win), odd cycles remove one (a loss, dropped)
        new = text + f"line {request.cycle}\n" if request.cycle % 2 == 0 else "\n".join(lines[:-1]) + "\n"
        self.artifact.write_text(new)
        return MutationResult(f"cycle {request.cycle}")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def make_repo(root: Path) -> Path:
    root.mkdir()
    git(root, "init", "-q")
    git(root, "config", "user.name", "bench")
    git(root, "config", "user.email", "bench@example.com")
    (root / "prompt.md").write_text("line 0\n")
    (root / "autoresearch.yaml").write_text(
        "artifact: prompt.md\neval: {command: 'true'}\nmutator: {provider: command, command: 'true'}\n"
        "stop: {max_cycles: 0, max_convergence: 0}\n"
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return root


def time_loop(repo: Path, cycles: int) -> float:
    config = load(repo / "autoresearch.yaml", {"stop.max_cycles": cycles})
    logs.setup(None, quiet=True)
    session = open_session(config, repo)
    session.evaluator = InstantEval(repo / "prompt.md")
    session.mutator = InstantMutator(repo / "prompt.md")
    started = time.perf_counter()
    loop.run(session)
    elapsed = time.perf_counter() - started
    session.close()
    return elapsed


def time_raw_git(repo: Path, cycles: int) -> tuple[float, float]:
    artifact = repo / "prompt.md"
    commit_s = checkout_s = 0.0
    for i in range(cycles // 2):
        artifact.write_text(artifact.read_text() + f"raw {i}\n")
        t = time.perf_counter()
        git(repo, "commit", "-qm", f"raw {i}", "--", "prompt.md")
        commit_s += time.perf_counter() - t
        artifact.write_text("scratch\n")
        t = time.perf_counter()
        git(repo, "checkout", "HEAD", "--", "prompt.md")
        checkout_s += time.perf_counter() - t
    return commit_s, checkout_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    half = args.cycles // 2
    print(f"{args.cycles} cycles per round; eval and mutation are instant; times per cycle in ms")
    print(f"{'round':>5}  {'daemon':>7}  {'commit':>7}  {'checkout':>8}  {'raw git':>7}  {'ratio':>6}")
    ratios = []
    for n in range(1, args.rounds + 1):
        with tempfile.TemporaryDirectory() as tmp:
            loop_s = time_loop(make_repo(Path(tmp) / "loop"), args.cycles)
            commit_s, checkout_s = time_raw_git(make_repo(Path(tmp) / "raw"), args.cycles)
        per_cycle = loop_s / args.cycles
        git_per_cycle = (commit_s + checkout_s) / args.cycles  # each cycle does one or the other
        ratios.append(per_cycle / git_per_cycle)
        print(
            f"{n:>5}  {per_cycle * 1000:7.1f}  {commit_s / half * 1000:7.1f}  {checkout_s / half * 1000:8.1f}"
            f"  {git_per_cycle * 1000:7.1f}  {ratios[-1]:5.2f}x"
        )
    print(f"overhead ratio (median)    {statistics.median(ratios):.2f}x  (goal: <= 2x; spread {min(ratios):.2f}-{max(ratios):.2f}x)")

if __name__ == "__main__":
    main()
