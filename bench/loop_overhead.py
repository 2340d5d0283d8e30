"""The daemon's own time per cycle, next to the raw git operations it cannot avoid.

Runs 100 cycles of the real loop on a temporary repository with an instant
evaluator and an instant mutator (in-process), alternating KEEPs and DROPs;
every candidate is new, so no eval is a cache hit. The daemon's own time is
the loop's time less the time spent inside the eval and the mutator.

Each cycle, the mutator also performs and times one raw `git commit` or
`git checkout` of the same kind of edit on a second repository, alternating
like the daemon's own: the raw git is measured interleaved with the loop, so
the machine's speed (which drifts by 2-3x over minutes on a shared VM) is the
same on both sides of the ratio. The figure is the median ratio over several
rounds. Goal (issue 34): the daemon's time per cycle at most 1.5x the raw git operations.
The daemon's CPU per cycle (process time inside the loop less the eval's and the
mutator's) is printed beside it: on a loaded machine the wall time is mostly
waiting, for the disk and for a core, and the CPU is what a change can compare.
Usage: python bench/loop_overhead.py [--cycles N] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.mutators.base import MutationResult  # noqa: E402
from autoresearch.optimizer import daemonlog
from autoresearch.optimizer.config import load  # noqa: E402
from autoresearch.optimizer.cycle import loop  # noqa: E402
from autoresearch.optimizer.startup.opening import open_session  # noqa: E402
from autoresearch.runs.evaluators import EvalOutcome  # noqa: E402


class Stopwatch:
    """Time spent inside the eval and the mutator: not the daemon's."""

    def __init__(self):
        self.outside_s = self.outside_cpu_s = 0.0

    @contextmanager
    def outside(self):
        started, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.outside_s += time.perf_counter() - started
            self.outside_cpu_s += time.process_time() - cpu


class InstantEval:
    """Scores the artifact by its line count: a candidate with a line more wins."""

    def __init__(self, artifact: Path, watch: Stopwatch):
        self.artifact, self.watch = artifact, watch

    def check(self) -> None: ...

    def run(self, run_dir: Path) -> EvalOutcome:
        with self.watch.outside():
            n = len(self.artifact.read_text().splitlines())
            rows = [{"test_id": "t", "score": float(n)}]
            (run_dir / "index.jsonl").write_text(json.dumps(rows[0]) + "\n")
            return EvalOutcome(rows)


class InstantMutator:
    """Also does one raw git operation per cycle on `raw_repo`, timed on its own."""

    def __init__(self, artifact: Path, raw_repo: Path, watch: Stopwatch):
        self.artifact, self.raw, self.watch = artifact, RawGit(raw_repo), watch

    def check(self) -> None: ...

    def mutate(self, request) -> MutationResult:
        with self.watch.outside():
            self.raw.step(request.cycle)
            self.artifact = request.artifact  # under `sandbox: auto`, in a throwaway checkout, not the user's
            lines = self.artifact.read_text().splitlines()
            if request.cycle % 2 == 0:  # a line more: a win, kept
                lines.append(f"line {request.cycle}")
            else:  # a line less, and a new first line so that no candidate repeats an earlier one: dropped
                lines = [f"line 0 of cycle {request.cycle}", *lines[1:-1]]
            self.artifact.write_text("\n".join(lines) + "\n")
            return MutationResult(f"cycle {request.cycle}")


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def make_repo(root: Path) -> Path:
    root.mkdir()
    git(root, "init", "-q")
    git(root, "config", "user.name", "bench")
    git(root, "config", "user.email", "bench@example.com")
    (root / "prompt.md").write_text("line 0\nline 1\n")
    (root / "autoresearch.yaml").write_text(
        "artifact: prompt.md\neval: {command: 'true'}\nmutator: {provider: command, command: 'true'}\n"
        "stop: {max_cycles: 0, max_convergence: 0}\n"
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return root


class RawGit:
    """The git commands a cycle needs, bare: a commit of an edit on even cycles, a checkout that
    undoes one on odd cycles (the daemon keeps and drops in the same rhythm). The commit starts no
    `git maintenance run --auto`, as the daemon's do not (autoresearch.optimizer.gitrepo.gitcmd)."""

    def __init__(self, repo: Path):
        self.repo, self.artifact = repo, repo / "prompt.md"
        self.commit_s = self.checkout_s = 0.0
        self.commits = self.checkouts = 0

    def step(self, cycle: int) -> None:
        if cycle % 2 == 0:
            self.artifact.write_text(self.artifact.read_text() + f"raw {cycle}\n")
            started = time.perf_counter()
            git(self.repo, "-c", "maintenance.auto=false", "commit", "-qm", f"raw {cycle}", "--", "prompt.md")
            self.commit_s += time.perf_counter() - started
            self.commits += 1
        else:
            self.artifact.write_text("scratch\n")
            started = time.perf_counter()
            git(self.repo, "checkout", "HEAD", "--", "prompt.md")
            self.checkout_s += time.perf_counter() - started
            self.checkouts += 1


def time_round(root: Path, cycles: int) -> tuple[float, float, RawGit]:
    """The daemon's own seconds for `cycles` cycles (wall, CPU), and the raw git run beside them."""
    repo, raw_repo = make_repo(root / "loop"), make_repo(root / "raw")
    config = load(repo / "autoresearch.yaml", {"stop.max_cycles": cycles})
    daemonlog.setup(None, quiet=True)
    session = open_session(config, repo)
    watch = Stopwatch()
    session.evaluator = InstantEval(repo / "prompt.md", watch)
    session.mutator = mutator = InstantMutator(repo / "prompt.md", raw_repo, watch)
    started, cpu = time.perf_counter(), time.process_time()
    loop.run(session)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    session.close()
    return elapsed - watch.outside_s, cpu - watch.outside_cpu_s, mutator.raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{args.cycles} cycles per round; eval and mutation are instant; times per cycle in ms")
    print(f"{'round':>5}  {'daemon':>7}  {'commit':>7}  {'checkout':>8}  {'raw git':>7}  {'ratio':>6}  {'CPU':>6}")
    ratios, cpus = [], []
    for n in range(1, args.rounds + 1):
        with tempfile.TemporaryDirectory() as tmp:
            loop_s, cpu_s, raw = time_round(Path(tmp), args.cycles)
        steps = raw.commits + raw.checkouts  # one raw operation per cycle the mutator saw
        per_cycle = loop_s / args.cycles
        git_per_cycle = (raw.commit_s + raw.checkout_s) / steps
        ratios.append(per_cycle / git_per_cycle)
        print(
            f"{n:>5}  {per_cycle * 1000:7.1f}  {raw.commit_s / raw.commits * 1000:7.1f}"
            f"  {raw.checkout_s / raw.checkouts * 1000:8.1f}  {git_per_cycle * 1000:7.1f}  {ratios[-1]:5.2f}x"
            f"  {cpu_s / args.cycles * 1000:6.1f}"
        )
        cpus.append(cpu_s / args.cycles)
    print(
        f"overhead ratio (median)    {statistics.median(ratios):.2f}x  (goal: <= 1.5x; spread {min(ratios):.2f}-{max(ratios):.2f}x)"
    )
    print(f"daemon CPU (median)        {statistics.median(cpus) * 1000:.1f} ms a cycle")


if __name__ == "__main__":
    main()
