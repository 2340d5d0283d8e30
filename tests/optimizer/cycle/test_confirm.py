"""search.confirm: under `wins-losses`, the best of several candidates is run once more and kept only if
the mean of its two runs keeps it too and its second run alone does not lose (`mean`, the default), or
if its second run alone keeps it (`independent`).

The eval here is deterministic except for `lucky <test> <score>` lines, which count on the first
run of an artifact only: a candidate whose win was luck wins its first run and loses the second.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autoresearch.policies.holdout import split
from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import JSON_WRITING, iterations, scenario_repo, scores

LUCKY_EVAL = (
    r"""
import hashlib, os, sys, time  # no json or pathlib (tests.helpers.scenario.JSON_WRITING says why)
"""
    + JSON_WRITING
    + r"""
with open(sys.argv[2]) as file:
    content = file.read()
seen = os.path.join(sys.argv[3], hashlib.sha256(content.encode()).hexdigest())
first = not os.path.exists(seen)
open(seen, "a").close()
run = sys.argv[1]
if os.path.basename(run) == "confirm":
    open(os.path.join(sys.argv[3], "confirming"), "a").close()
if sys.argv[4:] == ["rendezvous"] and os.path.basename(run) == "candidate-2":  # the merge: beside a confirmation
    deadline = time.monotonic() + 60
    while not os.path.exists(os.path.join(sys.argv[3], "confirming")):
        if time.monotonic() > deadline:
            sys.exit("no confirmation started while the merge was evaluated")
        time.sleep(0.02)
lines = [l.split() for l in content.splitlines() if l.strip() and not l.startswith("#")]
rows = {w[0]: float(w[1]) for w in lines if len(w) == 2}
rows.update({w[1]: float(w[2]) for w in lines if w[0] == "lucky" and first})
with open(os.path.join(run, "index.jsonl"), "w") as out:
    for test, score in rows.items():
        out.write(f'{{"test_id": {text(test)}, "score": {number(score)}, "cost_usd": 0.001}}\n')
"""
)

ORIGINAL = scores(a=0, b=0, c=0)


def make(tmp_path, plan, confirm=None, original=ORIGINAL, holdout=0.0, rendezvous=False, script=LUCKY_EVAL, **config):
    """A repository of two candidates a cycle; `confirm` is search.confirm as the YAML gives it (None: unset).
    With `rendezvous`, the merge candidate's eval waits for a confirmation to start. `script` is the eval."""
    seen = tmp_path / "seen"
    seen.mkdir()
    settings = {
        "eval": {
            "command": f"python3 evals/score.py {{run_dir}} prompt.md {seen}" + (" rendezvous" if rendezvous else ""),
            "holdout": holdout,
        },
        # each cycle mutated from the KEEP before it (not ahead, carried onto it): the plans write whole files
        "search": {"candidates": 2, "overlap": False, **({} if confirm is None else {"confirm": confirm})},
        "stop": {"max_cycles": len({k.split(".")[0] for k in plan}) + 1, "max_convergence": 10},
        **config,
    }
    return scenario_repo(
        tmp_path / "r",
        {"prompt.md": original},
        {},
        config=settings,
        extra_files={"plan.json": json.dumps(plan), "evals/score.py": script},
    )


LUCKY = {
    "2.0": {"write": {"prompt.md": ORIGINAL + "lucky a 1\n"}, "summary": "lucky a"},
    "2.1": {"write": {"prompt.md": ORIGINAL + "# longer\n"}, "summary": "pad"},
}


def run_dir(repo, line):
    return repo / ".autoresearch/runs/exp" / line["run_dir"]


def index(path) -> dict[str, float]:
    return {row["test_id"]: row["score"] for row in map(json.loads, (path / "index.jsonl").read_text().splitlines())}


