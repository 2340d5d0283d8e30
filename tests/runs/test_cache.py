"""The result cache hands back only what the daemon itself stored: a forged, edited or foreign entry is a miss."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from autoresearch.plumbing.errors import NoRoom, exit_code_for
from autoresearch.runs.cache import SampleCache
from tests.helpers import unprivileged

ROWS = [{"test_id": "a", "score": 0.25}, {"test_id": "b", "score": 0.5}]


def test_a_stored_sample_comes_back_and_its_secret_is_private(tmp_path):
    cache = SampleCache(tmp_path, "eval1")
    cache.put("abc", 1, ROWS)
    assert cache.get("abc", 1) == ROWS
    assert len(cache.stored("abc")) == 1
    assert (tmp_path / "key").stat().st_mode & 0o077 == 0
    assert SampleCache(tmp_path, "eval1").get("abc", 1) == ROWS  # a later run reads it with the same secret


def _log(root: Path) -> Path:
    return root / "eval1" / "entries.log"


def test_an_edited_or_unsigned_or_moved_entry_reads_as_absent(tmp_path):
    cache = SampleCache(tmp_path, "eval1")
    cache.put("abc", 1, ROWS)
    log = _log(tmp_path)
    whole = log.read_bytes()
    log.write_bytes(whole.replace(b"0.25", b"0.75"))  # edited in place, same size
    assert cache.get("abc", 1) is None and len(cache.stored("abc")) == 0
    log.write_bytes(whole.replace(b'"abc"', b'"abd"'))  # a valid entry under another key
    assert cache.get("abd", 1) is None and cache.get("abc", 1) is None
    log.write_bytes(whole)
    assert cache.get("abc", 1) == ROWS
    with log.open("ab") as f:  # a forged line after it: unsigned, then not even text
        f.write(b'\n{"format": "autoresearch-cache-v3", "artifact": "abc", "n": 1, "mac": "00"}\t{"score": 1.0}\n')
        f.write(b"\n\xff\xfe not even text\n")
    assert cache.get("abc", 1) == ROWS  # the forged line hides no valid entry
    assert SampleCache(tmp_path, "eval1").get("abc", 1) == ROWS


def test_a_line_or_v2_file_nested_thousands_deep_reads_as_absent_and_never_raises(tmp_path):
    """Nothing needs the secret to append an unsigned line, or write a file: one whose header is an array
    nested past the JSON decoder's depth raised RecursionError out of every lookup (the daemon stopped)."""
    cache = SampleCache(tmp_path, "eval1")
    cache.put("abc", 1, ROWS)
    deep = b"[" * 100_000
    with _log(tmp_path).open("ab") as f:
        f.write(b"\n" + deep + b"\t{}\n")
    (tmp_path / "eval1/abc-sample-2.jsonl").write_bytes(deep + b"\n{}\n")
    reader = SampleCache(tmp_path, "eval1")
    assert reader.get("abc", 1) == ROWS and reader.get("abc", 2) is None
    assert reader.stored("abc") == [ROWS]


def test_another_secret_does_not_validate_an_entry(tmp_path):
    SampleCache(tmp_path / "one", "eval1").put("abc", 1, ROWS)
    other = SampleCache(tmp_path / "two", "eval1")
    (tmp_path / "two/eval1").mkdir(parents=True)
    _log(tmp_path / "two").write_bytes(_log(tmp_path / "one").read_bytes())
    assert other.get("abc", 1) is None


def _v2_entry(root: Path, artifact: str, n: int, rows: list) -> bytes:
    """An entry as versions before the log wrote it: a file of its own, signed without its format."""
    body = "".join(json.dumps(row) + "\n" for row in rows).encode()
    message = f"eval1\n{artifact}\n{n}\n".encode() + body
    mac = hmac.new((root / "key").read_bytes(), message, hashlib.sha256).hexdigest()
    return json.dumps({"format": "autoresearch-cache-v2", "mac": mac}).encode() + b"\n" + body


