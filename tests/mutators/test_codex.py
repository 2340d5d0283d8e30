"""The real Codex CLI as the mutator, run by the loop exactly as docs/mutators.md gives its line, inside the
sandbox with its default settings, against a scripted model on 127.0.0.1: what it does with its own tools
(a shell, apply_patch) is what the loop decides on, its spend counts against the budget, and what it does
unasked is contained."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.fake_llm import FakeLLM, text_reply
from tests.helpers.repos import cli, git
from tests.helpers.scenario import iterations, scenario_repo, scores, state
from tests.mutators.codex_setup import Codex, codex_bin, codex_fixture, patch, run_js, shell  # noqa: F401  (fixtures)
from tests.optimizer.startup.test_sandbox import snapshot

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mutators.md"


def recipe() -> str:
    """The Codex line of the docs' recipe, as a user copies it."""
    lines = re.findall(r"^\s*command: (codex exec .*)$", DOCS.read_text(), re.MULTILINE)
    assert len(lines) == 1, lines
    return lines[0]


def codex_repo(tmp_path: Path, **config: object) -> Path:
    """A repo whose mutator is the docs' Codex line with the sandbox left to its default, a hint for the model
    to read, and the user's .env and untracked notes beside it."""
    settings = {"mutator": {"command": recipe(), "timeout_s": 120}, "stop": {"max_cycles": 2}, **config}
    repo = scenario_repo(
        tmp_path / "repo",
        {"prompts/p.md": scores(a=0, b=1)},
        {},
        config=settings,
        extra_files={"hint.md": "test a passes once its line says 1\n"},
    )
    config_text = (repo / "autoresearch.yaml").read_text().replace("  sandbox: 'off'\n", "")
    assert "sandbox:" not in config_text
    (repo / "autoresearch.yaml").write_text(config_text)
    git(repo, "commit", "-qam", "default sandbox")
    (repo / ".env").write_text("SECRET_KEY=kept\n")
    (repo / "notes.txt").write_text("my untracked notes\n")
    return repo


def test_codex_reads_edits_and_runs_commands_in_the_sandbox_its_edit_is_kept_and_its_spend_counted(
    tmp_path, fake_llm: FakeLLM, codex: Codex
):
    repo = codex_repo(tmp_path, stop={"max_cycles": 5, "budget_usd": 0.5})
    before = snapshot(repo)
    turn = {"input_tokens": 200_000, "cached_tokens": 150_000, "output_tokens": 5_000}
    fake_llm.queue(
        run_js(shell("cat hint.md"), **turn),
        run_js(patch("prompts/p.md", "a 0", "a 1"), **turn),
        run_js(shell('printf "Raise a: the hint says so\\n\\ndetails\\n" > "$AUTORESEARCH_CHANGELOG"'), **turn),
        text_reply("Raised a.", **turn),
    )
    done = cli(repo, "run", env=codex.env(fake_llm))
    assert done.returncode == 0, done.stderr
    last = iterations(repo)[-1]
    assert (last["decision"], last["mutation"]) == ("keep", "Raise a: the hint says so")
    assert git(repo, "show", "HEAD:prompts/p.md") == scores(a=1, b=1)
    assert snapshot(repo) == before
    shown = fake_llm.requests[1].body["input"][-1]["output"]  # what `cat hint.md` gave the model
    assert "test a passes once its line says 1" in str(shown)
    assert "Write a short changelog to" in fake_llm.requests[0].body["input"][-1]["content"][0]["text"]
    assert {(request.path, request.body["model"]) for request in fake_llm.requests} == {
        ("/v1/responses", "gpt-6.2-sol")
    }
    # 4 turns of 50k fresh input at $2, 150k cached at $0.10 and 5k output at $10 per million tokens
    assert last["mutation_cost_usd"] == 4 * (0.1 + 0.015 + 0.05)
    assert (last["tokens_in"], last["tokens_out"]) == (800_000, 20_000)
    assert state(repo)["stop_reason"] == "budget"


def test_what_codex_does_unasked_stays_in_its_throwaway_checkout(tmp_path, fake_llm: FakeLLM, codex: Codex):
    repo = codex_repo(tmp_path)
    before, records = snapshot(repo), repo / ".autoresearch/runs/exp/_autoresearch"
    # no `rm -rf`: Codex itself refuses that one, and these must reach the kernel
    hostile = (
        f"git clean -ffdx; git -C {repo} clean -ffdx; echo pwned > {repo}/.env; echo new > {repo}/planted.txt; "
        f"python3 -c 'import shutil; shutil.rmtree(\"{records}\")'; git stash -u; git commit -qam sneaky; "
        f"(sleep 5; echo late > {repo}/late.txt) & echo done"
    )
    fake_llm.queue(
        run_js(shell(hostile)),
        run_js(patch("prompts/p.md", "a 0", "a 1")),
        text_reply("Raised a, and tidied up."),
    )
    done = cli(repo, "run", env=codex.env(fake_llm))
    assert done.returncode == 0, done.stderr
    assert "Read-only file system" in str(fake_llm.requests[1].body["input"][-1]["output"])  # it tried, and ran
    assert snapshot(repo) == before and not (repo / "planted.txt").exists()
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == "?? .env\n?? notes.txt\n"
    lines = iterations(repo)
    assert [(line["decision"], line["mutation"]) for line in lines] == [
        ("keep", "original"),
        ("keep", "Raised a, and tidied up."),
    ]
    assert git(repo, "log", "--format=%s", "-1").strip() == "autoresearch cycle 2: Raised a, and tidied up."