@pytest.mark.parametrize("confirm", [None, "mean", True])
def test_under_mean_a_pick_whose_second_run_fails_is_kept_on_the_mean_which_becomes_heads_results(tmp_path, confirm):
    plan = {
        **LUCKY,  # cycle 2: a = 1 on the first run, 0 on the second: a mean of 0.5, a win over HEAD's 0
        "3.0": {"write": {"prompt.md": scores(a=0.55, b=0, c=0)}, "summary": "a a little"},
        "3.1": {"write": {"prompt.md": ORIGINAL + "# longer\n"}, "summary": "pad"},
    }
    repo = make(tmp_path, plan, confirm)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    keep = lines[1]
    assert keep["decision"] == "keep" and keep["mutation"] == "lucky a"
    assert keep["reason"].startswith("confirmed on the mean of two runs: wins 1 > losses 0")
    assert (keep["score"], keep["selected_score"]) == (pytest.approx(0.5 / 3), pytest.approx(1 / 3))
    assert keep["eval_runs"] == 3
    assert index(run_dir(repo, keep)) == {"a": 0.5, "b": 0, "c": 0}  # HEAD's results: the mean
    assert index(run_dir(repo, keep) / "candidate-0/confirm")["a"] == 0  # the second run itself
    # cycle 3 is judged against the mean: a = 0.55 ties with 0.5 (it would win against the second run's 0)
    assert (lines[2]["decision"], lines[2]["wins"]) == ("drop", 0)
    assert git(repo, "log", "--format=%s").splitlines() == [
        "autoresearch cycle 2: lucky a (strategy fix-failing)",
        "initial",
    ]
    assert (repo / "prompt.md").read_text() == LUCKY["2.0"]["write"]["prompt.md"]


def test_under_mean_a_pick_whose_mean_fails_is_not_kept_and_head_is_unchanged(tmp_path):
    plan = {**LUCKY, "2.0": {"write": {"prompt.md": ORIGINAL + "lucky a 0.15\n"}, "summary": "lucky a"}}
    repo = make(tmp_path, plan)
    head = git(repo, "rev-parse", "HEAD")
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    line = iterations(repo)[1]
    assert line["decision"] == "drop"
    assert line["reason"].startswith("not confirmed on the mean of two runs: wins 0 <= losses 0")
    assert (line["selected_wins"], line["wins"], line["score"]) == (1, 0, pytest.approx(0.075 / 3))
    assert git(repo, "rev-parse", "HEAD") == head
    assert (repo / "prompt.md").read_text() == ORIGINAL


def test_under_mean_a_pick_whose_mean_wins_but_whose_second_run_loses_is_not_kept(tmp_path):
    """The first run's luck (a and b at 1) carries the mean over HEAD's 0.5 while the second run, which
    did not pick it, loses a and b (0.3): HEAD beat it, so the edit is not kept."""
    original = scores(a=0.5, b=0.5, c=0.5)
    worse = scores(a=0.3, b=0.3, c=0.5) + "lucky a 1\nlucky b 1\n"
    plan = {
        "2.0": {"write": {"prompt.md": worse}, "summary": "lucky a and b"},
        "2.1": {"write": {"prompt.md": original + "# longer\n"}, "summary": "pad"},
    }
    repo = make(tmp_path, plan, original=original)
    head = git(repo, "rev-parse", "HEAD")
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    line = iterations(repo)[1]
    assert (line["decision"], line["mutation"]) == ("drop", "lucky a and b")
    assert line["reason"] == (
        "not confirmed on the mean of two runs: wins 2 > losses 0; "
        "but its second run alone lost to HEAD (for HEAD: wins 2 > losses 0)"
    )
    assert (line["selected_wins"], line["wins"], line["losses"]) == (2, 2, 0)  # the mean's a and b: 0.65
    assert git(repo, "rev-parse", "HEAD") == head
    assert (repo / "prompt.md").read_text() == original


SPACED = "a 0\n#\n#\n#\nb 1\n#\n#\n#\nc 0\n#\n#\n#\nd 1\n"  # far enough apart for edits to merge


