"""Hostile strings through a real run: every record stays UTF-8 JSON, nothing is lost, and every reader reads.

An eval's rows may quote a lone surrogate: JSON spells one `"\\ud800"`, and AgentV writes one where JavaScript
cut a string between the halves of a pair. A mutator's changelog may hold a NUL, an escape sequence or a
Unicode line separator. None of them may end the night, cut a record, or reach a terminal or a commit raw.
"""

from __future__ import annotations

import json
import signal

import pytest

from autoresearch.plumbing import jsonlines
from autoresearch.plumbing.faults import ENV
from tests.helpers.repos import cli, git
from tests.helpers.scenario import rows_repo

LONE = "\\ud800"  # a lone surrogate as JSON text spells it (the rows are JSON text)
ROWS = (
    '{"test_id": "a%(s)s", "score": @SCORE@, "target": "t%(s)s", "error": "e%(s)s",'
    ' "assertions": [{"text": "x%(s)s", "passed": true}],'
    ' "scores": [{"name": "n%(s)s", "type": "contains", "score": @SCORE@}]}\n'
    '{"test_id": "b", "score": @SCORE@}\n'
) % {"s": LONE}
RECORDS = ("iterations.jsonl", "state.json", "digest.md", "trajectory.html", "daemon.log")


def meta(repo):
    return repo / ".autoresearch/runs/exp/_autoresearch"


def lines_of(repo) -> list[dict]:
    """iterations.jsonl as UTF-8 (strictly) and JSON, its lines ended where `append` ends them."""
    text = (meta(repo) / "iterations.jsonl").read_bytes().decode("utf-8")
    return [json.loads(line) for line in jsonlines.lines(text) if line]


def test_a_lone_surrogate_in_the_eval_rows_reaches_every_record_as_its_escape_and_every_reader_reads_it(tmp_path):
    plan = {2: {"write": {"prompt.md": "1\n"}, "summary": "up"}, 3: {"write": {"prompt.md": "0\n"}, "summary": "down"}}
    repo = rows_repo(tmp_path / "r", ROWS, {**plan, 4: {"write": {"prompt.md": "0.9\n"}, "summary": "later"}})
    done = cli(repo, "run", "--max-cycles", "3")
    assert done.returncode == 0, done.stderr
    for name in RECORDS:  # UTF-8 throughout: the escape, never a raw surrogate nor a replacement
        assert "\ufffd" not in (meta(repo) / name).read_bytes().decode("utf-8"), name
    lines = lines_of(repo)
    assert [(line["cycle"], line["decision"]) for line in lines] == [(1, "keep"), (2, "keep"), (3, "drop")]
    assert lines[1]["assertions"] == {"n\ud800": 1.0}  # the grader's name whole (pydantic's JSON mode made it "n���")
    assert (
        '"tests":["a\\ud800","b"]' in (meta(repo) / "trajectory.html").read_text()
    )  # the drill-down's, as JS reads it
    assert "a\\ud800" in (meta(repo) / "digest.md").read_text()
    shown = cli(repo, "log", "--json")  # the records read back: pydantic's parser refuses the escape
    assert shown.returncode == 0, shown.stderr
    assert [line["assertions"] for line in json.loads(shown.stdout)] == [line["assertions"] for line in lines]
    for args in (["status"], ["status", "--json"], ["log"], ["diff", "1", "2"], ["chart"]):
        read = cli(repo, *args)
        assert (read.returncode, read.stderr) == (0, ""), args
    assert "a\ufffd" in cli(repo, "diff", "1", "2").stdout  # a terminal is shown U+FFFD, as Node prints it
    again = cli(repo, "run", "--max-cycles", "1")  # a resume reads the history and state.json back
    assert again.returncode == 10, again.stderr  # no improvement tonight
    assert [line["decision"] for line in lines_of(repo)] == ["keep", "keep", "drop", "drop"]


def test_a_keep_killed_after_its_commit_keeps_its_line_whose_grader_name_holds_a_lone_surrogate(tmp_path):
    """The pending line (written with the escape, which pydantic's parser refuses) is taken, not rebuilt."""
    repo = rows_repo(tmp_path / "r", ROWS)
    assert cli(repo, "run", env={ENV: "after-commit:1"}).returncode == -signal.SIGKILL  # cycle 2's KEEP
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    line = lines_of(repo)[1]
    assert (line["decision"], line["assertions"], line["mutation"]) == ("keep", {"n\ud800": 1.0}, "up")
    assert line["reason"] == "wins 2 > losses 0; recovered: committed just before a crash"


