"""The objectives chart: each objective's trajectory over the cycles, and the candidates a gate blocked.

Objectives have their own units (dollars, milliseconds, tokens, lines), so
each line is drawn relative to its value at the first cycle that measured it
(1 = as the original; 0.5 = half of it), and its tooltip says the number
itself. A candidate a promotion gate blocked is a diamond on the top edge,
its tooltip naming the gate and why.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoresearch.trajectory.chartdata import Pairs, Series, add_objectives
from autoresearch.trajectory.charts import series_color
from autoresearch.trajectory.drawn import Drawn
from autoresearch.trajectory.svg import LEFT, TOP, Frame, esc, fmt, joined, open_svg

GATE = "#bc4c00"
LINE = tuple[str, list[tuple[int, float, float]]]  # (objective, [(cycle, relative value, value)])


def trajectories(records: Sequence[Drawn]) -> list[LINE]:
    """Per objective, its (cycle, value relative to the first non-zero one, value) over the cycles that measured it."""
    return [(name, [(c, v / base, v) for c, v in values]) for name, values, base in _measured(records)]


def _measured(records: Sequence[Drawn]) -> list[tuple[str, Pairs, float]]:
    """Per objective, its (cycle, value) pairs as two arrays and the value it is drawn relative to, in one pass:
    the live page reads its lines back from disk for each pass, and a tuple per line and objective, held while
    the chart was drawn, made a redraw's peak grow with the night."""
    by_name: dict[str, Pairs] = {}
    for r in records:
        add_objectives(by_name, r)
    return _relative(by_name)


def _relative(by_name: dict[str, Pairs]) -> list[tuple[str, Pairs, float]]:
    return [(name, pairs, next((abs(v) for v in pairs.values if v), 0.0) or 1.0) for name, pairs in by_name.items()]


def objectives_chart(records: Sequence[Drawn], series: Series | None = None) -> str | None:
    """The chart, or None when no cycle recorded objectives (a history written before them). With the
    records' `series`, its objectives and gated lines (found in its pass over the lines) rather than two
    passes of its own."""
    if series is None:
        lines, gated = _measured(records), [r for r in records if r.gate]
    else:
        lines, gated = _relative(series.objectives), list(series.gated)
    if not lines:
        return None
    first = min(min(pairs.cycles) for _, pairs, _ in lines)
    last = max(max(pairs.cycles) for _, pairs, _ in lines)
    cycles = (min([first, *(r.cycle for r in gated)]), max([last, *(r.cycle for r in gated)]))
    low = min(0.0, *(min(pairs.values) / base for _, pairs, base in lines))  # as each value / base: it is positive
    high = max(1.0, *(max(pairs.values) / base for _, pairs, base in lines))
    frame = Frame.of(cycles, (low, high * 1.1))
    parts = [open_svg("objectives-chart", f"{len(lines)} objectives per cycle, relative to the original", False)]
    parts.append(frame.axes("relative to the original", lambda v: f"{v:g}×"))
    for i, (name, pairs, base) in enumerate(lines):
        color = series_color(i)
        dots = joined(
            f'<circle cx="{frame.at(c)}" cy="{frame.level(v / base)}" r="2.5">'
            f"<title>{esc(f'cycle {c} · {name} {v:.4g}')}</title></circle>"
            for c, v in pairs
        )
        parts.append(
            f'<g class="objective" data-objective="{esc(name)}" stroke="{color}" fill="{color}">'
            f'<polyline fill="none" stroke-width="1.8" points="{frame.points((c, v / base) for c, v in pairs)}"/>'
            f"{dots}</g>"
        )
    parts.append(_gate_marks(frame, gated))
    parts.append(_legend([(name, series_color(i)) for i, (name, _, _) in enumerate(lines)] + [("gate-blocked", GATE)]))
    parts.append("</svg>")
    return "".join(parts)


def _gate_marks(frame: Frame, gated: list[Drawn]) -> str:
    y = frame.y(frame.y.hi)
    marks = []
    for r in gated:
        x = frame.x(r.cycle)
        diamond = f"M{fmt(x)} {fmt(y - 6)}l6 6l-6 6l-6 -6z"
        tip = f"cycle {r.cycle} · blocked by gate {r.gate} · {r.reason or ''}"
        marks.append(
            f'<path class="gated" data-cycle="{r.cycle}" data-gate="{esc(r.gate)}" d="{diamond}" fill="{GATE}">'
            f"<title>{esc(tip)}</title></path>"
        )
    return f'<g class="gate-marks">{"".join(marks)}</g>'


def _legend(items: list[tuple[str, str]]) -> str:
    """Left-aligned along the top margin: objective names are few and short."""
    parts, x = ['<g class="legend" font-size="12" fill="#57606a">'], LEFT
    for label, color in items:
        parts.append(
            f'<rect x="{x}" y="{TOP - 24}" width="10" height="10" rx="2" fill="{color}"/>'
            f'<text x="{x + 14}" y="{TOP - 15}">{esc(label)}</text>'
        )
        x += 32 + 7 * len(label)
    parts.append("</g>")
    return "".join(parts)
