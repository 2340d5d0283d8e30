"""The result cache hands back only what the daemon itself stored: a forged, edited or foreign entry is a miss."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from autoresearch.runs.cache import SampleCache

ROWS = [{"test_id": "a", "score": 0.25}, {"test_id": "b", "score": 0.5}]


def test_a_stored_sample_comes_back_and_its_secret_is_private(tmp_path):
    cache = SampleCache(tmp_path, "eval1")
    cache.put("abc", 1, ROWS)
    assert cache.get("abc", 1) == ROWS
    assert len(cache.stored("abc")) == 1
    assert (tmp_path / "key").stat().st_mode & 0o077 == 0
    assert SampleCache(tmp_path, "eval1").get("abc", 1) == ROWS  # a later run reads it with the same secret


def test_an_edited_or_unsigned_or_moved_entry_reads_as_absent(tmp_path):
    cache = SampleCache(tmp_path, "eval1")
    cache.put("abc", 1, ROWS)
    entry = tmp_path / "eval1/abc-sample-1.jsonl"
    header = entry.read_text().splitlines()[0]
    entry.write_text(header + "\n" + "".join(json.dumps({**r, "score": 1.0}) + "\n" for r in ROWS))
    assert cache.get("abc", 1) is None and len(cache.stored("abc")) == 0
    entry.write_text("".join(json.dumps({**r, "score": 1.0}) + "\n" for r in ROWS))  # the old, unsigned format
    assert cache.get("abc", 1) is None
    cache.put("abc", 1, ROWS)
    (tmp_path / "eval1/abd-sample-1.jsonl").write_bytes(entry.read_bytes())  # a valid entry under another key
    assert cache.get("abd", 1) is None
    entry.write_bytes(b"\xff\xfe not even text")
    assert cache.get("abc", 1) is None


def test_another_secret_does_not_validate_an_entry(tmp_path):
    SampleCache(tmp_path / "one", "eval1").put("abc", 1, ROWS)
    other = SampleCache(tmp_path / "two", "eval1")
    (tmp_path / "two/eval1").mkdir(parents=True)
    (tmp_path / "two/eval1/abc-sample-1.jsonl").write_bytes((tmp_path / "one/eval1/abc-sample-1.jsonl").read_bytes())
    assert other.get("abc", 1) is None


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


def test_an_entry_is_made_under_its_name_and_one_cut_short_reads_as_absent_and_is_replaced_whole(tmp_path):
    """No temporary file renamed a new entry (`os.rename` is raised by os.replace too). An entry a kill cut
    short in its write reads as absent, and the next store replaces it whole; a link in an entry's place is
    never written through."""
    assert _events_of_three_stores(tmp_path, "os.rename") == 0
    cache = SampleCache(tmp_path, "eval1")
    assert cache.get("artifact2", 1) == [{"test_id": "a", "score": 0.5}]
    entry = tmp_path / "eval1/abc-sample-1.jsonl"
    cache.put("abc", 1, ROWS)
    whole = entry.read_bytes()
    entry.write_bytes(whole[: len(whole) - 7])  # what a kill in the middle of the write leaves
    assert cache.get("abc", 1) is None
    cache.put("abc", 1, ROWS)
    assert entry.read_bytes() == whole and cache.get("abc", 1) == ROWS
    victim = tmp_path / "victim.txt"
    victim.write_text("precious user data\n")
    (tmp_path / "eval1/xyz-sample-1.jsonl").symlink_to(victim)
    cache.put("xyz", 1, ROWS)
    assert victim.read_text() == "precious user data\n" and cache.get("xyz", 1) == ROWS
    assert sorted(p.name for p in (tmp_path / "eval1").iterdir() if p.name.endswith(".tmp")) == []


def test_a_fifo_or_a_link_in_an_entry_s_place_reads_as_absent_and_never_blocks(tmp_path):
    """A mutator running ahead outside the sandbox (`search.overlap: on`) can put a FIFO where an entry of the
    cycle being evaluated goes: opened to be read, it blocked the evaluation for good, no writer ever coming.
    A link to a user's file is not read through either."""
    script = textwrap.dedent(
        f"""
        import os
        from pathlib import Path
        from autoresearch.runs.cache import SampleCache
        root = Path({str(tmp_path)!r})
        cache = SampleCache(root, "eval1")
        cache.put("abc", 1, {ROWS!r})
        os.mkfifo(root / "eval1/abc-sample-2.jsonl")
        (root / "user.txt").write_bytes((root / "eval1/abc-sample-1.jsonl").read_bytes())
        os.symlink(root / "user.txt", root / "eval1/abc-sample-3.jsonl")
        print(cache.get("abc", 2), cache.get("abc", 3), len(cache.stored("abc")))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "None", "1"]
