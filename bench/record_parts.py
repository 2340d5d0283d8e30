"""The CPU of the parts of recording a cycle's line, each timed alone a few thousand times (warm caches, so far
below what each costs inside the loop, where everything around it has evicted it): a log line to daemon.log,
the iterations line's encoding, a history row's addition, and state.json's `soon` (four a cycle).
`--installed`: time the installed autoresearch (another build's wheel) rather than this tree's.
Usage: python bench/record_parts.py [--calls 3000] [--installed]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if "--installed" not in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer import daemonlog  # noqa: E402
from autoresearch.optimizer.experiment import state  # noqa: E402
from autoresearch.optimizer.experiment.history import History  # noqa: E402
from autoresearch.trajectory import iterations  # noqa: E402
from autoresearch.trajectory.iterations import Iteration  # noqa: E402

LINE = Iteration(
    cycle=5,
    score=0.5,
    decision="drop",
    mutation="cycle 5",
    run_dir="2026-11-29T00-00-00-000005",
    eval_key="k" * 20,
    wins=0,
    losses=1,
    ties=0,
    mean_delta=-1.0,
    reason="losses 1 > wins 0",
    tests=1,
    duration_s=0.01,
    mutation_cost_usd=0.0,
    tokens_in=0,
    tokens_out=0,
    objectives={"correctness": 0.5},
)


def best_us(call: Callable[[], object], calls: int) -> float:
    """The least CPU a call of five runs of `calls` calls."""
    best = float("inf")
    for _ in range(5):
        cpu = time.process_time()
        for _ in range(calls):
            call()
        best = min(best, (time.process_time() - cpu) / calls)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--installed", action="store_true", help="the installed autoresearch, not this tree's")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        daemonlog.setup(root / "daemon.log", console=False)
        daemonlog.bind(experiment="exp", cycle=5, phase="decide")
        history = History(folder=root)
        st = state.State(experiment="exp", artifact="prompt.md", initial_sha="0" * 40, commits=["a" * 40] * 300)
        writer = state.Writer(root / "state.json", delay_s=3600)
        parts = {
            "a log line": lambda: daemonlog.get().info("drop", score=0.5, wins=0, losses=1, mutation="cycle 5"),
            "the line's encoding": lambda: iterations.encoded(LINE),
            "a history row": lambda: history.add(LINE),
            "state.json's soon (300 commits)": lambda: writer.soon(st),
        }
        print(f"autoresearch from {Path(daemonlog.__file__).parents[1]}")
        for name, call in parts.items():
            print(f"{name:34} {best_us(call, args.calls):6.1f} us of CPU a call")
        writer.now(st)
        history.close()
        daemonlog.setup(None, console=False)


if __name__ == "__main__":
    main()
