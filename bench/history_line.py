"""What the history costs the loop after each line, at a night's length: the line added, state.json's summary
of the history (`state.summarize`) and the stop rules' counts (`History.progress`, asked twice a cycle), on
the daemon's history (rows spilled to disk) of a varied night. Prints the mean CPU of that work per line
over 50 lines appended after N: flat in N is the goal.
Usage: python bench/history_line.py [--lines 300 1000 3000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.optimizer.experiment.history import History  # noqa: E402
from autoresearch.optimizer.experiment.state import State, summarize  # noqa: E402
from tests.trajectory.sample import varied  # noqa: E402

APPENDED = 50


def per_line(n: int) -> float:
    lines = varied(n + APPENDED)
    state = State(experiment="exp", artifact="prompt.md", initial_sha="0" * 40)
    with tempfile.TemporaryDirectory() as tmp:
        history = History(lines[:n], Path(tmp))
        history.progress(0)  # the loop has asked before
        cpus = []
        for line in lines[n:]:
            started = time.process_time()
            history.add(line)
            summarize(state, history)
            history.progress(0)
            history.progress(0)
            cpus.append(time.process_time() - started)
        history.close()
    return statistics.mean(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[300, 1000, 3000])
    args = parser.parse_args()
    for n in args.lines:
        print(f"{n:>6} lines: {per_line(n) * 1000:8.3f} ms of CPU a line (added, summarized, progress asked twice)")


if __name__ == "__main__":
    main()
