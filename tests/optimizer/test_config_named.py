"""An error about a setting names the config file the user gave (`-c other-name.yaml`, `-c sub/x.yaml`), not the
default name, wherever the setting is found wrong: the startup checks, the sandbox's, an evaluator's, an
executor's, a mutator's. One line, exit 30, no traceback, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.helpers.repos import assert_one_line_error, cli, git
from tests.helpers.scenario import scenario_repo, scores


def renamed(tmp_path, name: str, artifact: dict[str, str] | None = None, **sections) -> Path:
    """A committed repository whose only config is `name`: the scenario's, its `sections` replaced by these."""
    artifact = artifact or {"prompt.md": scores(a=0)}
    repo = scenario_repo(tmp_path / "r", artifact, {}, extra_files={"evals/s.eval.yaml": EVAL_FILE})
    settings = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    for key, value in sections.items():
        settings[key] = value(repo, settings.get(key)) if callable(value) else value
    (repo / name).parent.mkdir(parents=True, exist_ok=True)
    (repo / name).write_text(yaml.safe_dump(settings, sort_keys=False))
    git(repo, "rm", "-q", "autoresearch.yaml")
    git(repo, "add", name)
    git(repo, "commit", "-qm", f"the config is {name}")
    return repo


def assert_refused_by_name(repo: Path, args: list[str], name: str, needle: str) -> None:
    head = git(repo, "rev-parse", "HEAD")
    done = cli(repo, *args, "-c", name)
    assert_one_line_error(done, 30, f"autoresearch: {name}{needle}")
    assert "autoresearch.yaml" not in done.stderr
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    assert git(repo, "rev-parse", "HEAD") == head
    assert not (repo / ".autoresearch").exists()


EVAL_FILE = yaml.safe_dump({"tests": [{"id": "a", "input": "x", "assertions": [{"type": "contains", "value": "a"}]}]})


def merged(**changes):
    return lambda repo, section: {**section, **changes}


def sandboxed_writable(repo: Path, section: dict) -> dict:
    return {**section, "sandbox": {"mode": "auto", "writable": [str(repo / ".git" / "hooks")]}}


