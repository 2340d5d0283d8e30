"""The real Codex CLI (pinned in tests/codex, installed by tests/run), offline against FakeLLM's Responses API.

Its home holds a config.toml naming the fake server as its model provider, with
a fake key, no login, and nothing reaching past the loopback: no plugin sync
(a `git ls-remote` of github.com), no analytics, no update check. Codex 0.171's
default model calls one freeform tool, `exec`, whose JavaScript calls
`tools.exec_command` and `tools.apply_patch`: `shell` and `patch` write it.

The program and the home live under /var/tmp, not /tmp: inside the mutator's
sandbox /tmp is a fresh tmpfs, so a program there would not be found and a
home there would be a writable scratch folder, where a user's home is
read-only but for the agent's own files (and Codex refuses to make its helper
links under /tmp).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.fake_llm import FakeLLM, Reply, freeform_reply

INSTALLED = Path(__file__).resolve().parents[1] / "codex" / "node_modules" / "@openai"

CONFIG = """\
model_provider = "scripted"
check_for_update_on_startup = false

[model_providers.scripted]
name = "scripted"
base_url = "{base_url}"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[features]
plugins = false
remote_plugin = false

[analytics]
enabled = false
"""


@dataclass(frozen=True)
class Codex:
    bin_dir: Path  # holds `codex`
    home: Path

    def env(self, llm: FakeLLM) -> dict[str, str]:
        """What a run needs in its environment for `codex` to answer from `llm`, with nothing else sent."""
        (self.home / ".codex/config.toml").write_text(CONFIG.format(base_url=llm.base_url("responses")))
        return {
            "PATH": f"{self.bin_dir}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(self.home),
            "OPENAI_API_KEY": "sk-fake-codex",
        }


@pytest.fixture(scope="module")
def codex_bin() -> Iterator[Path]:
    """A folder outside /tmp holding `codex`: the pinned install hard-linked there (copied across file systems)."""
    assert (INSTALLED / "codex").is_dir(), "the Codex CLI is not installed: tests/run installs it (npm, in tests/codex)"
    root = Path(tempfile.mkdtemp(prefix="autoresearch-codex-", dir="/var/tmp"))
    try:
        try:
            shutil.copytree(INSTALLED, root / "node_modules/@openai", copy_function=os.link)
        except (OSError, shutil.Error):  # another file system
            shutil.rmtree(root / "node_modules", ignore_errors=True)
            shutil.copytree(INSTALLED, root / "node_modules/@openai")
        (root / "bin").mkdir()
        (root / "bin/codex").symlink_to(root / "node_modules/@openai/codex/bin/codex.js")
        yield root / "bin"
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(name="codex")
def codex_fixture(codex_bin: Path) -> Iterator[Codex]:
    """The pinned `codex` with a home of its own outside /tmp, where only ~/.codex is writable in the sandbox."""
    home = Path(tempfile.mkdtemp(prefix="autoresearch-codex-home-", dir="/var/tmp"))
    try:
        (home / ".codex").mkdir()
        yield Codex(codex_bin, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def run_js(source: str, **usage: int) -> Reply:
    """The model's turn: Codex's `exec` tool running `source`."""
    return freeform_reply("exec", source, **usage)


def shell(command: str) -> str:
    """`exec` source that runs a shell command and hands its output back to the model."""
    return f"const r = await tools.exec_command({{cmd: {json.dumps(command)}}}); text(r.output);"


def patch(path: str, old: str, new: str) -> str:
    """`exec` source that edits `path` with Codex's own apply_patch tool."""
    body = f"*** Begin Patch\n*** Update File: {path}\n@@\n-{old}\n+{new}\n*** End Patch\n"
    return f"text(JSON.stringify(await tools.apply_patch({json.dumps(body)})));"
