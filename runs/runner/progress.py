"""Progress on stderr while an eval runs, drawn only when stderr is a terminal (never in logs or cron mail).

In a colour terminal it is a live rich bar: tests done of total, the running mean, elapsed time and
ETA. With NO_COLOR set it is the plain one-line bar it has always been.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO


def fancy(stream: TextIO) -> bool:
    """Whether `stream` gets rich's live, coloured output: a terminal, and no NO_COLOR (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


class Progress:
    WIDTH = 30

    def __init__(self, total: int, stream: TextIO | None = None):
        self.total, self.done, self.score_sum = total, 0, 0.0
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.live = _Live(total, self.stream) if fancy(self.stream) else None

    def update(self, score: float) -> None:
        self.done += 1
        self.score_sum += score
        if self.live is not None:
            self.live.update(self.done, self.score_sum / self.done)
        elif self.enabled:
            filled = self.WIDTH * self.done // max(1, self.total)
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} tests  mean {self.score_sum / self.done:.3f}")
            self.stream.flush()

    def close(self) -> None:
        if self.live is not None:
            self.live.close()
        elif self.enabled:
            self.stream.write("\n")
            self.stream.flush()


class _Live:
    """rich's Progress, started at once so elapsed time counts from the first test."""

    def __init__(self, total: int, stream: TextIO):
        # rich (60 ms to import) only for a terminal: an eval in cron, a script or a pipe never draws it
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        self.bar = RichProgress(
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("tests  mean {task.fields[mean]}"),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(file=stream),
        )
        self.task = self.bar.add_task("eval", total=total, mean="–")
        self.bar.start()

    def update(self, done: int, mean: float) -> None:
        self.bar.update(self.task, completed=done, mean=f"{mean:.3f}")

    def close(self) -> None:
        self.bar.stop()
