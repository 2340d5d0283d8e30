"""A `cli` target's `healthcheck` (run once, before its first command, as AgentV 4.42.4 runs it) and cli grader targets
that misbehave. The agreement with the real agentv is in tests/runs/compat/healthcheck and compat/cli-grader."""

from __future__ import annotations

import http.server
import sys
import threading
import time
from pathlib import Path

from autoresearch.runs.results import load_rows
from tests.helpers.repos import assert_one_line_error, cli
from tests.runs.evaltree import canned_command, write_tree

TESTS = [{"id": f"t{i}", "input": "hi", "assertions": [{"type": "contains", "value": "yes"}]} for i in range(6)]
ANSWERS = {f"t{i}": "yes" for i in range(6)}


def target(**extra) -> list[dict]:
    return [{"name": "canned", "provider": "cli", "command": canned_command(), "timeout_seconds": 30, **extra}]


def rows(out: Path) -> dict[str, dict]:
    return {row["test_id"]: row for row in load_rows(out)}


def test_the_healthcheck_runs_once_before_the_tests_with_an_empty_prompt(tmp_path):
    check = f"{sys.executable} -c \"import sys; open('checks.log', 'a').write(repr(sys.argv[1:]) + chr(10))\" {{EVAL_ID}} {{PROMPT}} {{ATTEMPT}} {{FILES}}"
    eval_file = write_tree(tmp_path, TESTS, ANSWERS, targets=target(healthcheck={"command": check}))
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"), "--workers", "4")
    assert done.returncode == 0, done.stderr
    assert {row["score"] for row in rows(tmp_path / "out").values()} == {1.0}
    assert (tmp_path / "evals" / "checks.log").read_text() == "['healthcheck', '', '0']\n"


def test_a_healthcheck_that_never_ends_fails_every_test_at_its_timeout_and_is_killed(tmp_path):
    check = "sleep 300 & echo $! > sleeper.pid; wait"
    eval_file = write_tree(
        tmp_path, TESTS, ANSWERS, targets=target(healthcheck={"command": check, "timeout_seconds": 1})
    )
    started = time.monotonic()
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"), "--max-retries", "0")
    assert time.monotonic() - started < 60
    assert done.returncode == 0, done.stderr
    found = rows(tmp_path / "out")
    assert len(found) == 6
    for row in found.values():
        assert row["execution_status"] == "execution_error" and row["score"] == 0
        assert row["error"] == "CLI healthcheck failed for 'canned': timed out after 1s"
    pid = int((tmp_path / "evals" / "sleeper.pid").read_text())
    assert not Path(f"/proc/{pid}").exists() or Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0] == "Z"


class _Health(http.server.BaseHTTPRequestHandler):
    status = 200

    def do_GET(self):  # noqa: N802 - the http.server API
        self.send_response(self.status)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_url_healthcheck_must_answer_2xx(tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/health"
    try:
        eval_file = write_tree(tmp_path, TESTS[:1], ANSWERS, targets=target(healthcheck={"url": url}))
        done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "up"))
        assert done.returncode == 0 and rows(tmp_path / "up")["t0"]["score"] == 1.0
        _Health.status = 503
        done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "down"), "--max-retries", "0")
        assert (
            rows(tmp_path / "down")["t0"]["error"]
            == "CLI healthcheck failed for 'canned': HTTP 503 Service Unavailable"
        )
    finally:
        _Health.status = 200
        server.shutdown()


def test_a_malformed_healthcheck_is_one_line_naming_the_targets_file_and_field(tmp_path):
    eval_file = write_tree(tmp_path, TESTS[:1], ANSWERS, targets=target(healthcheck={"timeout_seconds": 5}))
    done = cli(tmp_path, "eval", str(eval_file))
    assert_one_line_error(done, 30, str(tmp_path / ".agentv" / "targets.yaml"), "targets[canned].healthcheck")
    eval_file = write_tree(
        tmp_path, TESTS[:1], ANSWERS, targets=target(healthcheck={"command": "true", "timeout_seconds": "soon"})
    )
    done = cli(tmp_path, "validate", str(eval_file))
    assert done.returncode == 30 and "targets[canned].healthcheck.timeout_seconds" in done.stdout


def test_a_cli_grader_that_hangs_is_asked_three_times_then_the_test_is_an_execution_error(tmp_path):
    judge = "echo x >> judge.log; sleep 300"
    targets = [
        {**target()[0], "grader_target": "judge"},
        {"name": "judge", "provider": "cli", "command": judge, "timeout_seconds": 1},
    ]
    eval_file = write_tree(
        tmp_path,
        [{"id": "t0", "input": "hi", "assertions": [{"type": "llm-grader", "prompt": "Says yes"}]}],
        ANSWERS,
        targets=targets,
    )
    started = time.monotonic()
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 60
    assert (tmp_path / "evals" / "judge.log").read_text() == "x\n" * 3
    row = rows(tmp_path / "out")["t0"]
    assert (row["score"], row["execution_status"]) == (0, "execution_error")
    assert "judge timed out after 1s" in row["error"]


def test_placeholders_are_replaced_in_one_pass_so_a_prompt_holding_one_reaches_the_command_as_written(tmp_path):
    """AgentV's renderTemplate: `{OUTPUT_FILE}` inside the (quoted) prompt is text, not a second placeholder."""
    echo = f"{sys.executable} -c \"import sys; open(sys.argv[2], 'w').write(sys.argv[1])\" {{PROMPT}} {{OUTPUT_FILE}}"
    tests = [
        {
            "id": "t0",
            "input": "keep {OUTPUT_FILE} and {EVAL_ID}",
            "assertions": [{"type": "contains", "value": "keep {OUTPUT_FILE} and {EVAL_ID}"}],
        }
    ]
    eval_file = write_tree(tmp_path, tests, {}, targets=[{"name": "canned", "provider": "cli", "command": echo}])
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert rows(tmp_path / "out")["t0"]["score"] == 1.0


def test_a_cli_target_that_grades_one_test_and_answers_another_is_one_target_checked_once(tmp_path):
    """`judge` is `canned`'s grader_target (built first, as a grader) and also the target of a later test."""
    (tmp_path / "judge.py").write_text("import sys\nopen(sys.argv[1], 'w').write('{\"score\": 1}')\n")
    judge = f"{sys.executable} ../judge.py {{OUTPUT_FILE}}"
    check = f"{sys.executable} -c \"open('judge-checks.log', 'a').write('x')\""
    targets = [
        {**target()[0], "grader_target": "judge"},
        {"name": "judge", "provider": "cli", "command": judge, "healthcheck": {"command": check}},
    ]
    tests = [
        {"id": "graded", "input": "hi", "assertions": [{"type": "llm-grader", "prompt": "Says yes"}]},
        {
            "id": "judged",
            "input": "hi",
            "execution": {"target": "judge"},
            "assertions": [{"type": "contains", "value": "score"}],
        },
    ]
    eval_file = write_tree(tmp_path, tests, {"graded": "yes"}, targets=targets)
    done = cli(tmp_path, "eval", str(eval_file), "--output", str(tmp_path / "out"), "--workers", "1")
    assert done.returncode == 0, done.stderr
    found = rows(tmp_path / "out")
    assert (found["graded"]["score"], found["judged"]["score"]) == (1.0, 1.0), found
    assert (tmp_path / "evals" / "judge-checks.log").read_text() == "x"
