"""`run` and `eval` as a person sees them in a terminal: drawn by a terminal emulator (pyte) from a real pseudo-terminal."""

from __future__ import annotations

import re
import sys

from tests.helpers.scenario import scenario_repo, scores, wait_for
from tests.optimizer.daemon.test_attach import Terminal
from tests.runs.evaltree import canned_command, write_tree

SUMMARY = "a considerably longer summary of what this mutation changed so that its log line wraps in a narrow terminal"
PLAN = {
    2: {"write": {"prompt.md": scores(a=1) + "WAITGATE\n"}, "summary": SUMMARY},
    3: {"write": {"prompt.md": scores(a=1) + "# longer\n"}, "summary": "longer, no gain"},
}


def _loop(tmp_path):
    return scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, PLAN, extra_files={".gitignore": "waiting\ngate\n"}
    )


def _rows(term: Terminal) -> list[str]:
    return [row.rstrip() for row in term.screen().display]


def _colour_of(term: Terminal, word: str) -> str:
    screen = term.screen()
    for y, row in enumerate(screen.display):
        x = row.find(word)
        if x >= 0:
            return screen.buffer[y][x].fg
    raise AssertionError(f"{word} is not on the screen")


def test_run_shows_the_phase_live_colours_decisions_and_wraps_lines_between_words(tmp_path):
    repo = _loop(tmp_path)
    term = Terminal(repo, columns=72)
    wait_for(lambda: (repo / "waiting").exists())  # cycle 2's eval is running
    term.read_until("cycle 2 · eval for 0:0".encode())  # the status line under the log
    (repo / "gate").touch()
    assert term.proc.wait(timeout=60) == 0
    term.read_until(b"\n")
    rows = _rows(term)
    text = "\n".join(rows)
    assert _colour_of(term, "KEEP") == "green" and _colour_of(term, "DROP") == "red"
    assert not any("· eval for" in row for row in rows)  # the status line is gone once the run is over
    for word in SUMMARY.split():  # a wrapped line breaks between words, never inside one
        assert re.search(rf"(^|\s|=){word}(\s|$)", text, re.M), word
    assert max(len(row) for row in rows) <= 72


def test_with_no_color_run_prints_the_plain_lines_of_logs(tmp_path):
    repo = _loop(tmp_path)
    term = Terminal(repo, env={"NO_COLOR": "1"})
    wait_for(lambda: (repo / "waiting").exists())
    (repo / "gate").touch()
    assert term.proc.wait(timeout=60) == 0
    term.read_until(b"\n")
    assert b"\x1b[" not in term.seen  # no colour, no cursor movement
    assert re.search(rb"cycle 2 +decide +keep score=1.0", term.seen)
    assert b"KEEP" not in term.seen


def _eval_file(tmp_path):
    tests = [{"id": f"t{i}", "input": "x", "assertions": [{"type": "contains", "value": "zz"}]} for i in range(3)]
    return write_tree(tmp_path, tests, {}, targets=[{"name": "canned", "provider": "cli", "command": canned_command()}])


def test_eval_in_a_terminal_shows_tests_done_mean_elapsed_and_eta(tmp_path):
    command = [sys.executable, "-m", "autoresearch.optimizer", "eval", str(_eval_file(tmp_path)), "-o", "out"]
    term = Terminal(tmp_path, command)
    assert term.proc.wait(timeout=60) == 0
    term.read_until(b"results: out")
    bar = next(row for row in _rows(term) if "3/3" in row)
    assert re.search(r"3/3 tests\s+mean 0\.000\s+elapsed \d:\d\d:\d\d\s+ETA", bar), bar


def test_eval_with_no_color_keeps_the_plain_bar(tmp_path):
    command = [sys.executable, "-m", "autoresearch.optimizer", "eval", str(_eval_file(tmp_path)), "-o", "out"]
    term = Terminal(tmp_path, command, env={"NO_COLOR": "1"})
    assert term.proc.wait(timeout=60) == 0
    term.read_until(b"results: out")
    assert b"\r[" + b"#" * 30 + b"] 3/3 tests  mean 0.000" in term.seen
