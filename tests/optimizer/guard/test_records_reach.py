"""Without the sandbox (`mutator.sandbox: off`, no bubblewrap, an LLM mutator's tools) the mutator works in the
user's checkout: what it deletes there with `git clean -ffdx` or `rm -rf`, the user's ignored files and the
experiment's own records and lock included, comes back whole, and the guard's state survives it and a kill -9."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from tests.helpers.procs import daemon, ended
from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, wait_for
from tests.optimizer.startup.test_sandbox import RESULTS, hostile_repo, snapshot

META = f"{RESULTS}/runs/exp/_autoresearch"


@pytest.mark.parametrize("actions", ["clean", "rm,results", "clean,rm,git"])
def test_what_a_mutator_deletes_without_the_sandbox_comes_back_whole(tmp_path, actions):
    repo, _ = hostile_repo(tmp_path, actions, sandbox="off")
    (repo / ".gitignore").write_text(".env\n")  # ignored: only `git clean -x` removes it
    before = snapshot(repo)
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    assert "Traceback" not in done.stderr
    assert snapshot(repo) == before
    lines = iterations(repo)
    assert [(line["decision"], line.get("error_reason")) for line in lines] == [
        ("keep", None),
        ("error", "out-of-scope"),
    ]
    assert git(repo, "status", "--porcelain") == "?? .gitignore\n?? notes.txt\n"
    run_dir = repo / RESULTS / "runs/exp" / lines[1]["run_dir"]
    assert (run_dir / "mutator.stdout.log").is_file()
    log = [json.loads(ln) for ln in (repo / META / "daemon.log").read_text().splitlines()]
    assert [e["event"] for e in log if e["event"] in ("mutating", "error", "finished")] == [
        "mutating",
        "error",
        "finished",
    ]
    assert any("of the experiment's own files deleted during the mutation" in e["event"] for e in log)


def held_repo(tmp_path: Path, step: dict) -> Path:
    """A repo whose cycle-2 mutator does `step`, then holds until `.autoresearch/go-on` exists."""
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "hold": True, "summary": "raised", **step}}
    repo = scenario_repo(tmp_path / "repo", {"prompt.md": scores(a=0)}, plan)
    (repo / ".env").write_text("SECRET_KEY=kept\n")
    return repo


@pytest.mark.parametrize("deleted", ["the results' lock", "every lock file"])
def test_a_mutator_that_deletes_the_lock_lets_no_second_daemon_run_the_experiment(tmp_path, deleted):
    """Even with the lock files under .git gone too, as a mutator that deletes every `*lock*` file leaves it:
    the first daemon still holds a lock no file operation removes."""
    command = f"rm {META}/lock" if deleted == "the results' lock" else "find . -name '*lock*' -type f -delete"
    repo = held_repo(tmp_path, {"run": [command]})
    first = daemon(repo, "run")
    try:
        wait_for(lambda: (repo / RESULTS / "mutating").exists())
        assert not (repo / META / "lock").exists()
        if deleted == "every lock file":
            assert not list((repo / ".git/autoresearch").rglob("*lock*"))
        second = cli(repo, "run")
        if deleted == "every lock file":
            assert_one_line_error(second, 30, f"another run (pid {first.pid}) is working in this checkout")
        else:
            assert_one_line_error(second, 30, "experiment 'exp' is locked by pid")
    finally:
        (repo / RESULTS / "go-on").touch()
        _, err = first.communicate(timeout=60)
    assert first.returncode == 10, err
    assert "put back 1 of the experiment's own files deleted during the mutation" in err
    assert cli(repo, "status").returncode == 0
    assert (repo / META / "lock").is_file()


def test_a_second_experiment_with_another_results_directory_in_the_same_checkout_is_refused(tmp_path):
    repo = held_repo(tmp_path, {})
    other = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    other |= {"experiment": "exp2", "results_dir": ".autoresearch-b", "artifact": "other.md"}
    other["eval"]["command"] = "python3 evals/score.py {run_dir} other.md"
    (repo / "other.yaml").write_text(yaml.safe_dump(other))
    (repo / "other.md").write_text(scores(a=0))
    git(repo, "add", "other.yaml", "other.md")
    git(repo, "commit", "-qm", "a second experiment")
    first = daemon(repo, "run")
    try:
        wait_for(lambda: (repo / RESULTS / "mutating").exists())
        second = cli(repo, "run", "-c", "other.yaml")
        assert_one_line_error(second, 30, "experiment 'exp'", ".autoresearch", "running in this checkout")
    finally:
        (repo / RESULTS / "go-on").touch()
        _, err = first.communicate(timeout=60)
    assert first.returncode == 0, err
    assert not (repo / ".autoresearch-b/runs/exp2/_autoresearch/iterations.jsonl").exists()
    assert [line["decision"] for line in iterations(repo)] == ["keep", "keep"]


def mutators_in(repo: Path) -> list[int]:
    """The planned mutators working in `repo` (its pgid file went with the results directory)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            mine = os.readlink(f"/proc/{pid}/cwd") == str(repo) and not ended(int(pid))
            if mine and b"tools/mutate.py" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
        except OSError:  # ended meanwhile
            continue
    return found


