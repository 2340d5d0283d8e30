"""One exception root (STYLE 2): every exception class of ours derives from `AutoresearchError`, but the
user's stop: `Interrupted` is a `BaseException` as `KeyboardInterrupt` is, so that no `except Exception` on
its way swallows it, with its exit code in the same table.

Read from the sources rather than imported, so a class is found wherever it sits, in every package. A class may
also be a built-in exception (`DockerFailed` is an `OSError` for the runner's except clause) when one of its
bases is ours.
"""

from __future__ import annotations

import ast
import builtins
import errno
from pathlib import Path

import pytest

from autoresearch.plumbing.errors import INTERRUPTED, Interrupted, NoRoom, exit_code_for, writing
from autoresearch.plumbing.process import Refused

REPO = Path(__file__).resolve().parent.parent.parent
PACKAGES = ["pyapi", "optimizer", "runs", "mutators", "policies", "trajectory", "providers", "plumbing"]
ROOT = ("plumbing/errors.py", "AutoresearchError")
STOP = ("plumbing/errors.py", "Interrupted")


def builtin_rooted_classes(path: Path) -> list[str]:
    """The classes in `path` that name a built-in exception among their bases and no base of ours (a root of
    their own)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.ClassDef):
            continue
        named = [getattr(builtins, b.id, None) if isinstance(b, ast.Name) else None for b in node.bases]
        if any(n is None for n in named):  # a base of ours (or of a library's): not a root of its own
            continue
        if any(isinstance(n, type) and issubclass(n, BaseException) for n in named):
            found.append(node.name)
    return found


def test_every_exception_class_of_ours_derives_from_the_one_root():
    roots = [
        (str(path.relative_to(REPO)), name)
        for package in PACKAGES
        for path in sorted((REPO / package).rglob("*.py"))
        for name in builtin_rooted_classes(path)
    ]
    assert roots == [ROOT, STOP]


def test_a_class_rooted_in_a_builtin_exception_is_found(tmp_path):
    source = tmp_path / "example.py"
    source.write_text(
        "class A(ValueError): ...\nclass B(A): ...\nclass C(object, OSError): ...\nclass D: ...\n"
        "class E(A, OSError): ...\n"
    )
    assert builtin_rooted_classes(source) == ["A", "C"]


def test_the_users_stop_is_no_exception_but_has_its_exit_code():
    assert not issubclass(Interrupted, Exception)
    assert exit_code_for(Interrupted("interrupted by SIGTERM")) == INTERRUPTED


def test_a_command_refused_while_the_run_ends_would_end_it_as_interrupted_not_as_a_bug():
    assert exit_code_for(Refused("not started, the run is ending")) == INTERRUPTED


def test_no_room_said_with_another_ending_keeps_the_failed_write_as_its_cause():
    """`ending` (a finished run's end with no room) made a new error without the system's: a traceback or a
    log of it showed the NoRoom alone, not which write failed and how."""
    with pytest.raises(NoRoom) as raised, writing(Path("/dev/full")), open("/dev/full", "wb", buffering=0) as full:
        full.write(b"x")  # /dev/full: every write fails with ENOSPC, as on a full disk
    again = raised.value.ending("then `chart` writes the page")
    assert (
        str(again) == "cannot write /dev/full: No space left on device; free some space, then `chart` writes the page"
    )
    assert again.errno == errno.ENOSPC and again.__cause__ is raised.value.__cause__
    assert isinstance(again.__cause__, OSError) and again.__cause__.errno == errno.ENOSPC
