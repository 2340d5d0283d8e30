"""Axes for hand-drawn SVG charts: scales, round tick values, grid lines and labels.

Drawing our own SVG (rather than shipping a charting library) keeps the page
one small file that renders offline, from disk, and with scripts disabled;
`autoresearch chart --svg` reuses the same drawing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from html import escape
from itertools import islice
from typing import TypeVar

WIDTH, HEIGHT = 960, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 30, 34  # the plot area is what these margins leave
PAD = 6  # pixels from the plot area's edge to a mark's centre at the end of a scale: the largest mark fits inside
CHUNK = 64  # pieces of markup joined at a time (see `joined`)
AT_WIDTH = 8  # bytes a whole cycle's x, as drawn, takes in `Frame`'s kept coordinates
AT_CYCLES = 1 << 16  # of a cycle axis, how many cycles' x are kept at most (a line may name any cycle)
KEEP = 128  # of the other coordinates, how many a chart keeps drawn at most (see `Frame.level`)
T = TypeVar("T")


def esc(value: object) -> str:
    """Text and attribute values from iterations.jsonl are never markup."""
    return escape(str(value), quote=True)


def fmt(value: float) -> str:
    """Coordinates with one decimal: enough for the eye, small for 50,000 points."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def joined(pieces: Iterable[str], sep: str = "") -> str:
    """`sep.join(pieces)`, holding at most `CHUNK` of the pieces at a time: a chart draws a piece per line
    of the night (a point, a coordinate pair), and the live page, redrawn all night, held them all at once:
    its peak of small objects, and with it the free memory Python keeps around what stays, grew with the night."""
    return sep.join(sep.join(chunk) for chunk in batches(pieces))


def batches(items: Iterable[T], size: int = CHUNK) -> Iterator[list[T]]:
    """The items, `size` at a time."""
    rest = iter(items)
    return iter(lambda: list(islice(rest, size)), [])


@dataclass(frozen=True)
class Scale:
    lo: float
    hi: float
    start: float  # pixels
    end: float

    def __call__(self, value: float) -> float:
        if self.hi == self.lo:
            return (self.start + self.end) / 2
        return self.start + (value - self.lo) / (self.hi - self.lo) * (self.end - self.start)


def nice_step(span: float, count: int) -> float:
    """A step of 1, 2 or 5 times a power of ten giving about `count` ticks."""
    if span <= 0:
        return 1.0
    raw = span / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def ticks(lo: float, hi: float, count: int = 5, integer: bool = False) -> list[float]:
    step = nice_step(hi - lo, count)
    if integer:
        step = max(1.0, round(step))
    first = math.ceil(lo / step - 1e-9) * step
    out, value = [], first
    while value <= hi + step * 1e-9:
        out.append(round(value, 10))
        value += step
    return out


@dataclass(frozen=True)
class Frame:
    """The plot area of one chart: an x scale over cycles and a y scale over values."""

    x: Scale
    y: Scale
    first: int = 0  # the whole cycle whose x `_cycles` keeps first
    _cycles: bytearray = field(default_factory=bytearray, compare=False, repr=False)  # see `at`: of the axis's cycles
    _at: dict[float, str] = field(default_factory=dict, compare=False, repr=False)
    _level: dict[float, str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, cycles: tuple[int, int], values: tuple[float, float], reach: float = 0.0) -> "Frame":
        """`reach`: how far from its cycle, in cycles, a mark may be drawn (a cycle's candidates are spread
        around it); the cycle axis makes that much room on both ends, so that no mark leaves the plot."""
        c0, c1 = cycles
        if c0 == c1:  # one cycle: center it rather than divide by zero
            c0, c1 = c0 - 1, c1 + 1
        return cls(
            Scale(c0 - reach, c1 + reach, LEFT + PAD, WIDTH - RIGHT - PAD),
            Scale(values[0], values[1], HEIGHT - BOTTOM - PAD, TOP + PAD),
            c0,
            bytearray(AT_WIDTH * min(max(int(c1 - c0) + 1, 0), AT_CYCLES)),  # none where the last is below the first
        )

    def axes(self, y_label: str, y_format: Callable[[float], str] = "{:g}".format) -> str:
        parts = ['<g class="axes" fill="#57606a" font-size="12">']
        for v in ticks(self.y.lo, self.y.hi):
            y = fmt(self.y(v))
            parts.append(
                f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}" stroke="#d0d7de" stroke-width="1"/>'
                f'<text x="{LEFT - 6}" y="{y}" text-anchor="end" dominant-baseline="middle">{esc(y_format(v))}</text>'
            )
        for v in ticks(self.x.lo, self.x.hi, 10, integer=True):
            parts.append(f'<text x="{self.at(v)}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{int(v)}</text>')
        parts.append(
            f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 3}" text-anchor="middle">cycle</text>'
            f'<text x="12" y="{(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle" '
            f'transform="rotate(-90 12 {(TOP + HEIGHT - BOTTOM) / 2})">{esc(y_label)}</text></g>'
        )
        return "".join(parts)

    def at(self, cycle: float) -> str:
        """A cycle's x as drawn, formatted once per chart: its series (five assertions, the cost's four
        edges) draw the same cycles over and over, and formatting coordinates was a redraw's largest cost.
        A whole cycle's is kept as bytes, `AT_WIDTH` a cycle, not as a string in a mapping: the live page is
        redrawn all night, and a string and a number per cycle made its peak grow with the night."""
        if type(cycle) is not int or cycle < self.first:
            return _kept(self._at, cycle, self.x)
        place = (cycle - self.first) * AT_WIDTH
        kept = self._cycles[place : place + AT_WIDTH]
        if kept and kept[0]:
            return kept.rstrip(b"\0").decode()
        text = fmt(self.x(cycle))
        if kept and len(text) <= AT_WIDTH:
            self._cycles[place : place + AT_WIDTH] = text.encode().ljust(AT_WIDTH, b"\0")
        return text

    def level(self, value: float) -> str:
        """A value's y as drawn, formatted once per chart, like `at`: pass rates of two decimals repeat, and so
        does each cumulative cost (the top of one area, the bottom of the next)."""
        return _kept(self._level, value, self.y)

    def points(self, values: Iterable[tuple[int, float]]) -> str:
        return joined((f"{self.at(c)},{self.level(v)}" for c, v in values), " ")


def _kept(drawn: dict[float, str], value: float, scale: Scale) -> str:
    """`value` as `scale` draws it, from `drawn` when it is there; at most `KEEP` kept, so that a night of
    values that never repeat (each cycle's cumulative cost) does not make a redraw's peak grow with it."""
    text = drawn.get(value)
    if text is None:
        if len(drawn) >= KEEP:
            drawn.clear()
        text = drawn[value] = fmt(scale(value))
    return text


def open_svg(chart_id: str, label: str, standalone: bool) -> str:
    """A standalone SVG (a file of its own) needs its namespace, its size and a background."""
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    size = f' width="{WIDTH}" height="{HEIGHT}"' if standalone else ""
    background = f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>' if standalone else ""
    return (
        f'<svg{ns} id="{chart_id}" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}"{size} role="img" '
        f'aria-label="{esc(label)}" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">{background}'
    )
