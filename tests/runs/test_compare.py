"""`compare` and `autoresearch compare` against the edge cases of agentv compare 4.42.4.

Expected values follow AgentV's TypeScript: Map pairing (last duplicate wins,
first position kept), plain float deltas, JavaScript Math.round for the means.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from autoresearch.runs.compare import compare, js_round3
from autoresearch.runs.compare_table import table
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import load_rows, require_unit_scores
from autoresearch.runs.unit_scores import load_unit_scores
from tests.helpers.repos import cli
from tests.runs.parity.harness import agentv_binary, agentv_env


def rows(*pairs):
    return [{"test_id": t, "score": s} for t, s in pairs]


@pytest.mark.parametrize(
    "value, expected",
    [(-0.0015, -0.001), (0.0015, 0.002), (0.0005, 0.001), (-0.0005, 0.0), (0.1234, 0.123), (-0.0004, 0.0), (2.5, 2.5)],
)
def test_mean_delta_rounds_like_javascript(value, expected):
    assert js_round3(value) == expected
    assert str(js_round3(-0.0004)) == "0.0"  # never -0


def test_threshold_is_plain_floating_point():
    # 0.3 - 0.2 == 0.09999999999999998: a tie at threshold 0.1, as in JavaScript.
    result = compare(rows(("a", 0.2), ("b", 0.0)), rows(("a", 0.3), ("b", 0.1)), 0.1)
    assert [m.outcome for m in result.matched] == ["tie", "win"]


def test_a_loss_needs_delta_at_or_below_minus_threshold():
    # 0.0 - 0.1 is exactly -0.1: a loss; 0.9 - 1.0 is -0.09999999999999998: a tie.
    result = compare(rows(("a", 0.1), ("b", 1.0)), rows(("a", 0.0), ("b", 0.9)), 0.1)
    assert [m.outcome for m in result.matched] == ["loss", "tie"]


def test_duplicates_last_wins_and_unmatched_are_counted_per_row():
    base = rows(("a", 0.0), ("b", 1.0), ("a", 0.5), ("gone", 1.0), ("gone", 1.0))
    cand = rows(("b", 1.0), ("a", 1.0), ("new", 0.0))
    result = compare(base, cand)
    assert [(m.test_id, m.score1, m.score2) for m in result.matched] == [("a", 0.5, 1.0), ("b", 1.0, 1.0)]
    assert result.unmatched == {"file1": 2, "file2": 1}
    assert result.summary.total == 8
    assert (result.summary.wins, result.summary.ties, result.summary.mean_delta) == (1, 1, 0.25)


def test_normalized_gain_is_null_at_a_perfect_baseline():
    result = compare(rows(("a", 1.0), ("b", 0.5)), rows(("a", 0.0), ("b", 0.75)))
    assert result.matched[0].normalized_gain is None
    assert result.matched[1].normalized_gain == 0.5
    assert result.summary.mean_normalized_gain == 0.5
    assert compare(rows(("a", 1.0)), rows(("a", 1.0))).summary.mean_normalized_gain is None


def test_no_matches_gives_zero_mean_delta():
    result = compare(rows(("a", 1.0)), rows(("b", 0.0)))
    assert (result.summary.matched, result.summary.mean_delta) == (0, 0.0)


def write(path, data: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in data))
    return str(path)


def test_cli_json_matches_agentv_shape_and_exit_codes(tmp_path):
    base = write(tmp_path / "base.jsonl", rows(("a", 1), ("b", 0.5)))
    cand = tmp_path / "run"
    cand.mkdir()
    write(cand / "index.jsonl", rows(("a", 0), ("b", 0.5)))
    done = cli(tmp_path, "compare", base, str(cand), "--json")
    assert done.returncode == 1  # regression
    out = json.loads(done.stdout)
    assert out["matched"][0] == {
        "test_id": "a",
        "score1": 1,
        "score2": 0,
        "delta": -1,
        "normalized_gain": None,
        "outcome": "loss",
    }
    assert out["summary"] == {
        "total": 4,
        "matched": 2,
        "wins": 0,
        "losses": 1,
        "ties": 1,
        "mean_delta": -0.5,
        "mean_normalized_gain": 0,
    }
    assert '"score1": 1,' in done.stdout  # integral numbers print as JavaScript prints them
    assert cli(tmp_path, "compare", str(cand), base).returncode == 0


def test_cli_output_is_never_truncated_on_a_pipe(tmp_path):
    many = rows(*((f"test-{i:05d}", 0.5) for i in range(3000)))
    base = write(tmp_path / "b.jsonl", many)
    done = cli(tmp_path, "compare", base, base, "--json")
    assert done.returncode == 0
    assert len(json.loads(done.stdout)["matched"]) == 3000


@pytest.mark.parametrize(
    "line, needle",
    [
        ('{"score": 1}', "b.jsonl:2: field 'test_id'"),
        ('{"test_id": "x", "score": "high"}', "b.jsonl:2: field 'score'"),
        ("not json", "b.jsonl:2: not valid JSON"),
    ],
)
def test_cli_bad_rows_are_invalid_input_naming_file_and_line(tmp_path, line, needle):
    (tmp_path / "b.jsonl").write_text('{"test_id": "ok", "score": 1}\n' + line + "\n")
    done = cli(tmp_path, "compare", str(tmp_path / "b.jsonl"), str(tmp_path / "b.jsonl"))
    assert done.returncode == 30
    assert needle in done.stderr and "Traceback" not in done.stderr


def test_cli_missing_file_is_invalid_input(tmp_path):
    done = cli(tmp_path, "compare", "nope.jsonl", "nope.jsonl")
    assert done.returncode == 30 and "no such result file" in done.stderr


@pytest.mark.parametrize("flags, outcome", [([], "tie"), (["--threshold", "0.05"], "win"), (["-t", "0.05"], "win")])
def test_cli_threshold_flag_sets_what_counts_as_a_win(tmp_path, flags, outcome):
    base = write(tmp_path / "b.jsonl", rows(("a", 0.5)))
    cand = write(tmp_path / "c.jsonl", rows(("a", 0.58)))
    done = cli(tmp_path, "compare", base, cand, "--json", *flags)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["matched"][0]["outcome"] == outcome


TABLE_CASES = {
    # JavaScript's toFixed rounds 0.625 and 0.875 up (Python's format gives 0.62, 0.88 half-even both ways)
    "halves": (rows(("a", 0.625), ("b", 0.125), ("c", 0.5)), rows(("a", 0.875), ("b", 0.125), ("c", 0.0))),
    "improved, with unmatched and a wide id": (
        rows(("short", 0.2), ("a-much-longer-test-id", 0.3), ("gone", 1.0)),
        rows(("short", 0.9), ("a-much-longer-test-id", 0.31), ("new", 0.0)),
    ),
    "perfect baselines (no gain), one loss": (rows(("x", 1.0), ("y", 1.0)), rows(("x", 0.0), ("y", 1.0))),
    "no match": (rows(("a", 1.0)), rows(("b", 0.0))),
    "wide characters": (rows(("t\U0001f600", 0.335), ("é", 0.0)), rows(("t\U0001f600", 0.3349), ("é", 0.0005))),
}


@pytest.mark.parametrize("case", TABLE_CASES, ids=list(TABLE_CASES))
def test_cli_text_is_agentv_compares_byte_for_byte(tmp_path, case):
    """The paths printed as typed (a run directory, a manifest): AgentV reads only index.jsonl manifests."""
    for side, data in zip(("base", "run"), TABLE_CASES[case]):
        (tmp_path / side).mkdir()
        write(tmp_path / side / "index.jsonl", data)
    args = ["compare", "base/index.jsonl", "./run/"]
    theirs = subprocess.run(
        [str(agentv_binary()), *args], cwd=tmp_path, capture_output=True, env=agentv_env(tmp_path / "home")
    )
    ours = cli(tmp_path, *args)
    assert theirs.stdout and theirs.stdout.decode() == ours.stdout, theirs.stderr.decode()
    assert theirs.returncode == ours.returncode


def test_cli_text_is_coloured_on_a_terminal_as_agentv_colours_it():
    result = compare(rows(("a", 0.0), ("b", 1.0)), rows(("a", 1.0), ("b", 0.0)))
    coloured = table(result, "x", "y", color=True)
    assert "\x1b[32m✓ win\x1b[0m" in coloured and "\x1b[31m✗ loss\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == table(result, "x", "y")


def test_cli_json_is_agentv_compare_json_byte_for_byte(tmp_path):
    """`--json` is written from a template, not by json.dumps: it must stay agentv's bytes, numbers and all."""
    scores = [0, 1, 0.5, 0.625, 0.1, 0.3, 1 / 3, 0.999, 0.0001, 1.0, 0.25]
    base = [{"test_id": f"t-{i}", "score": s} for i, s in enumerate(scores)]
    cand = [{"test_id": f"t-{i}", "score": s} for i, s in enumerate(reversed(scores))]
    base += [{"testId": 'ünï "quoted" \\ tab\t', "score": 0.2}, {"test_id": "only-base", "score": 1}]
    cand += [{"testId": 'ünï "quoted" \\ tab\t', "score": 0.7}, {"test_id": "t-3", "score": 0.9}]
    assert_json_is_agentvs(tmp_path, base, cand)