def test_the_best_sibling_is_confirmed_while_the_merge_is_evaluated_and_the_merge_then_in_turn(tmp_path):
    plan = {
        "2.0": {"write": {"prompt.md": SPACED.replace("a 0", "a 1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": SPACED.replace("c 0", "c 1")}, "summary": "fix c"},
    }
    repo = make(tmp_path, plan, original=SPACED, rendezvous=True)  # the merge's eval waits for a confirmation
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    line = iterations(repo)[1]
    assert (line["decision"], line["strategy"], line["mutation"]) == ("keep", "merge", "fix a + fix c")
    first, _, merge = line["candidates"]
    assert merge["reason"].startswith("confirmed on the mean of two runs")
    assert first["decision"] == "drop" and first["reason"].startswith("confirmed on the mean of two runs")
    assert first["reason"].endswith("; not kept: the merge candidate scored higher")
    assert line["eval_runs"] == 5  # two siblings, the merge, and the two confirmations
    assert (repo / "prompt.md").read_text() == SPACED.replace("a 0", "a 1").replace("c 0", "c 1")


def test_when_the_merge_is_not_confirmed_the_best_sibling_confirmed_beside_it_is_kept(tmp_path):
    """Sibling 1's win on c is luck, and it costs b and d, which its first run does not show: the merge wins
    a and c on its first run, and the mean of its two runs wins a and c and loses b and d."""
    lucky = SPACED.replace("b 1", "b 0\nlucky b 1").replace("c 0", "c 0\nlucky c 1").replace("d 1", "d 0\nlucky d 1")
    plan = {
        "2.0": {"write": {"prompt.md": SPACED.replace("a 0", "a 1")}, "summary": "fix a"},
        "2.1": {"write": {"prompt.md": lucky}, "summary": "lucky c"},
    }
    repo = make(tmp_path, plan, original=SPACED)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    line = iterations(repo)[1]
    assert (line["decision"], line["strategy"], line["mutation"]) == ("keep", "fix-failing", "fix a")
    first, _, merge = line["candidates"]
    assert first["decision"] == "keep" and first["reason"].startswith("confirmed on the mean of two runs")
    assert merge["decision"] == "drop"
    assert merge["reason"].startswith("not confirmed on the mean of two runs: wins 2 <= losses 2")
    assert (repo / "prompt.md").read_text() == SPACED.replace("a 0", "a 1")


def test_under_mean_heads_held_out_results_are_the_mean_of_both_runs_too(tmp_path):
    start = {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 0, "g": 0, "h": 0, "i": 0, "j": 0}
    held = split(start, 0.4, "exp")
    train_gain = next(t for t in start if t not in held and start[t] == 0)
    held_luck = next(t for t in sorted(held) if start[t] == 0)
    plan = {
        "2.0": {
            "write": {"prompt.md": scores(**(start | {train_gain: 1})) + f"lucky {held_luck} 1\n"},
            "summary": "gain",
        },
        "2.1": {"write": {"prompt.md": scores(**start) + "# longer\n"}, "summary": "pad"},
    }
    repo = make(tmp_path, plan, original=scores(**start), holdout=0.4)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    line = iterations(repo)[1]
    assert line["decision"] == "keep" and line["reason"].startswith("confirmed on the mean of two runs")
    hidden = index(repo / ".autoresearch/holdout/exp" / line["run_dir"])
    assert (hidden[held_luck], index(run_dir(repo, line))[train_gain]) == (0.5, 1)  # 1 then 0; 1 both times
    assert held_luck not in index(run_dir(repo, line))


def test_under_independent_a_pick_that_won_by_luck_is_not_confirmed_and_nothing_is_committed(tmp_path):
    repo = make(tmp_path, LUCKY, "independent")
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr  # no KEEP: converged
    line = iterations(repo)[1]
    assert line["decision"] == "drop"
    assert line["reason"].startswith("not confirmed on a second run: wins 0 <= losses 0")
    assert (line["selected_score"], line["selected_wins"], line["wins"]) == (pytest.approx(1 / 3), 1, 0)
    assert [c["decision"] for c in line["candidates"]] == ["drop", "drop"]
    assert line["eval_runs"] == 3  # two candidates and the second run of the one picked
    assert git(repo, "log", "--format=%s").splitlines() == ["initial"]
    assert (repo / "prompt.md").read_text() == ORIGINAL
    assert (run_dir(repo, line) / "candidate-0/confirm/index.jsonl").is_file()
    assert (repo / ".autoresearch" / line["candidates"][0]["patch"]).read_text().count("lucky a 1") == 1


@pytest.mark.parametrize("confirm", ["off", False])
def test_search_confirm_off_keeps_the_lucky_pick(tmp_path, confirm):
    repo = make(tmp_path, LUCKY, confirm)
    assert cli(repo, "run").returncode == 0
    line = iterations(repo)[1]
    assert line["decision"] == "keep" and "selected_score" not in line and line["eval_runs"] == 2


def test_a_search_confirm_that_names_no_rule_is_refused(tmp_path):
    repo = make(tmp_path, LUCKY, "maybe")
    assert_one_line_error(cli(repo, "run"), 30, "autoresearch.yaml: field 'search.confirm'", "'independent'")
    assert not (repo / ".autoresearch").exists()


def test_under_independent_heads_results_after_a_confirmed_keep_are_the_second_runs(tmp_path):
    plan = {  # cycle 2: b is a real gain (a's is luck); cycle 3: a real gain on a
        "2.0": {"write": {"prompt.md": scores(a=0, b=1, c=0) + "lucky a 1\n"}, "summary": "b, and a by luck"},
        "2.1": {"write": {"prompt.md": ORIGINAL + "# longer\n"}, "summary": "pad"},
        "3.0": {"write": {"prompt.md": scores(a=1, b=1, c=0)}, "summary": "a"},
        "3.1": {"write": {"prompt.md": scores(a=0, b=1, c=0) + "# longer\n"}, "summary": "pad"},
    }
    repo = make(tmp_path, plan, "independent")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "keep", "keep"]
    assert lines[1]["reason"].startswith("confirmed on a second run: wins 1 > losses 0")
    assert lines[1]["score"] == pytest.approx(1 / 3) and lines[1]["selected_score"] == pytest.approx(2 / 3)
    # HEAD's results are the second run's (a = 0): the real gain on a wins against them in cycle 3
    assert lines[2]["wins"] == 1 and lines[2]["mutation"] == "a"
    assert (repo / "prompt.md").read_text() == scores(a=1, b=1, c=0)


