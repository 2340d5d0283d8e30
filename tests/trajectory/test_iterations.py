"""iterations.jsonl: whole lines only, even after a torn write."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from autoresearch.trajectory import iterations
from autoresearch.trajectory.iterations import Candidate, Iteration, Tail, append, read


def test_append_then_read_round_trips_extra_fields(tmp_path):
    path = tmp_path / "iterations.jsonl"
    append(path, Iteration(cycle=1, score=0.5, decision="keep", mutation="original", wins=0))
    append(path, Iteration(cycle=2, score=0.25, decision="drop", mutation="<b>x</b>"))
    records, bad = read(path)
    assert bad == 0
    assert [(r.cycle, r.decision) for r in records] == [(1, "keep"), (2, "drop")]
    assert records[0].wins == 0


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_line_whose_text_holds_a_unicode_line_separator_is_read_whole(tmp_path, separator):
    """JSON escapes none of them: `str.splitlines` cut the line there, and the cycle was lost to every reader
    (a resume's history, the digest, status) but the daemon that had just written it."""
    path = tmp_path / "iterations.jsonl"
    append(path, Iteration(cycle=1, score=0.5, decision="keep", mutation="original"))
    append(path, Iteration(cycle=2, score=0.25, decision="drop", mutation=f"one{separator}two", reason=separator))
    append(path, Iteration(cycle=3, score=0.75, decision="keep", mutation="three"))
    records, bad = read(path)
    assert bad == 0 and [r.mutation for r in records] == ["original", f"one{separator}two", "three"]
    assert [r.cycle for r in Tail(path).new()[0]] == [1, 2, 3]


def test_a_torn_last_line_is_cut_before_the_next_append(tmp_path):
    path = tmp_path / "iterations.jsonl"
    append(path, Iteration(cycle=1, score=0.5, decision="keep"))
    with open(path, "a") as f:
        f.write('{"cycle": 2, "sco')  # a power cut mid-write
    assert read(path) == (read(path)[0], 1)
    append(path, Iteration(cycle=2, score=0.7, decision="keep"))
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and all(line.endswith("}") for line in lines)
    assert read(path)[1] == 0


def test_a_tail_reads_each_line_once_and_a_line_only_once_it_is_whole(tmp_path):
    path = tmp_path / "iterations.jsonl"
    tail = Tail(path)
    assert tail.new() == ([], False)
    append(path, Iteration(cycle=1, score=0.5, decision="keep"))
    append(path, Iteration(cycle=2, score=0.25, decision="drop"))
    assert [r.cycle for r in tail.new()[0]] == [1, 2]
    assert tail.new() == ([], False)
    with open(path, "a") as f:
        f.write('{"cycle": 3, "score": 0.5, ')  # being written
    assert tail.new() == ([], False)
    with open(path, "a") as f:
        f.write('"decision": "keep"}\n')
    assert [r.cycle for r in tail.new()[0]] == [3]
    path.write_text("")  # a shorter file, or another one in its place: read from its start again
    append(path, Iteration(cycle=1, score=0.5, decision="keep"))
    records, restarted = tail.new()
    assert [r.cycle for r in records] == [1] and restarted


def test_unreadable_lines_are_counted_not_fatal(tmp_path):
    path = tmp_path / "iterations.jsonl"
    path.write_text('{"cycle": 1, "score": 0.1, "decision": "keep"}\nnot json\n{"cycle": 0}\n')
    records, bad = read(path)
    assert len(records) == 1 and bad == 2


def test_a_key_reaching_a_record_is_masked_in_iterations_and_in_the_chart_of_an_older_history(tmp_path, monkeypatch):
    from autoresearch.trajectory import page

    key = "sk-live-0123456789abcdef"
    path = tmp_path / "exp" / "_autoresearch" / "iterations.jsonl"
    path.parent.mkdir(parents=True)
    older = {"cycle": 1, "score": 0.5, "decision": "keep", "assertions": {f"auth {key}": 0.5}}  # written before masking
    path.write_text(json.dumps(older) + "\n")
    monkeypatch.setenv("ACME_API_KEY", key)
    iterations.append(
        path, Iteration(cycle=2, score=1.0, decision="drop", assertions={f"auth {key}": 1.0}, reason=f"k={key}")
    )
    written = json.loads(path.read_text().splitlines()[1])
    assert (written["assertions"], written["reason"]) == ({"auth ***": 1.0}, "k=***")
    records, _ = iterations.read(path)
    page.write(path.parent / "trajectory.html", page.PageData("exp", records, 0, state={}))
    html = (path.parent / "trajectory.html").read_text()
    assert key not in html and "auth ***" in html


def test_a_misspelt_field_in_a_line_we_write_is_refused_and_nothing_is_written(tmp_path):
    path = tmp_path / "iterations.jsonl"
    with pytest.raises(ValueError, match="mutaton"):
        append(path, Iteration(cycle=1, score=0.5, decision="keep", mutaton="original"))
    entry = Candidate(index=0, decision="drop", sumary="x")
    with pytest.raises(ValueError, match=r"candidates\[0\]\.sumary"):
        append(path, Iteration(cycle=2, score=0.5, decision="drop", candidates=[entry]))
    assert not path.exists()


def test_a_line_another_tool_wrote_with_fields_of_its_own_is_still_read(tmp_path):
    path = tmp_path / "iterations.jsonl"
    path.write_text('{"cycle": 1, "score": 0.5, "decision": "keep", "their_note": "x"}\n')
    records, bad = read(path)
    assert bad == 0 and records[0].model_extra == {"their_note": "x"}


def test_a_line_is_stamped_when_written_and_one_read_without_a_time_stays_without_one(tmp_path):
    path = tmp_path / "iterations.jsonl"
    append(path, Iteration(cycle=1, score=0.5, decision="keep"))
    stamped = json.loads(path.read_text())["timestamp"]
    assert stamped.endswith("Z") and stamped[:4].isdigit()
    with open(path, "a") as f:
        f.write('{"cycle": 2, "score": 0.5, "decision": "drop"}\n')  # another tool's line, no time on it
    first, second = read(path)[0], read(path)[0]
    assert [r.timestamp for r in first] == [r.timestamp for r in second] == [stamped, ""]


READ_AND_DROP = """
import gc, json, sys, tracemalloc
from pathlib import Path
from autoresearch.trajectory.iterations import read
path = Path(sys.argv[1])
gc.collect()
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
records, _ = read(path)
del records
gc.collect()
print(tracemalloc.get_traced_memory()[0] - before)
"""


def test_lines_read_and_dropped_leave_nothing_behind(tmp_path):
    """The live chart and the digest read every line again and again over a night: pydantic's shared string
    cache kept each line's run directory, timestamp and commit (about 150 bytes a line, for good). In a
    process of its own, so that no earlier test has filled that cache already."""
    path = tmp_path / "iterations.jsonl"
    lines = (
        Iteration(cycle=c, score=0.5, decision="drop", run_dir=f"run-{c:06d}", commit=f"{c:040x}", eval_key="e" * 64)
        for c in range(1, 2001)
    )
    path.write_text("".join(record.model_dump_json() + "\n" for record in lines))
    done = subprocess.run([sys.executable, "-c", READ_AND_DROP, str(path)], capture_output=True, text=True, check=True)
    assert int(done.stdout) < 40_000, f"{int(done.stdout)} bytes kept after reading 2,000 lines"


def _reference(record: Iteration) -> bytes:
    """A line as `encoded` wrote it before it masked only where a secret may show: the whole record walked."""
    from autoresearch.plumbing.redact import redact_tree

    data = record.model_dump(mode="json", exclude_none=True)
    return (json.dumps(redact_tree(data), ensure_ascii=False, allow_nan=False) + "\n").encode()


@pytest.mark.parametrize(
    "secret",
    [None, "sk-live-0123456789abcdef", 'quote"and\\back-slash', "line one of it\nline two of it", "ünïcødé-sëcret-1"],
)
def test_a_line_is_the_bytes_of_the_whole_record_masked_whatever_secret_reaches_it(monkeypatch, secret):
    """`encoded` masks a line only where its JSON may show a secret (escaped as JSON escapes it, or one of its
    lines): every line comes out byte for byte as masking every string of the record made it."""
    from tests.trajectory.sample import varied

    if secret is not None:
        monkeypatch.setenv("ACME_API_KEY", secret)
    lines = varied(40)
    shown = secret or "nothing"
    lines += [
        Iteration(cycle=41, score=0.5, decision="drop", mutation=f"used {shown} here", timestamp="t"),
        Iteration(cycle=42, score=0.5, decision="keep", assertions={f"auth {shown}": 1.0}, timestamp="t"),
        Iteration(cycle=43, score=0.5, decision="error", error=shown.splitlines()[-1], timestamp="t"),
        Iteration(
            cycle=44,
            score=0.5,
            decision="drop",
            timestamp="t",
            candidates=[Candidate(index=0, decision="drop", summary=shown)],
        ),
    ]
    for record in lines:
        stamped = record if record.timestamp else record.model_copy(update={"timestamp": "2026-11-29T00:00:00Z"})
        assert iterations.encoded(stamped) == _reference(stamped)
    if secret is not None:
        assert all(s not in iterations.encoded(lines[-1]).decode() for s in (secret, json.dumps(secret)[1:-1]))


def test_a_line_no_secret_reaches_is_not_walked_to_mask_it(monkeypatch):
    """The walk through every string was most of writing a line: a line that shows no secret is not walked."""
    from autoresearch.plumbing import redact

    monkeypatch.setenv("ACME_API_KEY", "sk-live-0123456789abcdef")
    walked = []

    def count(frame, event, arg):
        if event == "call" and frame.f_code is redact.redact_tree.__code__:
            walked.append(frame)

    record = Iteration(cycle=2, score=1.0, decision="drop", mutation="a shorter prompt", reason="wins 0 < losses 1")
    sys.setprofile(count)
    try:
        line = iterations.encoded(record)
    finally:
        sys.setprofile(None)
    assert not walked and json.loads(line)["mutation"] == "a shorter prompt" and json.loads(line)["timestamp"]
    assert list(json.loads(line)) == list(json.loads(_reference(record.model_copy(update={"timestamp": "t"}))))
