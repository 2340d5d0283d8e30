"""Records written in place (the git write journal, a KEEP's pending line) against what an unsandboxed
mutator can put in their place: a link to a user's file is never written through, a sparse file of a
terabyte is not blanked in memory."""

from __future__ import annotations

import os

from autoresearch.optimizer.cycle import pending
from autoresearch.plumbing import inplace
from autoresearch.plumbing.paths import ExperimentPaths


def test_a_link_in_the_records_place_leaves_its_target_as_it_was(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious user data\n")
    paths = ExperimentPaths(tmp_path / "exp")
    paths.meta.mkdir(parents=True)
    pending.path(paths).symlink_to(victim)
    assert inplace.read(pending.path(paths)) == b""  # not the daemon's record
    pending.clear(paths)  # a line appended: the stale record blanked
    assert not pending.path(paths).is_symlink()
    journal = paths.git_journal
    journal.symlink_to(victim)
    inplace.write(journal, b'{"git": ["commit"]}\n')
    assert not journal.is_symlink() and inplace.read(journal) == b'{"git": ["commit"]}'
    assert victim.read_text() == "precious user data\n"


def test_a_huge_sparse_file_in_the_records_place_is_cut_not_blanked_in_memory(tmp_path):
    record = tmp_path / "git-write.json"
    with open(record, "wb") as f:
        os.truncate(f.fileno(), 1 << 40)
    inplace.write(record, b'{"git": ["commit"]}\n')
    assert record.stat().st_size == len(b'{"git": ["commit"]}\n')
    assert inplace.read(record) == b'{"git": ["commit"]}'