@pytest.mark.parametrize("where", ["summary", "stdout"])
def test_a_changelog_with_a_nul_an_escape_sequence_and_a_line_separator_is_one_summary_shown_safely(tmp_path, where):
    """A NUL ended the night at the commit (git's arguments end at one); an escape sequence reached `log`'s
    terminal; U+2028 cut the summary short."""
    text = "first\x00half \x1b]52;c;aGk=\x07 \x1b[2J cleared\u2028second half"
    plan = {2: {"write": {"prompt.md": "1\n"}, where: text}, 3: {"write": {"prompt.md": "0\n"}, "summary": "down"}}
    repo = rows_repo(tmp_path / "r", '{"test_id": "a", "score": @SCORE@}\n', plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    summary = "first\ufffdhalf \ufffd]52;c;aGk=\ufffd \ufffd[2J cleared second half"
    assert [line["mutation"] for line in lines_of(repo)] == ["original", summary, "down"]
    assert git(repo, "log", "-1", "--format=%s", "HEAD") == f"autoresearch cycle 2: {summary}\n"
    shown = cli(repo, "log").stdout
    assert summary in shown and "\x1b" not in shown and "\x00" not in shown


def test_an_evals_stderr_quoted_on_the_console_has_its_escape_sequences_shown_not_obeyed(tmp_path):
    """The console's log lines and the last error quote an eval's stderr (which may quote a model): its ESC
    cleared the terminal or set the clipboard (OSC 52), a carriage return wrote over the line."""
    failing = 'import sys\nsys.stderr.write("bad \\x1b]52;c;aGk=\\x07 \\x1b[2J\\rspoofed\\x00"); sys.exit(2)\n'
    repo = rows_repo(tmp_path / "r", "", eval={"command": "python3 evals/fail.py"})
    (repo / "evals/fail.py").write_text(failing)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a failing eval")
    done = cli(repo, "run")
    assert done.returncode == 40
    assert done.stderr.splitlines()[-1].endswith("eval exited 2: bad \\x1b]52;c;aGk=\\x07 \\x1b[2J spoofed\\x00")
    assert not {"\x1b", "\r", "\x00", "\x07"} & set(done.stdout + done.stderr)


def test_finalize_describes_a_night_whose_test_ids_hold_a_lone_surrogate(tmp_path):
    """The review's description quotes the tests a KEEP won: its write raised UnicodeEncodeError (a traceback,
    exit 1) after the review branch was made, and the next finalize refused that branch."""
    repo = rows_repo(tmp_path / "r", ROWS)
    assert cli(repo, "run").returncode == 0
    done = cli(repo, "finalize")
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    described = (repo / ".autoresearch/runs/exp/review/description.md").read_bytes().decode("utf-8")
    assert "a\\ud800" in described and "\ufffd" not in described


def strict(text: str):
    """JSON as jq or JavaScript's JSON.parse reads it: no NaN, no Infinity."""
    return json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in strict JSON"))


def test_a_hand_written_line_with_nan_or_infinity_does_not_reach_the_json_readers(tmp_path):
    """A line another tool or a hand appended may hold NaN or Infinity, which Python's JSON reads and no strict
    reader does: `log --json` and `status --json` printed them on. Such a line is one that does not parse (a
    declared number's NaN, or one in a field of its own), or a measure it holds reads as absent."""
    repo = rows_repo(tmp_path / "r", ROWS.replace("\\ud800", ""), {2: {"write": {"prompt.md": "1\n"}, "summary": "up"}})
    assert cli(repo, "run", "--max-cycles", "2").returncode == 0
    with open(meta(repo) / "iterations.jsonl", "a") as f:
        f.write('{"cycle": 3, "score": NaN, "decision": "drop"}\n')
        f.write('{"cycle": 4, "score": 0.5, "decision": "drop", "theirs": {"spread": [Infinity]}}\n')
        f.write('{"cycle": 5, "score": 0.5, "decision": "drop", "holdout_z": -Infinity}\n')
    shown = cli(repo, "log", "--json")
    assert shown.returncode == 0, shown.stderr
    records = strict(shown.stdout)
    assert [(r["cycle"], r.get("holdout_z")) for r in records] == [(1, None), (2, None), (5, None)]
    status = cli(repo, "status", "--json")
    assert status.returncode == 0, status.stderr
    strict(status.stdout)
