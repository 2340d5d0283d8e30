"""End-to-end runs of `autoresearch run` on real temporary git repositories."""

from __future__ import annotations

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores


def test_keeps_wins_drops_losses_and_commits_only_the_artifact(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0, c=1)},
        {
            2: {"write": {"prompt.md": scores(a=1, b=0, c=1)}, "summary": "fix a"},
            3: {"write": {"prompt.md": scores(a=1, b=1, c=0)}, "summary": "trade c for b"},
            4: {"write": {"prompt.md": scores(a=0, b=0, c=0)}, "summary": "break everything"},
        },
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(r["cycle"], r["decision"]) for r in lines] == [(1, "keep"), (2, "keep"), (3, "drop"), (4, "drop")]
    assert lines[0]["mutation"] == "original" and lines[1]["mutation"] == "fix a"
    assert (lines[1]["wins"], lines[1]["losses"], lines[1]["ties"]) == (1, 0, 2)
    assert (lines[2]["wins"], lines[2]["losses"]) == (1, 1)  # a tie is not a KEEP under wins > losses
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0, c=1)
    assert git(repo, "log", "--format=%s", "-1").strip() == "autoresearch cycle 2: fix a"
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["prompt.md"]
    assert git(repo, "status", "--porcelain").strip() == ""
    assert lines[1]["commit"] == git(repo, "rev-parse", "HEAD").strip()
    drop_dir = repo / ".autoresearch/runs/exp" / lines[2]["run_dir"]
    assert "+b 1\n" in (drop_dir / "candidate.patch").read_text()


def test_simpler_candidate_with_no_change_in_score_is_kept(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=1, b=0) + "# padding\n"},
        {
            2: {"write": {"prompt.md": scores(a=1, b=0) + "# padding\n# more\n"}},
            3: {"write": {"prompt.md": scores(a=1, b=0)}},
        },
    )
    assert cli(repo, "run").returncode == 10  # same score throughout: no improvement
    decisions = [r["decision"] for r in iterations(repo)]
    assert decisions == ["keep", "drop", "keep"]  # longer and equal: drop; shorter and equal: keep
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0)


def test_directory_artifact_new_files_are_committed_or_removed(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"skill/a.md": scores(a=0), "skill/b.md": scores(b=1)},
        {
            2: {"write": {"skill/new.md": scores(c=0), "skill/a.md": scores(a=0)}, "summary": "new file, no gain"},
            3: {"write": {"skill/a.md": scores(a=1), "skill/extra.md": "notes\n"}, "delete": ["skill/b.md"]},
        },
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "drop", "keep"]
    assert not (repo / "skill/new.md").exists()  # the dropped candidate's new file is gone
    assert sorted(p.name for p in (repo / "skill").iterdir()) == ["a.md", "extra.md"]
    assert git(repo, "status", "--porcelain").strip() == ""
    assert "skill/extra.md" in git(repo, "show", "--name-only", "--format=", "HEAD")


def test_metric_mode_minimize_keeps_only_lower_values(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"train.py": "METRIC 1.50\n"},
        {
            2: {"write": {"train.py": "METRIC 1.40\n"}},
            3: {"write": {"train.py": "METRIC 1.45\n"}},
            4: {"write": {"train.py": "METRIC 1.40\n# same value, longer\n"}},
        },
        config={"eval": {"metric": {"pattern": r"val_bpb:\s*([0-9.]+)", "goal": "minimize"}}},
    )
    assert cli(repo, "run").returncode == 0
    lines = iterations(repo)
    assert [(r["score"], r["decision"]) for r in lines] == [(1.5, "keep"), (1.4, "keep"), (1.45, "drop"), (1.4, "drop")]
    assert (repo / "train.py").read_text() == "METRIC 1.40\n"


def test_eval_failures_become_error_cycles_and_three_in_a_row_exit_40(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {
            2: {"write": {"prompt.md": "FAIL 7\n"}},
            3: {"write": {"prompt.md": "MALFORMED\n"}},
            4: {"write": {"prompt.md": "HANG\n"}},
            5: {"write": {"prompt.md": scores(a=1)}},
        },
        config={"eval": {"timeout_s": 10}},  # it bounds every cycle's eval, a python3 start of ~1 s when loaded
    )
    done = cli(repo, "run")
    assert done.returncode == 40, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "error", "error", "error"]
    assert "exited 7" in lines[1]["error"] and "eval broke on purpose" in lines[1]["error"]
    assert "malformed" in lines[2]["error"]
    assert "timed out" in lines[3]["error"]
    assert (repo / "prompt.md").read_text() == scores(a=0)
    assert git(repo, "status", "--porcelain").strip() == ""
    assert "3 cycles in a row failed" in done.stderr


