"""`autoresearch eval PATH` as a user runs it: the progress bar on a terminal only, --target, --workers, the default run directory."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from autoresearch.runs.results import load_rows
from tests.helpers.fake_llm import error_reply, text_reply
from tests.helpers.repos import GIT_ENV, cli
from tests.runs.evaltree import write_tree
from tests.runs.test_llm import llm_targets

TESTS = [{"id": i, "input": "x", "assertions": [{"type": "contains", "value": "yes"}]} for i in ("a", "b", "c")]
ANSWERS = {"a": "yes", "b": "no", "c": "yes"}


def on_a_terminal(cwd: Path, *args: str) -> tuple[int, str]:
    """Run the CLI with stderr on a pseudo-terminal (stdout to a file): its exit code and what the terminal showed."""
    leader, follower = os.openpty()
    with open(cwd / "stdout.txt", "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "autoresearch.optimizer", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=follower,
            env={**os.environ, **GIT_ENV, "NO_COLOR": "1"},
        )
    os.close(follower)
    shown = b""
    try:
        while chunk := os.read(leader, 4096):
            shown += chunk
    except OSError:  # EIO: the child closed its end, so everything it wrote has been read
        pass
    finally:
        os.close(leader)
    return proc.wait(timeout=120), shown.decode()


def test_the_progress_bar_is_drawn_on_a_terminal_up_to_n_of_n(tmp_path):
    eval_file = write_tree(tmp_path, TESTS, ANSWERS)
    code, shown = on_a_terminal(tmp_path, "eval", str(eval_file), "--output", "out", "--workers", "1")
    assert code == 0, shown
    frames = [frame for frame in shown.split("\r") if frame.strip()]
    assert frames == [
        f"[{'#' * 10}{'-' * 20}] 1/3 tests  mean 1.000",
        f"[{'#' * 20}{'-' * 10}] 2/3 tests  mean 0.500",
        f"[{'#' * 30}] 3/3 tests  mean 0.667",
    ]
    assert shown.endswith("\r\n")  # the finished bar keeps its line


def test_no_progress_bar_without_a_terminal(tmp_path):
    eval_file = write_tree(tmp_path, TESTS, ANSWERS)
    done = cli(tmp_path, "eval", str(eval_file), "--output", "out")
    assert done.returncode == 0, done.stderr
    assert "tests  mean" not in done.stderr and "\r" not in done.stderr + done.stdout
    assert "mean 0.6667 over 3 test(s)" in done.stdout


def test_target_and_workers_flags_choose_the_target_and_bound_the_parallel_tests(tmp_path, fake_llm, monkeypatch):
    monkeypatch.setenv("FAKE_MODEL", "fake-model")
    monkeypatch.setenv("FAKE_KEY", "fake-key")
    fake_llm.latency_s, fake_llm.handler = 0.3, lambda req: text_reply("yes")
    six = [{**test, "id": f"{test['id']}{n}"} for test in TESTS for n in (1, 2)]
    eval_file = write_tree(tmp_path, six, {}, targets=llm_targets(fake_llm))
    done = cli(tmp_path, "eval", str(eval_file), "--output", "out", "--target", "bot", "--workers", "2")
    assert done.returncode == 0, done.stderr
    rows = load_rows(tmp_path / "out")
    assert len(rows) == 6 and {(r["target"], r["score"]) for r in rows} == {
        ("bot", 1.0)
    }  # the file's default is `canned`
    assert fake_llm.max_concurrent == 2


def test_without_output_the_run_goes_under_agentv_results(tmp_path):
    eval_file = write_tree(tmp_path, TESTS, ANSWERS)
    done = cli(tmp_path, "eval", str(eval_file))
    assert done.returncode == 0, done.stderr
    [run_dir] = (tmp_path / ".agentv" / "results").iterdir()
    assert re.fullmatch(r"eval_\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{6}Z", run_dir.name)
    assert len(load_rows(run_dir)) == 3
    assert f"results: {Path('.agentv', 'results', run_dir.name)}" in done.stdout


def test_a_retried_request_is_one_warning_line_with_the_key_masked(tmp_path, fake_llm, monkeypatch):
    key = "fake-key-0123456789"
    monkeypatch.setenv("FAKE_MODEL", "fake-model")
    monkeypatch.setenv("FAKE_KEY", key)
    fake_llm.queue(error_reply(429, retry_after=0.01, message=f"slow down, {key}"), text_reply("yes"))
    eval_file = write_tree(tmp_path, TESTS[:1], {}, targets=llm_targets(fake_llm))
    done = cli(tmp_path, "eval", str(eval_file), "--output", "out", "--target", "bot")
    assert done.returncode == 0, done.stderr
    [warning] = [line for line in done.stderr.splitlines() if "429" in line]
    assert "WARNING: openai: RateLimitError 429" in warning and "slow down, ***" in warning
    assert key not in done.stderr + done.stdout
