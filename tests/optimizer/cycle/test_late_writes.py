"""A write to the artifact after its evaluation and before its KEEP's commit (a `setsid` child the eval left
behind, an editor of the user's): the commit takes the bytes that were evaluated, never the late ones, which are
saved under the run's late-writes/ folder and named in the log. The daemon is held at its fault point right
before the commit (SIGSTOP) while the test writes."""

from __future__ import annotations

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores
from tests.optimizer.startup.test_config_reread import go_on, stopped_at

RUNS = ".autoresearch/runs/exp"
LATE = "# written after the eval\n"


def test_a_write_after_the_eval_is_not_committed_but_saved(tmp_path):
    better = scores(a=1, b=1)
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, {2: {"write": {"prompt.md": better}}})
    held = stopped_at(repo, "before-commit")
    with (repo / "prompt.md").open("a") as file:
        file.write(LATE)
    done = go_on(held)
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert git(repo, "show", "HEAD:prompt.md") == better
    assert (repo / "prompt.md").read_text() == better
    assert git(repo, "status", "--porcelain") == ""
    (saved,) = (repo / RUNS).rglob("late-writes/prompt.md")
    assert saved.read_text() == better + LATE
    assert "changed after it was evaluated" in done.stderr


def test_a_file_written_into_a_directory_artifact_after_the_eval_is_not_committed_but_saved(tmp_path):
    better = scores(a=1, b=1)
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt/a.md": scores(a=0, b=0), "prompt/b.md": "\n"},
        {2: {"write": {"prompt/a.md": better}}},
    )
    held = stopped_at(repo, "before-commit")
    (repo / "prompt/new").mkdir()
    (repo / "prompt/new/late.md").write_text(LATE)
    with (repo / "prompt/a.md").open("a") as file:
        file.write(LATE)
    done = go_on(held)
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["prompt/a.md"]
    assert git(repo, "show", "HEAD:prompt/a.md") == better
    assert not (repo / "prompt/new").exists()
    assert git(repo, "status", "--porcelain") == ""
    (run,) = {p.parent for p in (repo / RUNS).rglob("late-writes")}
    assert (run / "late-writes/a.md").read_text() == better + LATE
    assert (run / "late-writes/new/late.md").read_text() == LATE


def two_candidates(tmp_path, better: str):
    """A repository whose cycle 2 has two candidates in worktrees, the first `better` (the pick)."""
    return scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0)},
        {"2.0": {"write": {"prompt.md": better}}, "2.1": {"write": {"prompt.md": scores(a=0, b=0.5)}}},
        config={"search": {"candidates": 2}, "stop": {"max_cycles": 2, "max_convergence": 10}},
    )


def test_the_pick_of_parallel_candidates_written_after_the_eval_commits_what_was_evaluated(tmp_path):
    better = scores(a=1, b=1)
    repo = two_candidates(tmp_path, better)
    held = stopped_at(repo, "before-commit")
    with (repo / "prompt.md").open("a") as file:
        file.write(LATE)
    done = go_on(held)
    assert done.returncode == 0, done.stderr
    assert git(repo, "show", "HEAD:prompt.md") == better
    assert git(repo, "status", "--porcelain") == ""
    (saved,) = (repo / RUNS).rglob("late-writes/prompt.md")
    assert saved.read_text() == better + LATE