def test_mutator_failure_is_an_error_cycle_and_the_loop_goes_on(tmp_path):
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {
            2: {"write": {"prompt.md": scores(a=1) + "half-written\n"}, "exit": 2, "stdout": "crashed"},
            3: {"write": {"prompt.md": scores(a=1)}, "stdout": "line one\nset a to one\n"},
        },
    )
    assert cli(repo, "run").returncode == 0
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep", "error", "keep"]
    assert lines[1]["error_reason"] == "mutator-failed" and "exited 2" in lines[1]["error"]
    assert lines[2]["mutation"] == "set a to one"  # no mutation.md: the last line of stdout


def test_out_of_scope_writes_are_undone_and_three_stop_with_exit_20(tmp_path):
    user_notes = "my uncommitted notes\n"
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {
            2: {"write": {"prompt.md": scores(a=1), "evals/score.py": "print('gamed')\n"}},
            3: {"write": {"prompt.md": scores(a=1), "notes.txt": "clobbered\n"}},
            4: {"write": {"prompt.md": scores(a=1), "stray/new.txt": "x\n"}},
            5: {"write": {"prompt.md": scores(a=1)}},
        },
        extra_files={"notes.txt": "committed notes\n"},
    )
    (repo / "notes.txt").write_text(user_notes)  # the user's own dirty file, not ours to touch
    eval_before = (repo / "evals/score.py").read_bytes()
    done = cli(repo, "run")
    assert done.returncode == 20, done.stderr
    lines = iterations(repo)
    assert [r.get("error_reason") for r in lines[1:]] == ["out-of-scope"] * 3
    assert "evals/score.py" in lines[1]["error"]
    assert (repo / "evals/score.py").read_bytes() == eval_before
    assert (repo / "notes.txt").read_text() == user_notes
    assert not (repo / "stray").exists()
    assert (repo / "prompt.md").read_text() == scores(a=0)
    assert git(repo, "status", "--porcelain").strip() == "M notes.txt"  # still dirty, never staged


FLAKY_ONCE = (  # fails the first time it runs, then scores normally
    "test -e .autoresearch/flaked || { touch .autoresearch/flaked; echo 'upstream 503' >&2; exit 5; }; "
    "python3 evals/score.py {run_dir} prompt.md"
)


def test_a_flaky_first_eval_is_tried_again_and_the_run_goes_on(tmp_path):
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "summary": "fix a"}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan, config={"eval": {"command": FLAKY_ONCE}})
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    assert "the original's eval failed (attempt 1 of 3)" in done.stderr and "upstream 503" in done.stderr
    assert [(r["cycle"], r["decision"]) for r in iterations(repo)] == [(1, "keep"), (2, "keep")]


def test_an_original_whose_eval_always_fails_stops_with_40_after_three_attempts(tmp_path):
    repo = scenario_repo(tmp_path / "r", {"prompt.md": "FAIL 3\n"}, {2: {"write": {"prompt.md": scores(a=1)}}})
    done = cli(repo, "run")
    assert done.returncode == 40 and done.stderr.strip().endswith("eval exited 3: eval broke on purpose")
    assert "attempt 2 of 3" in done.stderr and "attempt 3 of 3" not in done.stderr
    assert len(list((repo / ".autoresearch/runs/exp").glob("*-c0001*"))) == 3  # each attempt's output is kept
    assert not (repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl").exists()  # no cycle was decided


def test_configuration_names_that_are_not_utf8_do_not_stop_the_run(tmp_path):
    """A branch's section in Latin-1 in the repository's configuration and one in the user's ~/.gitconfig,
    as git takes them: the run ended in a traceback at its first DROP (pygit2 decoded each name)."""
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0)},
        {2: {"write": {"prompt.md": scores(a=1)}}, 3: {"write": {"prompt.md": scores(a=0)}}},
    )
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".gitconfig").write_bytes(b'[branch "d\xe9j\xe0"]\n\tremote = origin\n')
    with open(repo / ".git" / "config", "ab") as config:
        config.write(b'[branch "caf\xe9"]\n\tremote = origin\n')
    done = cli(repo, "run", env={"HOME": str(tmp_path / "home")})
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep", "drop"]
    assert (repo / "prompt.md").read_text() == scores(a=1) and git(repo, "status", "--porcelain") == ""
