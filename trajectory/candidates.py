"""A cycle's parallel candidates (`search.candidates` > 1), as the chart and `report` show them.

Read from the `candidates` array of iterations.jsonl (`Candidate`): each
sibling, and a merge candidate after them, has its own score, strategy and
summary. The chart draws them as small rings spread around their cycle, so a
cycle that tried four edits shows four rings next to the one point of its
outcome; `report` counts how many KEEPs each strategy produced. A candidate
that started from an earlier one (`search.parents: pareto`) is joined to its
parent's ring by a dashed line. Lines written without candidates (K = 1, older
files) contribute nothing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from autoresearch.trajectory.drawn import Drawn
from autoresearch.trajectory.iterations import Iteration
from autoresearch.trajectory.svg import Frame, esc, fmt

COLOR = "#6e7781"
SPREAD = 0.3  # of a cycle's width: the rings of one cycle stay clear of the next cycle's
REACH = SPREAD / 2  # how far from its cycle, in cycles, the outermost ring is drawn


@dataclass(frozen=True)
class CandidatePoint:
    cycle: int
    index: int
    place: int  # its place in the cycle's list, and how many the list has: where it sits in the spread
    siblings: int
    score: float
    decision: str
    strategy: str
    summary: str
    merge_of: tuple[int, ...] = ()
    parent: str = ""  # the earlier candidate it started from, `<cycle>-<index>` ("" for HEAD)

    @property
    def name(self) -> str:
        return f"{self.cycle}-{self.index}"


def points(records: Sequence[Drawn]) -> list[CandidatePoint]:
    """Every candidate that has a score; an errored or unscored one (or a hand-edited NaN) has nothing to place."""
    out: list[CandidatePoint] = []
    for r in records:
        add_points(out, r)
    return out


def add_points(out: list[CandidatePoint], r: Drawn) -> None:
    """`points` of one line, appended to `out` (chartdata.series finds them in its one pass over the lines)."""
    cands = r.candidates
    if not cands:
        return
    for place, c in enumerate(cands):
        if c.score is None or not math.isfinite(c.score):
            continue
        merge = tuple(c.merge_of or ())
        out.append(
            CandidatePoint(
                r.cycle,
                c.index,
                place,
                len(cands),
                c.score,
                c.decision,
                c.strategy,
                c.summary,
                merge,
                c.parent or "",
            )
        )


@dataclass(frozen=True)
class StrategyCount:
    strategy: str
    keeps: int
    candidates: int


def keeps_per_strategy(records: list[Iteration]) -> list[StrategyCount]:
    """KEEPs and candidates per strategy, most KEEPs first; a merge counts under "merge".

    A KEEP is credited to the kept candidate's strategy, or to the line's `strategy` when
    the candidates were not recorded in full.
    """
    keeps: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    for r in records:
        cands = r.candidates or []
        for c in cands:
            tried[_strategy(c.strategy, c.merge_of)] += 1
        kept = [c for c in cands if c.decision == "keep"]
        if r.decision == "keep" and kept:
            keeps[_strategy(kept[0].strategy, kept[0].merge_of)] += 1
        elif r.decision == "keep" and r.strategy:
            keeps[r.strategy] += 1
    names = sorted(set(keeps) | set(tried), key=lambda s: (-keeps[s], s))
    return [StrategyCount(s, keeps[s], tried[s]) for s in names]


def from_parents(records: list[Iteration]) -> tuple[int, int]:
    """(KEEPs, candidates) of the candidates that started from an earlier one (`search.parents: pareto`)."""
    started = [c for r in records for c in r.candidates or [] if c.parent]
    return sum(c.decision == "keep" for c in started), len(started)


def _strategy(name: str, merge_of: list[int] | None) -> str:
    return "merge" if merge_of else name or "(none)"


def svg(frame: Frame, cands: list[CandidatePoint], radius: float) -> str:
    """The rings, under the cycle's own points; hovering one shows its strategy and summary."""
    if not cands:
        return ""
    step = frame.x(2) - frame.x(1) if frame.x(2) != frame.x(1) else 0.0
    at = {c.name: (frame.x(c.cycle) + _offset(c, step), frame.y(c.score)) for c in cands}
    parts = ['<g class="candidates">', *_parent_links(cands, at)]
    for c in cands:
        x, y = at[c.name]
        parts.append(
            f'<circle class="cand {esc(c.decision)}" data-cycle="{c.cycle}" data-index="{c.index}" '
            f'data-strategy="{esc(c.strategy)}" cx="{fmt(x)}" cy="{fmt(y)}" '
            f'r="{max(radius - 1, 1.5)}" fill="none" stroke="{COLOR}" stroke-width="1.2">'
            f"<title>{esc(_title(c))}</title></circle>"
        )
    parts.append("</g>")
    return "".join(parts)


def _offset(c: CandidatePoint, step: float) -> float:
    return (c.place - (c.siblings - 1) / 2) / max(c.siblings - 1, 1) * SPREAD * step


def _parent_links(cands: list[CandidatePoint], at: dict[str, tuple[float, float]]) -> list[str]:
    """A dashed line from each candidate's parent's ring to its own (a parent not drawn, none)."""
    links = []
    for c in cands:
        if c.parent in at:
            (x1, y1), (x2, y2) = at[c.parent], at[c.name]
            links.append(
                f'<line class="parent-link" data-from="{esc(c.parent)}" data-to="{c.name}" x1="{fmt(x1)}" '
                f'y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}" stroke="{COLOR}" stroke-width="1" '
                f'stroke-dasharray="3 3"><title>cycle {c.cycle} · candidate {c.index} started from candidate '
                f"{esc(c.parent)}</title></line>"
            )
    return links


def _title(c: CandidatePoint) -> str:
    who = f"merge of {', '.join(map(str, c.merge_of))}" if c.merge_of else f"candidate {c.index}"
    strategy = f" · {c.strategy}" if c.strategy else ""
    parent = f" · from candidate {c.parent}" if c.parent else ""
    return f"cycle {c.cycle} · {who}{strategy}{parent} · {c.score:.4g} · {c.decision.upper()} · {c.summary}"
