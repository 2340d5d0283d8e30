"""Work of a cycle run in threads at once (candidates' mutations, their evaluations), waited for so that an
interruption of the daemon ends it rather than waits for it."""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

from autoresearch.optimizer import signals
from autoresearch.plumbing import process


def all_at_once(jobs: list[Callable[[], None]]) -> None:
    """Run the jobs in threads and wait for them all (see `wait_all`)."""
    with ThreadPoolExecutor(max_workers=len(jobs), thread_name_prefix="candidate") as pool:
        wait_all([submit(pool, job) for job in jobs])


def submit(pool: ThreadPoolExecutor, fn: Callable[..., None], *args: Any) -> Future[None]:
    """`pool.submit` in a copy of this thread's context, which a pool's thread does not get: the job's log lines
    name the experiment, cycle and phase, as the cycle's own do."""
    return pool.submit(contextvars.copy_context().run, fn, *args)


def wait_all(futures: list[Future[None]]) -> None:
    """Wait for the futures; a job's exception is raised here. An interruption of the daemon (Ctrl-C, SIGTERM)
    arrives in this thread: the jobs' processes and their calls to a Ray cluster are ended, so that the threads
    end too before it goes on; again until they have, since a job may start its next command after a sweep."""
    try:
        for future in futures:
            future.result()
    except BaseException:
        with process.refusing():  # a candidate's runner would start its next test after each sweep
            while True:
                signals.end_started()
                if not wait(futures, timeout=0.5).not_done:
                    break
        raise
