"""What a hostile user does to a run on ray, on cluster.py's real two-node cluster: signals mid-eval, a killed
Ray driver process, a tree too big to ship, a cluster that never answers, objects freed while threads send.

Each scenario returns what a user would see: exit codes, how long a signal took to end the command, the tree
afterwards, and what was left running in the namespace (Ray driver processes, held targets).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from autoresearch.runs.executors.cluster import Driver
from autoresearch.runs.executors.config import ExecutorConfig
from tests.helpers.repos import GIT_ENV, cli
from tests.runs.executors import cluster  # (which imports this module: its names are looked up when called)

TREE = "AUTORESEARCH_TEST_TREE"  # on the commands the scenarios run in a tree: the Ray drivers they start inherit it


def in_tree(tree: Path) -> dict[str, str]:
    """The variable that names a command's tree to `drivers`: a driver works in `/`, whatever its daemon's folder."""
    return {TREE: str(tree.resolve())}


HOLD_RUN = {"mutator": "sh -c 'echo hold boost1 >> prompt.md'", "prompt": "fact0 fact1 fact2\n"}  # the candidate holds


def interrupted(tree: Path, marks: Path, ready: Callable[[], bool], signum: int, group: bool, *args: str) -> dict:
    """`autoresearch ARGS`, a job of its own process group as a shell starts it, sent `signum` once `ready()` (to
    the group, as Ctrl-C does, or to the daemon alone): how long it took to exit while its attempts still held,
    and what it left running once it had, and how many nodes the cluster had then. Held attempts are let go after a
    minute, and at the end."""
    marks.mkdir()
    log = marks.with_suffix(".stderr")
    with log.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "autoresearch.optimizer", *args],
            cwd=tree,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**os.environ, **GIT_ENV, "NO_COLOR": "1", "MARKS_DIR": str(marks), **in_tree(tree)},
            start_new_session=True,
        )
    while not ready() and proc.poll() is None:
        time.sleep(0.05)
    nodes = len([pid for pid, args in cluster.processes() if args[0].endswith(b"raylet")])
    began = time.monotonic()
    os.killpg(proc.pid, signum) if group else os.kill(proc.pid, signum)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:  # still waiting for its tasks: let them go
        (marks / "release").touch()
        proc.wait()
    seconds = round(time.monotonic() - began, 1)
    # Ray ends an interrupted job's workers on its own time, and each worker's watcher (plumbing.reaper) then ends
    # its commands after a 5 s grace: on a loaded 2-core machine that has taken more than 15 s. A target leaked
    # for good still holds (until it is released, a minute after it started), and is counted.
    left = {"drivers": settled(lambda: drivers(tree)), "targets": settled(lambda: held_targets(marks), 30)}
    left["left_running"] = [described(pid) for pid in held_targets(marks)]  # what a failure needs to be understood
    (marks / "release").touch()
    return {"exit": proc.returncode, "seconds": seconds, "nodes": nodes, "stderr": log.read_text()[-2000:], **left}


def described(pid: int) -> dict:
    """A process left running: its parent, group and session, and the command lines of its parent and of the
    watchers (plumbing/watcher.py) still alive."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        parent = Path(f"/proc/{fields[1]}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:  # ended meanwhile
        return {"pid": pid, "ended": True}
    watchers = [
        b" ".join(args).decode()
        for _, args in cluster.processes()
        if any(a.endswith(b"plumbing/watcher.py") for a in args)
    ]
    return {
        "pid": pid,
        "ppid": int(fields[1]),
        "pgid": int(fields[2]),
        "sid": int(fields[3]),
        "parent": parent[:300],
        "watchers": watchers,
    }


def started(marks: Path, count: int) -> Callable[[], bool]:
    return lambda: len(list(marks.glob("started-*"))) >= count


