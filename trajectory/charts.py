"""The three charts of the trajectory page, as SVG strings.

Colours are presentation attributes so a standalone SVG looks right on its
own; the page's stylesheet overrides them for the dark theme. They come from
the Okabe-Ito palette, which stays distinguishable with the common colour
vision deficiencies, and lines that may coincide also differ in dash pattern,
so neither colour nor a line drawn over another hides a series.
"""

from __future__ import annotations

import bisect
import operator
from array import array
from collections.abc import Sequence
from itertools import chain

from autoresearch.trajectory import candidates
from autoresearch.trajectory.chartdata import Pairs, Series
from autoresearch.trajectory.drawn import Drawn
from autoresearch.trajectory.svg import RIGHT, TOP, WIDTH, Frame, esc, fmt, joined, open_svg

# Okabe & Ito (2008), "Color Universal Design": without black and yellow, which vanish on one of the themes.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7")
ORANGE, SKY, GREEN, BLUE, VERMILLION, PURPLE = PALETTE
GREY = "#8c959f"
COLORS = {"keep": GREEN, "drop": VERMILLION, "error": GREY}
BEST = BLUE
HOLDOUT = PURPLE
EVAL_COST, MUTATION_COST = BLUE, ORANGE
# A line drawn over an identical one shows the one beneath through its gaps: only the first line is solid,
# and lines of the same pattern start it at different points (dash_attr's offset).
DASHES = ("7 4", "2 3", "10 3 2 3")


def series_color(index: int) -> str:
    """Neighbouring assertion lines differ in colour and in dash pattern."""
    return PALETTE[index % len(PALETTE)]


def dash_attr(index: int) -> str:
    if index == 0:
        return ""
    round_, pattern = divmod(index - 1, len(DASHES))
    offset = f' stroke-dashoffset="{round_ * 2 % 11}"' if round_ else ""
    return f' stroke-dasharray="{DASHES[pattern]}"{offset}'


def _radius(count: int) -> float:
    return 4.0 if count <= 60 else 3.0 if count <= 300 else 2.0


def _value_range(groups: Sequence[Sequence[float]], metric: bool = False) -> tuple[float, float]:
    """Scores in 0-1 get the whole 0-1 axis; a metric's axis fits its values (val_bpb 1.40-1.50 is not
    drawn as a flat line at the top of 0-1.5), with a margin so no point sits on the frame. The values
    come in groups (the scores, the held-out scores, the candidates'), each read where it lies."""
    groups = [g for g in groups if len(g)]
    if not groups:
        return 0.0, 1.0
    lo, hi = min(min(g) for g in groups), max(max(g) for g in groups)
    if not metric:
        return min(0.0, lo), max(1.0, hi)
    margin = (hi - lo) * 0.08 or abs(hi) * 0.05 or 1.0
    return lo - margin, hi + margin


def _cycles(points: Sequence[Drawn]) -> tuple[int, int]:
    return (points[0].cycle, points[-1].cycle) if points else (1, 1)


def _title(p: Drawn) -> str:
    value = "no score" if p.decision == "error" else f"{p.score:.4g}{f' {p.partial}' if p.partial else ''}"
    return f"cycle {p.cycle} · {value} · {p.decision.upper()} · {p.mutation}"


def _marker(frame: Frame, p: Drawn, r: float) -> str:
    """An error cycle measured nothing: a hollow mark on the bottom edge, never a point at its recorded
    0 (the best value a minimize goal could draw). An early discard's partial score is drawn faint."""
    if p.decision == "error":
        return f'cy="{fmt(frame.y.start)}" r="{r}" fill="none" stroke="{COLORS["error"]}" stroke-width="1.5"'
    faint = ' fill-opacity="0.45"' if p.partial else ""  # a score over some of the tests only
    return f'cy="{frame.level(p.score)}" r="{r}" fill="{COLORS.get(p.decision, "#8c959f")}"{faint}'


