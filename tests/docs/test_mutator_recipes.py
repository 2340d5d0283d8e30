"""The Claude Code lines of docs/mutators.md run as written, as the mutator of a loop in the default sandbox,
with the real CLI against the scripted Messages server; and every Claude Code mutator line the README, the
docs, the examples and `init` show is one of them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autoresearch.optimizer.commands.init import MUTATOR_COMMAND
from tests.helpers.claude_code import ARTIFACT, ClaudeCode, agent_repo, edit, recipes, reported_costs, turns
from tests.helpers.fake_llm import FakeLLM
from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations

REPO = Path(__file__).resolve().parents[2]
# the line with the shell allowed is run by tests/mutators/test_claude_code.py, whose model uses the shell
EDITING = [line for line in recipes() if ",Bash " not in line]


def test_the_page_has_the_recipes():
    assert len(EDITING) >= 5 and MUTATOR_COMMAND in EDITING


@pytest.mark.parametrize("recipe", EDITING, ids=[f"line{n}" for n in range(1, len(EDITING) + 1)])
def test_a_claude_code_recipe_improves_the_artifact_and_reports_its_spend(
    tmp_path, fake_llm: FakeLLM, claude_code: ClaudeCode, recipe
):
    fake_llm.handler = turns(*edit())
    repo = agent_repo(tmp_path, recipe)
    done = cli(repo, "run", env=claude_code.env(fake_llm))
    assert done.returncode == 0, done.stderr
    last = iterations(repo)[-1]
    assert (last["decision"], last["mutation"]) == ("keep", "Raised test a to 1")
    assert git(repo, "show", f"HEAD:{ARTIFACT}") == "a 1\nb 0\n"
    [cost] = reported_costs(repo)
    assert last["mutation_cost_usd"] == round(cost, 6) > 0
    if model := re.search(r"--model (\S+)", recipe):
        assert {r.body["model"] for r in fake_llm.requests} == {model[1]}
    if added := re.search(r'--append-system-prompt "([^"]+)"', recipe):
        assert all(added[1] in json.dumps(r.body["system"]) for r in fake_llm.requests)


def shown_lines() -> dict[str, str]:
    """Every Claude Code mutator line the user is shown, by where: the README, the docs, the examples' READMEs."""
    pages = [
        REPO / "README.md",
        *sorted((REPO / "docs").glob("*.md")),
        *sorted((REPO / "examples").glob("*/README.md")),
    ]
    shown = {}
    for page in pages:
        for number, line in enumerate(page.read_text().splitlines(), 1):
            for found in re.findall(r"claude -p [^'`\n]*AUTORESEARCH_PROMPT_FILE[^'`\n]*", line):
                shown[f"{page.relative_to(REPO)}:{number}"] = found.strip()
    return shown


def test_every_claude_code_line_shown_is_a_tested_recipe():
    shown = shown_lines()
    assert "README.md" in " ".join(shown) and len(shown) >= 6
    assert {where: line for where, line in shown.items() if line not in recipes()} == {}
