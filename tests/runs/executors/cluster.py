"""A real two-node Ray cluster on 127.0.0.1 and the evals run on it: run as a script inside a private network and
PID namespace (`unshare -n -p -f -m --mount-proc`, see test_ray.py), where only loopback exists, so Ray reaches
nothing else; every process started here dies with the namespace.

Prints one JSON object: the index.jsonl rows of each eval, the exit codes, and what Ray's logs hold.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import yaml

from tests.helpers.impostors import AUTORESEARCH, impostors
from tests.helpers.repos import GIT_ENV, cli, make_repo
from tests.runs.executors import candidates, faults
from tests.runs.executors.workspace_evals import workspace_repo

RAY = str(Path(sys.executable).with_name("ray"))
HEAD_PORT, WORKER_PORT = 6390, 6401
SECRET = "planted-" + secrets.token_hex(12)
TESTS = 8
# --include-log-monitor=false: the log monitor reads every worker's log file ten times a second to stream them to
# drivers, and autoresearch's driver asks for none (log_to_driver=False): a CPU-second a minute per node, for nothing
COMMON = [
    "--node-ip-address=127.0.0.1",
    "--num-cpus=1",
    "--object-store-memory=100000000",
    "--include-log-monitor=false",
]

AGENT = """\
import os, pathlib, sys, time
prompt = pathlib.Path("prompt.md").read_text()
marks = os.environ.get("MARKS_DIR")
if marks and "hold" in prompt:  # the fault scenarios: say this attempt started, then hold until the test lets it go
    pathlib.Path(marks, f"started-{sys.argv[1]}-{os.getpid()}").touch()
    while not pathlib.Path(marks, "release").exists():
        time.sleep(0.05)
spans, began = os.environ.get("SPANS_DIR"), time.time()
if spans:  # the in-flight scenario: hold a while, then say when
    time.sleep(0.3)
    pathlib.Path(spans, f"{sys.argv[1]}-{os.getpid()}-{began}").write_text(f"{began} {time.time()} {os.getcwd()}")
answer = open("answers/" + sys.argv[1]).read().strip()
if "boost" + sys.argv[1][1:] in prompt.split():  # the loop scenarios' mutation makes this test's answer right
    answer = "fact" + sys.argv[1][1:]
key = "key-ok" if os.environ.get("PLANTED_API_KEY", "").startswith("planted-") else "no-key"
open(sys.argv[2], "w").write(f"{answer} {key}")
"""

COMMAND_EVAL = """\
import json, os, pathlib, sys
run_dir = pathlib.Path(os.environ["AUTORESEARCH_RUN_DIR"])
(run_dir / "where.txt").write_text(os.getcwd())
text = pathlib.Path("prompt.md").read_text()
key = bool(os.environ.get("PLANTED_API_KEY"))
rows = [{"test_id": f"t{i}", "score": 1.0 if f"fact{i}" in text and key else 0.0} for i in range(4)]
(run_dir / "index.jsonl").write_text("".join(json.dumps(r) + "\\n" for r in rows))
"""


def repo(
    root: Path,
    executor: dict | None,
    command_eval: bool = False,
    mutator: str = "true",
    extra: dict | None = None,
    prompt: str = "fact0 fact1 fact2 hold\n",
    workers: int = 2,
    more: dict[str, str] | None = None,
) -> Path:
    """A repository with an artifact, a built-in eval of TESTS tests (or an eval command), and its config."""
    tests = [
        {"id": f"t{i}", "input": f"question {i}", "assertions": [{"type": "contains", "value": f"fact{i} key-ok"}]}
        for i in range(TESTS)
    ]
    files = {
        "prompt.md": prompt,
        "agent.py": AGENT,
        "eval.py": COMMAND_EVAL,
        "evals/suite.eval.yaml": yaml.safe_dump({"execution": {"target": "agent"}, "tests": tests}, sort_keys=False),
        ".agentv/targets.yaml": yaml.safe_dump(
            {
                "targets": [
                    {
                        "name": "agent",
                        "provider": "cli",
                        "command": f"{sys.executable} agent.py {{EVAL_ID}} {{OUTPUT_FILE}}",
                        "cwd": "..",
                        "timeout_seconds": 120,
                    }
                ]
            }
        ),
        ".env": f"PLANTED_API_KEY={SECRET}\n",
        ".gitignore": ".env\n",
    }
    files.update(more or {})
    for i in range(TESTS):  # half the tests find their fact in the answers
        files[f"answers/t{i}"] = f"fact{i}" if i % 2 == 0 else "nothing"
    evaluation = {"command": f"{sys.executable} eval.py"} if command_eval else {"file": "evals/suite.eval.yaml"}
    config = {
        "artifact": "prompt.md",
        "eval": {**evaluation, "workers": workers},
        "mutator": {"provider": "command", "command": mutator},
    }
    if executor is not None:
        config["executor"] = executor
    config.update(extra or {})
    files["autoresearch.yaml"] = yaml.safe_dump(config)
    return make_repo(root, files)


def rows(repo_root: Path) -> list[dict]:
    [run_dir] = sorted((repo_root / ".autoresearch" / "evals").iterdir())
    found = [json.loads(line) for line in (run_dir / "index.jsonl").read_text().splitlines() if line.strip()]
    return sorted(
        ({"test_id": r["test_id"], "score": r["score"], "status": r.get("execution_status")} for r in found),
        key=lambda r: r["test_id"],
    )


def start(*args: str) -> None:
    done = subprocess.run([RAY, "start", *args], capture_output=True, text=True, timeout=180)
    if done.returncode:
        said = "\n".join((done.stdout + done.stderr).splitlines()[-8:])
        raise RuntimeError(f"ray start {' '.join(args)}: exit {done.returncode}:\n{said}")


def processes() -> list[tuple[int, list[bytes]]]:
    """Every process with its command line: in this PID namespace, every Ray process is ours."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            found.append((int(pid), Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")))
        except OSError:  # ended meanwhile
            continue
    return found


