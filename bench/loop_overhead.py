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
It is split into user and system (kernel) time, which getrusage accounts: the
kernel's share is the system calls' work (files made, paths walked).
Usage: python bench/loop_overhead.py [--cycles N] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.mutators.base import MutationResult  # noqa: E402
from autoresearch.optimizer import daemonlog
from autoresearch.optimizer.config import load  # noqa: E402
from autoresearch.optimizer.cycle import loop  # noqa: E402
from autoresearch.optimizer.startup.opening import open_session  # noqa: E402
from autoresearch.runs.evaluators import EvalOutcome  # noqa: E402

# configuration files younger than this are read again at every ask (autoresearch.optimizer.gitrepo.gitconfig
# ._SETTLED, and a margin): a repository made just before the loop had its first ~150 cycles pay a whole read of
# the configuration through libgit2 at each of several asks a cycle, which a night, whose files are old, never does
SETTLED_S = 1.5


def _user_sys() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


class Stopwatch:
    """Time spent inside the eval and the mutator: not the daemon's."""

    def __init__(self):
        self.outside_s = self.outside_cpu_s = self.outside_user_s = self.outside_sys_s = 0.0

    @contextmanager
    def outside(self):
        started, cpu, (user, system) = time.perf_counter(), time.process_time(), _user_sys()
        try:
            yield
        finally:
            self.outside_s += time.perf_counter() - started
            self.outside_cpu_s += time.process_time() - cpu
            now_user, now_system = _user_sys()
            self.outside_user_s += now_user - user
            self.outside_sys_s += now_system - system


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


@dataclass(frozen=True)
class Round:
    """The daemon's own seconds for a round's cycles, and the raw git run beside them."""

    wall_s: float
    cpu_s: float
    user_s: float
    sys_s: float
    raw: RawGit

    def ratio(self, cycles: int) -> float:
        """The daemon's wall time a cycle over raw git's a cycle (one raw operation a cycle the mutator saw)."""
        raw = self.raw
        return (self.wall_s / cycles) / ((raw.commit_s + raw.checkout_s) / (raw.commits + raw.checkouts))


def time_round(root: Path, cycles: int) -> Round:
    """`cycles` cycles of the loop on a new repository under `root`, with the raw git beside them."""
    repo, raw_repo = make_repo(root / "loop"), make_repo(root / "raw")
    time.sleep(SETTLED_S)  # the repository's configuration files as a night's are: settled (see SETTLED_S)
    config = load(repo / "autoresearch.yaml", {"stop.max_cycles": cycles})
    daemonlog.setup(None, quiet=True)
    session = open_session(config, repo)
    watch = Stopwatch()
    session.evaluator = InstantEval(repo / "prompt.md", watch)
    session.mutator = mutator = InstantMutator(repo / "prompt.md", raw_repo, watch)
    started, cpu, (user, system) = time.perf_counter(), time.process_time(), _user_sys()
    loop.run(session)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    now_user, now_system = _user_sys()
    session.close()
    return Round(
        elapsed - watch.outside_s,
        cpu - watch.outside_cpu_s,
        now_user - user - watch.outside_user_s,
        now_system - system - watch.outside_sys_s,
        mutator.raw,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{args.cycles} cycles per round; eval and mutation are instant; times per cycle in ms")
    print(
        f"{'round':>5}  {'daemon':>7}  {'commit':>7}  {'checkout':>8}  {'raw git':>7}  {'ratio':>6}  {'CPU':>6}"
        f"  {'user':>5}  {'sys':>5}"
    )
    ratios, cpus = [], []
    for n in range(1, args.rounds + 1):
        with tempfile.TemporaryDirectory() as tmp:
            got = time_round(Path(tmp), args.cycles)
        raw, per_cycle = got.raw, 1000 / args.cycles
        ratios.append(got.ratio(args.cycles))
        print(
            f"{n:>5}  {got.wall_s * per_cycle:7.1f}  {raw.commit_s / raw.commits * 1000:7.1f}"
            f"  {raw.checkout_s / raw.checkouts * 1000:8.1f}"
            f"  {(raw.commit_s + raw.checkout_s) / (raw.commits + raw.checkouts) * 1000:7.1f}  {ratios[-1]:5.2f}x"
            f"  {got.cpu_s * per_cycle:6.1f}  {got.user_s * per_cycle:5.1f}  {got.sys_s * per_cycle:5.1f}"
        )
        cpus.append(got.cpu_s / args.cycles)
    print(
        f"overhead ratio (median)    {statistics.median(ratios):.2f}x  (goal: <= 1.5x; spread {min(ratios):.2f}-{max(ratios):.2f}x)"
    )
    print(f"daemon CPU (median)        {statistics.median(cpus) * 1000:.1f} ms a cycle")


if __name__ == "__main__":
    main()
