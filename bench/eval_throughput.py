"""Built-in runner throughput: 200 tests against the fake LLM server (100 ms per reply) at 8, 32 and 64 workers.

Prints the wall time next to the ideal `ceil(N / workers) x latency`; the
goal is within 10% of ideal at 32 workers. One request through the target
first loads the SDK and builds its client, a once-per-process cost that is not
throughput. Each worker count runs `--rounds` times (default 3): this 2-core
VM's disk and CPU speed drift, so the best and the median are both shown.
Run: `python bench/eval_throughput.py [--rounds R]`.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autoresearch.runs.evaluators.builtin import execute, prepare  # noqa: E402
from autoresearch.runs.runner.run import RunOptions  # noqa: E402
from tests.helpers.fake_llm import FakeLLM, text_reply  # noqa: E402

TESTS, LATENCY_S = 200, 0.1


def write_eval(root: Path, base_url: str) -> Path:
    targets = [
        {
            "name": "fake",
            "provider": "openai",
            "base_url": base_url,
            "model": "${{ BENCH_MODEL }}",
            "api_key": "${{ BENCH_KEY }}",
        }
    ]
    (root / ".agentv").mkdir()
    (root / ".agentv" / "targets.yaml").write_text(yaml.safe_dump({"targets": targets}))
    tests = [
        {"id": f"t{i:03d}", "input": f"question {i}", "assertions": [{"type": "contains", "value": "ok"}]}
        for i in range(TESTS)
    ]
    path = root / "bench.eval.yaml"
    path.write_text(yaml.safe_dump({"execution": {"target": "fake"}, "tests": tests}))
    return path


def serve(urls) -> None:
    """The fake server in its own process, so its threads do not share the runner's GIL."""
    with FakeLLM() as llm:
        llm.latency_s = LATENCY_S
        llm.handler = lambda req: text_reply("ok", input_tokens=10, output_tokens=2)
        urls.put(llm.base_url("openai"))
        threading.Event().wait()


def timed_run(prepared, run_dir: Path, workers: int) -> float:
    started = time.monotonic()
    finished = execute(prepared, run_dir, RunOptions(workers=workers), show_progress=False)
    wall = time.monotonic() - started
    assert len(finished.rows) == TESTS and all(r["score"] == 1.0 for r in finished.rows)
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("BENCH_MODEL", "gpt-4o-mini")
    os.environ.setdefault("BENCH_KEY", "fake-key")
    urls = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(urls,), daemon=True)
    server.start()
    with tempfile.TemporaryDirectory() as tmp:
        prepared = prepare(write_eval(Path(tmp), urls.get(timeout=30)), Path(tmp))
        first = prepared.suite.cases[0]
        prepared.targets.for_case(first)[0].answer(first, 0)  # warm-up: the SDK's import and client
        print(f"{'workers':>7}  {'ideal s':>7}  {'best s':>7}  {'median s':>8}  {'best':>5}  {'median':>6}")
        for workers in (8, 32, 64):
            walls = [timed_run(prepared, Path(tmp) / f"run-{workers}-{n}", workers) for n in range(args.rounds)]
            ideal = math.ceil(TESTS / workers) * LATENCY_S
            best, median = min(walls), statistics.median(walls)
            print(
                f"{workers:>7}  {ideal:>7.2f}  {best:>7.2f}  {median:>8.2f}  {best / ideal:>4.2f}x  {median / ideal:>5.2f}x",
                flush=True,
            )
    server.terminate()


if __name__ == "__main__":
    main()
