"""A mutator's summary on its way into a KEEP's commit: a model's words must not act on the user's GitHub."""

from __future__ import annotations

from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores


def test_a_closing_reference_in_a_summary_cannot_close_an_issue_once_pushed(tmp_path):
    said = "Fixes #12, closes owner/repo#3 and resolved:GH-4; see https://example.org/x for the #1 reason"
    plan = {2: {"write": {"prompt.md": scores(a=1)}, "summary": said}}
    repo = scenario_repo(tmp_path / "r", {"prompt.md": scores(a=0)}, plan)
    assert cli(repo, "run").returncode == 0
    message = git(repo, "log", "-1", "--format=%B").strip()
    disarmed = "Fixes \u200b#12, closes \u200bowner/repo#3 and resolved:\u200bGH-4; see https://example.org/x for the #1 reason"
    assert message.endswith(disarmed), message
    assert iterations(repo)[1]["mutation"] == disarmed
