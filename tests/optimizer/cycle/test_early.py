"""Exact early discard: stopping when the remaining tests cannot save a candidate decides as a full evaluation does."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from autoresearch.optimizer.cycle.early import EarlyDiscard
from autoresearch.policies.keep import Evidence, cannot_win, wins_losses
from autoresearch.runs.compare import compare
from tests.helpers.repos import cli, make_repo
from tests.helpers.scenario import MUTATOR, iterations
from tests.runs.test_e2e_builtin import ECHO, TARGETS

score = st.sampled_from([0.0, 0.05, 0.1, 0.15, 0.5, 0.9, 1.0])


@st.composite
def tables(draw):
    """HEAD's rows, the candidate's rows in the order they finish, and whether the candidate is simpler."""
    ids = [f"t{i}" for i in range(draw(st.integers(1, 12)))]
    baseline = [{"test_id": t, "score": draw(score)} for t in ids]
    candidate = [{"test_id": t, "score": draw(score)} for t in draw(st.permutations(ids))]
    return baseline, candidate, draw(st.booleans())


def decision(baseline, candidate, simpler) -> bool:
    s = compare(baseline, candidate).summary
    sizes = (1, 2) if simpler else (2, 2)
    return wins_losses(Evidence(s.wins, s.losses, s.ties, s.mean_delta, 0, 0, sizes[1], sizes[0])).keep


@settings(max_examples=400, deadline=None)
@given(tables())
def test_an_early_discard_decides_as_the_full_evaluation(table):
    baseline, candidate, simpler = table
    watch = EarlyDiscard(baseline, 0.1, simpler)
    seen = []
    for row in candidate:
        seen.append(row)
        if watch(row):
            break
    full = decision(baseline, candidate, simpler)
    assert decision(baseline, seen, simpler) == full  # the partial run is judged the same
    if len(seen) < len(candidate):
        assert full is False  # it stopped only when a KEEP was out of reach


def test_stops_as_soon_as_losses_reach_wins_plus_remaining():
    baseline = [{"test_id": t, "score": 1.0} for t in "abcd"]
    watch = EarlyDiscard(baseline, 0.1, simpler=False)
    assert [watch({"test_id": t, "score": 0.0}) for t in "ab"] == [False, True]  # 2 losses, 2 to come


def test_a_simpler_candidate_is_never_stopped_early():
    assert cannot_win(0, 5, 0, simpler=True) is False and cannot_win(0, 5, 0, simpler=False) is True


@pytest.fixture(scope="module")
def hopeless(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """A run whose cycle 2 loses its first 3 of 6 tests: the built-in runner stops it there."""
    words = [f"w{i}" for i in range(6)]
    suite = {
        "execution": {"target": "echo"},
        "tests": [
            {"id": w, "input": "x", "files": ["../prompt.md"], "assertions": [{"type": "contains", "value": w}]}
            for w in words
        ],
    }
    settings = {
        "experiment": "exp",
        "artifact": "prompt.md",
        "eval": {"file": "evals/s.eval.yaml", "workers": 1},
        "mutator": {"provider": "command", "command": "python3 tools/mutate.py"},
        "stop": {"max_cycles": 2},
    }
    repo = make_repo(
        tmp_path_factory.mktemp("early") / "r",
        {
            "prompt.md": " ".join(words) + "\n",
            "evals/s.eval.yaml": yaml.safe_dump(suite),
            ".agentv/targets.yaml": yaml.safe_dump(TARGETS),
            "tools/echo.py": ECHO,
            "tools/mutate.py": MUTATOR,
            "autoresearch.yaml": yaml.safe_dump(settings),
            "plan.json": json.dumps({"2": {"write": {"prompt.md": "none of them\n"}, "summary": "lose all"}}),
        },
    )
    return repo, cli(repo, "run")


def test_the_builtin_runner_stops_a_hopeless_candidate_and_records_the_skipped_tests(hopeless):
    repo, done = hopeless
    assert done.returncode == 10
    line = iterations(repo)[1]
    assert line["decision"] == "drop" and line["skipped_tests"] == 3  # 3 losses with 3 tests to come: hopeless
    assert (line["wins"], line["losses"]) == (0, 3)


def test_a_score_over_the_tests_an_early_discard_ran_says_so_wherever_it_is_shown(hopeless):
    repo, done = hopeless
    partial = "over 3 of 6 tests (discarded early)"
    assert iterations(repo)[1]["tests"] == 3
    assert partial in next(line for line in done.stderr.splitlines() if "drop score=0" in line)
    assert partial in cli(repo, "log").stdout.splitlines()[2]
    report = next(line for line in cli(repo, "report").stdout.splitlines() if "discarded early" in line)
    assert "cycle 2 over 3 of 6 tests" in report
    chart = (repo / ".autoresearch/runs/exp/_autoresearch/trajectory.html").read_text()
    assert f"cycle 2 · 0 {partial} · DROP" in chart  # the point's title
    assert re.search(r'<tr data-cycle="2".*?' + re.escape(partial), chart)  # the table's row
