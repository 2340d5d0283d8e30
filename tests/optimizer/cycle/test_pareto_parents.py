"""search.parents: pareto, end to end through the CLI: a candidate that lost overall but was best on a test
becomes a later candidate's parent, kept meanwhile on a ref of the experiment's own; the KEEP is judged
against HEAD and committed as one commit on the branch; a restarted run finds the parent again.

Cycle 2's candidate 0 is best on test a and loses on b (dropped); candidate 1 wins nothing HEAD does not.
Cycle 3's candidate 1 starts from cycle 2's candidate 0 and mends b by appending a line (the eval's last
row of a test wins): a KEEP no edit from HEAD alone made.
"""

from __future__ import annotations

import json

import pytest

from autoresearch.policies.holdout import split
from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

ORIGINAL = scores(a=0.5, b=0.5, c=0.5)
PLAN = {
    "2.0": {"write": {"prompt.md": scores(a=1, b=0, c=0.5)}, "summary": "fix a, break b"},
    "2.1": {"write": {"prompt.md": scores(a=0.5, b=0.5, c=0)}, "summary": "break c"},
    "3.0": {"write": {"prompt.md": scores(a=0.5, b=0.5, c=0.4)}, "summary": "nudge c"},
    "3.1": {"run": ["echo 'b 1' >> prompt.md"], "summary": "mend b"},
}
REFS = "refs/autoresearch/exp/candidates/"


def make(tmp_path, plan=PLAN, overlap=False, cycles=3, original=ORIGINAL, **config):
    settings = {
        "search": {"candidates": 2, "overlap": overlap, "confirm": "off", "parents": "pareto"},
        "stop": {"max_cycles": cycles, "max_convergence": 10},
        **config,
    }
    return scenario_repo(
        tmp_path / "r", {"prompt.md": original}, {}, config=settings, extra_files={"plan.json": json.dumps(plan)}
    )


def refs(repo) -> list[str]:
    return git(repo, "for-each-ref", "--format=%(refname)", "refs/autoresearch").split()


def stored_commits(repo) -> list[str]:
    """The subjects of every candidate commit in the object store, on a ref or not."""
    objects = git(repo, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectname)").splitlines()
    commits = [line.split()[1] for line in objects if line.startswith("commit ")]
    subjects = [git(repo, "show", "-s", "--format=%s", c).strip() for c in commits]
    return sorted(s for s in subjects if s.startswith("autoresearch candidate"))


def assert_kept_from_the_parent(repo) -> None:
    lines = iterations(repo)
    assert [(r["cycle"], r["decision"]) for r in lines] == [(1, "keep"), (2, "drop"), (3, "keep")]
    keep = lines[2]
    assert [c.get("parent") for c in keep["candidates"]] == [None, "2-0"]
    assert keep["parent"] == "2-0" and keep["wins"] == 2 and keep["losses"] == 0  # judged against HEAD
    assert "parent" not in lines[1] and all("parent" not in c for c in lines[1]["candidates"])
    # one line of history on the user's branch: the KEEP's tree is the candidate's (its parent's edit + its own)
    assert git(repo, "log", "--format=%s").splitlines() == [
        "autoresearch cycle 3: mend b (strategy simplify, from candidate 2-0)",
        "initial",
    ]
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0, c=0.5) + "b 1\n"
    assert git(repo, "branch", "--format=%(refname)").split() == ["refs/heads/main"]
    assert git(repo, "status", "--porcelain").strip() == ""
    assert git(repo, "stash", "list").strip() == ""
    assert git(repo, "worktree", "list").count("\n") == 1


def test_a_candidate_best_on_one_test_is_a_later_candidates_parent_and_its_child_is_kept(tmp_path):
    repo = make(tmp_path)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert_kept_from_the_parent(repo)
    report = cli(repo, "report")
    assert "  keeps from an earlier candidate (search.parents: pareto): 1 of 1" in report.stdout.splitlines()
    # after cycle 3, HEAD is best on every test: no stored candidate is left on the front, and no ref
    assert refs(repo) == []


