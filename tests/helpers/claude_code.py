"""The real Claude Code CLI (pinned in tests/claude-code, installed by tests/run), offline against FakeLLM.

Claude Code speaks the Anthropic Messages wire (streamed, to /v1/messages) and
does nothing else with telemetry, updates and other traffic turned off, so
`ANTHROPIC_BASE_URL` at the fake server is all it needs. Its model's replies
are scripted per conversation turn (`turns`), so every mutation of a run
plays the same script.

Its program and its home live under /var/tmp, not /tmp: inside the mutator's
sandbox /tmp is a fresh tmpfs, so a program there would not be found and a
home there would be a writable scratch folder, where a user's home is
read-only but for the agent's own files.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from autoresearch.plumbing.sandbox import WORK
from tests.helpers.fake_llm import FakeLLM, Reply, Request, text_reply, tool_reply
from tests.helpers.repos import git
from tests.helpers.scenario import scenario_repo, scores

INSTALLED = Path(__file__).resolve().parents[1] / "claude-code" / "node_modules" / ".bin" / "claude"
# a returning user's global config, as Claude Code 2.1 leaves it after its first run
RETURNING_USER = {"firstStartTime": "2026-11-01T00:00:00.000Z", "migrationVersion": 15, "seenNotifications": {}}


@dataclass(frozen=True)
class ClaudeCode:
    bin_dir: Path  # holds `claude`
    home: Path

    def env(self, llm: FakeLLM) -> dict[str, str]:
        """What a run needs in its environment for `claude` to answer from `llm`, with nothing else sent."""
        return {
            "PATH": f"{self.bin_dir}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(self.home),
            "ANTHROPIC_BASE_URL": llm.base_url("anthropic"),
            "ANTHROPIC_API_KEY": "sk-ant-test-not-a-real-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
        }


@pytest.fixture(scope="session")
def claude_program() -> Iterator[Path]:
    """The pinned `claude`, linked (copied, on another file system) into a folder outside /tmp, once."""
    assert INSTALLED.exists(), "Claude Code is not installed: tests/run installs it (npm, in tests/claude-code)"
    bin_dir = Path(tempfile.mkdtemp(prefix="autoresearch-claude-bin-", dir="/var/tmp"))
    try:
        try:
            os.link(INSTALLED.resolve(), bin_dir / "claude")
        except OSError:
            shutil.copy2(INSTALLED.resolve(), bin_dir / "claude")
        yield bin_dir
    finally:
        shutil.rmtree(bin_dir, ignore_errors=True)


@pytest.fixture
def claude_code(claude_program: Path) -> Iterator[ClaudeCode]:
    """The pinned `claude` and a returning user's home of its own, outside /tmp."""
    home = Path(tempfile.mkdtemp(prefix="autoresearch-claude-home-", dir="/var/tmp"))
    try:
        (home / ".claude").mkdir()
        (home / ".claude.json").write_text(json.dumps(RETURNING_USER))
        yield ClaudeCode(claude_program, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def turns(*replies: Reply) -> Callable[[Request], Reply]:
    """A FakeLLM handler answering the n-th model turn of each conversation with `replies[n]` (the last
    one again past the end): each run of `claude` plays the same script."""

    def answer(request: Request) -> Reply:
        done = sum(1 for m in request.body.get("messages", []) if m.get("role") == "assistant")
        return replies[min(done, len(replies) - 1)]

    return answer


DOCS = Path(__file__).resolve().parents[2] / "docs" / "mutators.md"


def recipes() -> list[str]:
    """The Claude Code lines of the mutators page: every line of its code blocks that starts `claude `."""
    lines, inside = [], False
    for line in DOCS.read_text().splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside and line.startswith("claude "):
            lines.append(line)
    return lines


ARTIFACT = "prompts/p.md"
SEEN = f"{WORK}/{ARTIFACT}"  # the artifact in the sandbox's throwaway checkout


def agent_repo(root: Path, command: str, **config) -> Path:
    """A repo whose mutator is `command` with the default sandbox; the user has a .env and untracked notes."""
    repo = root / "repo"
    settings = {"mutator": {"command": command, "timeout_s": 120}, "stop": {"max_cycles": 2}, **config}
    scenario_repo(repo, {ARTIFACT: scores(a=0, b=0)}, {}, config=settings)
    config_file = repo / "autoresearch.yaml"
    written = yaml.safe_load(config_file.read_text())
    del written["mutator"]["sandbox"]  # the scenario's default is off: here, the user's default
    config_file.write_text(yaml.safe_dump(written, sort_keys=False))
    git(repo, "commit", "-qam", "the default sandbox")
    (repo / ".env").write_text("SECRET_KEY=kept\n")
    (repo / "notes.txt").write_text("my untracked notes\n")
    return repo


def edit(*, input_tokens: int = 10) -> tuple:
    """The model's script: read the artifact, raise test a, then say what it did."""
    return (
        tool_reply("Read", {"file_path": SEEN}),
        tool_reply("Edit", {"file_path": SEEN, "old_string": "a 0", "new_string": "a 1"}),
        text_reply("Raised test a to 1", input_tokens=input_tokens),
    )


def reported_costs(repo: Path) -> list[float]:
    """The `total_cost_usd` Claude Code printed, mutation by mutation."""
    logs = sorted((repo / ".autoresearch").rglob("mutator.stdout.log"))
    return [json.loads(p.read_text())["total_cost_usd"] for p in logs]
