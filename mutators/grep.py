"""The `search` tool's matching, in a child process killed at a deadline.

Python's `re` backtracks without bound (`(a+)+$` on a line of 40 a's and a b
runs for hours) and cannot be interrupted from another thread, so the lines
are matched in a child (`python -I -S` running this file: stdlib only, nothing
of the repository or of site-packages on its path) that `subprocess.run` kills
when the time is up. Chosen over the `regex` package's `timeout`: no new
dependency, the tool keeps the `re` syntax it promises the model, and the kill
bounds everything the child does, reading a slow file included, not only the
matching. A search costs one interpreter start (170 ms measured on a loaded
2-core machine) against a model turn of seconds. Matches are written as they
are found, so a search that runs out of time still answers what it found.
Each line is matched with the masker's values masked (each line of a key of
several lines among them), as the model will read it (plumbing/redact.py, which
the child cannot import).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

TIMEOUT_S = 10.0
LINE_LIMIT = 300  # characters of a matching line shown
MASK = "***"  # autoresearch.plumbing.redact.MASK


def grep(
    pattern: str, files: list[Path], limit: int, timeout_s: float = TIMEOUT_S, secrets: Sequence[str] = ()
) -> tuple[list[tuple[int, int, str]], bool]:
    """((index into `files`, line number, line), timed out) for up to `limit` lines of text files that match
    once each of `secrets` in them is masked."""
    job = json.dumps({"pattern": pattern, "files": [str(f) for f in files], "limit": limit, "secrets": list(secrets)})
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", __file__], input=job.encode(), capture_output=True, timeout=timeout_s
        )
        output, timed_out = done.stdout, False
    except subprocess.TimeoutExpired as expired:  # the child is killed by now; keep what it wrote
        output, timed_out = expired.stdout or b"", True
    found = []
    for line in output.decode("utf-8", errors="replace").splitlines():
        try:
            found.append(tuple(json.loads(line)))
        except json.JSONDecodeError:
            break  # the line the kill cut short
    return found, timed_out


def _child() -> None:
    job = json.load(sys.stdin)
    regex, room = re.compile(job["pattern"]), job["limit"]
    for number, name in enumerate(job["files"]):
        found = _matches(regex, number, name, room, job["secrets"])
        for match in found:
            print(json.dumps(match), flush=True)
        room -= len(found)
        if room <= 0:
            return


def _matches(regex: re.Pattern[str], number: int, name: str, room: int, secrets: list[str]) -> list[list[int | str]]:
    found: list[list[int | str]] = []
    try:
        with open(name, encoding="utf-8", errors="replace") as handle:
            for line_number, line in enumerate(handle, 1):
                if "\0" in line:
                    return []  # binary
                for secret in secrets:
                    line = line.replace(secret, MASK)
                if regex.search(line):
                    found.append([number, line_number, line.rstrip()[:LINE_LIMIT]])
                    if len(found) >= room:
                        break
    except OSError:
        return []  # gone or unreadable since it was listed
    return found


if __name__ == "__main__":
    _child()
