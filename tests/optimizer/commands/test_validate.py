"""`validate` (without a file) refuses whatever `run` refuses before it starts, in run's own words, and writes nothing.

After `init`, `validate` said `ok (the eval is an eval command: it is checked when it
runs)` and `run` then refused `path/to/eval`; a wrong artifact path was ok too.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.helpers.repos import GIT_ENV, assert_one_line_error, cli, git, make_repo
from tests.helpers.scenario import scenario_repo, scores
from tests.optimizer.startup.test_preflight import BROKEN as PREFLIGHT
from tests.optimizer.startup.test_preflight import EVAL_FILE

ENV = {"PREFLIGHT_MODEL": "claude-sonnet-4-5", "OPENAI_API_KEY": "sk-test"}  # for the preflight table, an LLM mutator

BWRAP = ["bwrap", "--dev-bind", "/", "/"]


def configure(repo, **changes) -> None:
    path = repo / "autoresearch.yaml"
    settings = yaml.safe_load(path.read_text())
    for key, value in changes.items():
        if isinstance(value, dict):
            settings[key] = {**settings.get(key, {}), **value}
        else:
            settings[key] = value
    path.write_text(yaml.safe_dump(settings, sort_keys=False))


def committed(repo, **changes) -> None:
    configure(repo, **changes)
    git(repo, "commit", "-qam", "config")


def no_repository(repo) -> None:
    shutil.rmtree(repo / ".git")


def no_commits(repo) -> None:
    shutil.rmtree(repo / ".git")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)


def untracked_artifact(repo) -> None:
    (repo / "new.md").write_text("a 1\n")
    configure(repo, artifact="new.md")


def results_into_git(repo) -> None:
    (repo / ".git/autoresearch").mkdir()
    (repo / ".autoresearch").symlink_to(repo / ".git/autoresearch")


def unpriced_mutator(repo) -> None:
    configure(repo, stop={"budget_usd": 1})
    settings = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    settings["mutator"] = {"provider": "openai", "model": "no-such-model"}
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(settings))


def preflight(case: str):
    def change(repo) -> None:
        (repo / "evals/one.eval.yaml").write_text(EVAL_FILE)
        git(repo, "add", "evals/one.eval.yaml")
        committed(repo, **PREFLIGHT[case][0])

    return change


BROKEN = {
    "no repository": (no_repository, "not inside a git repository"),
    "a repository with no commits": (no_commits, "has no commits yet"),
    "a wrong artifact path": (lambda repo: configure(repo, artifact="prompts/prompt.md"), "no such file or directory"),
    "an artifact outside the repository": (lambda repo: configure(repo, artifact="../prompt.md"), "outside"),
    "an untracked artifact": (untracked_artifact, "is not tracked by git"),
    "a dirty artifact": (lambda repo: (repo / "prompt.md").write_text("a 1\n"), "uncommitted changes"),
    "a results_dir of tracked files": (lambda repo: configure(repo, results_dir="evals"), "holds tracked files"),
    "a results_dir leading into .git": (results_into_git, "leads into .git"),
    "a bad config field": (lambda repo: configure(repo, stop={"max_cycles": "many"}), "field 'stop.max_cycles'"),
    "an unpriced mutator under a budget": (unpriced_mutator, "no price is known for 'no-such-model'"),
    "a worktree experiment with init's placeholder eval": (
        lambda repo: committed(repo, worktree=True, eval={"command": "path/to/eval {run_dir}"}),
        "'path/to/eval' does not exist",
    ),
    **{case: (preflight(case), PREFLIGHT[case][1][-1]) for case in PREFLIGHT},
}


def plain_repo(tmp_path):
    return scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {"write": {"prompt.md": scores(a=1)}}})


def refusal(done: subprocess.CompletedProcess) -> tuple[int, str]:
    """The exit code and the one `autoresearch:` line, after checking there is exactly one and no traceback."""
    assert_one_line_error(done, done.returncode)
    return done.returncode, next(line for line in done.stderr.splitlines() if line.startswith("autoresearch:"))


def written(repo) -> tuple[str, ...]:
    """What a command could have left: the tree's status, ignored files included, the branches and worktrees."""
    if not (repo / ".git").is_dir() or not git(repo, "rev-list", "--all"):
        return (str(sorted(p.name for p in repo.iterdir())),)
    return (
        git(repo, "status", "--porcelain", "--ignored"),
        git(repo, "branch", "--list"),
        git(repo, "worktree", "list"),
        (repo / ".git/info/exclude").read_text(),
    )


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_validate_refuses_what_run_refuses_with_the_same_code_and_line_and_writes_nothing(tmp_path, case):
    repo = plain_repo(tmp_path)
    change, needle = BROKEN[case]
    change(repo)
    before = written(repo)
    checked = refusal(cli(repo, "validate", env=ENV))
    assert written(repo) == before
    ran = refusal(cli(repo, "run", env=ENV))
    assert checked == ran
    assert checked[0] == 30 and needle in checked[1]


