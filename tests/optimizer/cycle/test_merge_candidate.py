"""The merge candidate: siblings that win different tests are three-way merged onto HEAD and tried as one more candidate.

The artifact spells out its own scores (tests/helpers/scenario.py); its lines are far enough apart
that edits to different tests merge cleanly.
"""

from __future__ import annotations

import json
import signal

from autoresearch.plumbing.faults import ENV
from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo


def art(a="0", b="0", c="0", first="a") -> str:
    return f"{first} {a}\n#\n#\n#\nb {b}\n#\n#\n#\nc {c}\n"


ORIGINAL = art()
MERGED = art(a="1", c="1")
WIN_A = {"write": {"prompt.md": art(a="1")}, "summary": "fix a"}
WIN_C = {"write": {"prompt.md": art(c="1")}, "summary": "fix c"}
META = ".autoresearch/runs/exp/_autoresearch"


def make(tmp_path, plan, **config):
    settings = {"search": {"candidates": 2}, "stop": {"max_cycles": 2, "max_convergence": 10}, **config}
    return scenario_repo(
        tmp_path / "r", {"prompt.md": ORIGINAL}, {}, config=settings, extra_files={"plan.json": json.dumps(plan)}
    )


def events(repo) -> list[str]:
    log = (repo / META / "daemon.log").read_text().splitlines()
    return [json.loads(line).get("event", "") for line in log if line.startswith("{")]


def assert_merged(repo) -> None:
    lines = iterations(repo)
    keep = lines[1]
    assert keep["decision"] == "keep" and keep["strategy"] == "merge" and keep["mutation"] == "fix a + fix c"
    assert keep["wins"] == 2
    assert [(c["index"], c["decision"], c.get("merge_of")) for c in keep["candidates"]] == [
        (0, "drop", None),
        (1, "drop", None),
        (2, "keep", [0, 1]),
    ]
    assert git(repo, "log", "--format=%s").splitlines() == [
        "autoresearch cycle 2: fix a + fix c (merge of strategies fix-failing, simplify)",
        "initial",
    ]
    assert (repo / "prompt.md").read_text() == MERGED
    for c in keep["candidates"][:2]:  # each sibling's own patch is kept
        assert (repo / ".autoresearch" / c["patch"]).is_file()
    assert git(repo, "status", "--porcelain").strip() == ""
    assert git(repo, "worktree", "list").count("\n") == 1


def test_siblings_winning_different_tests_are_merged_and_the_merge_is_kept(tmp_path):
    repo = make(tmp_path, {"2.0": WIN_A, "2.1": WIN_C})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert_merged(repo)
    assert "merging" in events(repo)


def test_conflicting_patches_are_not_merged_and_the_best_sibling_is_decided_as_before(tmp_path):
    # both rewrite the first line (one wins a, the other wins c): git cannot merge them
    plan = {"2.0": WIN_A, "2.1": {"write": {"prompt.md": art(c="1", first="a ")}, "summary": "fix c, touch a"}}
    repo = make(tmp_path, plan)
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    keep = iterations(repo)[1]
    assert [c["index"] for c in keep["candidates"]] == [0, 1]
    assert keep["decision"] == "keep" and keep["mutation"] == "fix a"
    assert "merge skipped: the candidates' patches conflict" in events(repo)
    assert git(repo, "worktree", "list").count("\n") == 1


def test_siblings_winning_the_same_tests_are_not_merged(tmp_path):
    plan = {"2.0": WIN_A, "2.1": {"write": {"prompt.md": art(a="1", b="0 ")}, "summary": "fix a too"}}
    repo = make(tmp_path, plan)
    assert cli(repo, "run").returncode == 0
    keep = iterations(repo)[1]
    assert [c["index"] for c in keep["candidates"]] == [0, 1] and "merging" not in events(repo)


def test_a_sibling_out_of_scope_never_reaches_a_merge(tmp_path):
    outside = {"write": {"prompt.md": art(c="1"), "notes.txt": "outside\n"}, "summary": "fix c, and more"}
    repo = make(tmp_path, {"2.0": WIN_A, "2.1": outside})
    assert cli(repo, "run").returncode == 0
    keep = iterations(repo)[1]
    assert [c["decision"] for c in keep["candidates"]] == ["keep", "error"] and "merging" not in events(repo)
    assert not (repo / "notes.txt").exists()


def test_kill_9_while_the_merge_is_evaluated_then_resume(tmp_path):
    repo = make(tmp_path, {"2.0": WIN_A, "2.1": WIN_C})
    # the original, two siblings, then the merge or the best sibling's confirmation, which start at once
    crashed = cli(repo, "run", env={ENV: "before-eval:4"})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    since = events(repo)[events(repo).index("merging") :]
    assert set(since) <= {"merging", "confirming", "evaluating"}, since  # killed before anything was decided
    assert (repo / META / "candidates/2").is_dir()  # the merge's worktree, left by the kill
    assert (repo / "prompt.md").read_text() == ORIGINAL and git(repo, "status", "--porcelain").strip() == ""
    resumed = cli(repo, "run")
    assert resumed.returncode == 0, resumed.stderr
    assert_merged(repo)


def test_under_the_significant_rule_a_merge_is_kept_as_under_wins_losses(tmp_path):
    repo = make(tmp_path, {"2.0": WIN_A, "2.1": WIN_C}, policy={"rule": "significant"})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert_merged(repo)


def test_no_merge_is_tried_of_candidates_the_rule_does_not_keep(tmp_path):
    """Each wins a test and loses one (their merge would pass here, two wins to one loss): with a noisy eval,
    most candidates win a test or two by chance, and a merge of them cost one more eval nearly every cycle,
    on the cycle's critical path, for a candidate seldom kept."""
    plan = {
        "2.0": {"write": {"prompt.md": art(a="1", b="0", c="0.5")}, "summary": "a, not b"},
        "2.1": {"write": {"prompt.md": art(a="0.5", b="0", c="1")}, "summary": "c, not b"},
    }
    settings = {"search": {"candidates": 2}, "stop": {"max_cycles": 2, "max_convergence": 10}}
    half = art(a="0.5", b="0.5", c="0.5")
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": half}, {}, config=settings, extra_files={"plan.json": json.dumps(plan)}
    )
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    line = iterations(repo)[1]
    assert [(c["wins"], c["losses"], c["decision"]) for c in line["candidates"]] == [(1, 1, "drop"), (1, 1, "drop")]
    assert not [e for e in events(repo) if e.startswith("merg")]
