"""The loop releases the repository's libgit2 memory every RELEASE_EVERY cycles; the cycles after it read and
commit through a repository opened anew."""

from __future__ import annotations

from autoresearch.optimizer.cycle.loop import RELEASE_EVERY
from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores

TESTS = [f"t{n}" for n in range(RELEASE_EVERY + 2)]


def _passing(count: int) -> str:
    return scores(**{name: int(i < count) for i, name in enumerate(TESTS)})


def test_keeps_after_a_release_are_committed_on_the_branch_as_before(tmp_path):
    last = RELEASE_EVERY + 2
    repo = scenario_repo(
        tmp_path / "r",
        {"prompt.md": _passing(0)},
        {
            cycle: {"write": {"prompt.md": _passing(cycle - 1)}, "summary": f"pass {cycle - 1}"}
            for cycle in range(2, last + 1)
        },
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [r["decision"] for r in lines] == ["keep"] * last
    assert lines[-1]["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert git(repo, "log", "--format=%s", "-1").strip() == f"autoresearch cycle {last}: pass {last - 1}"
    assert git(repo, "rev-list", "--count", "HEAD").strip() == str(last)
    assert (repo / "prompt.md").read_text() == _passing(last - 1)
