"""`executor:` refused or accepted at start, with no cluster at all: one line, exit 30, nothing written."""

from __future__ import annotations

import socket
from pathlib import Path

import yaml

from tests.helpers.repos import assert_one_line_error, cli, make_repo


def repo(root: Path, executor) -> Path:
    config = {
        "artifact": "prompt.md",
        "eval": {"command": "python3 eval.py"},
        "mutator": {"provider": "command", "command": "true"},
        "executor": executor,
    }
    files = {"prompt.md": "x\n", "eval.py": "print(1)\n", "autoresearch.yaml": yaml.safe_dump(config)}
    return make_repo(root, files)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_ray_without_ray_installed_names_the_install_command(tmp_path):
    shadow = tmp_path / "shadow" / "ray"  # an importable `ray` that is not there, as on a machine without the extra
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    tree = repo(tmp_path / "repo", "ray")
    done = cli(tree, "eval", env={"PYTHONPATH": str(shadow.parent)})
    assert_one_line_error(done, 30, "executor", "pip install 'autoresearch[ray]'")
    assert not (tree / ".autoresearch").exists()


def test_an_unreachable_cluster_is_exit_30_before_anything_is_written(tmp_path):
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    for executor in ({"type": "ray", "address": address}, {"type": "ray", "address": f"ray://{address}"}):
        tree = repo(tmp_path / executor["address"].replace(":", "_").replace("/", ""), executor)
        done = cli(tree, "eval")
        assert_one_line_error(done, 30, "executor.address", address)
        assert not (tree / ".autoresearch").exists()
        run = cli(tree, "run", "--max-cycles", "1")
        assert run.returncode == 30, run.stderr
        assert not (tree / ".autoresearch").exists()


def test_a_bad_executor_field_is_one_line(tmp_path):
    for executor, field in (
        ({"type": "spark"}, "executor.type"),
        ({"type": "ray", "num_cpus": 0}, "executor.num_cpus"),
    ):
        done = cli(repo(tmp_path / field, executor), "eval")
        assert_one_line_error(done, 30, field)


def test_local_is_the_default_and_runs_here(tmp_path):
    tree = repo(tmp_path / "repo", "local")
    (tree / "eval.py").write_text(
        "import json, os, pathlib\n"
        "pathlib.Path(os.environ['AUTORESEARCH_RUN_DIR'], 'index.jsonl').write_text(json.dumps({'test_id': 'a', 'score': 1}) + '\\n')\n"
    )
    done = cli(tree, "eval")
    assert done.returncode == 0, done.stderr
    assert "score 1.0000" in done.stdout