def killed_in_the_mutation(repo: Path) -> None:
    """`run` killed with SIGKILL while its cycle-2 mutator holds, and that mutator ended after it."""
    first = daemon(repo, "run")
    try:
        wait_for(lambda: (repo / RESULTS / "mutating").exists())
    finally:
        first.kill()
        first.communicate(timeout=30)
    wait_for(lambda: not mutators_in(repo))  # its watcher ends it when the daemon dies


def test_a_start_after_a_kill_during_a_mutation_undoes_what_it_wrote_outside_and_says_so(tmp_path):
    hook = "#!/bin/sh\necho pwned\n"
    step = {
        "write": {"prompt.md": scores(a=1), ".git/hooks/post-commit": hook, "stray.txt": "planted\n"},
        "run": ["git config alias.st '!echo pwned'", "git clean -ffdx", "mkdir -p .autoresearch"],  # for `hold`
    }
    repo = held_repo(tmp_path, step)
    config_before = (repo / ".git/config").read_text()
    killed_in_the_mutation(repo)
    assert (repo / ".git/hooks/post-commit").exists() and not (repo / ".env").exists()  # as the kill left them
    assert not (repo / META / "iterations.jsonl").exists()  # removed by its `git clean`

    resumed = cli(repo, "run", "--max-cycles", "1")  # the run goes on: its one cycle was made, so it ends
    assert resumed.returncode in (0, 10), resumed.stderr
    assert "during the interrupted mutation" in resumed.stderr
    assert not (repo / ".git/hooks/post-commit").exists()
    assert (repo / ".git/config").read_text() == config_before
    assert not (repo / "stray.txt").exists()
    assert (repo / ".env").read_text() == "SECRET_KEY=kept\n"
    assert [line["decision"] for line in iterations(repo)] == ["keep"]  # the history came back
    (saved,) = (repo / RESULTS).rglob("outside/git/.git/hooks/post-commit")
    assert saved.read_text() == hook


def test_a_mutators_stash_of_ignored_files_takes_nothing_away(tmp_path):
    """`git stash -a` takes your untracked and ignored files, and the results directory with them (`-u`, which
    leaves ignored files, was already undone by the guard's copies)."""
    repo = scenario_repo(
        tmp_path / "repo",
        {"prompt.md": scores(a=0)},
        {2: {"write": {"prompt.md": scores(a=1)}, "run": ["git stash -a"]}},
        extra_files={".gitignore": ".env\n"},
    )
    (repo / ".env").write_text("SECRET_KEY=kept\n")
    (repo / "notes.txt").write_text("my untracked notes\n")
    done = cli(repo, "run")
    assert done.returncode == 10, done.stderr
    assert [(line["decision"], line.get("error_reason")) for line in iterations(repo)] == [
        ("keep", None),
        ("error", "out-of-scope"),
    ]
    assert (repo / ".env").read_text() == "SECRET_KEY=kept\n"
    assert (repo / "notes.txt").read_text() == "my untracked notes\n"
    assert git(repo, "stash", "list") == ""


def test_status_after_a_clean_and_a_kill_during_the_mutation_says_the_undo_is_pending(tmp_path):
    """The mutator's `git clean -ffdx` took the whole results folder; the guard's record under .git/autoresearch/
    is what says a run was cut short, and what puts the folder back."""
    step = {"write": {"prompt.md": scores(a=1)}, "run": ["git clean -ffdx", "mkdir -p .autoresearch"]}
    repo = held_repo(tmp_path, step)
    killed_in_the_mutation(repo)
    (repo / RESULTS / "mutating").unlink()
    (repo / "sub").mkdir()
    shown = cli(repo / "sub", "status")
    assert shown.returncode == 0, shown.stderr
    assert "no experiments yet" not in shown.stdout
    assert "a run of 'exp' was killed during a mutation in this checkout and its undo is pending" in shown.stdout
    assert "`autoresearch run`" in shown.stdout
    listed = json.loads(cli(repo, "status", "--json").stdout)
    assert listed["experiments"] == [] and len(listed["interrupted_mutations"]) == 1
    resumed = cli(repo, "run", "--max-cycles", "1")
    assert resumed.returncode in (0, 10), resumed.stderr
    assert "exp: not running" in cli(repo, "status").stdout
