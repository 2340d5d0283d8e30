"""Kill points for the crash-safety tests, off unless the tests turn them on.

`AUTORESEARCH_TEST_KILL_AT=<point>:<n>` makes the daemon SIGKILL itself the
n-th time it reaches `<point>`: the test harness uses it to crash the loop at
exact places (between a commit and its log line, say) and then checks that a
restart reconciles. `<point>:<n>:SIGTERM` sends that signal instead, to check
that a signal the daemon handles never splits a decision; `<point>:<n>:SIGINT:group`
sends it to the daemon's whole process group, as Ctrl-C in a terminal, `timeout`
or systemd do (bench/fault_campaign.py). `<point>:<n>:SIGSTOP` stops it there
until the test sends SIGCONT: two processes held each at its point act in the
order the test chooses, with no sleep (tests/optimizer/startup/test_config_reread.py).
Nothing else reads the variable.
"""

from __future__ import annotations

import os
import signal

ENV = "AUTORESEARCH_TEST_KILL_AT"
_seen: dict[str, int] = {}


def point(name: str) -> None:
    spec = os.environ.get(ENV)
    if not spec:
        return
    target, _, rest = spec.partition(":")
    if target != name:
        return
    count, _, rest = rest.partition(":")
    signal_name, _, to = rest.partition(":")
    _seen[name] = _seen.get(name, 0) + 1
    if _seen[name] == int(count or 1):
        signum = signal.Signals[signal_name or "SIGKILL"]
        if to == "group":
            os.killpg(os.getpgrp(), signum)
        else:
            os.kill(os.getpid(), signum)
