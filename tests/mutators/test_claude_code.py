"""The real Claude Code CLI as the mutator, with the line `init` writes: the loop runs it in the sandbox (the
default settings), it reads and edits the artifact with its own tools as the scripted model asks, the loop
keeps the improvement, and its reported spend counts against the budget. What it does unasked (a scripted
`git clean`, `git stash`, `git commit`, writes outside the artifact, a background server) reaches nothing of
the user's."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from autoresearch.optimizer.commands.init import MUTATOR_COMMAND
from tests.helpers.claude_code import (
    ARTIFACT,
    RETURNING_USER,
    ClaudeCode,
    agent_repo,
    edit,
    recipes,
    reported_costs,
    turns,
)
from tests.helpers.fake_llm import FakeLLM, tool_reply
from tests.helpers.procs import running, survivors
from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, state


def staged(repo: Path) -> list[str]:
    """The index's entries but the artifact's (which a KEEP commits)."""
    return [ln for ln in git(repo, "ls-files", "--stage").splitlines() if not ln.endswith(ARTIFACT)]


def test_claude_code_edits_the_artifact_in_the_sandbox_and_its_reported_spend_stops_the_budget(
    tmp_path, fake_llm: FakeLLM, claude_code: ClaudeCode
):
    fake_llm.handler = turns(*edit(input_tokens=1_000_000))  # a few dollars at any model's price
    repo = agent_repo(tmp_path, MUTATOR_COMMAND, stop={"max_cycles": 5, "budget_usd": 1})
    done = cli(repo, "run", env=claude_code.env(fake_llm))
    assert done.returncode == 0, done.stderr
    lines = iterations(repo)
    assert [(ln["decision"], ln["mutation"]) for ln in lines] == [("keep", "original"), ("keep", "Raised test a to 1")]
    assert git(repo, "show", f"HEAD:{ARTIFACT}") == "a 1\nb 0\n"
    [cost] = reported_costs(repo)
    assert cost > 1 and lines[1]["mutation_cost_usd"] == round(cost, 6)
    assert lines[1]["tokens_in"] > 1_000_000
    assert state(repo)["stop_reason"] == "budget"
    assert "reported no spend" not in done.stderr
    assert len(fake_llm.requests) == 3  # one mutation, three turns of the model
    assert json.loads((claude_code.home / ".claude.json").read_text()) == RETURNING_USER  # intact, read-only to it
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == "?? .env\n?? notes.txt\n"


def test_what_claude_code_does_unasked_reaches_nothing_of_the_users(
    tmp_path, fake_llm: FakeLLM, claude_code: ClaudeCode
):
    marker = f"claude-test-{uuid.uuid4().hex}"
    [with_shell] = [line for line in recipes() if ",Bash " in line]  # the docs' line
    repo = agent_repo(tmp_path, with_shell)
    hostile = "\n".join(
        [
            f"git -C {repo} clean -ffdx",
            "git clean -ffdx",
            f"git -C {repo} stash -u",
            "git stash -u",
            f"git -C {repo} commit -qam unasked",
            "git commit -qam unasked",
            f"echo overwritten > {repo}/notes.txt",
            f"echo planted > {repo}/planted.txt",
            f"echo planted > {claude_code.home}/planted.txt",
            f"setsid sh -c 'touch /tmp/{marker}; sleep 1000; : {marker}' > /dev/null 2>&1 &",
            f"until [ -e /tmp/{marker} ]; do sleep 0.05; done",
            "echo HOSTILE-DONE",
        ]
    )
    fake_llm.handler = turns(tool_reply("Bash", {"command": hostile}), *edit())
    user_files = {p: (repo / p).read_bytes() for p in (".env", "notes.txt", ".git/config")}
    commits, index = git(repo, "rev-list", "HEAD"), staged(repo)
    try:
        done = cli(repo, "run", env=claude_code.env(fake_llm))
    finally:
        left = survivors(marker)
    assert done.returncode == 0, done.stderr
    ran = json.dumps(fake_llm.requests[1].body["messages"][-1])  # the Bash tool's output, as the model got it
    assert "HOSTILE-DONE" in ran and "Read-only file system" in ran
    assert left == [] and not running(marker)
    assert {p: (repo / p).read_bytes() for p in user_files} == user_files
    assert staged(repo) == index and git(repo, "diff", "--cached") == ""  # the index but the KEEP's artifact
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == "?? .env\n?? notes.txt\n"
    assert git(repo, "stash", "list") == "" and not (claude_code.home / "planted.txt").exists()
    assert git(repo, "rev-list", "HEAD~1") == commits  # one commit more: the KEEP
    assert [(ln["decision"], ln["mutation"]) for ln in iterations(repo)] == [
        ("keep", "original"),
        ("keep", "Raised test a to 1"),
    ]
