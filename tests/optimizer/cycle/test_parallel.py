"""search.candidates: K > 1, end to end through the CLI: K worktrees, K mutators, the best one kept.

The mutator follows a plan keyed by `<cycle>.<sibling>`, so each candidate of a cycle writes exactly
the scores the test chose; the scenario eval reads them from the artifact in the candidate's worktree.
"""

from __future__ import annotations

import json
import signal

import pytest
import yaml

from autoresearch.plumbing.faults import ENV
from tests.helpers.lines import comparable
from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, state

ORIGINAL = scores(a=0, b=0, c=0)
PLAN = {
    "2.0": {"write": {"prompt.md": scores(a=1, b=0, c=0)}, "summary": "fix a"},
    "2.1": {"write": {"prompt.md": scores(a=1, b=1, c=0)}, "summary": "fix a and b"},
    "2.2": {"write": {"prompt.md": scores(a=0, b=0, c=0) + "# pad\n"}, "summary": "pad"},
    "3.0": {"write": {"prompt.md": scores(a=0, b=0, c=0)}, "summary": "break all"},
    "3.1": {"write": {"prompt.md": scores(a=1, b=1, c=0) + "# pad\n"}, "summary": "pad"},
    "3.2": {"write": {"notes.txt": "outside\n"}, "summary": "outside"},
}
EXPECTED_LOG = [
    "autoresearch cycle 2: fix a and b (strategy simplify)",
    "initial",
]


def make(tmp_path, plan=PLAN, **config):
    settings = {
        "search": {"candidates": 3},
        "stop": {"max_cycles": 3, "max_convergence": 10},
        **config,
    }
    return scenario_repo(
        tmp_path / "r",
        {"prompt.md": ORIGINAL},
        {},
        config=settings,
        extra_files={"plan.json": json.dumps(plan)},
    )


def assert_end_state(repo) -> None:
    lines = iterations(repo)
    assert [(r["cycle"], r["decision"]) for r in lines] == [(1, "keep"), (2, "keep"), (3, "drop")]
    assert git(repo, "log", "--format=%s").splitlines() == EXPECTED_LOG
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1, c=0)
    assert git(repo, "status", "--porcelain").strip() == ""
    assert git(repo, "worktree", "list").count("\n") == 1  # the candidates' worktrees are gone
    assert not (repo / ".autoresearch/runs/exp/_autoresearch/candidates").exists() or not any(
        (repo / ".autoresearch/runs/exp/_autoresearch/candidates").iterdir()
    )


def test_three_candidates_a_cycle_keep_the_best_and_save_the_others(tmp_path):
    repo = make(tmp_path, search={"candidates": 3, "overlap": False})  # cycle 3 mutated from cycle 2's KEEP
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert_end_state(repo)
    lines = iterations(repo)
    keep, drop = lines[1], lines[2]
    # the cycle's own fields describe the winner; the candidates array describes all three
    assert keep["strategy"] == "simplify" and keep["mutation"] == "fix a and b"
    assert keep["score"] == pytest.approx(2 / 3) and keep["wins"] == 2
    assert [(c["index"], c["strategy"], c["decision"]) for c in keep["candidates"]] == [
        (0, "fix-failing", "drop"),
        (1, "simplify", "keep"),
        (2, "clarify", "drop"),
    ]
    # the first passed on its own run, and the one picked ran better
    assert keep["candidates"][0]["reason"] == "wins 1 > losses 0; another candidate was picked (a better first run)"
    # the three evals and the winner's second run (wins-losses confirms a pick among several): the sum
    assert keep["cost_usd"] == pytest.approx(0.012) and keep["eval_runs"] == 4
    assert keep["reason"].startswith("confirmed on the mean of two runs: wins 2 > losses 0")
    assert (keep["selected_score"], keep["selected_wins"]) == (pytest.approx(2 / 3), 2)
    assert "patch" not in keep["candidates"][1]
    results = repo / ".autoresearch"
    for c in (keep["candidates"][0], keep["candidates"][2], *drop["candidates"][:2]):
        assert (results / c["patch"]).is_file()
    assert "a 1" in (results / keep["candidates"][0]["patch"]).read_text()
    # cycle 3: one candidate broke everything, one only padded (no win), one wrote outside its artifact
    assert [c["decision"] for c in drop["candidates"]] == ["drop", "drop", "error"]
    assert "outside the artifact" in drop["candidates"][2]["reason"]
    assert not (repo / "notes.txt").exists()
    # each candidate's eval ran in its own worktree
    run_dir = results / "runs/exp" / keep["run_dir"]
    assert sorted(p.name for p in run_dir.iterdir() if p.is_dir()) == ["candidate-0", "candidate-1", "candidate-2"]
    # each mutator was told its strategy
    assert "## Your strategy: clarify" in (run_dir / "candidate-2/mutator-prompt.md").read_text()


