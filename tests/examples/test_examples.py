"""Each of examples/ copied into a fresh repository and run end to end by `autoresearch run`, as its README says."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASES = {
    # example: (experiment, artifact, final edit, [(score, decision) per cycle])
    "skill-eval": (
        "release-notes",
        "skills/release-notes/SKILL.md",
        "edits/v3.md",
        [(1 / 3, "keep"), (2 / 3, "keep"), (1.0, "keep")],
    ),
    "metric-loop": (
        "moons",
        "train.py",
        "edits/v4-hidden-layer.py",
        [(0.3877, "keep"), (0.3664, "keep"), (3.2239, "drop"), (0.1361, "keep")],
    ),
    "skill-creator": (
        "commit-message",
        "skills/commit-message/SKILL.md",
        "edits/v3.md",
        [(0.25, "keep"), (0.75, "keep"), (1.0, "keep")],
    ),
}


def test_every_example_is_tested_and_the_readme_points_to_it():
    assert sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir()) == sorted(CASES)
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    assert all(f"examples/{name}" in readme for name in CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_example_runs_end_to_end(tmp_path, name):
    experiment, artifact, final, cycles = CASES[name]
    repo = tmp_path / name
    shutil.copytree(EXAMPLES / name, repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", name)

    done = cli(repo, "run")

    assert done.returncode == 0, done.stderr
    lines = iterations(repo, experiment)
    assert [(round(line["score"], 4), line["decision"]) for line in lines] == [
        (round(score, 4), decision) for score, decision in cycles
    ]
    assert (repo / artifact).read_text() == (repo / final).read_text()
    assert git(repo, "status", "--porcelain") == ""
