"""A `cli` target gets `<file: path=...>` references, not the files' text (AgentV's behaviour, kept): when its
command never reads them, and when the original scores 0 on every test, one line says so and points to the fix.

A newcomer's agent that passed its prompt on to an LLM scored 0 on every test with no hint; it took most of
five minutes to find out why.
"""

from __future__ import annotations

import json

import pytest
import yaml

from autoresearch.optimizer.commands.init import EXPAND_FILES
from tests.helpers.repos import cli, make_repo

ARTIFACT = "Always answer with the word BANANA.\n"
QUOTING = {
    "tests": [
        {
            "id": test_id,
            "input": [
                {
                    "role": "user",
                    "content": [{"type": "file", "value": "../prompt.md"}, {"type": "text", "value": question}],
                }
            ],
            "assertions": [{"type": "contains", "value": "BANANA"}],
        }
        for test_id, question in [("one", "What do you say?"), ("two", "Say it again.")]
    ]
}
UNREAD = "target 'default' gets the files of 2 test(s) as <file: path=\"...\"> lines, not their text"
NEVER_READS = "target 'default' never reads the files its prompt names by path"


def repo_with(tmp_path, command: str):
    """A prompt, an eval whose tests quote it (a `{type: file}` part), and an inline `cli` target running `command`,
    its answer what `command` prints (written to {OUTPUT_FILE}, where AgentV reads it)."""
    settings = {
        "experiment": "exp",
        "artifact": "prompt.md",
        "eval": {
            "file": "evals/s.eval.yaml",
            "targets": [{"name": "default", "provider": "cli", "command": f"{command} > {{OUTPUT_FILE}}"}],
        },
        "mutator": {"provider": "command", "command": "true"},
        "stop": {"max_cycles": 1},
    }
    return make_repo(
        tmp_path / "r",
        {
            "prompt.md": ARTIFACT,
            "evals/s.eval.yaml": yaml.safe_dump(QUOTING),
            "autoresearch.yaml": yaml.safe_dump(settings),
        },
    )


def warnings(repo) -> list[str]:
    log = repo / ".autoresearch/runs/exp/_autoresearch/daemon.log"
    return [event["event"] for event in map(json.loads, log.open()) if event["level"] == "warning"]


def test_a_target_that_never_reads_its_files_is_said_once_before_the_run_and_its_zero_points_there(tmp_path):
    repo = repo_with(tmp_path, "cat {PROMPT_FILE}")  # the references, passed on as they are
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    assert done.stderr.count(UNREAD) == 1
    assert "pass {FILES} and read each path, or replace each" in done.stderr
    zero = next(line for line in done.stderr.splitlines() if "the original artifact scores 0 on every test" in line)
    assert zero.endswith(f"{NEVER_READS} (see the warning above)")
    logged = warnings(repo)
    assert [UNREAD in event for event in logged] == [True, False]  # said first, before the baseline's zero
    assert logged[1].endswith(NEVER_READS + " (see the warning above)")


@pytest.mark.parametrize(
    "command",
    ["cat {FILES}", "cat ../prompt.md", f"{EXPAND_FILES} | cat"],
    ids=["the-paths-in-FILES", "the-file-by-name", "the-references-replaced-as-init-shows"],
)
def test_a_command_that_reads_the_files_is_not_warned_and_scores(tmp_path, command):
    repo = repo_with(tmp_path, command)
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr  # one cycle, the original: nothing to improve on
    assert "score 1.0000 (original)" in done.stdout
    assert UNREAD not in done.stderr and "scores 0" not in done.stderr
    assert "note:" not in cli(repo, "validate").stdout


def test_validate_notes_it_and_eval_warns_on_stderr_with_json_kept_to_stdout(tmp_path):
    repo = repo_with(tmp_path, "cat {PROMPT_FILE}")
    checked = cli(repo, "validate")
    assert checked.returncode == 0 and f"note: {UNREAD}" in checked.stdout
    assert any(UNREAD in note for note in json.loads(cli(repo, "validate", "--json").stdout)["notes"])
    targets = {"targets": yaml.safe_load((repo / "autoresearch.yaml").read_text())["eval"]["targets"]}
    (repo / ".agentv").mkdir()
    (repo / ".agentv/targets.yaml").write_text(yaml.safe_dump(targets))  # for the file alone, as AgentV finds them
    assert UNREAD in cli(repo, "validate", "evals/s.eval.yaml").stdout
    for args in (["eval"], ["eval", "evals/s.eval.yaml", "--output", "out"]):
        done = cli(repo, *args, "--json")
        assert done.returncode == 0, done.stderr
        assert f"WARNING: {UNREAD}" in done.stderr and UNREAD not in done.stdout
        assert json.loads(done.stdout)


def test_a_zero_on_every_test_with_files_read_points_to_what_each_test_asked_and_got(tmp_path):
    repo = repo_with(tmp_path, "echo no fruit here {FILES}")
    done = cli(repo, "run")
    zero = next(line for line in done.stderr.splitlines() if "the original artifact scores 0 on every test" in line)
    assert UNREAD not in done.stderr
    where = zero.split(" under ")[-1]
    assert zero.endswith(f"(input.md, outputs/response.md) under {where}")
    assert "What do you say?" in (tmp_path / where / "one/input.md").read_text()
    assert "no fruit here" in (tmp_path / where / "one/outputs/response.md").read_text()


def test_a_zero_on_every_test_of_an_eval_command_points_to_its_rows(tmp_path):
    repo = make_repo(
        tmp_path / "r",
        {
            "prompt.md": ARTIFACT,
            "evals/score.sh": '#!/bin/sh\necho \'{"test_id": "a", "score": 0}\' > "$1/index.jsonl"\n',
            "autoresearch.yaml": yaml.safe_dump(
                {
                    "experiment": "exp",
                    "artifact": "prompt.md",
                    "eval": {"command": "evals/score.sh {run_dir}"},
                    "mutator": {"provider": "command", "command": "true"},
                    "stop": {"max_cycles": 1},
                }
            ),
        },
    )
    done = cli(repo, "run")
    zero = next(line for line in done.stderr.splitlines() if "the original artifact scores 0 on every test" in line)
    rows = zero.split("(its assertions and error) in ")[-1]
    assert json.loads((tmp_path / rows).read_text()) == {"test_id": "a", "score": 0}


def test_init_shows_a_cli_target_that_reads_the_files_and_it_runs_as_written(tmp_path):
    repo = repo_with(tmp_path, "unused")
    (repo / "autoresearch.yaml").unlink()
    assert cli(repo, "init").returncode == 0
    lines = (repo / "autoresearch.yaml").read_text().splitlines()
    start = lines.index("  # targets:")
    assert any("<file: path=" in line for line in lines[:start])  # the comment says why
    block = [line.replace("# ", "", 1).replace("your-agent", "cat") for line in lines[start : start + 4]]
    (repo / "autoresearch.yaml").write_text("\n".join([*lines[:start], *block, *lines[start + 4 :]]) + "\n")
    done = cli(repo, "eval")
    assert done.returncode == 0, done.stderr
    assert "score 1.0000 over 2 test(s)" in done.stdout and "WARNING" not in done.stderr