def test_cli_json_writes_small_numbers_as_javascript_does(tmp_path):
    """Python's repr turns to an exponent below 1e-4 (1e-05), JavaScript below 1e-6 and without a leading zero."""
    pairs = [(0.00001, 0.00002), (0.5, 0.50005), (1e-7, 3e-7), (0.9999999, 0), (0.000001, 0.0000015), (1e-300, 0.1)]
    base = [{"test_id": f"t-{i}", "score": b} for i, (b, _) in enumerate(pairs)]
    cand = [{"test_id": f"t-{i}", "score": c} for i, (_, c) in enumerate(pairs)]
    assert_json_is_agentvs(tmp_path, base, cand)


def assert_json_is_agentvs(tmp_path, base, cand):
    for side, data in (("base", base), ("cand", cand)):
        (tmp_path / side).mkdir()
        write(tmp_path / side / "index.jsonl", data)
    args = ["compare", str(tmp_path / "base" / "index.jsonl"), str(tmp_path / "cand" / "index.jsonl"), "--json"]
    with (tmp_path / "agentv.json").open("wb") as out:  # a file, not a pipe: agentv cuts a pipe short
        subprocess.run([str(agentv_binary()), *args], stdout=out, env=agentv_env(tmp_path / "home"), check=False)
    ours = cli(tmp_path, *args)
    assert ours.stdout.encode() == (tmp_path / "agentv.json").read_bytes()