def raylet_of_worker() -> int:
    """The second node's raylet, named by its port."""
    port = f"--node_manager_port={WORKER_PORT}".encode()
    return next(pid for pid, args in processes() if args[0].endswith(b"raylet") and port in args)


def start_cluster(temp: Path) -> dict:
    """A head and a second node on 127.0.0.1, with token authentication: the `executor:` that reaches them."""
    os.environ.update(
        RAY_AUTH_MODE="token",
        RAY_AUTH_TOKEN=secrets.token_hex(16),
        RAY_USAGE_STATS_ENABLED="0",
        # the Ray Client server starts a server process per client and gives it 30 s to answer, which a loaded
        # 2-core CI machine does not always manage: the client then fails to connect ("Initialization failure")
        RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S="180",
        # no metrics: the servers and workers would record and export them, and each node's agent would sample the
        # node's processes every 5 s, for a dashboard no scenario opens
        RAY_enable_metrics_collection="0",
        METRICS_RECORD_INTERVAL_S="3600",
    )
    start(
        "--head",
        f"--port={HEAD_PORT}",
        f"--temp-dir={temp}",
        "--include-dashboard=false",
        "--ray-client-server-port=10001",
        *COMMON,
    )
    join_a_second_node()
    return {"type": "ray", "address": f"127.0.0.1:{HEAD_PORT}", "env": ["MARKS_DIR", "SPANS_DIR"]}


def join_a_second_node() -> None:
    """A node beside the head, on WORKER_PORT: at the start, and again after a scenario killed it (the scenarios
    after it hold two attempts at once; on one node the second would start only when the first timed out)."""
    start(f"--address=127.0.0.1:{HEAD_PORT}", f"--node-manager-port={WORKER_PORT}", *COMMON)


def main(work: Path) -> dict:
    temp, scratch = work / "ray", work / "tmp"
    scratch.mkdir()
    os.environ["TMPDIR"] = str(scratch)  # the workers' temporary files, apart from the machine's /tmp
    on_ray = start_cluster(temp)
    out: dict = {}
    # a cluster that never answers needs no cluster but takes minutes to refuse: meanwhile, the rest runs
    silent = threading.Thread(target=lambda: out.update(silent_cluster=faults.silent_cluster(work, on_ray)))
    silent.start()
    local = repo(work / "local", None)
    out["local_exit"] = cli(local, "eval").returncode
    out["local"] = rows(local)
    remote = repo(work / "remote", on_ray)
    done = cli(remote, "eval", timeout=600)
    out["ray_exit"], out["ray_stderr"] = done.returncode, done.stderr[-2000:]
    out["ray"] = rows(remote) if done.returncode == 0 else []
    for name, executor in (("command_local", None), ("command_ray", on_ray)):
        tree = repo(work / name, executor, command_eval=True)
        out[name] = evaluated(tree, env={"PLANTED_API_KEY": SECRET})  # a command eval reads no .env
    for name, shared in (("per_test_workspaces", False), ("shared_workspace", True)):
        for where, executor in (("local", None), ("ray", on_ray)):
            out[f"{name}_{where}"] = evaluated(workspace_repo(work / f"{name}_{where}", shared, executor))
    out["candidates"] = candidates_on_ray(work, on_ray)
    out["mutated_on_ray"] = candidates.mutated_on_ray(work, on_ray)
    out["lone_on_ray"] = candidates.lone_on_ray(work, on_ray)
    out["mutation_interrupted"] = candidates.interrupted_mid_mutation(work, on_ray)
    out["mutation_lost"] = candidates.node_lost_mid_mutation(work, on_ray)  # (a second node joins again after)
    out["node_lost"] = lose_a_node(work, on_ray)
    out["loop"] = full_loop(work, on_ray)
    out["shadowed"] = shadowed(work, on_ray)
    logs = [p for p in temp.rglob("*") if p.is_file()]
    out["log_files"] = len(logs)
    out["secret_in_logs"] = [str(p) for p in logs if SECRET.encode() in p.read_bytes()]
    out["signals"] = faults.signals_mid_eval(work, on_ray)
    out["driver_killed"] = faults.driver_killed(work, on_ray)
    out["too_big"] = faults.snapshot_too_big(work, on_ray)
    out["frees_while_sending"] = faults.frees_while_sending(on_ray)
    out["worker_leftovers"] = sorted(p.name for p in scratch.iterdir() if p.name.startswith("autoresearch-"))
    out["daemon_killed"] = kill_the_daemon(work, on_ray)
    out["cluster_lost"] = lose_the_cluster(work, {**on_ray, "address": "ray://127.0.0.1:10001"})  # it ends Ray
    out["run_lost"] = lose_the_cluster_in_a_run(work, on_ray)
    silent.join()
    return out


