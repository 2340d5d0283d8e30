"""The judge in-process: the rule in force, its decision from two result sets, and the comparison it records."""

from __future__ import annotations

import pytest

from autoresearch.optimizer.config import load
from autoresearch.optimizer.cycle.decide import compare_for_goal, is_better, judge, rule_of
from autoresearch.optimizer.cycle.gating import Sizes
from autoresearch.optimizer.cycle.keys import artifact_key
from autoresearch.optimizer.gitrepo.workspace import artifact_bytes, open_workspace
from tests.helpers.repos import git, make_repo
from tests.optimizer.unit import CONFIG


def rows(**by_test: float) -> list[dict]:
    return [{"test_id": t, "score": s} for t, s in by_test.items()]


def setup(tmp_path, extra: str = "", artifact: str = "one\ntwo\n"):
    base = CONFIG.replace("eval: {command: 'true'}\n", "") if extra.startswith("eval:") else CONFIG
    repo = make_repo(tmp_path / "repo", {"prompt.md": artifact, "autoresearch.yaml": base + extra})
    return load(repo / "autoresearch.yaml"), open_workspace(repo, "prompt.md")


def test_wins_losses_keeps_more_wins_than_losses(tmp_path):
    config, ws = setup(tmp_path)
    verdict = judge(config, Sizes.of(ws), rows(a=0, b=0, c=1), rows(a=1, b=1, c=0.5))
    assert (verdict.decision.keep, verdict.comparison.summary.wins, verdict.comparison.summary.losses) == (True, 2, 1)
    assert not judge(config, Sizes.of(ws), rows(a=1, b=1), rows(a=1, b=0)).decision.keep


def test_a_simpler_artifact_with_no_change_is_kept(tmp_path):
    config, ws = setup(tmp_path)
    ws.artifact_path.write_text("one\n")  # a line shorter than HEAD's
    assert judge(config, Sizes.of(ws), rows(a=1), rows(a=1)).decision.keep
    ws.artifact_path.write_text("one\ntwo\nthree\n")
    assert not judge(config, Sizes.of(ws), rows(a=1), rows(a=1)).decision.keep


def test_a_metric_is_judged_by_the_score_rule_in_the_goals_direction(tmp_path):
    config, ws = setup(tmp_path, "eval: {command: 'true', metric: {pattern: 'loss (\\S+)', goal: minimize}}\n")
    assert rule_of(config).decide is not None and not rule_of(config).early_discard
    assert judge(config, Sizes.of(ws), rows(m=2.0), rows(m=1.5)).decision.keep  # lower is better
    assert not judge(config, Sizes.of(ws), rows(m=2.0), rows(m=2.5)).decision.keep
    assert compare_for_goal(config, rows(m=2.0), rows(m=1.999)).summary.wins == 1  # any improvement is a win
    assert is_better("minimize", 1.0, 2.0) and not is_better("maximize", 1.0, 2.0)


@pytest.mark.parametrize(
    "rule, sequential, early", [("wins-losses", False, True), ("score", False, False), ("significant", True, False)]
)
def test_each_rule_is_looked_up_in_the_policies_registry(tmp_path, rule, sequential, early):
    config, _ = setup(tmp_path, f"policy: {{rule: {rule}}}\n")
    assert (rule_of(config).sequential, rule_of(config).early_discard) == (sequential, early)


def test_the_candidates_bytes_read_once_give_its_size_and_key_as_two_reads_do(tmp_path):
    """A judge reads a file artifact once for its size and its result cache key (both were read apart)."""
    _, ws = setup(tmp_path)
    ws.artifact_path.write_text("one\ntwo\nthree\n")
    data = artifact_bytes(ws)
    assert Sizes.of(ws, data) == Sizes.of(ws) == Sizes(head=2, candidate=3)
    assert artifact_key(ws, data) == artifact_key(ws) == git(ws.root, "hash-object", "prompt.md").strip()
