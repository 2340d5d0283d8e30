"""Parents from a Pareto front (`search.parents: pareto`): which earlier candidates a cycle's mutations
start from, besides HEAD.

GEPA's observation: a candidate the keep rule discarded may still be the best on some tests, and an edit
made on top of it can reach what no edit on top of HEAD does (an idea that helps some tests and hurts
others, mended by the next edit). The front is the candidates that score highest on at least one test
(ties counted for each), less those whose won tests another member also wins; HEAD is always on it. Its
members are ranked by how many tests they win, most first (then the newest), and a cycle's K candidates
take HEAD (the first, always) and the ranked members in turn, one candidate each, HEAD again when the
front is shorter than K: ranked rather than drawn at random, so a run is reproducible and no member takes
more than one candidate of a cycle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

EPSILON = 1e-9
HEAD = ""  # HEAD's name among the front's members


@dataclass(frozen=True)
class Member:
    """A candidate on the front, by the name the caller gave it, and the tests it is best on."""

    name: str
    won: frozenset[str]


def front(scores: Mapping[str, Mapping[str, float]], higher_is_better: bool = True) -> list[Member]:
    """The front of `scores` (name → {test: score}; HEAD under `HEAD`, and always on the front), ranked:
    HEAD first, then the others by tests won, most first, the later named first among equals (names
    compare as the caller's order of insertion, newest last)."""
    sign = 1.0 if higher_is_better else -1.0
    tests = {t for by_test in scores.values() for t in by_test}
    best = {t: max(sign * s[t] for s in scores.values() if t in s) for t in tests}
    won = {
        name: frozenset(t for t, v in by_test.items() if sign * v >= best[t] - EPSILON)
        for name, by_test in scores.items()
    }
    order = list(scores)
    kept = [name for name in order if won[name] and not _dominated(name, won, order)]
    others = sorted((n for n in kept if n != HEAD), key=lambda n: (-len(won[n]), -order.index(n)))
    return [Member(HEAD, won.get(HEAD, frozenset())), *(Member(n, won[n]) for n in others)]


def _dominated(name: str, won: Mapping[str, frozenset[str]], order: Sequence[str]) -> bool:
    """Another member wins every test this one wins (and more, or as many and it is HEAD or newer)."""
    if name == HEAD:
        return False
    mine = won[name]
    for other in order:
        if other == name or not mine <= won[other]:
            continue
        if mine < won[other] or other == HEAD or order.index(other) > order.index(name):
            return True
    return False


def assign(ranked: Sequence[Member], k: int) -> list[str]:
    """The parent of each of a cycle's `k` candidates: HEAD for the first, then the front's other members in
    rank order, one candidate each, HEAD for the rest."""
    others = [m.name for m in ranked if m.name != HEAD]
    return [HEAD, *(others[i] if i < len(others) else HEAD for i in range(k - 1))]
