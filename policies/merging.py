"""When a cycle also tries a merge: two or more candidates each win on tests the others do not.

A merge of two candidates that win on the same tests adds nothing the better
of them does not already have; a merge of candidates that win on different
tests may win on both sets (GEPA's merge step rests on the same idea).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def merge_parents(wins: Sequence[Collection[str]]) -> list[int]:
    """The siblings to combine, in index order; empty when no merge is worth trying.

    `wins[i]` is the tests sibling i won against HEAD (empty for one that failed or was
    discarded early). The siblings are taken greedily, most wins first (ties by index), each
    only if it wins a test none of those already taken wins; a merge needs two of them.
    """
    covered: set[str] = set()
    taken = []
    for i in sorted(range(len(wins)), key=lambda i: (-len(wins[i]), i)):
        if set(wins[i]) - covered:
            taken.append(i)
            covered |= set(wins[i])
    return sorted(taken) if len(taken) >= 2 else []
