"""eval.agentv: the loop runs `agentv eval FILE --output RUN_DIR` and reads the run directory it writes.

A fake `agentv` on PATH stands in for the Node CLI: it records its arguments, refuses any other
command line, and writes index.jsonl with the scenario's deterministic eval.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.helpers.repos import assert_one_line_error, cli
from tests.helpers.scenario import iterations, scenario_repo, scores

EVAL_FILE = "evals/support.eval.yaml"

FAKE_AGENTV = r"""#!/usr/bin/env python3
import json, os, subprocess, sys

args = sys.argv[1:]
with open(os.environ["FAKE_AGENTV_CALLS"], "a") as calls:
    calls.write(json.dumps(args) + "\n")
if len(args) not in (4, 6) or args[0] != "eval" or args[2] != "--output" or args[4:5] not in ([], ["--max-retries"]):
    print("usage: agentv eval FILE --output DIR [--max-retries N]", file=sys.stderr)
    sys.exit(2)
sys.exit(subprocess.call([sys.executable, "evals/score.py", args[3], "prompt.md"]))
"""


def agentv_repo(root: Path, **settings) -> Path:
    plan = {2: {"write": {"prompt.md": scores(a=1, b=1)}}}
    config = {"eval": {"command": None, "agentv": EVAL_FILE, **settings}}
    return scenario_repo(
        root, {"prompt.md": scores(a=0, b=1)}, plan, config=config, extra_files={EVAL_FILE: "tests: []\n"}
    )


def fake_agentv_on_path(bin_dir: Path) -> str:
    """A PATH whose first directory holds the fake `agentv`."""
    bin_dir.mkdir()
    (bin_dir / "agentv").write_text(FAKE_AGENTV)
    (bin_dir / "agentv").chmod(0o755)
    return f"{bin_dir}{os.pathsep}{os.environ['PATH']}"


def path_without_agentv() -> str:
    return os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / "agentv").exists())


def test_the_loop_runs_agentv_eval_into_each_run_directory_and_reads_its_results(tmp_path):
    repo = agentv_repo(tmp_path / "r")
    calls = tmp_path / "calls.jsonl"
    done = cli(repo, "run", env={"PATH": fake_agentv_on_path(tmp_path / "bin"), "FAKE_AGENTV_CALLS": str(calls)})
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(line["score"], line["decision"]) for line in lines] == [(0.5, "keep"), (1.0, "keep")]
    run_root = repo.resolve() / ".autoresearch/runs/exp"
    expected = [["eval", EVAL_FILE, "--output", str(run_root / line["run_dir"])] for line in lines]
    assert [json.loads(call) for call in calls.read_text().splitlines()] == expected


def test_eval_max_retries_when_set_is_passed_to_agentv(tmp_path):
    repo = agentv_repo(tmp_path / "r", max_retries=0)
    calls = tmp_path / "calls.jsonl"
    done = cli(repo, "eval", env={"PATH": fake_agentv_on_path(tmp_path / "bin"), "FAKE_AGENTV_CALLS": str(calls)})
    assert done.returncode == 0, done.stderr
    [call] = [json.loads(line) for line in calls.read_text().splitlines()]
    assert call[:2] == ["eval", EVAL_FILE] and call[4:] == ["--max-retries", "0"]


def test_without_the_agentv_cli_run_refuses_with_exit_30_and_one_line(tmp_path):
    repo = agentv_repo(tmp_path / "r")
    done = cli(repo, "run", env={"PATH": path_without_agentv()})
    assert_one_line_error(done, 30, "needs the `agentv` CLI on PATH", "npm install -g agentv")
    assert not (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").exists()
