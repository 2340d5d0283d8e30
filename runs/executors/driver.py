"""The Ray driver: a process of its own that holds the cluster connection for autoresearch.

Why a separate process: a driver connected with `host:port` or `auto` is attached to its node's raylet, and
when that raylet dies Ray ends the driver's process on the spot (no Python code runs). Were the daemon the
driver, losing the cluster would be a `kill -9` of the run. Here it ends this process instead; the daemon sees
its connection close and stops the run as an error (exit 40) with the tree restored.

Run as `python -m autoresearch.runs.executors.driver FD`, FD one end of a socket pair. Messages are pickled
tuples `(verb, id, payload)`:

    connect  (address, options)              -> ok | missing (Ray) | unreachable
    put      bytes                           -> ok (a key for the object)
    call     (snapshot key, digest, env key, fresh, fn, args)
                                             -> ok (the value) | failed | node-lost | lost

Ray never runs a task again (`max_retries` 0): a task whose node was lost is `node-lost`, and the daemon runs it
again itself, up to `executor.max_retries` times, counting each attempt lost (autoresearch.runs.executors.cluster).
    free     [keys]                          (no reply)

Each call waits for its result in a thread of its own, so calls are answered as they finish. The process ends
when the daemon's end of the socket closes (the daemon exited or was killed); it ignores the terminal's
Ctrl-C, which the daemon handles.
"""

from __future__ import annotations

import itertools
import logging
import os
import pickle
import signal
import socket
import sys
import threading
from multiprocessing.connection import Connection
from typing import Any

from autoresearch.runs.executors.worker import run_in_snapshot


def main(fd: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    conn = Connection(fd)
    lock = threading.Lock()

    def reply(*message: Any) -> None:
        try:
            data = pickle.dumps(message)
        except Exception as exc:  # a value pickle cannot carry back: that test's error
            data = pickle.dumps(("failed", message[1], f"the task's result cannot be sent back ({exc})"))
        with lock:
            try:
                conn.send_bytes(data)
            except OSError:  # the daemon is gone: this process ends at the next read
                pass

    _verb, rid, (address, options) = pickle.loads(conn.recv_bytes())
    try:
        ray = _connect(address)
    except ImportError as exc:  # Ray, or a library of its, is missing
        reply("missing", rid, first_line(exc))
        return
    except Exception as exc:  # whatever Ray raises for a cluster it cannot reach
        reply("unreachable", rid, first_line(exc))
        return
    task = ray.remote(run_in_snapshot).options(retry_exceptions=False, max_retries=0, **options)
    objects: dict[int, Any] = {}
    keys = itertools.count(1)
    reply("ok", rid, None)
    while True:
        try:
            verb, rid, payload = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            os._exit(0)  # the daemon is gone; Ray cleans up after a driver that left
        if verb == "put":
            try:
                key = next(keys)
                objects[key] = ray.put(payload)
                reply("ok", rid, key)
            except Exception as exc:
                reply("lost", rid, f"the Ray cluster at {address!r} took no object ({first_line(exc)})")
        elif verb == "free":
            for key in payload:
                objects.pop(key, None)
        elif verb == "call":
            data, digest, env, fresh, fn, args = payload
            try:
                ref = task.remote(objects[data], digest, objects[env], fresh, fn, *args)
            except Exception as exc:
                reply("lost", rid, f"lost the Ray cluster at {address!r}: {first_line(exc)}")
                continue
            threading.Thread(target=_wait, args=(ray, ref, rid, address, reply), daemon=True).start()


def _connect(address: str) -> Any:
    import ray

    answers(address)
    ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR, configure_logging=False)
    return ray


def _wait(ray: Any, ref: Any, rid: int, address: str, reply: Any) -> None:
    try:
        value = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        reply("failed", rid, first_line(exc.cause if exc.cause is not None else exc))
    except (
        ray.exceptions.WorkerCrashedError,
        ray.exceptions.NodeDiedError,
        ray.exceptions.ObjectLostError,
        ray.exceptions.OutOfMemoryError,
        ray.exceptions.TaskUnschedulableError,
    ) as exc:  # its node or worker lost (the daemon decides), or nowhere to run: this test's error
        lost = not isinstance(exc, ray.exceptions.TaskUnschedulableError)
        reply("node-lost" if lost else "failed", rid, f"Ray: {first_line(exc)}")
    except Exception as exc:
        reply("lost", rid, f"lost the Ray cluster at {address!r}: {first_line(exc)}")
    else:
        reply("ok", rid, value)


def answers(address: str) -> None:
    """Something listens at a `host:port` or `ray://host:port` address: Ray itself waits about two minutes
    for a cluster that is not there, and rewrites 127.0.0.1 to the machine's address while it does."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"expected auto, host:port or ray://host:port, not {address!r}")
    with socket.create_connection((host.strip("[]"), int(port)), timeout=10):
        pass


def first_line(exc: BaseException) -> str:
    """The message's first line, and the next one when the first only announces it ("...failure from server:")."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    return f"{lines[0]} {lines[1]}" if lines[0].endswith(":") and len(lines) > 1 else lines[0]


if __name__ == "__main__":
    main(int(sys.argv[1]))