def test_an_entry_of_the_file_per_entry_format_is_still_read_and_new_ones_go_to_the_log(tmp_path):
    """A user's cache survives the upgrade: no eval is paid twice."""
    cache = SampleCache(tmp_path, "eval1")
    (tmp_path / "eval1").mkdir()
    (tmp_path / "eval1/abc-sample-1.jsonl").write_bytes(_v2_entry(tmp_path, "abc", 1, ROWS))
    (tmp_path / "eval1/abc-sample-2.jsonl").write_bytes(_v2_entry(tmp_path, "abd", 2, ROWS))  # another key's
    assert cache.get("abc", 1) == ROWS and cache.get("abc", 2) is None
    cache.put("abc", 2, ROWS[:1])
    assert sorted(p.name for p in (tmp_path / "eval1").iterdir()) == [
        "abc-sample-1.jsonl",
        "abc-sample-2.jsonl",
        "entries.log",
    ]
    assert cache.stored("abc") == [ROWS, ROWS[:1]]
    with cache.held():  # a v2 entry rewritten during a hold is not trusted, as before
        (tmp_path / "eval1/abc-sample-1.jsonl").write_bytes(_v2_entry(tmp_path, "abc", 1, ROWS[:1]))
        assert cache.get("abc", 1) is None


def test_stores_append_to_one_log_made_once(tmp_path):
    """No file a sample, no temporary file renamed: a new inode costs ~0.65 ms on ext4 without a journal."""
    assert _events_of_three_stores(tmp_path, "os.rename") == 0
    assert [p.name for p in (tmp_path / "eval1").iterdir()] == ["entries.log"]
    cache = SampleCache(tmp_path, "eval1")
    assert [cache.get(f"artifact{n}", 1) for n in range(3)] == [[{"test_id": "a", "score": 0.5}]] * 3


def test_a_torn_last_entry_reads_as_absent_and_never_merges_with_the_next_append(tmp_path):
    cache = SampleCache(tmp_path, "eval1")
    cache.put("abc", 1, ROWS)
    cache.put("torn", 1, ROWS)
    log = _log(tmp_path)
    whole = log.read_bytes()
    log.write_bytes(whole[:-9])  # what a kill in the middle of the second write leaves
    reader = SampleCache(tmp_path, "eval1")
    assert reader.get("torn", 1) is None and reader.get("abc", 1) == ROWS
    cache.put("next", 1, ROWS)
    assert reader.get("next", 1) == ROWS and reader.get("torn", 1) is None and reader.get("abc", 1) == ROWS
    cache.put("torn", 1, ROWS)
    assert reader.get("torn", 1) == ROWS


