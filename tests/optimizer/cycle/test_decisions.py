"""The significant rule and the result cache in the real loop, on real temporary git repositories."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

EXP = ".autoresearch/runs/exp"


def keep_then_drop(root: Path) -> Path:
    """Under the significant rule: the original, a fix (kept), a break (dropped)."""
    return scenario_repo(
        root,
        {"prompt.md": scores(a=0, b=0, c=1)},
        {
            2: {"write": {"prompt.md": scores(a=1, b=0, c=1)}, "summary": "fix a"},
            3: {"write": {"prompt.md": scores(a=0, b=0, c=0)}, "summary": "break everything"},
        },
        config={"policy": {"rule": "significant"}},
    )


def test_significant_draws_runs_until_sure_and_compares_with_fresh_head_runs_after_a_keep(tmp_path):
    repo = keep_then_drop(tmp_path / "r")
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "keep", "drop"]
    keep, drop = lines[1], lines[2]
    assert (keep["samples"], keep["head_samples"]) == (3, 3)  # a deterministic gain needs a few runs to be sure
    assert keep["p_value"] < 0.05 and keep["interval"][0] > 0 and "better" in keep["reason"]
    assert keep["eval_runs"] == 3 + 2  # the original's run is HEAD's first sample
    assert (drop["samples"], drop["head_samples"]) == (1, 2) and drop["interval"][1] < 0
    run2, run3 = repo / EXP / keep["run_dir"], repo / EXP / drop["run_dir"]
    assert sorted(p.name for p in run2.iterdir() if p.is_dir()) == [
        "head-2",
        "head-3",
        "sample-1",
        "sample-2",
        "sample-3",
    ]
    # after the KEEP, HEAD's three samples are the lucky draw that won: fresh ones are numbered after them
    assert sorted(p.name for p in run3.iterdir() if p.is_dir()) == ["head-4", "head-5", "sample-1"]
    assert '"samples": [1.0, 1.0, 1.0]' in (run2 / "index.jsonl").read_text()
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0, c=1)
    assert git(repo, "status", "--porcelain").strip() == ""


def test_a_test_failing_on_a_later_run_records_what_its_earlier_runs_cost(tmp_path):
    """The budget counts them: each run of three tests costs $0.003, and the failed one an eval run more."""
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0, c=1)},
        {2: {"write": {"prompt.md": scores(a=1, b=0, c=1)}, "summary": "fix a"}},
        config={
            "policy": {"rule": "significant"},
            "eval": {
                "command": "case {run_dir} in *sample-3) exit 3;; esac; python3 evals/score.py {run_dir} prompt.md"
            },
        },
    )
    done = cli(repo, "run")
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "error"], done.stderr
    failed = lines[1]
    runs = sorted(p.name for p in (repo / EXP / failed["run_dir"]).iterdir() if p.is_dir())
    assert "sample-3" in runs and len(runs) >= 4  # it failed after three runs at least
    assert failed["eval_runs"] == len(runs) and failed["cost_usd"] == round(0.003 * (len(runs) - 1), 6)


def test_cache_makes_a_restarted_baseline_and_a_reverted_candidate_free(tmp_path):
    original = scores(a=0, b=1)
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": original},
        {
            2: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "worse"},
            3: {"write": {"prompt.md": scores(a=0, b=0)}, "summary": "the same idea again"},
        },
    )
    assert cli(repo, "run").returncode == 10
    first = iterations(repo)
    assert "cache_hits" not in first[1] and (first[2]["cache_hits"], first[2]["eval_runs"]) == (1, 0)
    assert first[2]["cost_usd"] == 0 and first[2]["decision"] == "drop"
    assert not (repo / EXP / first[2]["run_dir"] / "eval.stdout.log").exists()  # nothing ran
    assert cli(repo, "run", "--restart").returncode == 10
    again = iterations(repo)
    assert [r.get("cache_hits") for r in again] == [1, 1, 1]  # the baseline and both candidates
    assert [r["decision"] for r in again] == [r["decision"] for r in first]
    assert cli(repo, "run", "--experiment", "other", "--no-cache").returncode == 10
    assert [r.get("cache_hits", 0) for r in iterations(repo, "other")] == [0, 0, 1]  # within one run only