def test_a_write_after_the_late_check_ends_the_run_and_commits_nothing(tmp_path):
    """Written in the instant between the commit's check and its read of the file: the commit refuses the bytes
    (their blob id is not the evaluated one), the run ends with exit 50, HEAD where it was, the late write saved
    whole under late-writes/ and the evaluated candidate's diff (not the late write's, which replaced it) saved."""
    better = scores(a=1, b=1)
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, {2: {"write": {"prompt.md": better}}})
    head = git(repo, "rev-parse", "HEAD")
    held = stopped_at(repo, "late-writes-checked")
    (repo / "prompt.md").write_text(LATE)
    done = go_on(held)
    assert done.returncode == 50, done.stderr
    assert "written during its commit, after it was evaluated" in done.stderr
    assert git(repo, "rev-parse", "HEAD") == head
    (patch,) = (repo / RUNS).rglob("candidate.patch")
    assert "+" + better.splitlines()[0] in patch.read_text().splitlines()
    (saved,) = (repo / RUNS).rglob("late-writes/prompt.md")
    assert saved.read_text() == LATE
    assert git(repo, "status", "--porcelain") == ""
    again = cli(repo, "run", timeout=300)  # the next run makes the cycle again
    assert again.returncode == 0, again.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert git(repo, "show", "HEAD:prompt.md") == better


def test_an_edit_to_the_checkout_during_a_cycle_of_parallel_candidates_is_saved_before_the_pick_replaces_it(tmp_path):
    """The candidates are in worktrees; the checkout's artifact, HEAD's all along, is replaced by the pick at its
    KEEP: an edit made there meanwhile (the user's) was removed unsaved."""
    better, edited = scores(a=1, b=1), scores(a=0, b=0) + "# my own edit\n"
    repo = two_candidates(tmp_path, better)
    held = stopped_at(repo, "after-mutate")
    (repo / "prompt.md").write_text(edited)
    done = go_on(held)
    assert done.returncode == 0, done.stderr
    assert git(repo, "show", "HEAD:prompt.md") == better
    (saved,) = (repo / RUNS).rglob("late-writes/prompt.md")
    assert saved.read_text() == edited
    assert "changed during the cycle" in done.stderr


def test_a_chmod_after_the_late_check_ends_the_run_and_commits_nothing(tmp_path):
    """An executable bit set in the same instant (what git records of a file's permissions) is refused as bytes
    are: the evaluated mode is committed or nothing; the chmod'd file is saved under late-writes/."""
    better = scores(a=1, b=1)
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, {2: {"write": {"prompt.md": better}}})
    head = git(repo, "rev-parse", "HEAD")
    held = stopped_at(repo, "late-writes-checked")
    (repo / "prompt.md").chmod(0o755)
    done = go_on(held)
    assert done.returncode == 50, done.stderr
    assert git(repo, "rev-parse", "HEAD") == head
    (saved,) = (repo / RUNS).rglob("late-writes/prompt.md")
    assert saved.read_text() == better
    assert git(repo, "status", "--porcelain") == ""


def test_a_checkout_that_converts_the_artifact_is_not_taken_for_a_late_write_at_the_picks_keep(tmp_path):
    """With `eol=crlf` the checkout holds HEAD's artifact with CRLF line ends, not the bytes git stores: the
    pick's KEEP took the difference for an edit made during the cycle, saved it under late-writes/ and warned,
    at every KEEP of parallel candidates."""
    better = scores(a=1, b=1)
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": scores(a=0, b=0)},
        {"2.0": {"write": {"prompt.md": better}}, "2.1": {"write": {"prompt.md": scores(a=0, b=0.5)}}},
        config={"search": {"candidates": 2}, "stop": {"max_cycles": 2, "max_convergence": 10}},
        extra_files={".gitattributes": "prompt.md eol=crlf\n"},
    )
    (repo / "prompt.md").unlink()
    git(repo, "checkout", "--", "prompt.md")  # as git writes it: CRLF
    assert (repo / "prompt.md").read_bytes() == scores(a=0, b=0).replace("\n", "\r\n").encode()
    done = cli(repo, "run", timeout=300)
    assert done.returncode == 0, done.stderr
    assert [r["decision"] for r in iterations(repo)] == ["keep", "keep"]
    assert git(repo, "show", "HEAD:prompt.md") == better
    assert list((repo / RUNS).rglob("late-writes")) == []
    assert "changed during the cycle" not in done.stderr
