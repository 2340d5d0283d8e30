"""The score chart as an image file, for pasting into a PR, a doc or a chat.

SVG is drawn in Python by the same code as the page. PNG is rasterised by
resvg (a Rust renderer shipped as a wheel, resvg-py): no browser to install
or launch, so `chart --png` works on a bare server. It draws the axis labels
with the machine's own fonts (any sans-serif, e.g. DejaVu or Liberation).
"""

from __future__ import annotations

import resvg_py

from autoresearch.trajectory import chartdata, charts
from autoresearch.trajectory.iterations import Iteration

SCALE = 2  # device pixels per SVG pixel: sharp on high-density screens
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def score_svg(records: list[Iteration], reading: chartdata.Reading = chartdata.Reading()) -> str:
    return charts.score_chart(chartdata.series(records, reading), standalone=True) + "\n"


def png(svg: str) -> bytes:
    """A standalone SVG (it carries its own size) as PNG bytes at SCALE times its size."""
    data = bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=SCALE, background="#ffffff"))
    if not data.startswith(PNG_MAGIC):
        raise ValueError("resvg returned no PNG")
    return data