def test_the_front_is_kept_on_refs_of_the_experiments_own_and_a_restarted_run_finds_it(tmp_path):
    repo = make(tmp_path, cycles=2)
    first = cli(repo, "run")
    assert first.returncode == 10, first.stderr
    # cycle 2's candidate 0 is on the front (best on a); candidate 1 is not (HEAD wins all it wins), and was
    # never stored: no commit of it was written only to be dropped
    assert refs(repo) == [REFS + "2-0"]
    assert stored_commits(repo) == ["autoresearch candidate 2-0"]
    stored = git(repo, "show", "--format=%P%n%B", "-s", REFS + "2-0").splitlines()
    assert stored[0] == git(repo, "rev-parse", "HEAD").strip()  # made from HEAD, on no branch
    assert git(repo, "show", f"{REFS}2-0:prompt.md") == scores(a=1, b=0, c=0.5)
    assert git(repo, "branch", "--contains", REFS + "2-0").strip() == ""
    assert git(repo, "status", "--porcelain").strip() == "" and git(repo, "stash", "list").strip() == ""
    git(repo, "gc", "--prune=now", "--quiet")  # the ref keeps its commit
    git(repo, "update-ref", REFS + "mine", "HEAD")  # a ref not of our making there: neither read nor removed
    resumed = cli(repo, "run", "--max-cycles", "1")  # one cycle more: cycle 3
    assert resumed.returncode == 0, resumed.stderr
    assert_kept_from_the_parent(repo)
    assert refs(repo) == [REFS + "mine"]


def test_pareto_with_one_candidate_is_refused_exit_30(tmp_path):
    repo = make(tmp_path, search={"candidates": 1, "parents": "pareto"})
    assert_one_line_error(cli(repo, "run"), 30, "field 'search'", "'parents: pareto' needs 'candidates' of 2 or more")
    assert not (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").exists()


@pytest.mark.parametrize("value", ["best", 3])
def test_an_unknown_parents_value_is_refused_exit_30(tmp_path, value):
    repo = make(tmp_path, search={"parents": value})
    assert_one_line_error(cli(repo, "run"), 30, "field 'search.parents'", "'head' or 'pareto'")


def test_a_child_better_than_its_parent_but_not_than_head_is_dropped_with_mutations_made_ahead(tmp_path):
    plan = {
        **{k: v for k, v in PLAN.items() if k.startswith("2.")},
        "3.0": PLAN["3.0"],
        "3.1": {"write": {"prompt.md": ORIGINAL + "# pad\n"}, "summary": "pad"},
        "4.0": PLAN["3.0"],
        "4.1": {"run": ["echo 'c 0.6' >> prompt.md"], "summary": "nudge c up"},  # from 2-0: still loses b
    }
    repo = make(tmp_path, plan, overlap=True, cycles=4)
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "drop", "drop", "drop"], [r.get("candidates") for r in lines[2:]]
    # cycle 3's candidates were made while cycle 2 was decided: its candidates were no parents yet
    assert [c.get("parent") for c in lines[2]["candidates"]] == [None, None]
    child = lines[3]["candidates"][1]
    assert child["parent"] == "2-0" and child["decision"] == "drop"
    assert (child["wins"], child["losses"]) == (1, 1)  # against HEAD, not against its parent
    assert git(repo, "log", "--format=%s").splitlines() == ["initial"]
    assert (repo / "prompt.md").read_text() == ORIGINAL
    assert refs(repo) == [REFS + "4-1"]  # it wins a and c: its parent, which wins only a, left the front


