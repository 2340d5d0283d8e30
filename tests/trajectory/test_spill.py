"""A list kept on disk: items read back exactly as appended, by index, slice, in order and reversed."""

from __future__ import annotations

import math
import os
import sys

import pytest

from autoresearch.trajectory.spill import Spilled

ITEMS = [
    (1, 0.5, "keep", True, None, {"grader": 1.0}),
    (2, -0.0, "drop", False, "é\n\"'<", {}),
    (3, math.inf, "error", None, "x" * 5000, {"nested": ((1, 2), None)}),
]


@pytest.mark.parametrize("on_disk", [True, False])
def test_items_read_back_as_they_were_appended(tmp_path, on_disk):
    spilled: Spilled[object] = Spilled(tmp_path if on_disk else None, lambda v: v)
    for item in ITEMS:
        spilled.append(item)
    assert list(spilled) == ITEMS and list(reversed(spilled)) == ITEMS[::-1]
    assert spilled[-1] == ITEMS[-1] and spilled[1:] == ITEMS[1:] and len(spilled) == 3
    assert math.copysign(1, spilled[1][1]) == -1 and spilled[0][3] is True  # a float's sign, a bool as a bool
    with pytest.raises(IndexError):
        spilled[3]
    spilled.clear()  # a file read again from its start
    spilled.append(ITEMS[2])
    assert list(spilled) == [ITEMS[2]]
    spilled.close()
    assert len(spilled) == 0 and list(spilled) == []


def test_the_file_has_no_name_in_its_folder(tmp_path):
    spilled: Spilled[object] = Spilled(tmp_path, lambda v: v)
    spilled.append(ITEMS[0])
    assert os.listdir(tmp_path) == [] and spilled[0] == ITEMS[0]
    spilled.close()


@pytest.mark.parametrize("on_disk", [True, False])
def test_a_read_interns_no_string(tmp_path, on_disk):
    """pathlib interns each part of a path (a run's name): read back interned again, each item read left a
    dead slot in the interpreter's one table of interned strings, which a long night built again and again."""
    name = sys.intern("".join(["2026-11-29T01-31-33", "-c0001"]))
    spilled: Spilled[tuple[str]] = Spilled(tmp_path if on_disk else None, lambda v: v)
    spilled.append((name,))
    (read,), (iterated,) = spilled[0], next(iter(spilled))
    assert read == iterated == name
    assert read is not name and iterated is not name  # a string of its own, not the interned one
