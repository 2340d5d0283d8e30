"""Every command run from a subfolder of the repository finds its `autoresearch.yaml`, as `status` always did."""

from __future__ import annotations

import pytest

from tests.helpers.repos import assert_one_line_error, cli, git


def finished(path):
    """A finished demo experiment (six cycles) and an empty subfolder of its repository."""
    done = cli(path.parent, "demo", "--dir", str(path), env={"ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": ""})
    assert done.returncode == 0, done.stderr
    (path / "evals" / "deeper").mkdir()
    return path


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """One demo the reading tests share (they change nothing)."""
    return finished(tmp_path_factory.mktemp("sub") / "demo")


@pytest.mark.parametrize(
    "command", [["log"], ["diff", "2", "4"], ["logs", "-n", "1"], ["chart"], ["report"], ["status"], ["status", "demo"]]
)
def test_the_reading_commands_answer_from_a_subfolder_as_from_the_root(demo, command):
    repo = demo
    from_root, from_sub = cli(repo, *command), cli(repo / "evals" / "deeper", *command)
    assert from_sub.returncode == from_root.returncode == 0, from_sub.stderr
    assert from_sub.stdout == from_root.stdout


def test_validate_from_a_subfolder_checks_the_repositorys_config(demo):
    done = cli(demo / "evals" / "deeper", "validate")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{demo / 'autoresearch.yaml'}: ok")


def test_rollback_from_a_subfolder_rolls_the_repositorys_experiment_back(tmp_path):
    repo = finished(tmp_path / "demo")
    done = cli(repo / "evals" / "deeper", "rollback", "--to", "2")
    assert done.returncode == 0, done.stderr
    assert "rolled back to cycle 2" in done.stdout
    assert git(repo, "status", "--porcelain").strip() == ""
    assert "rollback to cycle 2" in cli(repo / "evals", "log").stdout


def test_a_config_in_no_folder_up_to_the_repositorys_root_is_still_named_as_missing(tmp_path):
    repo = finished(tmp_path / "demo")
    (repo / "autoresearch.yaml").rename(repo / "elsewhere.yaml")
    assert_one_line_error(cli(repo / "evals" / "deeper", "log"), 30, "autoresearch.yaml")