def test_a_parent_whose_edit_conflicts_with_a_later_keep_leaves_its_candidate_at_head(tmp_path):
    plan = {
        "2.0": PLAN["2.0"],  # changes a and b
        "2.1": {"write": {"prompt.md": scores(a=0.5, b=1, c=0.5)}, "summary": "fix b"},  # kept: b's line again
        "3.0": PLAN["3.0"],
        "3.1": {"run": ["echo 'c 0.4' >> prompt.md"], "summary": "nudge c down"},
    }
    repo = make(tmp_path, plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "keep", "drop"]
    assert REFS + "2-0" in refs(repo)  # still best on a, but its edit no longer merges with HEAD's
    assert [c.get("parent") for c in lines[2]["candidates"]] == [None, None]
    log = (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").read_text()
    assert "does not carry onto HEAD" in log
    assert (repo / "prompt.md").read_text() == scores(a=0.5, b=1, c=0.5)


def test_a_parent_that_did_not_carry_is_not_merged_again_until_head_moves(tmp_path):
    """Cycle 2's KEEP leaves 2-0 on the front but conflicting with HEAD: cycle 3 tries the merge and finds so;
    cycles 4 and 5, which start from the same HEAD (3 and 4 dropped), do not merge it again; cycle 6, after
    cycle 5's KEEP, does."""
    nudge = {"run": ["echo 'c 0.4' >> prompt.md"], "summary": "nudge c down"}
    plan = {
        "2.0": PLAN["2.0"],  # changes a and b
        "2.1": {"write": {"prompt.md": scores(a=0.5, b=1, c=0.5)}, "summary": "fix b"},  # kept: b's line again
        "3": nudge,
        "4": nudge,
        "5": {"write": {"prompt.md": scores(a=0.5, b=1, c=1)}, "summary": "fix c"},
        "6": nudge,
    }
    repo = make(tmp_path, plan, cycles=6)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "drop", "drop", "keep", "drop"]
    assert REFS + "2-0" in refs(repo)  # on the front all along
    log = [json.loads(line) for line in (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").open()]
    merges = [e for e in log if "does not carry onto HEAD" in e["event"]]
    assert [(e["cycle"], e["parent"]) for e in merges] == [(3, "2-0"), (6, "2-0")]  # one merge a HEAD


FORGE = r"""
# The eval of a candidate whose artifact says FORGE runs code of the mutator's (an artifact that is code, run by
# an eval outside any sandbox, after the scope guard has looked). It forges the stored candidate 2-0: its base
# holds the eval's text inside the artifact (and no eval), its tree edits that copy. Between that base and HEAD
# git sees the eval renamed into the artifact, and carrying the edit onto HEAD would follow the rename onto it.
import os, subprocess, sys
from pathlib import Path
def git(*args, stdin=None, env=None):
    return subprocess.run(["git", *args], input=stdin, env={**os.environ, **(env or {})},
                          check=True, capture_output=True, text=True).stdout.strip()
if "FORGE" in Path("prompt/a.md").read_text():
    index = {"GIT_INDEX_FILE": os.path.join(sys.argv[1], "forge-index")}
    git("read-tree", "HEAD", env=index)
    git("rm", "-q", "--cached", "evals/score.py", env=index)
    def with_decoy(text):
        blob = git("hash-object", "-w", "--stdin", stdin=text)
        git("update-index", "--add", "--cacheinfo", f"100644,{blob},prompt/decoy.py", env=index)
        return git("write-tree", env=index)
    eval_text = git("show", "HEAD:evals/score.py") + "\n"
    who = {"GIT_AUTHOR_NAME": "m", "GIT_AUTHOR_EMAIL": "m@x", "GIT_COMMITTER_NAME": "m", "GIT_COMMITTER_EMAIL": "m@x"}
    base = git("commit-tree", with_decoy(eval_text), "-p", "HEAD", "-m", "base", env=who)
    body = git("log", "-1", "--format=%B", "refs/autoresearch/exp/candidates/2-0")
    forged = git("commit-tree", with_decoy(eval_text.replace("float(words[1])", "1.0")), "-p", base, "-m", body, env=who)
    git("update-ref", "refs/autoresearch/exp/candidates/2-0", forged)
    os.remove(index["GIT_INDEX_FILE"])
os.execvp("python3", ["python3", "evals/score.py", *sys.argv[1:]])
"""


def test_a_forged_parent_never_carries_a_change_outside_the_artifact_into_a_candidate(tmp_path):
    plan = {
        # as many bytes as the original's (a directory with fewer would be kept as simpler)
        "2.0": {"write": {"prompt/a.md": scores(a=1.0, b=0.0, c=0.5)}, "summary": "fix a, break b"},
        "2.1": {"write": {"prompt/a.md": scores(a=0.5, b=0.5, c=0.0)}, "summary": "break c"},
        "3.0": {"write": {"prompt/a.md": scores(a=0.5, b=0.5, c=0.4) + "FORGE\n"}, "summary": "forge"},
        "3.1": {"write": {"prompt/a.md": scores(a=0.5, b=0.5, c=0.3)}, "summary": "nudge c"},
        "4.0": {"write": {"prompt/a.md": scores(a=0.5, b=0.5, c=0.3)}, "summary": "nudge c again"},
        "4.1": {"run": ["echo 'c 0.2' >> prompt/a.md"], "summary": "nudge c down"},
    }
    settings = {
        "search": {"candidates": 2, "overlap": False, "confirm": "off", "parents": "pareto"},
        "stop": {"max_cycles": 4, "max_convergence": 10},
        "eval": {"command": "python3 evals/forge.py {run_dir} prompt"},
    }
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt/a.md": ORIGINAL, "prompt/b.md": "\n"},
        {},
        config=settings,
        extra_files={"plan.json": json.dumps(plan), "evals/forge.py": FORGE},
    )
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "drop", "drop", "drop"]
    # cycle 4's candidate 1 would have started from the forged 2-0, the eval rewritten: it starts at HEAD
    assert [c.get("parent") for c in lines[3]["candidates"]] == [None, None]
    assert all("reason" not in c or "outside" not in c["reason"] for c in lines[3]["candidates"]), lines[3]
    log = (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").read_text()
    assert "would change files outside the artifact" in log and "evals/score.py" in log
    assert git(repo, "status", "--porcelain").strip() == ""


def test_a_parent_that_does_not_carry_gives_its_place_to_the_next_member_of_the_front(tmp_path):
    before = scores(a=0.5, b=0.5, c=0.5, d=0.5)
    plan = {
        "2.0": {"write": {"prompt.md": scores(a=1, b=1, c=0, d=0)}, "summary": "fix a and b, break c and d"},
        "2.1": {"write": {"prompt.md": scores(a=0.5, b=0.5, c=1, d=0.5)}, "summary": "fix c"},  # kept
        "3.0": {"run": ["echo 'c 0.9' >> prompt.md"], "summary": "nudge c down"},
        "3.1": {
            "run": ["echo 'd 1' >> prompt.md", "echo 'a 0' >> prompt.md", "echo 'c 0.95' >> prompt.md"],
            "summary": "fix d, break a, nudge c down",
        },
        "4.0": {"run": ["echo 'b 0.4' >> prompt.md"], "summary": "nudge b down"},
        "4.1": {"run": ["echo 'a 1' >> prompt.md"], "summary": "fix a"},
    }
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": before},
        {},
        config={
            "search": {"candidates": 2, "overlap": False, "confirm": "off", "parents": "pareto"},
            "stop": {"max_cycles": 4, "max_convergence": 10},
        },
        extra_files={"plan.json": json.dumps(plan)},
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "keep", "drop", "keep"]
    # the front after cycle 3: 2-0 (best on a and b) ranks above 3-1 (best on d), but 2-0's edit conflicts
    # with cycle 2's KEEP, so cycle 4's one parent is 3-1 rather than HEAD twice
    assert [c.get("parent") for c in lines[2]["candidates"]] == [None, None]
    assert [c.get("parent") for c in lines[3]["candidates"]] == [None, "3-1"]
    assert (lines[3]["wins"], lines[3]["losses"]) == (2, 0)  # a and d against HEAD (c 0.95 ties its 1)
    assert (repo / "prompt.md").read_text() == scores(a=0.5, b=0.5, c=1, d=0.5) + "d 1\na 0\nc 0.95\na 1\n"
    log = (repo / ".autoresearch/runs/exp/_autoresearch/daemon.log").read_text()
    assert "does not carry onto HEAD: the next one takes its place" in log


