"""Built-in runner throughput: 200 tests against the fake LLM server (100 ms per reply) at 8, 32 and 64 workers.

Prints the wall time next to the ideal `ceil(N / workers) x latency`; the
goal is within 10% of ideal at 32 workers. Run: `python bench/eval_throughput.py`.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runs.evaluators.builtin import execute, prepare  # noqa: E402
from runs.runner import RunOptions  # noqa: E402
from tests.helpers.fake_llm import FakeLLM, text_reply  # noqa: E402

TESTS, LATENCY_S = 200, 0.1


def write_eval(root: Path, base_url: str) -> Path:
    targets = [{"name": "fake", "provider": "openai", "base_url": base_url, "model": "${{ BENCH_MODEL }}", "api_key": "${{ BENCH_KEY }}"}]
    (root / ".agentv").mkdir()
    (root / ".agentv" / "targets.yaml").write_text(yaml.safe_dump({"targets": targets}))
    tests = [{"id": f"t{i:03d}", "input": f"question {i}", "assertions": [{"type": "contains", "value": "ok"}]} for i in range(TESTS)]
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


def main() -> None:
    os.environ.setdefault("BENCH_MODEL", "fake-model")
    os.environ.setdefault("BENCH_KEY", "fake-key")
    urls = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(urls,), daemon=True)
    server.start()
    with tempfile.TemporaryDirectory() as tmp:
        prepared = prepare(write_eval(Path(tmp), urls.get(timeout=30)), Path(tmp))
        print(f"{'workers':>7}  {'wall s':>7}  {'ideal s':>7}  {'ratio':>6}")
        for workers in (8, 32, 64):
            started = time.monotonic()
            finished = execute(prepared, Path(tmp) / f"run-{workers}", RunOptions(workers=workers), show_progress=False)
            wall = time.monotonic() - started
            assert len(finished.rows) == TESTS and all(r["score"] == 1.0 for r in finished.rows)
            ideal = math.ceil(TESTS / workers) * LATENCY_S
            print(f"{workers:>7}  {wall:>7.2f}  {ideal:>7.2f}  {wall / ideal:>6.2f}")
    server.terminate()


if __name__ == "__main__":
    main()
