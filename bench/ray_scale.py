"""Scale-out on Ray: N tests of a `cli` target that holds one CPU slot for 0.5 s, locally and on a Ray cluster of
one and of two nodes (the same CPU slots per node), printing wall time and its ratio to the ideal (not run in CI).

The cluster runs on 127.0.0.1 inside a private network and PID namespace (`unshare`, as root), so Ray reaches
nothing but loopback and every process it starts ends with the bench. The eval goes through the built-in
evaluator as `autoresearch eval` runs it (snapshot shipped once, one task per attempt, `workers` = the slots
of the cluster). Overhead per task is (wall - ideal) x slots / tests: what each task costs a slot beyond its
0.5 s, the target's process start included (the `local` row shows that part alone). Ray's own cost is then
measured apart: as many no-op tasks (`os.path.isdir` of the shipped tree) through the same executor, as many
in flight as there are slots, in ms of a slot's time per task.

    sudo python bench/ray_scale.py [--tests 200] [--slots 1] [--hold 0.5]

`--candidates K` measures whole candidates instead (autoresearch.optimizer.cycle.on_cluster): `autoresearch run
--max-cycles 2` on a repository whose K candidates a cycle are each mutated by a command holding a slot for
`--mutate` s and evaluated on `--tests` tests (small here: 4), on one node and on two; the figure is cycle 2's
duration on its line (K mutations, K evals, the pick's confirmation), and the ratio of one node's to two's.

    sudo python bench/ray_scale.py --candidates 8 --tests 4 --mutate 4 --hold 1
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

from autoresearch.plumbing import jsonlines
from autoresearch.runs.config import EvalConfig
from autoresearch.runs.evaluators.builtin import BuiltinEvaluator
from autoresearch.runs.executors.cluster import RayExecutor
from autoresearch.runs.executors.config import ExecutorConfig

RAY = str(Path(sys.executable).with_name("ray"))
HEAD_PORT, WORKER_PORT = 6390, 6401


def tree(root: Path, tests: int, hold: float) -> EvalConfig:
    (root / "evals").mkdir(parents=True)
    (root / ".agentv").mkdir()
    command = f"sh -c 'sleep {hold}; echo done > {{OUTPUT_FILE}}'"
    target = {"name": "busy", "provider": "cli", "command": command, "timeout_seconds": 60}
    (root / ".agentv" / "targets.yaml").write_text(yaml.safe_dump({"targets": [target]}))
    cases = [
        {"id": f"t{i}", "input": "go", "assertions": [{"type": "contains", "value": "done"}]} for i in range(tests)
    ]
    suite = {"execution": {"target": "busy"}, "tests": cases}
    (root / "evals" / "suite.eval.yaml").write_text(yaml.safe_dump(suite))
    return EvalConfig(file="evals/suite.eval.yaml")


def measure(root: Path, config: EvalConfig, workers: int, executor: RayExecutor | None, name: str) -> float:
    evaluator = BuiltinEvaluator(config.model_copy(update={"workers": workers}), root, executor)
    evaluator.check()
    start = time.perf_counter()
    outcome = evaluator.run(root.parent / f"out-{name}")
    wall = time.perf_counter() - start
    assert all(r["score"] == 1.0 for r in outcome.rows), "a test failed"
    return wall


def start(*args: str) -> None:
    subprocess.run([RAY, "start", *args], check=True, capture_output=True, timeout=300)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tests", type=int, default=200)
    parser.add_argument("--slots", type=int, default=1, help="CPU slots per node")
    parser.add_argument("--hold", type=float, default=0.5)
    parser.add_argument("--candidates", type=int, default=0, help="K: measure whole candidates (see above)")
    parser.add_argument("--mutate", type=float, default=4.0, help="seconds each mutation holds a slot")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.inside:
        script = f"ip link set lo up && exec {sys.executable} {' '.join(sys.argv)} --inside"
        sys.exit(
            subprocess.run(
                ["unshare", "--net", "--pid", "--fork", "--mount", "--mount-proc", "sh", "-c", script]
            ).returncode
        )
    work = Path(tempfile.mkdtemp(prefix="ray-scale-"))
    root = work / "repo"
    root.mkdir()
    config = tree(root, args.tests, args.hold)
    os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(16), RAY_USAGE_STATS_ENABLED="0")
    common = ["--node-ip-address=127.0.0.1", f"--num-cpus={args.slots}", "--object-store-memory=100000000"]
    if args.candidates:
        candidates(work, args, common)
        return
    results = [("local", args.slots, measure(root, config, args.slots, None, "local"))]
    start("--head", f"--port={HEAD_PORT}", f"--temp-dir={work / 'ray'}", "--include-dashboard=false", *common)
    executor = RayExecutor(ExecutorConfig(type="ray", address=f"127.0.0.1:{HEAD_PORT}"), root, [])
    results.append(("ray, 1 node", args.slots, measure(root, config, args.slots, executor, "one")))
    own = [dispatch(executor, args.tests, args.slots)]
    start(f"--address=127.0.0.1:{HEAD_PORT}", f"--node-manager-port={WORKER_PORT}", *common)
    results.append(("ray, 2 nodes", 2 * args.slots, measure(root, config, 2 * args.slots, executor, "two")))
    own.append(dispatch(executor, args.tests, 2 * args.slots))
    print(
        f"{args.tests} tests holding a slot {args.hold:g} s each; {args.slots} slot(s) per node; {os.cpu_count()} cores"
    )
    print(f"{'':14} {'slots':>5} {'wall s':>8} {'ideal s':>8} {'ratio':>6} {'overhead/task ms':>17}")
    for name, slots, wall in results:
        ideal = args.tests * args.hold / slots
        overhead = (wall - ideal) * slots / args.tests * 1000
        print(f"{name:14} {slots:5} {wall:8.2f} {ideal:8.2f} {wall / ideal:6.2f} {overhead:17.1f}")
    print(f"two nodes / one node throughput: {results[1][2] / results[2][2]:.2f}x")
    print(f"Ray's own overhead per task (no-op tasks): {own[0]:.1f} ms on 1 node, {own[1]:.1f} ms on 2 nodes")


def candidates(work: Path, args: argparse.Namespace, common: list[str]) -> None:
    """Cycle 2's duration with K candidates mutated and evaluated on one node, then on two."""
    start("--head", f"--port={HEAD_PORT}", f"--temp-dir={work / 'ray'}", "--include-dashboard=false", *common)
    one = cycle_seconds(work / "one", args, args.slots)
    start(f"--address=127.0.0.1:{HEAD_PORT}", f"--node-manager-port={WORKER_PORT}", *common)
    two = cycle_seconds(work / "two", args, 2 * args.slots)
    print(
        f"K = {args.candidates} candidates, each mutated holding a slot {args.mutate:g} s and evaluated on "
        f"{args.tests} tests holding a slot {args.hold:g} s; {args.slots} slot(s) per node; {os.cpu_count()} cores"
    )
    print(f"cycle 2 on 1 node: {one:.1f} s; on 2 nodes: {two:.1f} s; two nodes / one node: {one / two:.2f}x")


