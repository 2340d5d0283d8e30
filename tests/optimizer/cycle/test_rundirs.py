"""Run directory names, `YYYY-MM-DDTHH-MM-SS-cNNNN`: UTC time then cycle, so `ls` lists them in the
order they were made, and no two collide when cycles take less than a second."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from autoresearch.plumbing.paths import ExperimentPaths
from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo, scores

NAME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-c\d{4}(-\d+)?$")
STAMP = "%Y-%m-%dT%H-%M-%S"


def test_a_name_is_the_utc_time_to_the_second_and_the_zero_padded_cycle(tmp_path):
    made = ExperimentPaths(tmp_path).new_run_dir(7)
    assert made.is_dir() and NAME.match(made.name) and made.name.endswith("-c0007")
    stamp = datetime.strptime(made.name[:19], STAMP).replace(tzinfo=timezone.utc)
    assert abs(datetime.now(timezone.utc) - stamp) < timedelta(minutes=1)


def test_a_cycle_redone_within_the_same_second_gets_the_next_free_name(tmp_path):
    paths = ExperimentPaths(tmp_path)
    now = datetime.now(timezone.utc)
    taken = {(now + timedelta(seconds=s)).strftime(STAMP) + "-c0004" for s in range(60)}
    for name in taken:  # whichever second the call lands in (within a minute), its name is taken
        (tmp_path / name).mkdir()
    again = paths.new_run_dir(4)
    assert again.is_dir() and again.name.endswith("-2") and again.name.removesuffix("-2") in taken


def test_a_whole_run_of_sub_second_cycles_has_unique_names_in_cycle_order(tmp_path):
    plan = {n: {"write": {"prompt.md": scores(a=0) + "# try\n" * n}} for n in range(2, 7)}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    assert cli(repo, "run").returncode == 10
    names = [line["run_dir"] for line in iterations(repo)]
    assert len(names) == 6 and all(NAME.match(name) for name in names)
    assert sorted(set(names)) == names  # unique, and sorting them is sorting by cycle
    assert all((repo / ".autoresearch/runs/exp" / name).is_dir() for name in names)
