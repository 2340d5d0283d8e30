"""The measuring stick: every line names the eval that measured it, and when the eval changes between
runs, HEAD is measured again first, so that no decision compares the results of two evals."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.repos import cli, git
from tests.helpers.scenario import EVAL, iterations, scenario_repo, scores

# The user's fix between the nights: the old eval scored test `a` upside down.
FIXED_EVAL = EVAL.replace(
    "score = float(words[1])", 'score = (1 - float(words[1])) if words[0] == "a" else float(words[1])'
)
assert FIXED_EVAL != EVAL

# Night 1 keeps a=1 (HEAD scores a=1, b=0 under the old eval, a=0, b=0 under the fixed one). Night 2's
# candidate a=0 scores a=1 under the fixed eval: a tie with HEAD's old results (drop), a win over HEAD's
# results under the fixed eval (keep).
PLAN = {
    2: {"write": {"prompt.md": scores(a=1, b=0)}, "summary": "fix a"},
    3: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "a the other way"},
    4: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "a the other way"},
}


def two_cycle_repo(tmp_path: Path) -> Path:
    return scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, PLAN, config={"stop": {"max_cycles": 2, "max_convergence": 5}}
    )


def test_a_changed_eval_is_measured_on_head_first_and_decisions_compare_with_that(tmp_path):
    repo = two_cycle_repo(tmp_path)
    assert cli(repo, "run").returncode == 0
    night1 = iterations(repo)
    assert [(r["cycle"], r["decision"]) for r in night1] == [(1, "keep"), (2, "keep")]
    old_key = night1[0]["eval_key"]
    assert all(r["eval_key"] == old_key for r in night1)

    (repo / "evals/score.py").write_text(FIXED_EVAL)
    git(repo, "commit", "-qam", "fix the eval: test a was scored upside down")
    done = cli(repo, "run")

    assert done.returncode == 0, done.stderr
    night2 = iterations(repo)[2:]
    rebase, cand = night2
    assert (rebase["cycle"], rebase["decision"], rebase["rebaseline"]) == (3, "keep", True)
    assert rebase["score"] == 0.0  # HEAD (a=1) under the fixed eval
    assert rebase["commit"] == git(repo, "rev-parse", "HEAD~1").strip()  # the user's commit of the fixed eval
    assert rebase["eval_key"] != old_key and cand["eval_key"] == rebase["eval_key"]
    assert (cand["cycle"], cand["decision"], cand["wins"], cand["losses"]) == (4, "keep", 1, 0)
    assert "measuring HEAD again first" in done.stderr
    # the re-baseline made no commit of its own: the run's one commit is cycle 4's
    assert git(repo, "log", "--format=%s", "-1").startswith("autoresearch cycle 4")


def test_an_unchanged_eval_costs_no_rebaseline(tmp_path):
    repo = two_cycle_repo(tmp_path)
    assert cli(repo, "run").returncode == 0
    (repo / "notes.txt").write_text("nothing the eval reads, and not committed\n")

    done = cli(repo, "run")

    lines = iterations(repo)
    assert [(r["cycle"], r["decision"]) for r in lines[2:]] == [(3, "drop"), (4, "drop")], done.stderr
    assert not any(r.get("rebaseline") for r in lines)
    assert len({r["eval_key"] for r in lines}) == 1


def test_lines_of_an_older_version_without_a_key_are_measured_again_from_the_cache(tmp_path):
    repo = two_cycle_repo(tmp_path)
    assert cli(repo, "run").returncode == 0
    path = repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl"
    old = [{k: v for k, v in r.items() if k != "eval_key"} for r in iterations(repo)]
    path.write_text("".join(json.dumps(r) + "\n" for r in old))
    for copy in (repo / ".git/autoresearch").glob("*/records/iterations.jsonl"):  # an older version kept none
        copy.unlink()

    done = cli(repo, "run")

    rebase = iterations(repo)[2]
    assert (rebase["cycle"], rebase["rebaseline"], rebase["score"]) == (3, True, 0.5), done.stderr
    assert (rebase["cache_hits"], rebase["eval_runs"], rebase["cost_usd"]) == (1, 0, 0.0)  # the same eval: no eval run
    assert "name no eval" in done.stderr


def test_the_chart_breaks_its_score_line_where_the_eval_changed(tmp_path):
    repo = two_cycle_repo(tmp_path)
    assert cli(repo, "run").returncode == 0
    (repo / "evals/score.py").write_text(FIXED_EVAL)
    git(repo, "commit", "-qam", "fix the eval")
    assert cli(repo, "run").returncode == 0

    page = (repo / ".autoresearch/runs/exp/_autoresearch/trajectory.html").read_text()

    assert page.count('class="rebaseline" data-cycle="3"') == 1
    assert page.count('<polyline class="trace"') == 2  # cycles 1-2, then 3-4: never one line across the change
    assert "eval changed" in page
    assert "re-baseline (the eval changed)" in page  # where the improvement is measured from
    report = cli(repo, "report").stdout
    assert "re-baseline: the eval changed, HEAD measured again at cycle 3: 0.0000 -> 0.5000 (best)" in report
    assert json.loads(cli(repo, "report", "--json").stdout)["rebaseline"]["cycle"] == 3


def test_a_target_reached_under_the_old_eval_does_not_stop_a_run_under_the_new_one(tmp_path):
    plan = {
        2: {"write": {"prompt.md": scores(a=1, b=1)}, "summary": "fix both"},
        4: {"write": {"prompt.md": scores(a=0, b=1)}},
    }
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan, config={"stop": {"max_cycles": 2, "target_score": 1.0}}
    )
    assert cli(repo, "run").returncode == 0
    assert [(r["cycle"], r["score"]) for r in iterations(repo)] == [(1, 0.0), (2, 1.0)]
    (repo / "evals/score.py").write_text(FIXED_EVAL)
    git(repo, "commit", "-qam", "fix the eval")

    done = cli(repo, "run")

    lines = iterations(repo)[2:]
    assert [(r["cycle"], r["decision"], r["score"]) for r in lines] == [(3, "keep", 0.5), (4, "keep", 1.0)], done.stderr
    assert lines[0]["rebaseline"] is True


def test_a_rollback_keeps_the_eval_key_of_the_results_it_restores(tmp_path):
    repo = two_cycle_repo(tmp_path)
    assert cli(repo, "run").returncode == 0
    assert cli(repo, "rollback", "--to", "1").returncode == 0

    done = cli(repo, "run")

    lines = iterations(repo)
    assert lines[2]["reason"] == "rollback to cycle 1" and lines[2]["eval_key"] == lines[0]["eval_key"]
    assert not any(r.get("rebaseline") for r in lines), done.stderr  # the same eval: nothing to measure again


def test_a_rebaseline_keeps_the_holdout_apart_as_the_original_did(tmp_path):
    tests = {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 0, "g": 0, "h": 0, "i": 0, "j": 0}
    plan = {2: {"write": {"prompt.md": scores(**(tests | {"f": 1}))}}, 3: {"write": {"prompt.md": scores(**tests)}}}
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(**tests)},
        plan,
        config={"eval": {"holdout": 0.4}, "stop": {"max_cycles": 1}},
    )
    assert cli(repo, "run").returncode == 10
    (repo / "evals/score.py").write_text(FIXED_EVAL)
    git(repo, "commit", "-qam", "fix the eval")

    done = cli(repo, "run")

    original, rebase = iterations(repo)
    assert rebase["rebaseline"] is True, done.stderr
    assert rebase["holdout_tests"] == original["holdout_tests"] == 4
    rows = (repo / ".autoresearch/runs/exp" / rebase["run_dir"] / "index.jsonl").read_text().splitlines()
    assert len(rows) == 6  # the held-out tests' results are out of the mutator's sight
