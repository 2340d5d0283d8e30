"""The three charts of the trajectory page, as SVG strings.

Colours are presentation attributes so a standalone SVG looks right on its
own; the page's stylesheet overrides them for the dark theme.
"""

from __future__ import annotations

from autoresearch.trajectory.chartdata import Point, Series
from autoresearch.trajectory.svg import RIGHT, TOP, WIDTH, Frame, esc, fmt, open_svg

COLORS = {"keep": "#1a7f37", "drop": "#cf222e", "error": "#8c959f"}
BEST = "#0969da"
HOLDOUT = "#8250df"
EVAL_COST, MUTATION_COST = "#0969da", "#bf8700"


def series_color(index: int) -> str:
    """Golden-angle hues: 50 assertion lines stay distinguishable from their neighbours."""
    return f"hsl({index * 137.508 % 360:.0f}, 70%, 45%)"


def _radius(count: int) -> float:
    return 4.0 if count <= 60 else 3.0 if count <= 300 else 2.0


def _value_range(values: list[float], metric: bool = False) -> tuple[float, float]:
    """Scores in 0-1 get the whole 0-1 axis; a metric's axis fits its values (val_bpb 1.40-1.50 is not
    drawn as a flat line at the top of 0-1.5), with a margin so no point sits on the frame."""
    if not values:
        return 0.0, 1.0
    lo, hi = min(values), max(values)
    if not metric:
        return min(0.0, lo), max(1.0, hi)
    margin = (hi - lo) * 0.08 or abs(hi) * 0.05 or 1.0
    return lo - margin, hi + margin


def _cycles(points: list[Point]) -> tuple[int, int]:
    return (points[0].cycle, points[-1].cycle) if points else (1, 1)


def _title(p: Point) -> str:
    value = "no score" if p.decision == "error" else f"{p.score:.4g}"
    return f"cycle {p.cycle} · {value} · {p.decision.upper()} · {p.mutation}"


def _marker(frame: Frame, p: Point, r: float) -> str:
    """An error cycle measured nothing: a hollow mark on the bottom edge, never a point at its recorded
    0 (the best value a minimize goal could draw)."""
    if p.decision == "error":
        return f'cy="{fmt(frame.y.start)}" r="{r}" fill="none" stroke="{COLORS["error"]}" stroke-width="1.5"'
    return f'cy="{fmt(frame.y(p.score))}" r="{r}" fill="{COLORS.get(p.decision, "#8c959f")}"'


def score_chart(data: Series, standalone: bool = False) -> str:
    """Each cycle's score, coloured by decision, over HEAD's score drawn as a step line."""
    evaluated = [(p.cycle, p.score) for p in data.points if p.decision != "error"]
    values = [v for _, v in evaluated] + [v for _, v in data.holdout]
    frame = Frame.of(_cycles(data.points), _value_range(values, data.reading.metric))
    r = _radius(len(data.points))
    parts = [open_svg("score-chart", f"{data.reading.label} per cycle, {len(data.points)} cycles", standalone)]
    parts.append(frame.axes(data.reading.label))
    parts.append(
        f'<polyline class="trace" fill="none" stroke="#8c959f" stroke-width="1" points="{frame.points(evaluated)}"/>'
    )
    if data.best:
        parts.append(
            f'<path class="best" fill="none" stroke="{BEST}" stroke-width="2.5" d="{_step(frame, data.best)}"/>'
        )
    if data.holdout:  # the tests the mutator never sees: a train score rising while this falls is overfitting
        parts.append(
            f'<polyline class="holdout" fill="none" stroke="{HOLDOUT}" stroke-width="2" stroke-dasharray="6 4" '
            f'points="{frame.points(data.holdout)}"/>'
        )
    parts.append('<g class="points">')
    for p in data.points:
        parts.append(
            f'<circle class="pt {esc(p.decision)}" data-cycle="{p.cycle}" data-decision="{esc(p.decision)}" '
            f'cx="{fmt(frame.x(p.cycle))}" {_marker(frame, p, r)}>'
            f"<title>{esc(_title(p))}</title></circle>"
        )
    parts.append("</g>")
    legend = [("KEEP", COLORS["keep"]), ("DROP", COLORS["drop"]), ("ERROR", COLORS["error"]), ("best (HEAD)", BEST)]
    parts.append(_legend(legend + ([("holdout", HOLDOUT)] if data.holdout else [])))
    parts.append("</svg>")
    return "".join(parts)


