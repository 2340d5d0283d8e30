"""What one cycle leaves behind: error cycles for unusable results, the assertions map, a discarded
directory candidate, and the user's own uncommitted work across a KEEP."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

GRADED_EVAL = r"""
import json, sys
from pathlib import Path

rows = [
    {"test_id": "t1", "score": 0.5, "scores": [{"name": "tone", "type": "llm-grader", "score": 1.0}, {"type": "contains", "score": 0.0}]},
    {"test_id": "t2", "score": 0.75, "scores": [{"name": "tone", "type": "llm-grader", "score": 0.5}, {"type": "contains", "score": 1.0}]},
]
Path(sys.argv[1], "index.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
"""


def test_an_eval_that_writes_no_index_or_an_empty_one_makes_an_error_cycle(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {
            2: {"write": {"prompt.md": "NOINDEX\n"}},
            3: {"write": {"prompt.md": "# no tests left\n"}},
            4: {"write": {"prompt.md": scores(a=1)}},
        },
        config={"eval": {"command": "grep -q NOINDEX prompt.md || python3 evals/score.py {run_dir} prompt.md"}},
    )
    assert cli(repo, "run").returncode == 0
    lines = iterations(repo)
    assert [(line["decision"], line.get("error_reason")) for line in lines] == [
        ("keep", None),
        ("error", "eval-failed"),
        ("error", "eval-failed"),
        ("keep", None),
    ]
    assert "eval wrote no index.jsonl" in lines[1]["error"]
    assert "has no result rows" in lines[2]["error"]


def test_the_assertions_map_is_each_graders_mean_score_named_by_name_or_else_by_type(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": "anything\n"},
        {},
        config={"eval": {"command": "python3 evals/graded.py {run_dir}"}},
        extra_files={"evals/graded.py": GRADED_EVAL},
    )
    assert cli(repo, "run").returncode == 10
    original = iterations(repo)[0]
    assert original["score"] == 0.625
    assert original["assertions"] == {"tone": 0.75, "contains": 0.5}


def test_a_discarded_directory_candidate_is_restored_and_kept_as_a_patch_that_applies(tmp_path):
    candidate = {"skill/a.md": scores(a=0), "skill/new.md": scores(c=1)}  # a loses; new.md is only new
    repo = scenario_repo(
        tmp_path / "r", {"skill/a.md": scores(a=1), "skill/b.md": scores(b=1)}, {2: {"write": candidate}}
    )
    assert cli(repo, "run").returncode == 10
    drop = iterations(repo)[1]
    assert drop["decision"] == "drop"
    assert (repo / "skill/a.md").read_text() == scores(a=1) and not (repo / "skill/new.md").exists()
    assert git(repo, "status", "--porcelain").strip() == ""
    patch = repo / ".autoresearch/runs/exp" / drop["run_dir"] / "candidate.patch"
    assert "-a 1\n+a 0\n" in patch.read_text() and "+++ b/skill/new.md" in patch.read_text()
    git(repo, "apply", str(patch))
    assert {path: (repo / path).read_text() for path in candidate} == candidate


def dirty_the_users_files(repo: Path) -> None:
    """Staged, partly staged, unstaged and untracked work of the user's own, none of it the artifact."""
    (repo / "staged.txt").write_text("staged edit\n")
    (repo / "partly.txt").write_text("staged half\n")
    git(repo, "add", "staged.txt", "partly.txt")
    (repo / "partly.txt").write_text("staged half\nunstaged half\n")
    (repo / "unstaged.txt").write_text("unstaged edit\n")
    (repo / "untracked.txt").write_text("scratch\n")


def users_work(repo: Path) -> tuple:
    names = ("staged.txt", "partly.txt", "unstaged.txt", "untracked.txt")
    files = tuple((repo / name).read_bytes() for name in names)
    return git(repo, "status", "--porcelain"), git(repo, "diff", "--cached"), git(repo, "diff"), files


def test_a_keep_commits_the_artifact_alone_and_leaves_the_users_staged_and_unstaged_work_as_it_was(tmp_path):
    committed = {name: "as committed\n" for name in ("staged.txt", "partly.txt", "unstaged.txt")}
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}}, extra_files=committed
    )
    dirty_the_users_files(repo)
    before = users_work(repo)
    assert cli(repo, "run").returncode == 0
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["prompt.md"]
    assert users_work(repo) == before
