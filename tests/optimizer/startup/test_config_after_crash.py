"""The config edited between a kill -9 during a mutation and the next start: the start's recovery cannot tell the
user's edit from the mutator's, so it puts the file back as it was when the mutation began, keeps the version it
found in full (named on the console), and runs with the config on disk after it, never with the undone one."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import yaml

from tests.helpers.repos import cli, git
from tests.helpers.scenario import held_in_a_mutation, iterations, scenario_repo, scores

PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a", "hold": True},
    3: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix b"},
    4: {"write": {"prompt.md": scores(a=0, b=1)}, "summary": "break a"},
}


def killed_during_a_mutation(repo: Path, *args: str) -> None:
    proc = held_in_a_mutation(repo, *args)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    (repo / ".autoresearch/go-on").touch()  # the orphaned mutator ends


def test_a_config_edited_after_a_crash_is_saved_in_full_named_and_the_start_runs_with_the_one_on_disk(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, PLAN, config={"stop": {"max_cycles": 4}})
    original = (repo / "autoresearch.yaml").read_text()
    killed_during_a_mutation(repo)
    edited = original.replace("max_cycles: 4", "max_cycles: 2") + "# mine\n"
    (repo / "autoresearch.yaml").write_text(edited)

    resumed = cli(repo, "run")

    assert resumed.returncode == 0, resumed.stderr
    assert (repo / "autoresearch.yaml").read_text() == original  # put back: the mutator may have written it
    named = re.search(r"autoresearch\.yaml was changed .*saved in full as (\S+), and", resumed.stderr)
    assert named, resumed.stderr
    assert Path(named.group(1)).read_text() == edited  # the user's version, whole, where the line says
    assert yaml.safe_load(original)["stop"]["max_cycles"] == 4
    assert [r["cycle"] for r in iterations(repo)] == [1, 2, 3, 4]  # the config on disk ran, not the undone one
    assert git(repo, "status", "--porcelain").strip() == ""