def test_the_log_lines_of_the_candidates_threads_name_their_cycle_even_when_mutated_ahead(tmp_path):
    # cycle 3's candidates are mutated while cycle 2's are evaluated (outside the sandbox: `on`, not `auto`)
    repo = make(tmp_path, search={"candidates": 3, "overlap": "on"})
    assert cli(repo, "run").returncode == 0
    events = [json.loads(line) for line in (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").open()]
    assert all(event["experiment"] == "exp" for event in events)
    mutated = [(e["cycle"], e["phase"], e["candidate"]) for e in events if e["event"] == "mutated"]
    # cycle 3's mutator 1 ran while cycle 2 was evaluated (its 0 made no change, its 2 wrote outside the artifact)
    assert sorted(mutated) == [(2, "mutate", 0), (2, "mutate", 1), (2, "mutate", 2), (3, "mutate", 1)]
    assert {e["cycle"] for e in events if e["event"] == "evaluating"} == {1, 2, 3}


def test_strategies_rotate_after_half_of_max_convergence_cycles_without_a_keep(tmp_path):
    plan = {
        f"{c}.{i}": {"write": {"prompt.md": ORIGINAL + f"# {c}{i}\n"}, "summary": "noop"}
        for c in (2, 3, 4)
        for i in range(2)
    }
    settings = {"search": {"candidates": 2, "overlap": False}, "stop": {"max_cycles": 4, "max_convergence": 4}}
    repo = make(tmp_path, plan, **settings)  # (with overlap, a cycle's strategies are assigned a cycle earlier)
    assert cli(repo, "run").returncode == 10
    got = [[c["strategy"] for c in r["candidates"]] for r in iterations(repo)[1:]]
    # two cycles without a KEEP (half of 4): the assignment moves on by one
    assert got == [["fix-failing", "simplify"], ["fix-failing", "simplify"], ["simplify", "clarify"]]


def test_kill_9_during_a_three_candidate_cycle_then_resume(tmp_path):
    repo = make(tmp_path)
    crashed = cli(repo, "run", env={ENV: "after-mutate:1"})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert (repo / ".autoresearch/runs/exp/_autoresearch/candidates/2").is_dir()  # left by the kill
    assert (repo / "prompt.md").read_text() == ORIGINAL  # the user's checkout untouched
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_end_state(repo)


@pytest.mark.parametrize(
    "point, n",
    [
        ("before-eval", 3),
        ("before-eval", 5),  # the winner's second run (wins-losses confirms a pick among several)
        ("after-eval", 2),
        ("before-commit", 1),
        ("after-commit", 1),
        ("after-append", 2),
    ],
)
def test_kill_9_at_the_decision_of_a_parallel_cycle_then_resume(tmp_path, point, n):
    repo = make(tmp_path)
    crashed = cli(repo, "run", env={ENV: f"{point}:{n}"})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    if (point, n) == ("before-eval", 5):
        log = (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").read_text()
        assert log.rstrip().splitlines()[-1].count('"confirming"') == 1  # killed at the second run
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_end_state(repo)


@pytest.mark.parametrize("rule", ["wins-losses", "significant"])
def test_a_keep_committed_just_before_a_kill_9_is_logged_on_resume_with_its_candidates(tmp_path, rule):
    reference = make(tmp_path / "reference", policy={"rule": rule}, stop={"max_cycles": 2})
    assert cli(reference, "run").returncode == 0
    repo = make(tmp_path / "crashed", policy={"rule": rule}, stop={"max_cycles": 2})
    crashed = cli(repo, "run", env={ENV: "after-commit:1"})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    assert [r["cycle"] for r in iterations(repo)] == [1]  # committed, its line not written
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr  # max_cycles reached at the recovered line, an improvement
    assert "logged cycle 2" in resumed.stderr
    line, expected = iterations(repo)[1], iterations(reference)[1]
    # (which sibling runs a HEAD sample the others share is a race: their own spend is too)
    racy = ("eval_runs", "cache_hits", "cost_usd") if rule == "significant" else ()
    assert comparable(line, *racy) == comparable(expected, *racy)
    assert line["cost_usd"] == pytest.approx(expected["cost_usd"])
    assert line["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert line["reason"] == f"{expected['reason']}; recovered: committed just before a crash"
    assert [c["strategy"] for c in line["candidates"]] == ["fix-failing", "simplify", "clarify"]
    assert rule == "wins-losses" or line["samples"] >= 1
    assert (repo / ".autoresearch/runs/exp/_autoresearch/pending-keep.json").read_text().strip() == ""  # taken


@pytest.mark.parametrize(
    "search, words",
    [
        ({"candidates": 0}, "search.candidates"),
        ({"candidates": "many"}, "search.candidates"),
        ({"strategies": []}, "search.strategies"),
        ({"strategies": [{"name": "a"}, {"name": "a"}]}, "search.strategies"),
        ({"strategies": [{"name": "x", "model": "m"}]}, "search.strategies"),
        ({"strategies": [{"name": "bad name"}]}, "search.strategies.0.name"),
    ],
)
def test_a_bad_search_section_is_one_line_naming_the_field_exit_30(tmp_path, search, words):
    repo = make(tmp_path, search=search)
    done = cli(repo, "run")
    assert_one_line_error(done, 30, words)
    assert not (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").exists()


@pytest.mark.parametrize("point", ["before-eval:3:SIGINT", "after-mutate:1:SIGTERM"])
def test_a_signal_during_a_parallel_cycle_stops_cleanly_and_the_run_resumes(tmp_path, point):
    repo = make(tmp_path)
    stopped = cli(repo, "run", env={ENV: point})
    assert stopped.returncode == 130, stopped.stderr
    assert "Traceback" not in stopped.stderr
    assert (repo / "prompt.md").read_text() == ORIGINAL
    assert git(repo, "worktree", "list").count("\n") == 1
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_end_state(repo)


def test_a_cycles_spend_is_the_sum_of_its_candidates_and_the_budget_reads_it(tmp_path):
    repo = make(tmp_path, stop={"max_cycles": 5, "max_convergence": 10, "budget_usd": 0.016})
    done = cli(repo, "run")
    lines = iterations(repo)
    # the original cost 0.003, cycle 2 three evals and the winner's second run (0.012): spent 0.015 + the
    # mean of the two (0.0105, the original's eval counted once per candidate) > 0.016
    assert [r["cycle"] for r in lines] == [1, 2], done.stderr
    assert lines[1]["cost_usd"] == pytest.approx(0.012)
    assert json.loads((repo / ".autoresearch/runs/exp/_autoresearch/state.json").read_text())["stop_reason"] == "budget"


def test_the_first_cycle_of_three_candidates_is_expected_to_cost_three_evals_and_the_budget_refuses_it(tmp_path):
    repo = make(tmp_path, stop={"max_cycles": 5, "max_convergence": 10, "budget_usd": 0.01})
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    # the original cost 0.003; three candidates' evals would bring the spend to 0.012, over the budget
    assert [r["cycle"] for r in iterations(repo)] == [1]
    assert state(repo)["stop_reason"] == "budget"
    assert not list((repo / ".autoresearch/runs/exp").glob("*-c0002*"))


def test_siblings_that_made_the_same_edit_cost_one_eval_run_and_the_pick_is_not_the_luckier_of_two(tmp_path):
    same = {"write": {"prompt.md": scores(a=1, b=0, c=0)}, "summary": "fix a"}
    plan = {"2.0": same, "2.1": {**same, "summary": "fix a, again"}, "2.2": PLAN["2.2"]}
    repo = make(tmp_path, plan, search={"candidates": 3, "overlap": False}, stop={"max_cycles": 2})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    keep = iterations(repo)[1]
    # evaluated at once, the two equal candidates are one eval run and one cache hit (then the pick's second run)
    assert (keep["eval_runs"], keep["cache_hits"]) == (3, 1)
    first, second = keep["candidates"][:2]
    assert (first["decision"], second["decision"]) == ("keep", "drop") and first["score"] == second["score"]


def test_the_significant_rule_tests_the_best_of_three_and_records_its_evidence(tmp_path):
    repo = make(tmp_path, policy={"rule": "significant"})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert_end_state(repo)
    keep = iterations(repo)[1]
    # picked on its first run, the best is tested on its runs from the second on, beside HEAD's
    assert keep["samples"] >= 2 and keep["head_samples"] >= 2 and "p_value" in keep
    assert keep["reason"].startswith("confirmed on runs after its pick: better")
    cycle = next((repo / ".autoresearch/runs/exp").glob("*-c0002"))
    # (HEAD's sample 1 is the original's run, from the cache)
    assert sorted(p.name for p in (cycle / "candidate-1/confirm").iterdir() if p.is_dir())[:2] == ["head-2", "head-3"]
    assert not (cycle / "candidate-1/confirm/sample-1").exists()
    # the others ran once each: the one scoring below HEAD's was not shortlisted, and neither was tested
    assert [c.get("reason", "")[:13] for c in keep["candidates"]][::2] == ["score 0 -> 0.", "score 0 -> 0 "]
    assert not (cycle / "candidate-0/confirm").exists() and not (cycle / "candidate-2/confirm").exists()


def test_a_stop_file_during_the_mutations_saves_every_candidate_and_records_no_cycle(tmp_path):
    stop = {"../../../STOP": ""}  # from the candidate's worktree (…/_autoresearch/candidates/2/0) to the STOP file
    repo = make(tmp_path, plan={**PLAN, "2.0": {**PLAN["2.0"], "write": {**PLAN["2.0"]["write"], **stop}}})
    assert cli(repo, "run").returncode == 10
    assert [r["cycle"] for r in iterations(repo)] == [1]
    assert json.loads((repo / ".autoresearch/runs/exp/_autoresearch/state.json").read_text())["stop_reason"] == (
        "stop-requested"
    )
    assert (repo / "prompt.md").read_text() == ORIGINAL
    patches = sorted((repo / ".autoresearch/runs/exp").glob("*-c0002/candidate-*/candidate.patch"))
    assert len(patches) == 3
    assert git(repo, "worktree", "list").count("\n") == 1


def test_a_write_into_the_users_checkout_is_undone_and_makes_the_cycles_candidates_out_of_scope(tmp_path):
    into_checkout = {"../../../../../../../notes.txt": "written from a candidate's worktree\n"}
    plan = {**PLAN, "2.2": {**PLAN["2.2"], "write": {**PLAN["2.2"]["write"], **into_checkout}}}
    repo = make(tmp_path, plan=plan, stop={"max_cycles": 2})
    done = cli(repo, "run")
    assert not (repo / "notes.txt").exists(), done.stderr
    cycle = iterations(repo)[1]
    assert cycle["decision"] == "error" and cycle["error_reason"] == "out-of-scope"
    assert {c["decision"] for c in cycle["candidates"]} == {"error"}
    assert (repo / "prompt.md").read_text() == ORIGINAL
    assert git(repo, "log", "--format=%s").splitlines() == ["initial"]


def test_the_holdout_stays_hidden_from_every_candidate_and_the_winners_held_rows_are_heads(tmp_path):
    six = scores(a=0, b=0, c=0, d=1, e=1, f=0)
    plan = {
        "2.0": {"write": {"prompt.md": six + "# pad\n"}, "summary": "pad"},
        "2.1": {"write": {"prompt.md": scores(a=1, b=1, c=1, d=1, e=1, f=1)}, "summary": "fix all"},
        "2.2": {"write": {"prompt.md": six + "# pad 2\n"}, "summary": "pad"},
    }
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": six},
        {},
        config={
            "search": {"candidates": 3},
            "eval": {"holdout": 0.34},
            "stop": {"max_cycles": 2},
        },
        extra_files={"plan.json": json.dumps(plan)},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    keep = iterations(repo)[1]
    assert keep["decision"] == "keep" and keep["strategy"] == "simplify" and "holdout_score" in keep
    held = set(json.loads((repo / ".autoresearch/runs/exp/_autoresearch/holdout.json").read_text())["tests"])
    assert held
    for index in (repo / ".autoresearch/runs/exp").rglob("index.jsonl"):
        assert not held & {json.loads(line)["test_id"] for line in index.read_text().splitlines()}, index
    heads = repo / ".autoresearch/holdout/exp" / keep["run_dir"] / "index.jsonl"
    assert {json.loads(line)["test_id"] for line in heads.read_text().splitlines()} == held


def test_an_ignored_file_written_in_a_worktree_is_out_of_scope_and_a_tool_cache_is_not(tmp_path):
    plan = {
        "2.0": {"write": {"prompt.md": scores(a=1, b=1, c=1), "planted.txt": "the eval may read me\n"}, "summary": "x"},
        "2.1": {"write": {"prompt.md": scores(a=1, b=0, c=0), "tools/__pycache__/m.pyc": "bytes"}, "summary": "fix a"},
    }
    repo = make(tmp_path, plan=plan, search={"candidates": 2}, stop={"max_cycles": 2})
    (repo / ".gitignore").write_text("planted.txt\n__pycache__/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    cycle = iterations(repo)[1]
    assert [c["decision"] for c in cycle["candidates"]] == ["error", "keep"]
    assert "planted.txt" in cycle["candidates"][0]["reason"]
    assert cycle["mutation"] == "fix a" and cycle["strategy"] == "simplify"


def replay_repo(tmp_path, edits: list[tuple[str, str]], candidates: int):
    """The scenario repo with a replay mutator of these (summary, content) edits."""
    replay = "".join(f"- summary: {summary}\n  content: v{i}.md\n" for i, (summary, _) in enumerate(edits))
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": ORIGINAL},
        {},
        config={"search": {"candidates": candidates, "overlap": False}, "stop": {"max_cycles": 5}},
        extra_files={"edits/replay.yaml": replay, **{f"edits/v{i}.md": text for i, (_, text) in enumerate(edits)}},
    )
    settings = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    settings["mutator"] = {"provider": "replay", "file": "edits/replay.yaml"}
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(settings))
    git(repo, "commit", "-qam", "replay")
    return repo


def test_siblings_of_a_replay_take_the_next_edits_in_turn_so_they_explore(tmp_path):
    edits = [
        ("fix a", scores(a=1, b=0, c=0)),
        ("fix a and b", scores(a=1, b=1, c=0)),
        ("fix all", scores(a=1, b=1, c=1)),
        ("pad", scores(a=1, b=1, c=0) + "# pad\n"),
    ]
    repo = replay_repo(tmp_path, edits, candidates=2)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [[c["summary"] for c in r["candidates"]] for r in lines[1:]] == [
        ["fix a", "fix a and b"],
        ["fix all", "pad"],
    ]
    assert [(r["decision"], r["mutation"]) for r in lines] == [
        ("keep", "original"),
        ("keep", "fix a and b"),
        ("keep", "fix all"),
    ]
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1, c=1)
    assert state(repo)["stop_reason"] == "mutations-exhausted"


def test_a_replay_that_runs_out_ends_the_run_with_no_cycle_and_no_run_directory_left(tmp_path):
    repo = replay_repo(tmp_path, [("fix a", scores(a=1, b=0, c=0))], candidates=2)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [(r["cycle"], r["decision"]) for r in iterations(repo)] == [(1, "keep"), (2, "keep")]
    assert not list((repo / ".autoresearch/runs/exp").glob("*-c0003*"))
    assert json.loads((repo / ".autoresearch/runs/exp/_autoresearch/state.json").read_text())["stop_reason"] == (
        "mutations-exhausted"
    )


def test_a_mutator_switching_the_users_branch_stops_the_run_with_20_and_puts_it_back(tmp_path):
    switch = {"run": ["git -C ../../../../../.. checkout -q -b elsewhere"]}
    repo = make(tmp_path, plan={**PLAN, "2.1": {**PLAN["2.1"], **switch}})
    done = cli(repo, "run")
    assert done.returncode == 20, done.stderr
    assert "switched branches" in done.stderr
    assert git(repo, "rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    assert git(repo, "log", "--format=%s").splitlines() == ["initial"]
    assert len(list((repo / ".autoresearch/runs/exp").glob("*-c0002/candidate-*/candidate.patch"))) == 3
    assert git(repo, "worktree", "list").count("\n") == 1  # the cycle's worktrees went with it


def test_a_candidates_objectives_measure_its_own_artifact_not_the_checkouts(tmp_path):
    plan = {
        "2.0": {"write": {"prompt.md": scores(a=1, b=0, c=0) + "# one\n# two\n"}, "summary": "a, longer"},
        "2.1": {"write": {"prompt.md": ORIGINAL + "# pad\n"}, "summary": "pad"},
    }
    repo = make(tmp_path, plan, search={"candidates": 2}, stop={"max_cycles": 2})
    assert cli(repo, "run").returncode == 0
    keep = iterations(repo)[1]
    assert keep["decision"] == "keep" and keep["objectives"]["size"] == 5  # the winner's 5 lines; HEAD had 3


def test_a_mutator_that_breaks_its_worktrees_git_file_is_out_of_scope_and_the_run_goes_on(tmp_path):
    """git no longer reads that worktree: its check, then its removal, failed, and the run ended with exit 50,
    the worktrees left behind for every later run to fail on."""
    plan = {
        "2.0": {"write": {"prompt.md": scores(a=1, b=0, c=0)}, "run": ["echo 'gitdir: /nowhere' > .git"]},
        "2.1": {"write": {"prompt.md": scores(a=0, b=1, c=0)}, "summary": "fix b"},
    }
    repo = make(tmp_path, plan, search={"candidates": 2}, stop={"max_cycles": 2})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    first, second = iterations(repo)[1]["candidates"]
    assert first["decision"] == "error" and "changed its worktree's .git" in first["reason"]
    assert second["decision"] == "keep"
    assert git(repo, "worktree", "list").count("\n") == 1