def test_under_the_significant_rule_the_pick_is_tested_on_runs_after_the_one_that_picked_it(tmp_path):
    repo = make(tmp_path, LUCKY, policy={"rule": "significant"})
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    line = iterations(repo)[1]
    # picked on its lucky first run (a = 1), its test drew sample 2 on (a = 0): no better than HEAD
    assert line["decision"] == "drop" and line["selected_score"] == pytest.approx(1 / 3)
    assert line["reason"].startswith("not confirmed on runs after its pick: not better")
    assert line["samples"] == 2 and line["score"] == 0  # the kept samples would be 1 and 2; their rows are sample 2's
    tested = run_dir(repo, line) / "candidate-0/confirm"
    assert (tested / "sample-2").is_dir() and not (tested / "sample-1").exists()
    assert not (run_dir(repo, line) / "candidate-1/confirm").exists()  # the other was not picked: never tested


TOGETHER_EVAL = (
    r"""
import os, sys, time  # no json or pathlib (tests.helpers.scenario.JSON_WRITING says why)
"""
    + JSON_WRITING
    + r"""
run, log = sys.argv[1], sys.argv[3]
name = os.path.basename(run)
with open(os.path.join(log, name), "w") as file:
    file.write(os.getcwd())
beside = {"sample-2": "head-", "head-2": "sample-2"}.get(name)  # the first round of the pick's test
deadline = time.monotonic() + 20
while beside and not any(n.startswith(beside) for n in os.listdir(log)):
    if time.monotonic() > deadline:
        sys.exit(f"{name} ran alone: no {beside}* run beside it")
    time.sleep(0.02)
if name == "head-2" and os.path.exists(os.path.join(log, "fail-head")):
    sys.exit("HEAD's run failed")
lines = [l.split() for l in open(sys.argv[2]).read().splitlines() if l.strip() and not l.startswith("#")]
with open(os.path.join(run, "index.jsonl"), "w") as out:
    for test, score in lines:
        out.write(f'{{"test_id": {text(test)}, "score": {number(float(score))}}}\n')
"""
)


def test_under_the_significant_rule_the_picks_test_draws_heads_runs_beside_its_own_in_a_worktree_at_head(tmp_path):
    """Each eval of the test's first round waits for the other side's to start, so run one after the
    other they fail; HEAD's run is in a worktree at HEAD, removed with the cycle's."""
    plan = {"2.0": {"write": {"prompt.md": scores(a=1, b=0, c=0)}, "summary": "fix a"}, "2.1": LUCKY["2.1"]}
    repo = make(tmp_path, plan, script=TOGETHER_EVAL, policy={"rule": "significant"}, stop={"max_cycles": 2})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    line = iterations(repo)[1]
    assert line["decision"] == "keep" and line["reason"].startswith("confirmed on runs after its pick: better")
    # two first runs, then the pick's runs from sample 2 and HEAD's from 2 (its 1 is the original's run)
    assert line["eval_runs"] == 2 + (line["samples"] - 1) + (line["head_samples"] - 1)
    where = {name: Path((tmp_path / "seen" / name).read_text()) for name in ("sample-2", "head-2")}
    assert where["sample-2"].parts[-2:] == ("2", "0") and where["head-2"].parts[-2:] == ("2", "head")
    assert git(repo, "worktree", "list").count("\n") == 1
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0, c=0)


