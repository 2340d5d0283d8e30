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

from tests.executors.workspace_evals import workspace_repo
from tests.helpers.repos import cli, make_repo

RAY = str(Path(sys.executable).with_name("ray"))
HEAD_PORT, WORKER_PORT = 6390, 6401
SECRET = "planted-" + secrets.token_hex(12)
TESTS = 8

AGENT = """\
import os, pathlib, sys, time
marks = os.environ.get("MARKS_DIR")
if marks:  # the fault scenario: say this attempt started, then hold until the test lets it go
    pathlib.Path(marks, f"started-{sys.argv[1]}-{os.getpid()}").touch()
    while not pathlib.Path(marks, "release").exists():
        time.sleep(0.05)
answer = open("answers/" + sys.argv[1]).read().strip()
key = "key-ok" if os.environ.get("PLANTED_API_KEY", "").startswith("planted-") else "no-key"
open(sys.argv[2], "w").write(f"{answer} {key}")
"""

COMMAND_EVAL = """\
import json, os, pathlib, sys
run_dir = pathlib.Path(os.environ["AUTORESEARCH_RUN_DIR"])
text = pathlib.Path("prompt.md").read_text()
key = bool(os.environ.get("PLANTED_API_KEY"))
rows = [{"test_id": f"t{i}", "score": 1.0 if f"fact{i}" in text and key else 0.0} for i in range(4)]
(run_dir / "index.jsonl").write_text("".join(json.dumps(r) + "\\n" for r in rows))
"""


def repo(root: Path, executor: dict | None, command_eval: bool = False, mutator: str = "true") -> Path:
    """A repository with an artifact, a built-in eval of TESTS tests (or an eval command), and its config."""
    tests = [
        {"id": f"t{i}", "input": f"question {i}", "assertions": [{"type": "contains", "value": f"fact{i} key-ok"}]}
        for i in range(TESTS)
    ]
    files = {
        "prompt.md": "fact0 fact1 fact2\n",
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
    for i in range(TESTS):  # half the tests find their fact in the answers
        files[f"answers/t{i}"] = f"fact{i}" if i % 2 == 0 else "nothing"
    evaluation = {"command": f"{sys.executable} eval.py"} if command_eval else {"file": "evals/suite.eval.yaml"}
    config = {
        "artifact": "prompt.md",
        "eval": {**evaluation, "workers": 2},
        "mutator": {"provider": "command", "command": mutator},
    }
    if executor is not None:
        config["executor"] = executor
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
    subprocess.run([RAY, "start", *args], check=True, capture_output=True, timeout=180)


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


def main(work: Path) -> dict:
    temp = work / "ray"
    os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(16), RAY_USAGE_STATS_ENABLED="0")
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--object-store-memory=100000000"]
    start(
        "--head",
        f"--port={HEAD_PORT}",
        f"--temp-dir={temp}",
        "--include-dashboard=false",
        "--ray-client-server-port=10001",
        *common,
    )
    start(f"--address=127.0.0.1:{HEAD_PORT}", f"--node-manager-port={WORKER_PORT}", *common)
    on_ray = {"type": "ray", "address": f"127.0.0.1:{HEAD_PORT}", "env": ["MARKS_DIR"]}
    out: dict = {}
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
    out["node_lost"] = lose_a_node(work, on_ray)
    out["loop"] = full_loop(work, on_ray)
    logs = [p for p in temp.rglob("*") if p.is_file()]
    out["log_files"] = len(logs)
    out["secret_in_logs"] = [str(p) for p in logs if SECRET.encode() in p.read_bytes()]
    out["cluster_lost"] = lose_the_cluster(
        work, {**on_ray, "address": "ray://127.0.0.1:10001"}
    )  # the last: it ends Ray
    return out


def evaluated(tree: Path, env: dict | None = None) -> dict:
    """`autoresearch eval` in the tree: its exit code, the end of its stderr, and its rows."""
    done = cli(tree, "eval", env=env, timeout=600)
    return {"exit": done.returncode, "stderr": done.stderr[-2000:], "rows": rows(tree) if done.returncode == 0 else []}


def full_loop(work: Path, on_ray: dict) -> dict:
    """`autoresearch run` on ray: the baseline and the candidate scored on the cluster, the better one committed."""
    tree = repo(work / "loop", on_ray, command_eval=True, mutator="sh -c 'echo fact3 >> prompt.md'")
    done = cli(tree, "run", "--max-cycles", "2", env={"PLANTED_API_KEY": SECRET}, timeout=600)
    log = subprocess.run(["git", "log", "--format=%s"], cwd=tree, capture_output=True, text=True).stdout
    return {"exit": done.returncode, "stderr": done.stderr[-2000:], "commits": len(log.splitlines())}


def held_eval(tree: Path, marks: Path, held: int, fault: Callable[[], list[int]]) -> dict:
    """`autoresearch eval` whose attempts wait for a release file: once `held` attempts have started, the
    processes `fault` names (called then) are SIGKILLed, and the attempts let go."""
    marks.mkdir()
    done: dict = {}
    runner = threading.Thread(
        target=lambda: done.update(result=cli(tree, "eval", env={"MARKS_DIR": str(marks)}, timeout=600))
    )
    runner.start()
    while len(list(marks.glob("started-*"))) < held and runner.is_alive():
        runner.join(0.05)
    for pid in fault():
        os.kill(pid, signal.SIGKILL)
    (marks / "release").touch()
    runner.join()
    result = done["result"]
    return {
        "exit": result.returncode,
        "stderr": result.stderr[-2000:],
        "rows": rows(tree) if result.returncode == 0 else [],
        "started": len(list(marks.glob("started-*"))),
    }


def lose_a_node(work: Path, on_ray: dict) -> dict:
    """The second node's raylet is SIGKILLed while both nodes hold a test: the eval still scores every test once."""
    return held_eval(repo(work / "lost", on_ray), work / "marks", 2, lambda: [raylet_of_worker()])


def lose_the_cluster(work: Path, on_ray: dict) -> dict:
    """Every Ray server of the cluster SIGKILLed while a test runs: the eval stops with exit 40 and one line.
    Through Ray Client (`ray://`): a driver attached to a node's raylet is ended by Ray itself when it dies."""
    return held_eval(repo(work / "gone", on_ray), work / "marks-gone", 1, ray_servers)


def ray_servers() -> list[int]:
    return [pid for pid, args in processes() if args[0].endswith((b"gcs_server", b"raylet"))]


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
