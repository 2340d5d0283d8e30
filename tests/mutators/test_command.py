"""The command mutator as a coding-agent CLI sees it: its environment, its {placeholders}, its prompt
file, the one-line summary taken from what it wrote, and its timeout."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

# Records what the mutator was given into the run directory it was pointed at (the results
# directory is outside the scope check), then hands over to the scenario's planned edits.
DUMP = r"""
import json, os, sys
from pathlib import Path

seen = {k: v for k, v in os.environ.items() if k.startswith("AUTORESEARCH_")}
seen["argv"] = sys.argv[1:]
seen["history_lines"] = len(Path(os.environ["AUTORESEARCH_ITERATIONS"]).read_text().splitlines())
Path(os.environ["AUTORESEARCH_RUN_DIR"], "mutator-env.json").write_text(json.dumps(seen))
"""
VARIABLES = ("ARTIFACT", "ARTIFACT_MODE", "RUN_DIR", "ITERATIONS", "INITIAL_SHA", "PASS_RATES", "CYCLE", "PROMPT_FILE")
PLACEHOLDERS = " ".join("{autoresearch_" + name.lower() + "}" for name in VARIABLES)


def dumping_repo(root: Path, artifact: dict[str, str], plan: dict[int, dict]) -> Path:
    """A scenario repo whose mutator first dumps its environment and its placeholder arguments."""
    command = f"python3 tools/dump.py {PLACEHOLDERS} && python3 tools/mutate.py"
    return scenario_repo(
        root, artifact, plan, config={"mutator": {"command": command}}, extra_files={"tools/dump.py": DUMP}
    )


def dumps(repo: Path) -> dict[int, dict]:
    """{cycle the mutator was making: what it saw}, read from each run directory it was pointed at."""
    run_root = repo / ".autoresearch/runs/exp"
    found = [json.loads(p.read_text()) for p in run_root.glob("*/mutator-env.json")]
    return {int(seen["AUTORESEARCH_CYCLE"]): seen for seen in found}


def test_a_command_mutator_gets_every_path_and_number_as_variables_and_placeholders(tmp_path):
    repo = dumping_repo(
        tmp_path / "my repo",  # a space: placeholders must reach the command shell-quoted
        {"prompt.md": scores(a=0, b=1)},
        {
            2: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix a"},
            3: {"write": {"prompt.md": scores(a=1, b=0)}},
        },
    )
    original = git(repo, "rev-parse", "HEAD").strip()
    assert cli(repo, "run").returncode == 0
    lines, seen = iterations(repo), dumps(repo)
    run_root = repo.resolve() / ".autoresearch/runs/exp"
    assert sorted(seen) == [2, 3]
    for cycle, env in seen.items():
        decided, candidate = lines[cycle - 2], lines[cycle - 1]
        assert env["AUTORESEARCH_ARTIFACT"] == str(repo.resolve() / "prompt.md")
        assert env["AUTORESEARCH_ARTIFACT_MODE"] == "file"
        assert env["AUTORESEARCH_RUN_DIR"] == str(run_root / decided["run_dir"])
        assert env["AUTORESEARCH_ITERATIONS"] == str(run_root / "_autoresearch/iterations.jsonl")
        assert env["history_lines"] == cycle - 1  # the last decision is on disk before the mutation
        assert env["AUTORESEARCH_INITIAL_SHA"] == original  # the original's commit, even after a KEEP
        assert json.loads(env["AUTORESEARCH_PASS_RATES"]) == decided["assertions"]
        assert env["AUTORESEARCH_PROMPT_FILE"] == str(run_root / candidate["run_dir"] / "mutator-prompt.md")
        assert env["argv"] == [env["AUTORESEARCH_" + name] for name in VARIABLES]
    assert json.loads(seen[2]["AUTORESEARCH_PASS_RATES"]) == {"check-a": 0.0, "check-b": 1.0}


def test_the_prompt_file_holds_the_instructions_with_the_paths_filled_in(tmp_path):
    repo = dumping_repo(
        tmp_path / "r",
        {"skill/a.md": scores(a=0), "skill/b.md": scores(b=1)},
        {2: {"write": {"skill/a.md": scores(a=1)}}},
    )
    assert cli(repo, "run").returncode == 0
    env = dumps(repo)[2]
    prompt = Path(env["AUTORESEARCH_PROMPT_FILE"]).read_text()
    assert env["AUTORESEARCH_ARTIFACT_MODE"] == "directory"
    assert env["AUTORESEARCH_ARTIFACT"] == str(repo.resolve() / "skill")
    assert f"Artifact (directory): {env['AUTORESEARCH_ARTIFACT']}" in prompt
    assert (
        f"The run just decided (its results: index.jsonl, grading files, logs): {env['AUTORESEARCH_RUN_DIR']}" in prompt
    )
    assert f"History of every cycle so far: {env['AUTORESEARCH_ITERATIONS']}" in prompt
    assert f"git commit {env['AUTORESEARCH_INITIAL_SHA']}" in prompt
    assert "will be cycle 2." in prompt
    assert f"Current pass rates per assertion: {env['AUTORESEARCH_PASS_RATES']}" in prompt
    assert f"Write a short changelog to {env['AUTORESEARCH_RUN_DIR']}/mutation.md" in prompt
    assert "files under this directory only" in prompt
    assert re.search(r"\{[a-z_]+\}", prompt) is None  # no placeholder left unfilled


def test_the_summary_is_one_line_of_the_changelog_or_of_stdout_cut_to_200_characters(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0)},
        {
            2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "#  Raise   a " + "x" * 300},
            3: {"write": {"prompt.md": scores(a=1, b=1)}, "stdout": "reading files\nRaise   b " + "y" * 300},
        },
    )
    assert cli(repo, "run").returncode == 0
    summaries = [line["mutation"] for line in iterations(repo)[1:]]
    assert summaries == ["Raise a " + "x" * 191 + "…", "Raise b " + "y" * 191 + "…"]
    assert all(len(summary) == 200 for summary in summaries)
    assert git(repo, "log", "--format=%s", "-1").strip() == f"autoresearch cycle 3: {summaries[1]}"


def test_a_mutator_past_its_timeout_is_killed_and_the_cycle_is_an_error(tmp_path):
    command = "python3 tools/mutate.py && if grep -q HANG prompt.md; then sleep 600; fi"
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {2: {"write": {"prompt.md": "HANG\n"}}, 3: {"write": {"prompt.md": scores(a=1)}}},
        # 10 s, not 1: the timeout bounds cycle 3's ordinary mutation too, and a python3 start alone took ~1 s
        # on a loaded machine (cycle 3's mutator was killed: "timed out after 1s", exit 10)
        config={"mutator": {"command": command, "timeout_s": 10}},
    )
    assert cli(repo, "run").returncode == 0
    lines = iterations(repo)
    assert [line["decision"] for line in lines] == ["keep", "error", "keep"]
    assert lines[1]["error_reason"] == "mutator-timeout" and "timed out after 10s" in lines[1]["error"]
    assert (repo / "prompt.md").read_text() == scores(a=1)  # the half-made candidate never reached an eval
