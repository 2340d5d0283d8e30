"""The score chart as an image file, for pasting into a PR, a doc or a chat.

SVG is drawn in Python by the same code as the page. PNG is rasterised by a
headless Chromium when one is installed: a pure-Python rasteriser would need
its own font and text layout to draw the axis labels, while the browser
draws the SVG exactly as the page shows it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from autoresearch.trajectory import chartdata, charts
from autoresearch.trajectory.iterations import Iteration
from autoresearch.trajectory.svg import HEIGHT, WIDTH

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SCALE = 2  # device pixels per SVG pixel: sharp on high-density screens


def score_svg(records: list[Iteration], reading: chartdata.Reading = chartdata.Reading()) -> str:
    return charts.score_chart(chartdata.series(records, reading), standalone=True) + "\n"


def find_browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def png_command(browser: str, svg: Path, png: Path) -> list[str]:
    """Chromium's own screenshot mode: no driver, no network, one process that exits when done."""
    return [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--force-device-scale-factor={SCALE}",
        f"--window-size={WIDTH},{HEIGHT}",
        f"--screenshot={png}",
        svg.resolve().as_uri(),
    ]


def is_png(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(8) == b"\x89PNG\r\n\x1a\n"
    except FileNotFoundError:
        return False
