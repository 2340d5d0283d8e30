"""The scope guard's copies of what git rewrites each cycle: records appended to one file, a growing log
kept as its new lines, and every record read back against its id by a start after a kill."""

from __future__ import annotations

import os
import time
import tracemalloc
from pathlib import Path

import pytest

from autoresearch.optimizer.gitrepo.workspace import open_workspace
from autoresearch.optimizer.guard import journal, pack, rescue, scope
from autoresearch.optimizer.guard.manifest import bytes_oid
from autoresearch.plumbing.errors import IntegrityError
from tests.helpers.guardcycles import armed_cycles, start_after_a_kill
from tests.helpers.repos import git, make_repo


def night(tmp_path: Path, cycles: int) -> tuple[Path, scope.Guard, list[tuple[int, int]]]:
    """A guard through `cycles` cycles of a commit of the artifact (git rewrites the index, COMMIT_EDITMSG
    and both logs), each settled and armed; the pack's (inode, size) after each arm."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "notes.txt": "n\n"})
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", None, tmp_path / "guard")
    guard.open()

    def commit(n: int) -> None:
        (repo / "prompt.md").write_text(f"p {n}\n")
        git(repo, "commit", "-qam", f"candidate {n}")

    after = armed_cycles(guard, tmp_path, cycles, commit, tmp_path / "guard" / pack.NAME)
    return repo, guard, after


def test_each_cycle_appends_to_one_file_and_a_grown_log_costs_its_new_line(tmp_path):
    repo, guard, after = night(tmp_path, 40)
    guard.close()
    assert {ino for ino, _ in after[1:]} == {after[0][0]}  # appended to, never a file made again
    assert not (tmp_path / "guard" / "objects").exists()  # nor a copy of its own, nor a fan-out folder
    grown = [b[1] - a[1] for a, b in zip(after, after[1:], strict=False)]
    log = (repo / ".git/logs/HEAD").read_bytes()
    assert len(log) > 5000 and max(grown[-10:]) < len(log) // 3  # the logs' new lines, not their whole


def test_a_start_after_a_kill_puts_back_logs_a_mutator_rewrote_from_their_appended_lines(tmp_path):
    repo, guard, _ = night(tmp_path, 12)
    guard.close()  # the daemon is killed during the twelfth mutation, which does this:
    logs = {name: (repo / ".git" / name).read_bytes() for name in ("logs/HEAD", "logs/refs/heads/main")}
    (repo / ".git/logs/HEAD").write_bytes(logs["logs/HEAD"].split(b"\n", 3)[3])  # the log's head rewritten
    (repo / ".git/logs/refs/heads/main").write_bytes(logs["logs/refs/heads/main"] + b"forged line\n")
    (repo / ".git/COMMIT_EDITMSG").write_text("forged\n")
    changed, _ = start_after_a_kill(repo, tmp_path / "guard")
    assert changed == [".git/COMMIT_EDITMSG", ".git/logs/HEAD", ".git/logs/refs/heads/main"]
    assert {name: (repo / ".git" / name).read_bytes() for name in logs} == logs
    assert (repo / ".git/COMMIT_EDITMSG").read_text() == "candidate 11\n"


def test_a_record_a_mutator_forged_in_the_pack_is_refused_never_restored(tmp_path):
    repo, guard, _ = night(tmp_path, 6)
    guard.close()
    log = repo / ".git/logs/HEAD"
    original = log.read_bytes()
    log.write_bytes(b"")
    path = tmp_path / "guard" / pack.NAME
    data = path.read_bytes()
    tail = original.split(b"\n")[-2] + b"\n"  # the last line, appended to the pack as the log's tail
    assert data.count(tail) == 1
    path.write_bytes(data.replace(tail, tail.replace(b"candidate", b"Candidate")))
    resumed = scope.Guard.resume(open_workspace(repo, "prompt.md"), tmp_path / "guard")
    assert resumed is not None
    with pytest.raises(IntegrityError, match="could not restore"):
        rescue.undo_all(*resumed)
    assert log.read_bytes() == b""
    assert journal.armed(tmp_path / "guard")


def test_a_pack_changed_behind_the_guard_is_written_whole_again(tmp_path):
    repo, guard, after = night(tmp_path, 3)
    path = tmp_path / "guard" / pack.NAME
    rescue.undo_all(guard, tmp_path / "run-2")
    guard.disarm()
    with open(path, "ab") as f:
        f.write(b"0" * 40 + b" 99")  # a torn header: the next append would follow it
    (repo / "prompt.md").write_text("p 3\n")
    git(repo, "commit", "-qam", "candidate 3")
    guard.settle()
    guard.arm(tmp_path / "run-3")
    guard.close()
    assert os.stat(path).st_ino != after[-1][0]
    (repo / ".git/COMMIT_EDITMSG").write_text("forged\n")
    assert start_after_a_kill(repo, tmp_path / "guard")[0] == [".git/COMMIT_EDITMSG"]
    assert (repo / ".git/COMMIT_EDITMSG").read_text() == "candidate 3\n"


def test_a_start_again_after_a_refused_restore_refuses_again_and_keeps_the_first_save(tmp_path):
    """Each start after the kill saves the mutation's files in the same run directory before its undo: the
    second found the first's hard link there and failed with shutil.SameFileError (a traceback, exit 1)."""
    repo, guard, _ = night(tmp_path, 6)
    guard.close()
    log = repo / ".git/logs/HEAD"
    log.write_bytes(b"the mutator's log\n")
    (tmp_path / "guard" / pack.NAME).write_bytes(b"")  # and its copies gone
    for _ in range(2):
        resumed = scope.Guard.resume(open_workspace(repo, "prompt.md"), tmp_path / "guard")
        assert resumed is not None
        with pytest.raises(IntegrityError, match="could not restore"):
            rescue.undo_all(*resumed)
        assert (resumed[1] / "outside/git/.git/logs/HEAD").read_bytes() == b"the mutator's log\n"


