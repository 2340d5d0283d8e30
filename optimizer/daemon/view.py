"""What `run` shows in a terminal while it follows the daemon: the daemon's log lines, and where the loop is.

In a colour terminal (rich): KEEP green, DROP red, ERROR grey; each line wrapped at word boundaries to
the terminal's width; and under them one status line (cycle, phase, time in that phase) redrawn as it
changes. With NO_COLOR, or when stderr is not a terminal, the lines are printed exactly as `logs`
renders them and nothing is redrawn.
"""

from __future__ import annotations

import json
import re
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from rich.console import Console
from rich.live import Live
from rich.text import Text

from autoresearch.optimizer.daemonlog import render_line
from autoresearch.optimizer.experiment import state as state_file
from autoresearch.plumbing.errors import AutoresearchError
from autoresearch.runs.runner.progress import fancy

DECISIONS = {"keep": "bold green", "drop": "bold red", "error": "bold bright_black"}
STATE_EVERY_S = 0.5  # state.json is read this often at most: the status line shows whole seconds


class PlainView:
    def __init__(self, quiet: bool):
        self.quiet = quiet

    def line(self, raw: str) -> None:
        text = render_line(raw, self.quiet)
        if text is not None:
            print(text, file=sys.stderr, flush=True)

    def tick(self) -> None:
        """Nothing is redrawn in plain output."""

    def close(self) -> None:
        """Nothing to take down."""


class LiveView(PlainView):
    def __init__(self, quiet: bool, state_path: Path):
        super().__init__(quiet)
        self.state_path, self.read_at = state_path, 0.0
        self.where: tuple[int, str, datetime] | None = None
        self.console = Console(file=sys.stderr, highlight=False)
        self.live = Live(Text(""), console=self.console, transient=True, auto_refresh=False)
        self.live.start()

    def line(self, raw: str) -> None:
        text = render_line(raw, self.quiet)
        if text is not None:
            self.console.print(styled(raw, text), overflow="fold", markup=False)

    def tick(self) -> None:
        now = time.monotonic()
        if now - self.read_at >= STATE_EVERY_S:
            self.read_at, self.where = now, _where(self.state_path) or self.where
        if self.where is not None:
            cycle, phase, since = self.where
            seconds = max(0, int((datetime.now(timezone.utc) - since).total_seconds()))
            status = f"cycle {cycle} · {phase} for {seconds // 60}:{seconds % 60:02d}"
            self.live.update(Text(status, style="dim"), refresh=True)

    def close(self) -> None:
        self.live.stop()


def view(quiet: bool, state_path: Path) -> PlainView:
    return LiveView(quiet, state_path) if fancy(sys.stderr) else PlainView(quiet)


def styled(raw: str, text: str) -> Text:
    """The rendered line with its decision (`keep`, `drop`, `error`) in capitals and colour."""
    out = Text(text)
    try:
        event = json.loads(raw)
    except ValueError:
        return out
    word = event.get("event") if isinstance(event, dict) else None
    if word in DECISIONS:
        found = re.search(rf"(?<= ){word}(?= |$)", text)  # the prefix's phase names are never a decision
        if found:
            out = Text(text[: found.start()] + word.upper() + text[found.end() :])
            out.stylize(DECISIONS[word], found.start(), found.end())
    return out


def _where(state_path: Path) -> tuple[int, str, datetime] | None:
    """(cycle, phase, since when) from state.json; None while it is missing or unreadable. The state's
    cycle is the last one recorded: while a cycle mutates, evaluates or decides, it is the next one."""
    try:
        st = state_file.load(state_path)
    except AutoresearchError:
        return None
    if st is None:
        return None
    try:
        since = datetime.fromisoformat(st.phase_started_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    cycle = st.cycle + 1 if st.phase in ("mutate", "eval", "decide") else st.cycle
    return cycle, st.phase, since if since.tzinfo else since.replace(tzinfo=timezone.utc)
