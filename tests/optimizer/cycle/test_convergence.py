"""stop.max_convergence: the run ends after that many cycles in a row without a KEEP, errors included."""

from __future__ import annotations

from tests.helpers.repos import cli
from tests.helpers.scenario import iterations, scenario_repo, scores, state

MUTATOR_FAILS = {"exit": 2}


def no_gain(prompt: str) -> dict:
    """A plan step that only lengthens the prompt: same scores, not simpler, so a DISCARD."""
    return {"write": {"prompt.md": prompt + "# longer, same scores\n"}}


def test_three_non_keeps_in_a_row_converge_and_a_keep_between_starts_the_count_again(tmp_path):
    plan = {
        2: no_gain(scores(a=0, b=0)),
        3: MUTATOR_FAILS,
        4: {"write": {"prompt.md": scores(a=1, b=0)}},
        5: no_gain(scores(a=1, b=0)),
        6: MUTATOR_FAILS,
        7: no_gain(scores(a=1, b=0)),
        8: {"write": {"prompt.md": scores(a=1, b=1)}},  # never reached
    }
    repo = scenario_repo(
        tmp_path / "r", {"prompt.md": scores(a=0, b=0)}, plan, config={"stop": {"max_cycles": 20, "max_convergence": 3}}
    )
    done = cli(repo, "run")
    assert done.returncode == 0, done.stderr
    decisions = [line["decision"] for line in iterations(repo)]
    assert decisions == ["keep", "drop", "error", "keep", "drop", "error", "drop"]
    assert state(repo)["stop_reason"] == "converged"
    assert "finished (converged)" in done.stdout
    assert (repo / "prompt.md").read_text() == scores(a=1, b=0)