@pytest.mark.parametrize(
    "row, needle",
    [
        ('{"test_id": "a", "score": 123456789012345678901234567890}', "is 123456789012345678901234567890, outside"),
        ('{"test_id": "a", "score": 1, "note": "\\ud800", "cost_usd": -1}', "field 'cost_usd' is -1, below 0"),
        ('{"test_id": "a", "score": 1, "x": {"y": [1, NaN]}}', "field 'x.y[1]' is not a finite number"),
        ('{"test_id": "a", "score": 1, "x": ' + "1" * 400 + "}", "field 'x' is not a finite number"),
    ],
)
def test_cli_reads_what_the_fast_decoder_would_read_differently_as_python_does(tmp_path, row, needle):
    """compare reads rows with a typed decoder and hands any it doubts to the exact reader, which words the error."""
    write(tmp_path / "base.jsonl", rows(("a", 0.5)))
    (tmp_path / "cand.jsonl").write_text(row + "\n")
    done = cli(tmp_path, "compare", "base.jsonl", "cand.jsonl")
    assert done.returncode == 30 and needle in done.stderr, done.stderr


def test_an_integer_a_float_holds_is_a_finite_number(tmp_path):
    """1.5 * 10**308 is a float to every other JSON reader (the largest is 1.797e308): not refused as infinite."""
    write(tmp_path / "base.jsonl", rows(("a", 0.5)))
    (tmp_path / "cand.jsonl").write_text('{"test_id": "a", "score": 0.5, "big": 15' + "0" * 307 + "}\n")
    done = cli(tmp_path, "compare", "base.jsonl", "cand.jsonl", "--json")
    assert done.returncode == 0, done.stderr
    assert load_rows(tmp_path / "cand.jsonl")[0]["big"] == 15 * 10**307