def _read_bytes() -> int:
    """What this process has read so far (the kernel's count, /proc/self/io)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar")


def test_a_long_torn_last_line_is_read_once_not_at_every_lookup(tmp_path):
    """A torn entry of large rows (a kill or a full disk in its write), or a mutator's line with no end, is
    the log's tail until the next append: each lookup read it all again (100 MB: 2.5 s a lookup), and a line
    longer than a chunk was joined to itself chunk after chunk. Read once, then only what comes after."""
    cache = SampleCache(tmp_path, "eval1")
    cache.put("abc", 1, ROWS)
    with _log(tmp_path).open("ab") as f:
        f.write(b"\n" + b"x" * (8 << 20))
    reader = SampleCache(tmp_path, "eval1")
    assert reader.get("abc", 1) == ROWS
    before = _read_bytes()
    assert [reader.get("abc", 1) for _ in range(3)] == [ROWS] * 3
    assert _read_bytes() - before < 1 << 20
    cache.put("next", 1, ROWS)  # ends the torn line: it reads as absent, the next entry as stored
    assert reader.get("next", 1) == ROWS and reader.get("abc", 1) == ROWS
    big = [{"test_id": f"t{i}", "score": 0.5, "output": "y" * 1000} for i in range(3000)]  # 3 MB: chunks
    cache.put("big", 1, big)
    assert reader.get("big", 1) == big and reader.get("next", 1) == ROWS
    log = _log(tmp_path)
    settled = log.stat().st_size
    with log.open("ab") as f:  # a line not ended (a mutator's), read; then cut back, and an entry appended
        f.write(b"z" * 100)
    assert reader.get("big", 1) == big
    with log.open("r+b") as f:
        f.truncate(settled)
    cache.put("after", 1, ROWS)
    assert reader.get("after", 1) == ROWS


def test_a_log_replaced_or_cut_between_lookups_is_read_again_from_its_start(tmp_path):
    cache = SampleCache(tmp_path, "eval1")
    writer = SampleCache(tmp_path, "eval1")
    writer.put("one", 1, ROWS)
    first = _log(tmp_path).read_bytes()
    writer.put("two", 1, ROWS)
    assert cache.get("one", 1) == ROWS and cache.get("two", 1) == ROWS
    _log(tmp_path).write_bytes(first)  # cut back to its first entry (as the scope guard does)
    assert cache.get("two", 1) is None and cache.get("one", 1) == ROWS
    writer.put("three", 1, ROWS)
    assert cache.get("three", 1) == ROWS
    _log(tmp_path).write_bytes(first)  # cut back again, then grown past where it was indexed before a look
    writer.put("four", 1, ROWS)
    writer.put("five", 1, ROWS)
    assert [cache.get(a, 1) for a in ("one", "two", "three", "four", "five")] == [ROWS, None, None, ROWS, ROWS]
    other = tmp_path / "other.log"
    other.write_bytes(first.replace(b"0.25", b"0.75") + _log(tmp_path).read_bytes()[len(first) :])
    other.replace(_log(tmp_path))  # another file in its place, as long: its edited first entry is not valid
    assert cache.get("one", 1) is None and cache.get("five", 1) == ROWS
    whole = _log(tmp_path).read_bytes()
    with _log(tmp_path).open("r+b") as f:  # rewritten in place, same size: its entries are read again
        f.write(first)
    assert _log(tmp_path).read_bytes() != whole and cache.get("one", 1) == ROWS


_APPENDER = """
import sys
from pathlib import Path
from autoresearch.runs.cache import SampleCache
cache = SampleCache(Path(sys.argv[1]), "eval1")
rows = [{"test_id": f"t{i}", "score": 0.5} for i in range(int(sys.argv[3]))]
print("ready", flush=True)
for n in range(int(sys.argv[4])):
    cache.put(f"{sys.argv[2]}-{n}", 1, rows)
"""


def test_a_lookup_after_a_store_does_not_read_the_stored_entry_back(tmp_path):
    """The loop looks a sample up (a miss), evaluates it and stores it, every cycle: the entry the cache has
    just written is indexed as it is written, not read back and checked again by the next lookup."""
    cache = SampleCache(tmp_path, "eval1")
    cache.put("first", 1, ROWS)
    assert cache.get("second", 1) is None  # the log indexed to its end
    big = [{"test_id": f"t{i}", "score": 0.5, "output": "x" * 1000} for i in range(100)]
    cache.put("second", 1, big)  # about 100 kB
    before = _read_bytes()
    assert cache.get("third", 1) is None
    assert _read_bytes() - before < 10_000
    assert cache.get("second", 1) == big and cache.get("first", 1) == ROWS


def test_entries_another_writer_appended_before_a_store_are_still_found(tmp_path):
    """What another daemon (or thread) appended between this cache's last lookup and its store is read by the
    next lookup, not skipped for the store's own entry indexed after it."""
    cache, other = SampleCache(tmp_path, "eval1"), SampleCache(tmp_path, "eval1")
    cache.put("a", 1, ROWS)
    assert cache.get("b", 1) is None
    other.put("b", 1, ROWS)
    cache.put("c", 1, ROWS)
    assert [cache.get(name, 1) for name in "abc"] == [ROWS] * 3
    log = _log(tmp_path)
    log.write_bytes(log.read_bytes() + b"torn")  # a kill in another's append: not whole, then this store
    cache.put("d", 1, ROWS)
    assert [cache.get(name, 1) for name in "abcd"] == [ROWS] * 4