HOLDOUT_START = {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 0, "g": 0, "h": 0, "i": 0, "j": 0}  # held: c, d, g, i


@pytest.mark.parametrize(
    ("held_change", "decision", "holdout_score"), [({"g": 1}, "keep", 0.75), ({"c": 0, "d": 0}, "drop", 0.0)]
)
def test_with_a_holdout_parents_come_from_the_visible_tests_and_a_child_still_answers_to_the_holdout(
    tmp_path, held_change, decision, holdout_score
):
    """Cycle 2's candidate 0 is best on the visible test f (and loses a): a parent. Its child mends a and is
    kept, unless the parent's edit hurt the held-out tests, which the mutators never saw: then the holdout
    vetoes the child's KEEP as it would any other."""
    start = HOLDOUT_START
    assert sorted(split(start, 0.4, "exp")) == ["c", "d", "g", "i"]
    plan = {
        "2.0": {"write": {"prompt.md": scores(**(start | {"f": 1, "a": 0} | held_change))}, "summary": "f up, a down"},
        "2.1": {"write": {"prompt.md": scores(**(start | {"b": 0}))}, "summary": "b down"},
        "3.0": {"run": ["echo 'e 0' >> prompt.md"], "summary": "e down"},
        "3.1": {"run": ["echo 'a 1' >> prompt.md"], "summary": "mend a"},
    }
    repo = make(tmp_path, plan, original=scores(**start), eval={"holdout": 0.4})
    done = cli(repo, "run")
    assert done.returncode == (0 if decision == "keep" else 10), done.stderr  # 10: no KEEP this run
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "drop", decision]
    child = lines[2]["candidates"][1]
    assert child["parent"] == "2-0" and (child["wins"], child["losses"]) == (1, 0)  # f, against HEAD
    assert lines[2]["holdout_score"] == holdout_score
    assert lines[2]["holdout_regressed"] is (decision == "drop")
    results = repo / ".autoresearch"
    for line in lines[1:]:  # no candidate's results, which the front is built from, hold a held-out test
        for run in (results / "runs/exp" / line["run_dir"]).glob("candidate-*/index.jsonl"):
            assert not {json.loads(r)["test_id"] for r in run.read_text().splitlines()} & {"c", "d", "g", "i"}
    if decision == "keep":
        assert git(repo, "log", "-1", "--format=%s").startswith("autoresearch cycle 3: mend a")
        assert "vetoed" not in lines[2]["reason"]
    else:
        assert "vetoed: the holdout regressed" in lines[2]["reason"]
        assert git(repo, "log", "--format=%s").splitlines() == ["initial"]