HUGE = "1" * 250
EDGE_ROWS = {
    # numbers no float holds, in fields the typed decoder skips: found by the scan for long exponents and digit runs
    "exponent-400": '{"test_id": "a", "score": 1, "usage": {"n": [2, -1E+400]}}',
    "250-digits-e99": '{"test_id": "a", "score": 1, "x": ' + HUGE + "e99}",
    "1e-400-is-0": '{"test_id": "a", "score": 1, "x": 1e-400}',
    "digits-in-a-string": '{"test_id": "a-0e000", "score": 1, "x": "' + HUGE + '"}',
    "308-digits": '{"test_id": "a", "score": 0.5, "big": 15' + "0" * 307 + "}",
    # which id counts: test_id even when null, then testId, then eval_id
    "testId-before-eval_id": '{"testId": "t", "eval_id": "e", "score": 0.5}',
    "eval_id": '{"eval_id": "e", "testId": null, "score": 0.5}',
    "null-test_id": '{"test_id": null, "testId": "t", "score": 0.5}',
    "empty-test_id": '{"test_id": "", "score": 0.5}',
    "numeric-testId": '{"testId": 7, "eval_id": "e", "score": 0.5}',
    # what the decoder's types refuse but the exact reader takes, or words
    "text-grader-score": '{"test_id": "a", "score": 0.5, "scores": [{"score": "high"}, 3, {"score": true}]}',
    "null-graders": '{"test_id": "a", "score": 0.5, "scores": null, "cost_usd": "free"}',
    "grader-above-1": '{"test_id": "a", "score": 0.5, "scores": [{"score": 0.5}, {"score": 1.5}]}',
    "bool-score": '{"test_id": "a", "score": true}',
    "bool-cost": '{"test_id": "a", "score": 0.5, "cost_usd": true}',
    "negative-zero-cost": '{"test_id": "a", "score": -0.0, "cost_usd": -0.0}',
    "negative-cost": '{"test_id": "a", "score": 0.5, "cost_usd": -0.01}',
    "duplicate-score-last-wins": '{"test_id": "a", "score": 2, "score": 0.25}',
    "duplicate-score-out": '{"test_id": "a", "score": 0.25, "score": 2}',
    "lone-surrogate-id": '{"test_id": "a\\ud800", "score": 0.5}',
    "line-separator-in-a-string": '{"test_id": "a\u2028b", "score": 0.5}',
    "crlf": '{"test_id": "a", "score": 0.5}\r\n{"test_id": "b", "score": 1}\r',
    "two-rows-on-a-line": '{"test_id": "a", "score": 0.5}{"test_id": "b", "score": 1}',
    "array": '[{"test_id": "a", "score": 0.5}]',
}