CASES = {
    "startup checks": ({"results_dir": "evals"}, ": field 'results_dir': 'evals' holds tracked files"),
    "sandbox": ({"mutator": sandboxed_writable}, ": field 'mutator.sandbox.writable.0': "),
    "eval command": (
        {"eval": merged(command="no-such-eval {run_dir}")},
        ": field 'eval.command': program 'no-such-eval' is not on PATH",
    ),
    "eval metric": ({"eval": merged(metric={"pattern": "score ."})}, ": field 'eval.metric.pattern': needs one"),
    "inline targets": (
        {"eval": {"file": "evals/s.eval.yaml", "targets": []}},
        " (eval.targets): field 'targets': the list is empty",
    ),
    "executor": (
        {"executor": {"type": "ray", "max_snapshot_mb": 0.000001}},
        ": field 'executor.max_snapshot_mb': the tree at ",
    ),
    "command mutator": (
        {"mutator": merged(command="no-such-agent -p")},
        ": field 'mutator.command': program 'no-such-agent' is not on PATH",
    ),
    "replay mutator": (
        {"mutator": {"provider": "replay", "file": "edits.yaml"}},
        ": field 'mutator.file': no such file",
    ),
}
EVALUATED = ["eval command", "eval metric", "inline targets", "executor"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", ["other-name.yaml", "sub/x.yaml"])
def test_run_names_the_config_it_was_given_in_a_setting_refused_at_start(tmp_path, case, name):
    sections, needle = CASES[case]
    repo = renamed(tmp_path, name, **sections)
    assert_refused_by_name(repo, ["run"], name, needle)


@pytest.mark.parametrize("case", EVALUATED)
def test_eval_names_the_config_it_was_given_in_a_setting_its_evaluator_refuses(tmp_path, case):
    sections, needle = CASES[case]
    repo = renamed(tmp_path, "sub/x.yaml", **sections)
    assert_refused_by_name(repo, ["eval"], "sub/x.yaml", needle)


def test_a_detached_run_names_the_config_it_was_given(tmp_path):
    sections, needle = CASES["command mutator"]
    repo = renamed(tmp_path, "other-name.yaml", **sections)
    assert_refused_by_name(repo, ["run", "--detach"], "other-name.yaml", needle)


@pytest.mark.parametrize("cwd, name", [(".", "skill/x.yaml"), ("skill", "x.yaml")])
def test_a_directory_artifact_holding_a_config_kept_in_a_subfolder_is_refused(tmp_path, cwd, name):
    # the artifact is relative to the repository root, not to the config's folder: the mutator would rewrite the
    # eval command the next run starts with
    repo = renamed(tmp_path, "skill/x.yaml", {"skill/SKILL.md": scores(a=0), "skill/notes.md": ""})
    head = git(repo, "rev-parse", "HEAD")
    done = cli(repo / cwd, "run", "-c", name)
    assert_one_line_error(
        done, 30, f"autoresearch: {name}: field 'artifact': 'skill' ({repo / 'skill'}) holds the config"
    )
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    assert git(repo, "rev-parse", "HEAD") == head


@pytest.mark.parametrize(
    "link, target, name",
    [("skill/x.yaml", "../configs/x.yaml", "skill/x.yaml"), ("skill/conf", "../configs", "skill/conf/x.yaml")],
    ids=["file", "folder"],
)
def test_a_config_reached_through_a_link_in_the_artifact_is_refused(tmp_path, link, target, name):
    # the config itself is kept outside the artifact, but the name the run is given passes through a link inside it:
    # the mutator may replace that link with a file or folder of its own, which the next `run -c` reads
    repo = renamed(tmp_path, "configs/x.yaml", {"skill/SKILL.md": scores(a=0), "skill/notes.md": ""})
    (repo / link).symlink_to(target)
    git(repo, "add", link)
    git(repo, "commit", "-qm", "the config reached from the skill")
    done = cli(repo, "validate", "-c", name)
    assert_one_line_error(
        done, 30, f"autoresearch: {name}: field 'artifact': 'skill' ({repo / 'skill'}) holds the config"
    )
    assert cli(repo / "skill", "validate", "-c", "../configs/x.yaml").returncode == 0  # the way out is no name in it


def test_an_artifact_named_as_a_config_kept_in_a_subfolder_is_another_file(tmp_path):
    repo = renamed(tmp_path, "sub/x.yaml", {"x.yaml": scores(a=0)})
    done = cli(repo, "validate", "-c", "sub/x.yaml")
    assert done.returncode == 0, done.stderr


def test_a_relative_writable_folder_is_taken_from_the_configs_folder_and_named_resolved(tmp_path):
    # from the repository root, `../.autoresearch/runs` of sub/x.yaml is the results directory's: the detached daemon,
    # which runs in the config's folder, and the start's check in the user's directory must agree on it
    shared = {"mode": "auto", "writable": ["../.autoresearch/runs"]}
    repo = renamed(tmp_path, "sub/x.yaml", mutator=lambda repo, section: {**section, "sandbox": shared})
    inside = f"'../.autoresearch/runs' ({repo / '.autoresearch/runs'}) is inside {repo / '.autoresearch'}"
    assert_refused_by_name(repo, ["run"], "sub/x.yaml", f": field 'mutator.sandbox.writable.0': {inside}")


def test_the_daemons_child_names_the_config_in_a_setting_refused_once_the_experiment_is_open(tmp_path):
    # a holdout cannot be added to an experiment begun without one: found by the run that opens the experiment, which
    # for a detached run is the daemon's child, started as here (the config's absolute path, in the config's folder)
    repo = renamed(tmp_path, "sub/x.yaml")
    assert cli(repo, "run", "-c", "sub/x.yaml").returncode in (0, 10)
    config = yaml.safe_load((repo / "sub/x.yaml").read_text())
    config["eval"]["holdout"] = 0.4
    (repo / "sub/x.yaml").write_text(yaml.safe_dump(config))
    field = "field 'eval.holdout': this experiment began without a holdout; --restart to draw one"
    assert_one_line_error(cli(repo, "run", "-c", "sub/x.yaml"), 30, f"autoresearch: sub/x.yaml: {field}")
    child = cli(repo / "sub", "run", "--config", str(repo / "sub/x.yaml"), "--daemon", "--quiet")
    assert_one_line_error(child, 30, f"autoresearch: {repo / 'sub/x.yaml'}: {field}")
