"""`use_target` delegation and `execution.targets` entries' hooks, as AgentV 4.42.4's CLI reads them.

AgentV itself is the oracle where its rows can be paired with ours
(tests/runs/compat/target-hooks); a matrix whose entries delegate to one
target writes rows AgentV cannot tell apart (same id, same target), so that
part is checked here, with what AgentV was seen to score on the same file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from tests.helpers.repos import assert_one_line_error, cli

AGENT = """\
import pathlib, sys
variant = pathlib.Path("variant.txt")
pathlib.Path(sys.argv[1]).write_text(f"variant={variant.read_text().strip() if variant.exists() else 'none'}")
"""
WRITE = "import json,sys,os; c=json.load(sys.stdin); open(os.path.join(c['workspace_path'],'variant.txt'),'w').write(sys.argv[1])"


def project(root: Path, targets: list[dict], suite: dict) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / "template").mkdir()
    (root / "template" / "agent.py").write_text(AGENT)
    (root / ".agentv").mkdir()
    (root / ".agentv" / "targets.yaml").write_text(yaml.safe_dump({"targets": targets}))
    path = root / "suite.eval.yaml"
    path.write_text(yaml.safe_dump({"workspace": {"template": "./template"}, **suite}, sort_keys=False))
    return path


def agent(name: str) -> dict:
    return {"name": name, "provider": "cli", "command": f"{sys.executable} agent.py {{OUTPUT_FILE}}"}


def variant(name: str, use_target: str, value: str) -> dict:
    return {
        "name": name,
        "use_target": use_target,
        "hooks": {"before_each": {"command": [sys.executable, "-c", WRITE, value]}},
    }


TEST = {"id": "t", "input": "q", "assertions": [{"type": "contains", "value": "variant=V1"}]}


def rows(out: Path) -> dict[str, dict]:
    return {r["test_id"]: r for r in map(json.loads, (out / "index.jsonl").read_text().splitlines())}


def test_matrix_entries_delegating_to_one_target_run_each_with_its_own_hooks(tmp_path):
    """AgentV's bug-fix-benchmark shape: variants of one agent told apart by their hooks (AgentV scores 1 and 0)."""
    path = project(
        tmp_path / "p",
        [agent("agent")],
        {
            "execution": {"targets": [variant("v1", "${{ AGENT_TARGET }}", "V1"), variant("v2", "agent", "V2")]},
            "tests": [TEST],
        },
    )
    done = cli(path.parent, "eval", path.name, "--output", "out", env={"AGENT_TARGET": "agent"})
    assert done.returncode == 0, done.stderr
    found = rows(path.parent / "out")
    assert {k: (r["score"], r["target"]) for k, r in found.items()} == {"t@v1": (1, "agent"), "t@v2": (0, "agent")}


def test_a_targets_file_alias_runs_the_target_it_stands_for(tmp_path):
    path = project(
        tmp_path / "p",
        [{"name": "default", "use_target": "real"}, agent("real")],
        {"tests": [{**TEST, "assertions": [{"type": "contains", "value": "variant=none"}]}]},
    )
    done = cli(path.parent, "eval", path.name, "--output", "out")
    assert done.returncode == 0, done.stderr
    assert rows(path.parent / "out")["t"]["target"] == "real"


def test_an_alias_of_an_undefined_target_is_the_files_error(tmp_path):
    path = project(tmp_path / "p", [{"name": "default", "use_target": "nope"}, agent("real")], {"tests": [TEST]})
    done = cli(path.parent, "validate", path.name)
    assert done.returncode == 30
    assert "field 'execution.target': target 'default': use_target 'nope' is not a defined target" in done.stdout


def test_a_delegation_only_the_run_can_follow_fails_the_run_before_anything_is_written(tmp_path):
    """A variable set on another machine is no error of the file (`validate` passes); running without it is."""
    path = project(
        tmp_path / "p",
        [{"name": "default", "use_target": "${{ WHICH_AGENT }}"}, agent("real")],
        {"tests": [TEST]},
    )
    assert cli(path.parent, "validate", path.name, env={"WHICH_AGENT": ""}).returncode == 0
    done = cli(path.parent, "eval", path.name, "--output", "out", env={"WHICH_AGENT": ""})
    assert_one_line_error(done, 30, "WHICH_AGENT", "not set")
    assert not (path.parent / "out").exists()
    wrong = cli(path.parent, "eval", path.name, "--output", "out", env={"WHICH_AGENT": "ghost"})
    assert_one_line_error(wrong, 30, "'ghost' is not a defined target")


def test_a_delegation_loop_names_its_chain(tmp_path):
    path = project(
        tmp_path / "p",
        [{"name": "default", "use_target": "b"}, {"name": "b", "use_target": "default"}, agent("real")],
        {"tests": [TEST]},
    )
    done = cli(path.parent, "eval", path.name, "--output", "out")
    assert_one_line_error(done, 30, "names no concrete target", "default -> b -> default")


def test_the_pages_target_extends_hooks_run_in_the_workspace_with_its_variables(tmp_path):
    """The Experiments page's `target: {extends, hooks}`, its `{{workspace_path}}` filled in."""
    hook = {"before_each": {"command": ["sh", "-c", 'echo P > "{{workspace_path}}/variant.txt"']}}
    path = project(
        tmp_path / "p",
        [agent("agent")],
        {
            "target": {"extends": "agent", "hooks": hook},
            "tests": [{**TEST, "assertions": [{"type": "contains", "value": "variant=P"}]}],
        },
    )
    done = cli(path.parent, "eval", path.name, "--output", "out")
    assert done.returncode == 0, done.stderr
    assert "note:" not in done.stdout + done.stderr  # run, not ignored
    assert rows(path.parent / "out")["t"]["score"] == 1