@pytest.mark.parametrize("text", EDGE_ROWS.values(), ids=EDGE_ROWS.keys())
def test_the_fast_reader_gives_what_the_exact_reader_gives(tmp_path, text):
    """`load_unit_scores` (a typed decoder that skips most fields) against `load_rows` with the range check: the
    same ids and scores, or the same error, on what one could read differently from the other."""
    path = tmp_path / "index.jsonl"
    path.write_text('{"test_id": "first", "score": 0}\n' + text + "\n", newline="")
    try:
        exact = load_rows(path)
        require_unit_scores(path, exact)
    except BadResults as exc:
        with pytest.raises(BadResults) as fast:
            load_unit_scores(path)
        assert str(fast.value) == str(exc)
    else:
        assert load_unit_scores(path) == [(row["test_id"], row["score"]) for row in exact]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_row_whose_text_holds_a_unicode_line_separator_is_compared_as_agentv_compares_it(tmp_path, separator):
    """JSON leaves U+2028, U+2029 and U+0085 raw in a string (JavaScript's JSON.stringify writes them so): a row
    holding one is one row, not two halves refused as invalid JSON; a line may still end at \\r\\n."""
    for side, score in (("base", 0.25), ("run", 0.75)):
        (tmp_path / side).mkdir()
        row = {"test_id": "a", "score": score, "output": f"one{separator}two"}
        text = json.dumps(row, ensure_ascii=False) + "\r\n" + json.dumps({"test_id": "b", "score": 1}) + "\n"
        (tmp_path / side / "index.jsonl").write_text(text, newline="")
    args = ["compare", "base/index.jsonl", "run/index.jsonl"]
    theirs = subprocess.run(
        [str(agentv_binary()), *args], cwd=tmp_path, capture_output=True, env=agentv_env(tmp_path / "home")
    )
    ours = cli(tmp_path, *args)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert theirs.stdout.decode() == ours.stdout and "✓ win" in ours.stdout
    assert load_unit_scores(tmp_path / "run") == [("a", 0.75), ("b", 1)]
    assert load_rows(tmp_path / "run")[0]["output"] == f"one{separator}two"


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "table"])
def test_a_test_id_holding_a_lone_surrogate_is_compared_and_printed_as_agentv_prints_it(tmp_path, as_json):
    """JavaScript keeps half of a UTF-16 pair that a cut left alone; its `--json` writes the escape `\\ud800`
    and its table U+FFFD. Ours raised UnicodeEncodeError at the table's widths and at the print."""
    for side, score in (("base", 0.25), ("run", 0.75)):
        (tmp_path / side).mkdir()
        rows = '{"test_id": "a\\ud800", "score": %s}\n{"test_id": "b\\udc00c", "score": 1}\n' % score
        (tmp_path / side / "index.jsonl").write_text(rows)
    args = ["compare", "base/index.jsonl", "run/index.jsonl", *(["--json"] if as_json else [])]
    theirs = subprocess.run(
        [str(agentv_binary()), *args], cwd=tmp_path, capture_output=True, env=agentv_env(tmp_path / "home")
    )
    ours = subprocess.run(
        [sys.executable, "-m", "autoresearch.optimizer", *args],
        cwd=tmp_path,
        capture_output=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert (ours.returncode, ours.stderr) == (theirs.returncode, b"") == (0, b"")
    assert ours.stdout == theirs.stdout
    assert (b"a\\ud800" if as_json else "a\ufffd".encode()) in ours.stdout


def test_cli_text_shows_a_test_ids_terminal_sequences_without_acting_on_them(tmp_path):
    """A test id is the eval's text: an OSC sequence in one (a window title, OSC 52's clipboard write) or a
    carriage return reached the terminal as it was; each control character now prints as `\\xNN`."""
    hostile = "t\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\rok"
    base = write(tmp_path / "b.jsonl", rows((hostile, 0.0), ("u", 1.0)))
    cand = write(tmp_path / "c.jsonl", rows((hostile, 1.0), ("u", 1.0)))
    done = cli(tmp_path, "compare", base, cand)
    assert done.returncode == 0, done.stderr
    assert re.findall(r"[\x00-\x09\x0b-\x1f\x7f]", done.stdout) == []
    assert "t\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J\\x0dok" in done.stdout