def settled(find: Callable[[], list[int]], seconds: float = 15) -> int:
    """How many of what `find` lists are still there after up to `seconds` (what ends on its own ends by then)."""
    deadline = time.monotonic() + seconds
    while (found := find()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return len(found)


def drivers(tree: Path) -> list[int]:
    """The Ray driver processes of the commands run in `tree`, orphans included (by the variable they inherit)."""
    found = []
    mark = f"{TREE}={tree.resolve()}".encode()
    for pid, args in cluster.processes():
        try:
            if b"autoresearch.runs.executors.driver" in args and mark in Path(
                f"/proc/{pid}/environ"
            ).read_bytes().split(b"\0"):
                found.append(pid)
        except OSError:  # ended meanwhile
            continue
    return found


def held_targets(marks: Path) -> list[int]:
    """The targets that started holding and are still alive."""
    alive = {pid for pid, args in cluster.processes() if any(a.endswith(b"agent.py") for a in args)}
    return [pid for p in marks.glob("started-*") if (pid := int(p.name.rsplit("-", 1)[1])) in alive]


def tree_state(tree: Path) -> dict:
    status = subprocess.run(["git", "status", "--porcelain"], cwd=tree, capture_output=True, text=True).stdout
    head = subprocess.run(["git", "show", "HEAD:prompt.md"], cwd=tree, capture_output=True, text=True).stdout
    return {"clean": status == "", "restored": (tree / "prompt.md").read_text() == head}


def resumed(tree: Path, result: dict) -> dict:
    """The tree as the command left it, and the next `run` on it."""
    state = tree_state(tree)
    again = cli(tree, "run", "--max-cycles", "2", timeout=600)
    then = {"resumed_exit": again.returncode, "resumed_stderr": again.stderr[-2000:], "commits": cluster.commits(tree)}
    return {**result, **state, **then}


def signals_mid_eval(work: Path, on_ray: dict) -> dict:
    """Ctrl-C to `eval` while both nodes hold a test; SIGTERM to the daemon of `run` while its candidate's tests
    run; Ctrl-C to `run` while two candidates' tests run at once."""
    marks = [work / f"marks-signal-{i}" for i in range(3)]
    tree = cluster.repo(work / "sigint-eval", on_ray)
    out = {"eval_ctrl_c": interrupted(tree, marks[0], started(marks[0], 2), signal.SIGINT, True, "eval")}
    tree = cluster.repo(work / "sigterm-run", on_ray, **HOLD_RUN)
    stopped = interrupted(tree, marks[1], started(marks[1], 2), signal.SIGTERM, False, "run", "--max-cycles", "2")
    out["run_sigterm"] = resumed(tree, stopped)
    tree = cluster.repo(work / "sigint-candidates", on_ray, extra={"search": {"candidates": 2}}, **HOLD_RUN)
    stopped = interrupted(tree, marks[2], started(marks[2], 2), signal.SIGINT, True, "run", "--max-cycles", "2")
    out["candidates_ctrl_c"] = resumed(tree, stopped)
    return out


def driver_killed(work: Path, on_ray: dict) -> dict:
    """The Ray driver process SIGKILLed mid-eval (as an OOM killer would): exit 40, one line, the tree restored."""
    tree = cluster.repo(work / "driver-killed", on_ray, **HOLD_RUN)
    return resumed(
        tree, cluster.held(tree, work / "marks-driver", 1, lambda: drivers(tree), "run", "--max-cycles", "2")
    )


def snapshot_too_big(work: Path, on_ray: dict) -> dict:
    """A tree over `executor.max_snapshot_mb`, for `eval` and `run`: its exit, and what it wrote first."""
    out = {}
    for command in (("eval",), ("run", "--max-cycles", "1")):
        tree = cluster.repo(work / f"too-big-{command[0]}", {**on_ray, "max_snapshot_mb": 0.0001})
        done = cli(tree, *command, timeout=300)
        written = sorted(str(p.relative_to(tree)) for p in (tree / ".autoresearch").rglob("*"))
        out[command[0]] = {"exit": done.returncode, "stderr": done.stderr[-2000:], "written": written}
    return out


def frees_while_sending(on_ray: dict) -> list[str]:
    """Many objects freed (as the garbage collector frees a finished eval's) while eight threads send to one
    driver at once: the errors the threads met."""
    driver = Driver(on_ray["address"], ExecutorConfig(type="ray"), None)
    errors: list[str] = []
    for _ in range(3):
        driver.free(list(range(10**6, 2 * 10**6)))
        together = threading.Barrier(8)
        threads = [threading.Thread(target=_put, args=(driver, together, errors)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    driver.end("done")
    return errors


def _put(driver: Driver, together: threading.Barrier, errors: list[str]) -> None:
    together.wait()
    try:
        driver.put(b"x")
    except Exception as exc:
        errors.append(type(exc).__name__)


def silent_cluster(work: Path, on_ray: dict) -> dict:
    """An address where something listens and never answers (a wrong port, a hung head), in both forms: how long
    `eval` takes to refuse it and the drivers it leaves; and Ctrl-C while it waits for the connection."""
    port = silent_listener()
    out: dict = {}
    for form in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        tree = cluster.repo(work / f"silent-{len(out)}", {**on_ray, "address": form})
        began = time.monotonic()
        done = cli(tree, "eval", env=in_tree(tree), timeout=900)
        seconds = round(time.monotonic() - began)
        out[form] = {"exit": done.returncode, "seconds": seconds, "stderr": done.stderr[-1000:]}
        out[form]["drivers"] = settled(lambda: drivers(tree), 5)
    tree = cluster.repo(work / "silent-interrupted", {**on_ray, "address": f"127.0.0.1:{port}"})
    connecting = lambda: bool(drivers(tree))  # noqa: E731
    out["ctrl_c"] = interrupted(tree, work / "marks-silent", connecting, signal.SIGINT, True, "eval")
    return out


def silent_listener() -> int:
    """A port on 127.0.0.1 that accepts connections and never says a word: its number."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def serve() -> None:
        while True:
            accepted.append(server.accept()[0])

    threading.Thread(target=serve, daemon=True).start()
    return int(server.getsockname()[1])