def test_an_index_put_back_keeps_its_time_so_git_still_sees_a_same_second_rewrite_of_the_artifact(tmp_path):
    """git trusts an index entry whose file's size and times match, unless the entry is as new as the index
    file ("racily clean"). An index put back with a time of now made a rewrite of the artifact within the second
    git recorded (same size, same inode) HEAD's for git: `git checkout HEAD -- prompt.md` left the candidate in
    place and `git status` saw nothing (a start after a kill then refused the artifact as modified). The times
    are set ten seconds back here, as a same-second rewrite leaves them; ctime, which a test cannot set, is left
    out of git's comparison."""
    repo = make_repo(tmp_path / "r", {"prompt.md": "p\n", "notes.txt": "n\n"})
    guard = scope.Guard(open_workspace(repo, "prompt.md"), repo / ".autoresearch", None, tmp_path / "guard")
    guard.open()
    artifact, index = repo / "prompt.md", repo / ".git/index"
    past = time.time_ns() - 10 * 10**9

    def commit(n: int) -> None:
        artifact.write_text(f"p {n}\n")
        os.utime(artifact, ns=(past, past))
        git(repo, "commit", "-qam", f"candidate {n}")
        os.utime(index, ns=(past, past))  # the artifact's entry as new as its index: racily clean

    armed_cycles(guard, tmp_path, 1, commit, index)
    guard.close()
    with open(artifact, "r+") as f:  # the mutation: in place (the same inode), the same size, the same times
        f.write("p X\n")
    os.utime(artifact, ns=(past, past))
    index.write_bytes(b"junk\n")
    assert start_after_a_kill(repo, tmp_path / "guard")[0] == [".git/index"]
    assert index.stat().st_mtime_ns == past
    git(repo, "-c", "core.trustctime=false", "checkout", "HEAD", "--", "prompt.md")
    assert artifact.read_text() == "p 0\n"


def test_the_index_of_a_long_nights_records_holds_under_64_bytes_a_record(tmp_path):
    """The daemon keeps the index all night, a few records a cycle: a dict of objects held ~220 bytes each."""
    kept = pack.Pack(tmp_path)
    kept.flush({}, 0)  # the pack written whole (empty): appends follow
    contents = [b"content %d\n" % n for n in range(4000)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        previous: tuple[str, bytes] | None = None
        for data in contents:
            oid = bytes_oid(data)
            kept.add(oid, data, previous)
            kept.flush({}, 0)
            previous = (oid, data)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 64 * len(contents), held
    assert kept.read(bytes_oid(contents[7])) == contents[7]
    assert kept.has(previous[0]) and not kept.has(bytes_oid(b"never held\n"))


def test_a_forged_header_in_a_resumed_pack_leaves_the_records_after_it_readable(tmp_path):
    kept = pack.Pack(tmp_path)
    kept.flush({}, 0)
    first, second = b"log line 1\n", b"log line 1\nlog line 2\n"
    kept.add(bytes_oid(first), first, None)
    kept.flush({}, 0)
    with open(tmp_path / pack.NAME, "ab") as f:
        f.write(b"not-an-id 4 -\nabcd")  # what a mutator's append would leave
    kept.left = None  # the guard has not seen it: a start after a kill reads the headers from the file
    resumed = pack.Pack(tmp_path)
    assert resumed.read(bytes_oid(first)) == first
    with open(tmp_path / pack.NAME, "ab") as f:
        f.write(b"%s %d %s\n%s" % (bytes_oid(second).encode(), 11, bytes_oid(first).encode(), second[11:]))
    assert pack.Pack(tmp_path).read(bytes_oid(second)) == second
    assert pack.Pack(tmp_path).read("not-an-id") is None