@pytest.mark.parametrize(
    "experiment, needle", [("exp", "is locked by pid 4242"), ("other", "is running in this checkout")]
)
def test_validate_refuses_a_locked_experiment_or_a_busy_checkout_as_run_does(tmp_path, experiment, needle):
    repo = plain_repo(tmp_path)
    lock = repo / f".autoresearch/runs/{experiment}/_autoresearch/lock"
    lock.parent.mkdir(parents=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        held.write(json.dumps({"pid": 4242, "since": "2026-11-21T22:00:00Z"}))
        held.flush()
        checked, ran = refusal(cli(repo, "validate")), refusal(cli(repo, "run"))
    assert checked == ran and needle in checked[1]


PLAIN_EVAL = "tests:\n  - id: one\n    input: hello\n    assertions:\n      - type: contains\n        value: hello\n"
CAT = {"name": "real", "provider": "cli", "command": "cat"}
BROKEN_EVALS = {
    "an unknown grader, and criteria no command target can grade": (
        EVAL_FILE.replace("type: contains", "type: telepathy"),
        [{**CAT, "name": "default"}],
        2,
    ),
    "a delegation to a variable that is not set": (
        PLAIN_EVAL,
        [{"name": "default", "use_target": "${{ VALIDATE_UNSET_AGENT }}"}, CAT],
        1,
    ),
}


def listed(ran: subprocess.CompletedProcess) -> list[str]:
    """The problems run's one error names: the line itself, or the lines under its count."""
    head, *more = ran.stderr.splitlines()
    return [line.strip() for line in more] if more else [head.removeprefix("autoresearch: ")]


@pytest.mark.parametrize("case", sorted(BROKEN_EVALS))
def test_an_eval_file_run_refuses_is_listed_by_validate_problem_by_problem(tmp_path, case):
    text, targets, count = BROKEN_EVALS[case]
    repo = plain_repo(tmp_path)
    (repo / "evals/one.eval.yaml").write_text(text)
    git(repo, "add", "evals/one.eval.yaml")
    committed(repo, eval={"command": None, "file": "evals/one.eval.yaml", "targets": targets})
    checked, ran = cli(repo, "validate"), cli(repo, "run")
    assert checked.returncode == ran.returncode == 30
    assert len(listed(ran)) == count
    assert checked.stdout.splitlines() == [*listed(ran), f"{count} problem(s)"]


def test_validate_json_says_run_s_refusal_as_its_one_problem(tmp_path):
    repo = plain_repo(tmp_path)
    configure(repo, artifact="prompts/prompt.md")
    done = cli(repo, "validate", "--json")
    assert done.returncode == 30, done.stderr
    verdict = json.loads(done.stdout)
    assert (verdict["ok"], [p["message"] for p in verdict["problems"]]) == (
        False,
        [refusal(cli(repo, "run"))[1].removeprefix("autoresearch: ")],
    )


def test_after_init_validate_names_what_is_still_to_fill_in_one_thing_at_a_time_as_run_would(tmp_path):
    repo = make_repo(tmp_path / "r", {"notes.md": "hello\n"})
    assert cli(repo, "init").returncode == 0  # nothing to guess: placeholders for the artifact and the eval
    for placeholder, value, needle in [
        ("path/to/artifact.md", "notes.md", "artifact 'path/to/artifact.md': no such file or directory"),
        ("path/to/eval", "true", "field 'eval.command': program 'path/to/eval' does not exist"),
    ]:
        checked = refusal(cli(repo, "validate"))
        assert checked == refusal(cli(repo, "run")) and needle in checked[1]
        text = (repo / "autoresearch.yaml").read_text()
        (repo / "autoresearch.yaml").write_text(text.replace(placeholder, value, 1))
    checked = cli(repo, "validate")  # what is left is init's mutator, `claude`: refused where it is not installed
    if checked.returncode == 0:
        assert "autoresearch.yaml: ok, `run` can start" in checked.stdout
    else:
        assert refusal(checked) == refusal(cli(repo, "run")) and "'mutator.command'" in refusal(checked)[1]


@pytest.mark.parametrize("mounted", [".autoresearch", ".autoresearch/runs/exp"])
def test_validate_refuses_a_results_directory_it_cannot_write_to_and_leaves_nothing_there(tmp_path, mounted):
    """bubblewrap mounts it read-only (EROFS), as a remount or a failing disk does; the tests run as root, whom a
    mode of 0555 does not stop. `validate` says what `run`'s first write there would (exit 50); writable, it
    passes, and leaves no file behind."""
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, {2: {}}, config={"stop": {"max_cycles": 1}})
    assert cli(repo, "run").returncode == 10
    folder = repo / mounted
    before = sorted(p.name for p in folder.iterdir())
    command = [*BWRAP, "--ro-bind", str(folder), str(folder), sys.executable, "-m", "autoresearch.optimizer"]
    done = subprocess.run(
        [*command, "validate"], cwd=repo, env={**os.environ, **GIT_ENV}, capture_output=True, text=True
    )
    assert_one_line_error(
        done, 50, f"cannot write {repo}/.autoresearch/runs/exp/", "Read-only file system; make it writable again"
    )
    assert cli(repo, "validate").returncode == 0
    assert sorted(p.name for p in folder.iterdir()) == before
