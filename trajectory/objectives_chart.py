"""The objectives chart: each objective's trajectory over the cycles, and the candidates a gate blocked.

Objectives have their own units (dollars, milliseconds, tokens, lines), so
each line is drawn relative to its value at the first cycle that measured it
(1 = as the original; 0.5 = half of it), and its tooltip says the number
itself. A candidate a promotion gate blocked is a diamond on the top edge,
its tooltip naming the gate and why.
"""

from __future__ import annotations

from collections.abc import Sequence

from autoresearch.trajectory.charts import series_color
from autoresearch.trajectory.drawn import Drawn
from autoresearch.trajectory.svg import LEFT, TOP, Frame, esc, fmt, open_svg

GATE = "#bc4c00"
LINE = tuple[str, list[tuple[int, float, float]]]  # (objective, [(cycle, relative value, value)])


def trajectories(records: Sequence[Drawn]) -> list[LINE]:
    """Per objective, its (cycle, value relative to the first non-zero one, value) over the cycles that measured it."""
    by_name: dict[str, list[tuple[int, float]]] = {}
    for r in records:
        for name, value in (r.objectives or {}).items():
            by_name.setdefault(name, []).append((r.cycle, value))
    lines = []
    for name, values in by_name.items():
        base = next((abs(v) for _, v in values if v), 0.0) or 1.0
        lines.append((name, [(c, v / base, v) for c, v in values]))
    return lines


def objectives_chart(records: Sequence[Drawn]) -> str | None:
    """The chart, or None when no cycle recorded objectives (a history written before them)."""
    lines = trajectories(records)
    if not lines:
        return None
    gated = [r for r in records if r.gate]
    cycles = [c for _, points in lines for c, _, _ in points] + [r.cycle for r in gated]
    relative = [rel for _, points in lines for _, rel, _ in points]
    frame = Frame.of((min(cycles), max(cycles)), (min(0.0, *relative), max(1.0, *relative) * 1.1))
    parts = [open_svg("objectives-chart", f"{len(lines)} objectives per cycle, relative to the original", False)]
    parts.append(frame.axes("relative to the original", lambda v: f"{v:g}×"))
    for i, (name, points) in enumerate(lines):
        color = series_color(i)
        dots = "".join(
            f'<circle cx="{frame.at(c)}" cy="{frame.level(rel)}" r="2.5">'
            f"<title>{esc(f'cycle {c} · {name} {value:.4g}')}</title></circle>"
            for c, rel, value in points
        )
        parts.append(
            f'<g class="objective" data-objective="{esc(name)}" stroke="{color}" fill="{color}">'
            f'<polyline fill="none" stroke-width="1.8" points="{frame.points((c, rel) for c, rel, _ in points)}"/>'
            f"{dots}</g>"
        )
    parts.append(_gate_marks(frame, gated))
    parts.append(_legend([(name, series_color(i)) for i, (name, _) in enumerate(lines)] + [("gate-blocked", GATE)]))
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
