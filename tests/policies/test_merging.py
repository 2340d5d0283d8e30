"""When a cycle tries a merge candidate: two or more siblings each win on different tests."""

from __future__ import annotations

import pytest

from autoresearch.policies.merging import merge_parents


@pytest.mark.parametrize(
    "wins, parents",
    [
        ([{"a"}, {"b"}], [0, 1]),  # each wins a test the other does not
        ([{"a", "b"}, {"a"}], []),  # the second adds nothing to the first
        ([{"a"}, {"a"}], []),  # the same win twice
        ([{"a"}, set(), {"b"}, {"b", "c"}], [0, 3]),  # most wins first: {b, c} covers {b}
        ([{"a"}], []),  # one sibling: nothing to merge
        ([set(), set()], []),  # nobody won
        ([{"a"}, {"b"}, {"c"}], [0, 1, 2]),
    ],
)
def test_merge_parents(wins, parents):
    assert merge_parents(wins) == parents