def test_a_heads_run_that_fails_beside_the_picks_fails_the_test_and_the_run_goes_on(tmp_path):
    plan = {"2.0": {"write": {"prompt.md": scores(a=1, b=0, c=0)}, "summary": "fix a"}, "2.1": LUCKY["2.1"]}
    repo = make(tmp_path, plan, script=TOGETHER_EVAL, policy={"rule": "significant"}, stop={"max_cycles": 2})
    (tmp_path / "seen" / "fail-head").touch()
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    line = iterations(repo)[1]
    assert line["decision"] == "drop" and line["reason"].startswith("not confirmed: its test failed (")
    assert "HEAD's run failed" in line["reason"]
    assert (tmp_path / "seen" / "sample-2").exists()  # the pick's run beside it
    assert line["eval_runs"] == 2 + 1 + 1  # the first runs, the pick's run and HEAD's failed one: none unrecorded
    assert git(repo, "worktree", "list").count("\n") == 1
    assert (repo / "prompt.md").read_text() == ORIGINAL


LUCKY_TARGET = r"""
import hashlib, sys
from pathlib import Path

text, test = open(sys.argv[1]).read(), sys.argv[2]
seen = Path(sys.argv[3]) / (hashlib.sha256(text.encode()).hexdigest() + "-" + test)
words = text.split()
if "lucky" in words:  # every word on this test's first run of the artifact, none afterwards
    words = [f"w{i}" for i in range(6)] if not seen.exists() else []
    seen.touch()
open(sys.argv[-1], "w").write(" ".join(words))
"""


@pytest.mark.parametrize(
    "confirm, reason, tests_run",
    [
        ("independent", "not confirmed on a second run", 3),  # 3 losses with 3 tests to come: stopped there
        # the mean needs every test's second score: w0-w2 fall from 1 to 0.5, w3-w5 rise from 0 to 0.5
        ("mean", "not confirmed on the mean of two runs: wins 3 <= losses 3", 6),
    ],
)
def test_the_second_run_of_a_built_in_eval_stops_early_only_under_independent(tmp_path, confirm, reason, tests_run):
    import yaml

    from tests.helpers.repos import make_repo
    from tests.helpers.scenario import MUTATOR

    seen = tmp_path / "seen"
    seen.mkdir()
    suite = {
        "execution": {"target": "lucky"},
        "tests": [
            {
                "id": f"w{i}",
                "input": "x",
                "files": ["../prompt.md"],
                "assertions": [{"type": "contains", "value": f"w{i}"}],
            }
            for i in range(6)
        ],
    }
    command = f"python3 ../tools/lucky.py {{FILES}} {{EVAL_ID}} {seen} {{OUTPUT_FILE}}"
    plan = {
        "2.0": {"write": {"prompt.md": "lucky w0 w1 w2\n"}, "summary": "lucky"},
        "2.1": {"write": {"prompt.md": "w0 w1 w2\n# pad\n"}, "summary": "pad"},
    }
    settings = {
        "experiment": "exp",
        "artifact": "prompt.md",
        "eval": {"file": "evals/s.eval.yaml", "workers": 2},
        "mutator": {"provider": "command", "command": "python3 tools/mutate.py"},
        "search": {"candidates": 2, "confirm": confirm},
        "stop": {"max_cycles": 2},
    }
    repo = make_repo(
        tmp_path / "r",
        {
            "prompt.md": "w0 w1 w2\n",
            "evals/s.eval.yaml": yaml.safe_dump(suite),
            ".agentv/targets.yaml": yaml.safe_dump(
                {"targets": [{"name": "lucky", "provider": "cli", "command": command}]}
            ),
            "tools/lucky.py": LUCKY_TARGET,
            "tools/mutate.py": MUTATOR,
            "autoresearch.yaml": yaml.safe_dump(settings),
            "plan.json": json.dumps(plan),
        },
    )
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    line = iterations(repo)[1]
    lucky = line["candidates"][0]
    assert lucky["decision"] == "drop" and lucky["reason"].startswith(reason)
    second = index(run_dir(repo, line) / "candidate-0/confirm")
    assert len(second) == tests_run and set(second.values()) == {0}
    assert git(repo, "log", "--format=%s").splitlines() == ["initial"]