def _step(frame: Frame, best: list[tuple[int, float]]) -> str:
    """HEAD holds its score until the next KEEP: horizontal, then vertical."""
    (c0, v0), rest = best[0], best[1:]
    d = [f"M{fmt(frame.x(c0))} {fmt(frame.y(v0))}"]
    for cycle, value in rest:
        d.append(f"H{fmt(frame.x(cycle))}V{fmt(frame.y(value))}")
    return "".join(d)


def _legend(items: list[tuple[str, str]]) -> str:
    """In the top margin, right-aligned, above the data: a pasted image explains itself."""
    parts, x = ['<g class="legend" font-size="12" fill="#57606a">'], WIDTH - RIGHT - 10
    for label, color in reversed(items):
        x -= 8 + 7 * len(label)
        parts.append(
            f'<rect x="{x}" y="{TOP - 24}" width="10" height="10" rx="2" fill="{color}"/>'
            f'<text x="{x + 14}" y="{TOP - 15}">{esc(label)}</text>'
        )
        x -= 18
    parts.append("</g>")
    return "".join(parts)


def assertions_chart(data: Series) -> str:
    """One line per assertion; the page's legend toggles each `g.series` by its index."""
    frame = Frame.of(_cycles(data.points), (0.0, 1.0))
    parts = [open_svg("assertions-chart", f"pass rate of {len(data.assertions)} assertions per cycle", False)]
    parts.append(frame.axes("pass rate", lambda v: f"{v:.0%}"))
    for i, (name, values) in enumerate(data.assertions.items()):
        marker = (
            "".join(f'<circle cx="{fmt(frame.x(c))}" cy="{fmt(frame.y(v))}" r="2.5"/>' for c, v in values)
            if len(values) <= 60
            else ""
        )
        parts.append(
            f'<g class="series" data-series="{i}" stroke="{series_color(i)}" fill="{series_color(i)}">'
            f"<title>{esc(name)}</title>"
            f'<polyline fill="none" stroke-width="1.8" points="{frame.points(values)}"/>{marker}</g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def cost_chart(data: Series) -> str:
    """Cumulative spend, eval below and mutation stacked on top."""
    totals = [e + m for (_, e), (_, m) in zip(data.eval_cost, data.mutation_cost)]
    top = max(totals, default=0.0) or 1.0
    frame = Frame.of(_cycles(data.points), (0.0, top * 1.05))
    stacked = [(c, e + m) for (c, e), (_, m) in zip(data.eval_cost, data.mutation_cost)]
    parts = [open_svg("cost-chart", "cumulative cost in US dollars", False)]
    parts.append(frame.axes("cost (USD)", lambda v: f"${v:.2f}" if top >= 0.1 else f"${v:.4f}"))
    if data.points:
        floor = [(c, 0.0) for c, _ in reversed(data.eval_cost)]
        parts.append(_area("eval", EVAL_COST, frame, data.eval_cost, floor))
        parts.append(_area("mutation", MUTATION_COST, frame, stacked, list(reversed(data.eval_cost))))
    parts.append(_legend([("eval", EVAL_COST), ("mutation", MUTATION_COST)]))
    parts.append("</svg>")
    return "".join(parts)


def _area(name: str, color: str, frame: Frame, upper: list, lower: list) -> str:
    return (
        f'<polygon class="area {name}" fill="{color}" fill-opacity="0.35" stroke="{color}" stroke-width="1.5" '
        f'points="{frame.points(upper + lower)}"/>'
    )