def cycle_seconds(root: Path, args: argparse.Namespace, slots: int) -> float:
    """`autoresearch run --max-cycles 2` with K candidates on the cluster: cycle 2's duration on its line. Each
    mutation makes a different artifact (an equal one would be served from the result cache)."""
    root.mkdir()
    tree(root, args.tests, args.hold)
    mutate = f'sleep {args.mutate}; echo "$AUTORESEARCH_SIBLING $(date +%N)" >> prompt.md'
    settings = {
        "artifact": "prompt.md",
        "eval": {"file": "evals/suite.eval.yaml", "workers": slots},
        "mutator": {"provider": "command", "command": mutate},
        "search": {"candidates": args.candidates},
        "executor": {"type": "ray", "address": f"127.0.0.1:{HEAD_PORT}"},
    }
    (root / "autoresearch.yaml").write_text(yaml.safe_dump(settings))
    (root / "prompt.md").write_text("answer\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com"}
    env |= {"GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}
    for step in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "bench"]):
        subprocess.run(["git", *step], cwd=root, check=True, env=env)
    command = [sys.executable, "-m", "autoresearch.optimizer", "run", "--max-cycles", "2"]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    assert done.returncode in (0, 10), done.stderr[-3000:]
    [text] = [p.read_text() for p in (root / ".autoresearch").rglob("iterations.jsonl")]
    last = json.loads([line for line in jsonlines.lines(text) if line][-1])  # ended as the product ends them
    assert last["cycle"] == 2 and len(last.get("candidates") or []) == args.candidates, last
    return float(last["duration_s"])


def dispatch(executor: RayExecutor, calls: int, in_flight: int) -> float:
    """Ms of a slot's time per no-op task, `in_flight` at once: the cost of dispatching a task, running it and
    taking its result back, through our driver process and Ray."""
    shipped = executor.ship()
    executor.call(shipped, os.path.isdir)  # the tree unpacked on a worker before the clock starts
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=in_flight) as pool:
        assert all(pool.map(lambda _: executor.call(shipped, os.path.isdir), range(calls)))
    return (time.perf_counter() - start) * in_flight / calls * 1000


if __name__ == "__main__":
    main()