def test_two_processes_appending_at_once_never_interleave(tmp_path):
    SampleCache(tmp_path, "eval1")  # the key, made once
    runs = [
        subprocess.Popen([sys.executable, "-c", _APPENDER, str(tmp_path), name, "50", "200"]) for name in ("a", "b")
    ]
    assert [run.wait(timeout=120) for run in runs] == [0, 0]
    cache = SampleCache(tmp_path, "eval1")
    rows = [{"test_id": f"t{i}", "score": 0.5} for i in range(50)]
    assert all(cache.get(f"{name}-{n}", 1) == rows for name in ("a", "b") for n in range(200))
    assert _log(tmp_path).read_bytes().count(b"\n\n") == 399  # each entry a line of its own


def test_a_kill_during_appends_leaves_every_whole_entry_readable_and_the_next_append_valid(tmp_path):
    SampleCache(tmp_path, "eval1")
    run = subprocess.Popen(
        [sys.executable, "-c", _APPENDER, str(tmp_path), "k", "20000", "100000"], stdout=subprocess.PIPE, text=True
    )
    assert run.stdout is not None and run.stdout.readline() == "ready\n"
    deadline = time.monotonic() + 60
    while not _log(tmp_path).exists() or _log(tmp_path).stat().st_size < 4 << 20:  # a few entries written
        if run.poll() is not None or time.monotonic() > deadline:
            run.kill()
            raise AssertionError("no entries appended")
    run.kill()
    run.wait()
    run.stdout.close()
    cache = SampleCache(tmp_path, "eval1")
    whole = sum(1 for line in _log(tmp_path).read_bytes().split(b"\n") if line.endswith(b"}"))
    stored = sum(1 for n in range(whole + 1) if cache.get(f"k-{n}", 1) is not None)
    assert stored == whole >= 4
    cache.put("after", 1, ROWS)
    assert SampleCache(tmp_path, "eval1").get("after", 1) == ROWS