def score_chart(data: Series, standalone: bool = False) -> str:
    """Each cycle's score, coloured by decision, over HEAD's score drawn as a step line."""
    evaluated = data.evaluated  # the cycles that measured a score (an error's is none)
    values = (evaluated.values, data.holdout.values, [c.score for c in data.candidates])
    reach = candidates.REACH if data.candidates else 0.0
    frame = Frame.of(_cycles(data.points), _value_range(values, data.reading.metric), reach)
    r = _radius(len(data.points))
    parts = [open_svg("score-chart", f"{data.reading.label} per cycle, {len(data.points)} cycles", standalone)]
    parts.append(frame.axes(data.reading.label))
    for run in _split(evaluated, data.breaks):
        parts.append(
            f'<polyline class="trace" fill="none" stroke="#8c959f" stroke-width="1" points="{frame.points(run)}"/>'
        )
    if data.best:
        step = "".join(_step(frame, run) for run in _split(data.best, data.breaks))
        parts.append(f'<path class="best" fill="none" stroke="{BEST}" stroke-width="2.5" d="{step}"/>')
    parts.extend(_break(frame, cycle) for cycle in data.breaks)
    if data.holdout:  # the tests the mutator never sees: a train score rising while this falls is overfitting
        parts.append(
            f'<polyline class="holdout" fill="none" stroke="{HOLDOUT}" stroke-width="2" stroke-dasharray="6 4" '
            f'points="{frame.points(data.holdout)}"/>'
        )
    parts.append(candidates.svg(frame, list(data.candidates), r))
    parts.append('<g class="points">')
    parts.append(
        joined(
            f'<circle class="pt {esc(p.decision)}{" partial" if p.partial else ""}" data-cycle="{p.cycle}" '
            f'data-decision="{esc(p.decision)}" '
            f'cx="{frame.at(p.cycle)}" {_marker(frame, p, r)}>'
            f"<title>{esc(_title(p))}</title></circle>"
            for p in data.points
        )
    )
    parts.append("</g>")
    legend = [("KEEP", COLORS["keep"]), ("DROP", COLORS["drop"]), ("ERROR", COLORS["error"]), ("best (HEAD)", BEST)]
    legend += [("holdout", HOLDOUT)] if data.holdout else []
    legend += [("eval changed", GREY)] if data.breaks else []
    legend += [("candidates", candidates.COLOR)] if data.candidates else []
    parts.append(_legend(legend))
    parts.append("</svg>")
    return "".join(parts)


def _split(values: Pairs, breaks: Sequence[int]) -> list[Pairs]:
    """A line cut where the eval changed: scores of two evals are never joined as if comparable. A cut
    between two points is the first break after the earlier one, found by bisection: testing every
    break at every point made a night that re-baselines now and then quadratic in its length."""
    cuts, cycles = sorted(breaks), values.cycles
    starts = [0]
    for i in range(1, len(cycles)):
        after = bisect.bisect_right(cuts, cycles[i - 1])
        if after < len(cuts) and cuts[after] <= cycles[i]:
            starts.append(i)
    ends = [*starts[1:], len(cycles)]
    return [values[start:end] for start, end in zip(starts, ends) if end > start]


def _break(frame: Frame, cycle: int) -> str:
    """The cycle that measured HEAD again under a changed eval: a dashed vertical line just before its point."""
    x = frame.at(cycle - 0.5)
    return (
        f'<line class="rebaseline" data-cycle="{cycle}" x1="{x}" x2="{x}" y1="{fmt(frame.y.end)}" '
        f'y2="{fmt(frame.y.start)}" stroke="{GREY}" stroke-width="1.5" stroke-dasharray="5 4">'
        f"<title>cycle {cycle}: the eval changed; HEAD measured again, scores before it are another eval's</title></line>"
    )


def _step(frame: Frame, best: Pairs) -> str:
    """HEAD holds its score until the next KEEP: horizontal, then vertical."""
    (c0, v0), rest = best[0], best[1:]
    return f"M{frame.at(c0)} {frame.level(v0)}" + joined(f"H{frame.at(c)}V{frame.level(v)}" for c, v in rest)


