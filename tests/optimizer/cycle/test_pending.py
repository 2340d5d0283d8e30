"""A KEEP's pending line, written over the file in place: taken only for its own commit, and never
from a record that a shorter one or a blank left the bytes of an older one behind."""

from __future__ import annotations

from autoresearch.optimizer.cycle import pending
from autoresearch.optimizer.cycle.tree import Candidate
from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.trajectory.iterations import Iteration
from tests.helpers.repos import git, make_repo


def _keep(repo, paths, cycle, text, mutation):
    ws = open_workspace(repo, "prompt.md")
    parent = ws.head()
    (repo / "prompt.md").write_text(text)
    line = Iteration(cycle=cycle, score=0.5, decision="keep", mutation=mutation)
    pending.commit(paths, Candidate(ws, paths.root), line, f"autoresearch: cycle {cycle}: {mutation}")
    return parent, git(repo, "log", "-1", "--format=%B").strip()


def test_each_keep_writes_its_line_over_the_last_in_the_same_file(tmp_path):
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    paths = ExperimentPaths(tmp_path / "exp")
    _keep(repo, paths, 1, "two\n", "a long summary of what the mutator tried " * 20)
    inode, size = pending.path(paths).stat().st_ino, pending.path(paths).stat().st_size
    pending.clear(paths)  # its line appended
    assert pending.take(paths, 1, "0" * 40, "x") is None  # blank: no line
    parent, message = _keep(repo, paths, 2, "three\n", "short")
    assert pending.path(paths).stat().st_ino == inode and pending.path(paths).stat().st_size == size
    taken = pending.take(paths, 2, parent, message)
    assert taken is not None and taken.mutation == "short"
    assert pending.take(paths, 2, parent, message) is None  # taken once: the file is blanked


def test_a_record_cut_short_over_a_blank_is_no_line(tmp_path):
    """A kill in the middle of a write of several pages leaves the start of the record and the blanks
    after it; the commit comes only after the write, so the line is rebuilt from the run."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "one\n"})
    paths = ExperimentPaths(tmp_path / "exp")
    parent, message = _keep(repo, paths, 1, "two\n", "tried " * 2000)
    whole = pending.path(paths).read_bytes()
    pending.path(paths).write_bytes(whole[:4096] + b" " * (len(whole) - 4096))
    assert pending.take(paths, 1, parent, message) is None
