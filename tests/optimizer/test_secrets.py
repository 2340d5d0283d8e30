"""A key in the environment never reaches what autoresearch writes (the console, daemon.log,
iterations.jsonl, state.json, the chart, commit messages), whoever echoes it: an eval's error
output or a mutator's summary. What the user's own eval and mutator write (their captured output,
mutation.md) is kept as they wrote it."""

from __future__ import annotations

import json

from tests.helpers.repos import cli, git
from tests.helpers.scenario import scenario_repo, scores

SECRET = "sk-acme-0123456789abcdef"
ENV = {"ACME_API_KEY": SECRET}
LEAKY_EVAL = (  # fails, echoing the key, on an artifact that says LEAK
    'grep -q LEAK prompt.md && { echo "auth failed for key $ACME_API_KEY" >&2; exit 3; }; '
    "python3 evals/score.py {run_dir} prompt.md"
)
META = ".autoresearch/runs/exp/_autoresearch"


def test_a_key_echoed_by_the_first_eval_is_masked_on_the_console_and_in_daemon_log(tmp_path):
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0) + "LEAK\n"}, {}, config={"eval": {"command": LEAKY_EVAL}}
    )
    done = cli(repo, "run", env=ENV)
    assert done.returncode == 40, done.stderr
    log = (repo / META / "daemon.log").read_text()
    assert "autoresearch: eval exited 3: auth failed for key ***" in done.stderr
    assert "run failed" not in done.stderr  # that line is for daemon.log: the console has the closing line
    assert "auth failed for key ***" in log  # the log says why the run ended, masked
    assert SECRET not in done.stdout + done.stderr + log


def test_a_key_in_a_summary_or_a_cycles_error_is_masked_in_commits_results_and_the_chart(tmp_path):
    plan = {
        2: {"write": {"prompt.md": scores(a=1)}, "summary": f"rotate to {SECRET}"},
        3: {"write": {"prompt.md": scores(a=1, b=1) + "LEAK\n"}, "summary": "try b"},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, config={"eval": {"command": LEAKY_EVAL}})
    done = cli(repo, "run", env=ENV)
    assert done.returncode == 0, done.stderr
    commits = git(repo, "log", "--format=%B")
    lines = (repo / META / "iterations.jsonl").read_text()
    assert "autoresearch cycle 2: rotate to ***" in commits
    assert '"error": "eval exited 3: auth failed for key ***"' in lines
    ours = {
        name: (repo / META / name).read_text()
        for name in ("iterations.jsonl", "daemon.log", "state.json", "trajectory.html")
    }
    ours.update(commits=commits, console=done.stdout + done.stderr)
    assert [name for name, text in ours.items() if SECRET in text] == []


def test_a_key_in_a_plain_logging_record_is_masked_and_carries_the_cycle(tmp_path, monkeypatch, capsys):
    import logging

    from autoresearch.optimizer import daemonlog

    monkeypatch.setenv("ACME_API_KEY", SECRET)
    daemonlog.setup(tmp_path / "daemon.log")
    daemonlog.bind(experiment="exp", cycle=4, phase="mutate")
    try:  # how providers reports a retry: the stdlib logger, with the server's words
        logging.getLogger("autoresearch.providers").warning("openai: 429 (key %s over quota); retry 1", SECRET)
    finally:
        daemonlog.unbind_all()
    log = (tmp_path / "daemon.log").read_text()
    assert '"event": "openai: 429 (key *** over quota); retry 1"' in log and '"cycle": 4' in log
    assert "cycle 4   mutate   WARNING: openai: 429 (key *** over quota)" in capsys.readouterr().err


KEYED_EVAL = r"""
import json, os, sys
from pathlib import Path
score = float(Path("prompt.md").read_text().split()[1])
name = "auth uses " + os.environ["ACME_API_KEY"]  # a grader named after the key it checks
row = {"test_id": "a", "score": score, "scores": [{"name": name, "type": "contains", "score": score}]}
Path(sys.argv[1], "index.jsonl").write_text(json.dumps(row) + "\n")
"""


def test_a_key_in_a_grader_name_is_masked_in_iterations_the_chart_and_the_mutator_prompt(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1)}}}
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        plan,
        config={"eval": {"command": "python3 evals/keyed.py {run_dir}"}},
        extra_files={"evals/keyed.py": KEYED_EVAL},
    )
    done = cli(repo, "run", env=ENV)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in (repo / META / "iterations.jsonl").read_text().splitlines()]
    assert lines[-1]["assertions"] == {"auth uses ***": 1.0}
    (prompt,) = (repo / ".autoresearch/runs/exp").glob("*/mutator-prompt.md")
    written = {
        "iterations.jsonl": repo / META / "iterations.jsonl",
        "trajectory.html": repo / META / "trajectory.html",
        "prompt": prompt,
    }
    assert "auth uses ***" in prompt.read_text() and "auth uses ***" in written["trajectory.html"].read_text()
    assert [name for name, path in written.items() if SECRET in path.read_text()] == []


def test_a_key_in_the_name_of_a_file_the_guard_undoes_is_masked_on_the_console_and_in_daemon_log(tmp_path):
    # the guard's warning lists the paths it undid: a list field of the log event, which was not masked
    plan = {
        2: {"write": {"prompt.md": scores(a=1), f"notes-{SECRET}.txt": "x"}},
        3: {"write": {"prompt.md": scores(a=1, b=1)}},
    }
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    done = cli(repo, "run", env=ENV)
    assert done.returncode == 0, done.stderr
    log = (repo / META / "daemon.log").read_text()
    assert "notes-***.txt" in done.stderr and "notes-***.txt" in log
    assert SECRET not in done.stdout + done.stderr + log + cli(repo, "logs", env=ENV).stdout
    saved = next((repo / ".autoresearch/runs/exp").glob("*/outside/files"))
    assert (saved / f"notes-{SECRET}.txt").read_text() == "x"  # the copy keeps its name, so that it can be restored