def test_threads_storing_the_same_sample_at_once_never_collide(tmp_path):
    """Parallel candidates (search.candidates) may store the same sample (HEAD's, under `significant`) at once."""
    cache = SampleCache(tmp_path / "cache", "eval")
    rows = [{"test_id": "a", "score": 1.0}]
    errors: list[BaseException] = []

    def store() -> None:
        try:
            for _ in range(200):
                cache.put("artifact", 1, rows)
        except BaseException as exc:  # collected, then asserted on
            errors.append(exc)

    threads = [threading.Thread(target=store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and cache.get("artifact", 1) == rows


def test_samples_stored_while_held_are_read_back_at_once_and_written_when_the_hold_ends(tmp_path):
    cache = SampleCache(tmp_path, "eval1")
    with cache.held():
        cache.put("abc", 1, ROWS)
        assert cache.get("abc", 1) == ROWS and len(cache.stored("abc")) == 1
        assert not (tmp_path / "eval1").exists()  # nothing on disk while a mutator is watched
    assert SampleCache(tmp_path, "eval1").get("abc", 1) == ROWS


def test_while_held_only_entries_on_disk_before_the_hold_are_read(tmp_path):
    """A mutator running beside the evaluations can read the key and sign an entry: one written, or
    rewritten, during the hold is a miss until the hold ends (the scope guard has undone it by then)."""
    cache = SampleCache(tmp_path, "eval1")
    cache.put("old", 1, ROWS)
    cache.put("kept", 1, ROWS)
    other = SampleCache(tmp_path, "eval1")  # a writer with the same secret
    with cache.held():
        other.put("new", 1, ROWS)
        other.put("old", 1, ROWS[:1])
        assert cache.get("new", 1) is None and cache.get("old", 1) is None
        assert cache.get("kept", 1) == ROWS
    assert cache.get("new", 1) == ROWS


def test_an_entry_rewritten_in_place_during_the_hold_is_not_read_even_if_never_looked_up_before(tmp_path):
    """A mutator with the key can sign an entry and write it over an earlier one of the same length, the
    log's size unchanged: the index taken when the hold begins holds each entry's signature tag."""
    cache = SampleCache(tmp_path, "eval1")
    cache.put("abc", 1, ROWS)  # stored, never looked up since
    size = _log(tmp_path).stat().st_size
    forged = [{**ROWS[0], "score": 0.75}, ROWS[1]]
    with cache.held():
        SampleCache(tmp_path, "eval1").put("abc", 1, forged)  # signed with the key, as such a mutator can
        data = _log(tmp_path).read_bytes()
        _log(tmp_path).write_bytes(data[size:] + data[size : 2 * size - len(data[size:])])
        assert _log(tmp_path).stat().st_size == size and cache.get("abc", 1) is None
    # after the hold it is signed as any entry: the scope guard has removed that log by then (rewritten)


def test_a_claim_serializes_one_artifacts_sample_and_is_forgotten_once_no_one_holds_it(tmp_path):
    """A daemon claims a new artifact every cycle: a lock kept for each was memory that grew all night."""
    cache = SampleCache(tmp_path, "eval1")
    order = []

    def second():
        with cache.claimed("abc", 1):
            order.append("second")

    with cache.claimed("abc", 1):
        waiter = threading.Thread(target=second)
        waiter.start()
        order.append("first")  # however soon the thread runs, it enters only after this block
    waiter.join()
    assert order == ["first", "second"]
    for n in range(100):
        with cache.claimed(f"artifact-{n}", 1):
            pass
    assert cache._claims == {}


def _events_of_three_stores(root: Path, event: str) -> int:
    """How many times storing three new samples (after a first) raises Python's audit `event`, counted in a
    process of its own."""
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from autoresearch.runs.cache import SampleCache
        cache = SampleCache(Path({str(root)!r}), "eval1")
        cache.put("first", 1, [{{"test_id": "a", "score": 0.5}}])
        seen = []
        sys.addaudithook(lambda event, args: seen.append(args[0]) if event == {event!r} else None)
        for n in range(3):
            cache.put(f"artifact{{n}}", 1, [{{"test_id": "a", "score": 0.5}}])
        print(len(seen))
        """
    )
    return int(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout)


def test_storing_into_the_eval_s_folder_makes_no_mkdir_and_one_removed_is_made_again(tmp_path):
    """`os.mkdir` is raised for every mkdir, one that fails too: a sample stored a cycle into a folder that
    is there asks for no folder."""
    assert _events_of_three_stores(tmp_path, "os.mkdir") == 0
    cache = SampleCache(tmp_path, "eval1")
    assert cache.get("artifact2", 1) == [{"test_id": "a", "score": 0.5}]
    shutil.rmtree(tmp_path / "eval1")  # a `git clean -ffdx` between two runs
    cache.put("abc", 1, ROWS)
    assert cache.get("abc", 1) == ROWS


def test_a_fifo_or_a_link_in_an_entry_s_place_reads_as_absent_and_never_blocks(tmp_path):
    """A mutator running ahead outside the sandbox (`search.overlap: on`) can put a FIFO where an entry of the
    cycle being evaluated goes: opened to be read, it blocked the evaluation for good, no writer ever coming.
    A link to a user's file is not read through nor written through either."""
    script = textwrap.dedent(
        f"""
        import os
        from pathlib import Path
        from autoresearch.runs.cache import SampleCache
        root = Path({str(tmp_path)!r})
        cache = SampleCache(root, "eval1")
        cache.put("abc", 1, {ROWS!r})
        os.mkfifo(root / "eval1/abc-sample-2.jsonl")
        (root / "user.txt").write_bytes((root / "eval1/entries.log").read_bytes())
        os.unlink(root / "eval1/entries.log")
        os.symlink(root / "user.txt", root / "eval1/entries.log")
        print(cache.get("abc", 1), cache.get("abc", 2), len(cache.stored("abc")))
        cache.put("xyz", 1, {ROWS!r})  # the link is removed, never written through
        print(cache.get("xyz", 1) is not None, (root / "user.txt").read_bytes().count(b"xyz"))
        os.unlink(root / "eval1/entries.log")
        os.mkfifo(root / "eval1/entries.log")
        print(cache.get("xyz", 1))
        cache.put("fifo", 1, {ROWS!r})
        print(cache.get("fifo", 1) is not None)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "None", "0", "True", "0", "None", "True"]


def test_a_log_made_read_only_is_made_writable_again_by_its_owner_and_keeps_every_entry():
    """An admin's `chmod -w`, a mutator's `chmod 444` (sandbox off): the next store raised EACCES and the daemon
    ended with a traceback. The log is the daemon's own: its owner's write bit is given back through the file
    opened, and the store goes on. As a user whom mode bits bind (root ignores them)."""
    with unprivileged.tree() as top:

        def stores() -> None:
            cache = SampleCache(top, "eval1")
            cache.put("abc", 1, ROWS)
            _log(top).chmod(0o4444)  # a set-user-ID bit too: gone with the write bit's return
            cache.put("abc", 2, ROWS[:1])
            assert stat.S_IMODE(_log(top).stat().st_mode) == 0o644
            assert SampleCache(top, "eval1").stored("abc") == [ROWS, ROWS[:1]]

        unprivileged.run(top, stores)


def test_a_log_its_user_cannot_write_is_one_error_naming_it_and_the_fix():
    """The eval's folder made read-only, its log gone: nothing this user may put right. One line, exit 50, naming
    the log and the fix, as for a full disk (no traceback); once the fix is made, the store goes on."""
    with unprivileged.tree() as top:

        def refused() -> None:
            cache = SampleCache(top, "eval1")
            cache.put("abc", 1, ROWS)
            _log(top).unlink()
            (top / "eval1").chmod(0o555)
            with pytest.raises(NoRoom) as refusal:
                cache.put("abc", 2, ROWS)
            assert exit_code_for(refusal.value) == 50
            assert str(refusal.value) == (
                f"cannot write {_log(top)}: Permission denied; give this user read and write access to it and its "
                "folder again (chown, chmod u+rw), then `run` resumes"
            )
            (top / "eval1").chmod(0o755)
            cache.put("abc", 2, ROWS)
            assert cache.get("abc", 2) == ROWS

        unprivileged.run(top, refused)


def test_a_read_only_fifo_in_the_log_s_place_is_replaced_and_a_users_read_only_file_never_made_writable():
    """What fails the open with EACCES but is no log of the daemon's: a FIFO (`mkfifo -m 444`) is replaced as a
    writable one is; a user's read-only file a hard link put in the log's place keeps its mode and bytes."""
    with unprivileged.tree() as top:

        def refused() -> None:
            cache = SampleCache(top, "eval1")
            cache.put("abc", 1, ROWS)
            _log(top).unlink()
            os.mkfifo(_log(top), 0o444)
            cache.put("abc", 2, ROWS)
            assert stat.S_ISREG(_log(top).stat().st_mode) and cache.get("abc", 2) == ROWS
            users = top / "notes.txt"
            users.write_bytes(b"the user's\n")
            users.chmod(0o444)
            _log(top).unlink()
            os.link(users, _log(top))
            with pytest.raises(NoRoom, match="entries.log: Permission denied"):
                cache.put("abc", 3, ROWS)
            assert users.read_bytes() == b"the user's\n" and users.stat().st_mode & 0o777 == 0o444

        unprivileged.run(top, refused)


@pytest.mark.parametrize("mode", [0o000, 0o200, 0o044], ids=["none", "write-only", "others-only"])
def test_a_log_that_lost_its_owner_s_read_bit_is_given_it_back_and_every_entry_still_hits(mode):
    """A mutator's `chmod 000` (sandbox off), or the `chmod u+w` a refusal of one advised: the store ended the run
    (exit 50), or went on while every lookup, unable to read the log, missed and paid each sample again. The
    owner's read and write bits come back through the file itself (reached though no mode lets it be opened)."""
    with unprivileged.tree() as top:

        def hits() -> None:
            cache = SampleCache(top, "eval1")
            cache.put("abc", 1, ROWS)
            _log(top).chmod(mode)
            assert SampleCache(top, "eval1").get("abc", 1) == ROWS
            _log(top).chmod(mode)
            cache.put("abc", 2, ROWS[:1])
            assert SampleCache(top, "eval1").stored("abc") == [ROWS, ROWS[:1]]
            assert stat.S_IMODE(_log(top).stat().st_mode) == mode | 0o600

        unprivileged.run(top, hits)