def evaluated(tree: Path, env: dict | None = None) -> dict:
    """`autoresearch eval` in the tree: its exit code, the end of its stderr, and its rows."""
    done = cli(tree, "eval", env=env, timeout=600)
    return {"exit": done.returncode, "stderr": done.stderr[-2000:], "rows": rows(tree) if done.returncode == 0 else []}


def full_loop(work: Path, on_ray: dict) -> dict:
    """`autoresearch run` on ray: the baseline and the candidate scored on the cluster, the better one committed."""
    tree = repo(work / "loop", on_ray, command_eval=True, mutator="sh -c 'echo fact3 >> prompt.md'")
    done = cli(tree, "run", "--max-cycles", "2", env={"PLANTED_API_KEY": SECRET}, timeout=600)
    return {"exit": done.returncode, "stderr": done.stderr[-2000:], "commits": commits(tree)}


def shadowed(work: Path, on_ray: dict) -> dict:
    """`autoresearch eval` on ray, as a user starts it, from a repository holding impostors of our packages
    (`autoresearch/` among them): markers of any that was imported, and the rows."""
    markers = work / "shadow-markers"
    tree = repo(
        work / "shadowed", on_ray, command_eval=True, more=impostors(markers, "folders", also=("autoresearch",))
    )
    env = {**os.environ, **GIT_ENV, "PLANTED_API_KEY": SECRET}
    done = subprocess.run([AUTORESEARCH, "eval"], cwd=tree, capture_output=True, text=True, timeout=600, env=env)
    return {
        "exit": done.returncode,
        "stderr": done.stderr[-2000:],
        "imported": sorted(p.name for p in markers.iterdir()),
        "rows": rows(tree) if done.returncode == 0 else [],
    }


def held(tree: Path, marks: Path, held: int, fault: Callable[[], list[int]], *args: str) -> dict:
    """`autoresearch ARGS` whose attempts (of a prompt holding "hold") wait for a release file: once `held`
    attempts have started, the processes `fault` names (called then) are SIGKILLed, and the attempts let go."""
    marks.mkdir()
    done: dict = {}
    env = {"MARKS_DIR": str(marks), **faults.in_tree(tree)}
    command = lambda: done.update(result=cli(tree, *args, env=env, timeout=600))  # noqa: E731
    runner = threading.Thread(target=command)
    runner.start()
    while len(list(marks.glob("started-*"))) < held and runner.is_alive():
        runner.join(0.05)
    if runner.is_alive():  # (a command that ended first, having reached nothing, faces no fault)
        for pid in fault():
            os.kill(pid, signal.SIGKILL)
    (marks / "release").touch()
    runner.join()
    result = done["result"]
    return {
        "exit": result.returncode,
        "stderr": result.stderr[-2000:],
        "rows": rows(tree) if result.returncode == 0 and args == ("eval",) else [],
        "started": len(list(marks.glob("started-*"))),
        "lost_said": result.stderr.count("a Ray node was lost during test"),
    }


def held_eval(tree: Path, marks: Path, count: int, fault: Callable[[], list[int]]) -> dict:
    return held(tree, marks, count, fault, "eval")


def lose_a_node(work: Path, on_ray: dict) -> dict:
    """The second node's raylet is SIGKILLed while both nodes hold a test: the eval still scores every test once,
    the lost attempt run again and said in the log. A new second node joins after."""
    lost = held_eval(repo(work / "lost", on_ray), work / "marks", 2, lambda: [raylet_of_worker()])
    join_a_second_node()
    return lost


