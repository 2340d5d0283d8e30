"""The real Codex CLI (pinned in tests/codex/package.json; tests/run installs it) run against the fake LLM's
Responses API on 127.0.0.1, with a throwaway home: a fake key, no login, and nothing that reaches past the
loopback (no plugin sync from GitHub, no analytics, no update check)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.fake_llm import FakeLLM, freeform_reply

# resolved: the sandbox gives the mutator a fresh /tmp, so a checkout under /tmp reaches it only through a link
CODEX_BIN = (Path(__file__).resolve().parents[1] / "codex" / "node_modules" / ".bin").resolve()

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


def codex_env(home: Path, llm: FakeLLM) -> dict[str, str]:
    """The environment of a run whose mutator is Codex: its home (config in ~/.codex), its key, its CLI on PATH."""
    assert (CODEX_BIN / "codex").exists(), "the Codex CLI is missing: run tests/run, or npm install in tests/codex"
    (home / ".codex").mkdir(parents=True)
    (home / ".codex/config.toml").write_text(CONFIG.format(base_url=llm.base_url("responses")))
    import os

    return {"HOME": str(home), "OPENAI_API_KEY": "sk-fake-codex", "PATH": f"{CODEX_BIN}:{os.environ['PATH']}"}


def run_js(source: str, **usage: int):
    """The model's turn: Codex's `exec` tool running `source` (JavaScript calling `tools.exec_command`,
    `tools.apply_patch`)."""
    return freeform_reply("exec", source, **usage)


def shell(command: str) -> str:
    """`exec` source that runs a shell command and hands its output back to the model."""
    return f"const r = await tools.exec_command({{cmd: {json.dumps(command)}}}); text(r.output);"


def patch(path: str, old: str, new: str) -> str:
    """`exec` source that edits `path` with Codex's own apply_patch tool."""
    body = f"*** Begin Patch\n*** Update File: {path}\n@@\n-{old}\n+{new}\n*** End Patch\n"
    return f"text(JSON.stringify(await tools.apply_patch({json.dumps(body)})));"