def _legend(items: list[tuple[str, str]], lines: bool = False) -> str:
    """In the top margin, right-aligned, above the data: a pasted image explains itself. With `lines`,
    item i is a line sample in dash pattern i (as `dash_attr(i)` draws it) instead of a colour square."""
    parts, x = ['<g class="legend" font-size="12" fill="#57606a">'], WIDTH - RIGHT - 10
    for i in reversed(range(len(items))):
        label, color = items[i]
        x -= 8 + 7 * len(label) + (10 if lines else 0)
        sample = (
            f'<line x1="{x - 10}" x2="{x + 10}" y1="{TOP - 19}" y2="{TOP - 19}" stroke="{color}" stroke-width="2.5"'
            f"{dash_attr(i)}/>"
            if lines
            else f'<rect x="{x}" y="{TOP - 24}" width="10" height="10" rx="2" fill="{color}"/>'
        )
        parts.append(f'{sample}<text x="{x + 14}" y="{TOP - 15}">{esc(label)}</text>')
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
            "".join(f'<circle cx="{frame.at(c)}" cy="{frame.level(v)}" r="2.5"/>' for c, v in values)
            if len(values) <= 60
            else ""
        )
        parts.append(
            f'<g class="series" data-series="{i}" stroke="{series_color(i)}" fill="{series_color(i)}">'
            f"<title>{esc(name)}</title>"
            f'<polyline fill="none" stroke-width="2"{dash_attr(i)} points="{frame.points(values)}"/>{marker}</g>'
        )
    parts.append("</svg>")
    return "".join(parts)


def cost_chart(data: Series) -> str:
    """Cumulative spend, eval below and mutation stacked on top."""
    spent = data.eval_cost
    totals = array("d", map(operator.add, spent.values, data.mutation_cost.values))
    top = max(totals, default=0.0) or 1.0
    frame = Frame.of(_cycles(data.points), (0.0, top * 1.05))
    stacked = Pairs(spent.cycles, totals)
    parts = [open_svg("cost-chart", "cumulative cost in US dollars", False)]
    parts.append(frame.axes("cost (USD)", lambda v: f"${v:.2f}" if top >= 0.1 else f"${v:.4f}"))
    if data.points:
        floor = Pairs(spent.cycles[::-1], array("d", bytes(8 * len(spent))))  # zeros
        parts.append(_area("eval", EVAL_COST, frame, spent, floor))
        parts.append(_area("mutation", MUTATION_COST, frame, stacked, spent[::-1]))
    parts.append(_legend([("eval", EVAL_COST), ("mutation", MUTATION_COST)]))
    parts.append("</svg>")
    return "".join(parts)


def _area(name: str, color: str, frame: Frame, upper: Pairs, lower: Pairs) -> str:
    return (
        f'<polygon class="area {name}" fill="{color}" fill-opacity="0.35" stroke="{color}" stroke-width="1.5" '
        f'points="{frame.points(chain(upper, lower))}"/>'
    )


# Two experiments on one chart: the most distinct pair of the palette first.
EXPERIMENT_COLORS = (BLUE, ORANGE, GREEN, VERMILLION, SKY, PURPLE)


def experiment_color(index: int) -> str:
    return EXPERIMENT_COLORS[index % len(EXPERIMENT_COLORS)]


def compare_chart(named: list[tuple[str, Series]], standalone: bool = False) -> str:
    """Several experiments' scores over one cycle axis: each its own colour and dash pattern, its
    KEEPs filled and its other cycles hollow, HEAD's score as its step line."""
    every = [p for _, data in named for p in data.points]
    cycles = (min((p.cycle for p in every), default=1), max((p.cycle for p in every), default=1))
    frame = Frame.of(cycles, _value_range([[p.score for p in every]]))
    r = _radius(max((len(data.points) for _, data in named), default=0))
    label = "score per cycle of " + ", ".join(name for name, _ in named)
    parts = [open_svg("compare-chart", label, standalone), frame.axes("score")]
    for i, (name, data) in enumerate(named):
        color = experiment_color(i)
        parts.append(f'<g class="experiment" data-experiment="{i}"><title>{esc(name)}</title>')
        if data.best:
            parts.append(
                f'<path class="best" fill="none" stroke="{color}" stroke-width="2.5"{dash_attr(i)} '
                f'd="{_step(frame, data.best)}"/>'
            )
        for p in data.points:
            fill = color if p.decision == "keep" else "#ffffff"
            parts.append(
                f'<circle class="pt {esc(p.decision)}" data-cycle="{p.cycle}" cx="{frame.at(p.cycle)}" '
                f'cy="{frame.level(p.score)}" r="{r}" fill="{fill}" stroke="{color}" stroke-width="1.5">'
                f"<title>{esc(name)} · {esc(_title(p))}</title></circle>"
            )
        parts.append("</g>")
    parts.append(_legend([(name, experiment_color(i)) for i, (name, _) in enumerate(named)], lines=True))
    parts.append("</svg>")
    return "".join(parts)