def lose_the_cluster(work: Path, on_ray: dict) -> dict:
    """Every Ray server of the cluster SIGKILLed while a test runs: the eval stops with exit 40 and one line.
    Through Ray Client (`ray://`). Ray Client's server, which starts a server process for each client, now and
    then refuses a connection on a loaded machine ("Initialization failure from server", exit 30 before
    anything ran): such an attempt, which reached no cluster, is made again."""
    tree = repo(work / "gone", on_ray)
    for attempt in range(3):
        lost = held_eval(tree, work / f"marks-gone-{attempt}", 1, ray_servers)
        if not (lost["exit"] == 30 and "Initialization failure" in lost["stderr"] and lost["started"] == 0):
            break
    return lost


def ray_servers() -> list[int]:
    return [pid for pid, args in processes() if args[0].endswith((b"gcs_server", b"raylet"))]


def ray_leftovers() -> list[int]:
    """What is left of a cluster whose servers were killed (its workers, agents, client server): every
    process of Ray's in this namespace but this one."""
    return [
        pid
        for pid, args in processes()
        if pid != os.getpid() and (args[0].endswith((b"gcs_server", b"raylet")) or b"/ray/" in b" ".join(args))
    ]


def new_head(temp: Path) -> None:
    """A new head on the same port, once the cluster before it is entirely gone."""
    for pid in ray_leftovers():
        os.kill(pid, signal.SIGKILL)
    while ray_leftovers():
        threading.Event().wait(0.05)
    start("--head", f"--port={HEAD_PORT}", f"--temp-dir={temp}", "--include-dashboard=false", *COMMON)


def commits(tree: Path) -> int:
    return (
        len(subprocess.run(["git", "log", "--format=%s"], cwd=tree, capture_output=True, text=True).stdout.split("\n"))
        - 1
    )


def iterations(tree: Path) -> list[dict]:
    [path] = (tree / ".autoresearch").rglob("iterations.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]  # raises on a partial line


def candidates_on_ray(work: Path, on_ray: dict) -> dict:
    """Two candidates a cycle on ray with `eval.workers: 1`: every candidate's eval runs on the cluster, with
    at most one task in flight across both (each candidate's runner has a slot of its own), and the better
    candidate is committed."""
    spans = work / "spans"
    spans.mkdir()
    tree = repo(
        work / "candidates",
        on_ray,
        mutator="sh -c 'echo boost1 >> prompt.md'",
        extra={"search": {"candidates": 2}},
        workers=1,
    )
    done = cli(tree, "run", "--max-cycles", "2", env={"SPANS_DIR": str(spans)}, timeout=900)
    found = [p.read_text().split(" ", 2) for p in spans.iterdir()]
    events = sorted([(float(a), 1) for a, _, _ in found] + [(float(b), -1) for _, b, _ in found])
    running = overlap = 0
    for _, step in events:
        running += step
        overlap = max(overlap, running)
    lines = iterations(tree) if done.returncode in (0, 10) else []
    return {
        "exit": done.returncode,
        "stderr": done.stderr[-2000:],
        "commits": commits(tree),
        "attempts": len(found),
        "here": sum(1 for _, _, cwd in found if Path(cwd).is_relative_to(tree)),
        "overlap": overlap,
        "candidates": [len(line.get("candidates") or []) for line in lines],
    }


def kill_the_daemon(work: Path, on_ray: dict) -> dict:
    """`autoresearch run` SIGKILLed while its candidate's tasks run on the cluster: its Ray driver process
    ends with it (no orphan holds the cluster), and the next run resumes and keeps the candidate."""
    tree = repo(work / "killed", on_ray, **faults.HOLD_RUN)
    killed = held(tree, work / "marks-killed", 1, daemons, "run", "--max-cycles", "2")
    while faults.drivers(tree):  # it ends once it sees the daemon's end of the socket close
        threading.Event().wait(0.05)
    return faults.resumed(tree, killed)


def daemons() -> list[int]:
    return [pid for pid, args in processes() if b"autoresearch" in b" ".join(args) and b"run" in args]


def lose_the_cluster_in_a_run(work: Path, on_ray: dict) -> dict:
    """`autoresearch run` connected with host:port, every Ray server SIGKILLed while the candidate's eval runs:
    Ray ends its driver process, which is not the daemon's, so the run stops with exit 40, the artifact back
    at HEAD and whole records; on a new cluster, the experiment then resumes and keeps the candidate."""
    new_head(work / "r2")
    tree = repo(work / "run-lost", on_ray, **faults.HOLD_RUN)
    lost = held(tree, work / "marks-run", 1, ray_servers, "run", "--max-cycles", "2")
    lost["lines"] = len(iterations(tree))  # whole lines only: a torn one would not parse
    new_head(work / "r3")
    return faults.resumed(tree, lost)


if __name__ == "__main__":  # faults.py imports this module by name: its one copy runs everything
    from tests.runs.executors import cluster

    print(json.dumps(cluster.main(Path(sys.argv[1]))))
