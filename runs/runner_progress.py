"""A one-line progress bar on stderr, drawn only when stderr is a terminal (never in logs or cron mail)."""

from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    WIDTH = 30

    def __init__(self, total: int, stream: TextIO | None = None):
        self.total, self.done, self.score_sum = total, 0, 0.0
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()

    def update(self, score: float) -> None:
        self.done += 1
        self.score_sum += score
        if not self.enabled:
            return
        filled = self.WIDTH * self.done // max(1, self.total)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} tests  mean {self.score_sum / self.done:.3f}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
