"""A repository as the loop leaves it before a mutation (artifact, eval, results, history), and the request for it."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import yaml

from autoresearch.mutators.base import MutationRequest
from autoresearch.mutators.config import LLMMutatorConfig
from autoresearch.mutators.llm import LLMMutator
from tests.helpers.repos import git, make_repo
from tests.helpers.scenario import scenario_repo, scores

MARKER = "ZQX-UNIQUE-MARKER-7781"
RUN = ".autoresearch/runs/exp/2026-01-01T00-00-00"


def make_setup(tmp_path: Path, mode: str = "file", tests: int = 3) -> MutationRequest:
    """A repo whose every file the model might read holds MARKER, so a test can see what reached the model."""
    repo = tmp_path / "repo"
    artifact = "prompt.md" if mode == "file" else "skill"
    files = {"evals.yaml": f"# eval {MARKER}\n", "graders/judge.md": f"grade {MARKER}\n"}
    files.update(
        {"prompt.md": f"Be helpful. {MARKER}\n"} if mode == "file" else {"skill/SKILL.md": f"Skill {MARKER}\n"}
    )
    make_repo(repo, files)
    initial_sha = git(repo, "rev-parse", "HEAD").strip()
    run_dir = repo / RUN
    run_dir.mkdir(parents=True)
    rows = [
        {"test_id": f"t{i}", "score": i % 2, "assertions": [{"text": f"says {MARKER}", "passed": bool(i % 2)}]}
        for i in range(tests)
    ]
    (run_dir / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    iterations = repo / ".autoresearch/runs/exp/_autoresearch/iterations.jsonl"
    iterations.parent.mkdir(parents=True)
    iterations.write_text(json.dumps({"cycle": 1, "mutation": "original", "note": MARKER}) + "\n")
    log_dir = repo / ".autoresearch/runs/exp/2026-01-01T00-10-00"
    log_dir.mkdir()
    (tmp_path / "outside.txt").write_text("outside\n")
    os.symlink(tmp_path / "outside.txt", repo / "link-out.txt")
    if mode == "directory":
        os.symlink(tmp_path, repo / "skill" / "escape")
    return MutationRequest(
        repo_root=repo,
        artifact=repo / artifact,
        mode=mode,
        run_dir=run_dir,
        iterations=iterations,
        digest=iterations.parent / "digest.md",
        initial_sha=initial_sha,
        pass_rates={"says": 0.5},
        cycle=2,
        log_dir=log_dir,
        read_only=(repo / ".autoresearch",),
    )


def mutator(llm, protocol: str = "openai", **overrides) -> LLMMutator:
    config = {
        "provider": protocol,
        "model": "gpt-4.1-mini",
        "api_key_env": "TEST_LLM_KEY",
        "base_url": llm.base_url(protocol),
        "max_attempts": 3,
        "retry_base_s": 0.01,
        **overrides,
    }
    return LLMMutator(LLMMutatorConfig(**config))


def digests(root: Path, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """sha256 of every file under root (symlinks not followed), but those whose relative path starts with `skip`."""
    found = {}
    for path in sorted(root.rglob("*")):
        relative = str(path.relative_to(root))
        if path.is_file() and not path.is_symlink() and not relative.startswith(skip):
            found[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def tool_results(request_body: dict) -> list[tuple[str, bool]]:
    """(content, is_error) of each tool result in a recorded request, for either protocol."""
    found = []
    for message in request_body["messages"]:
        if message["role"] == "tool":
            content = message["content"]
            found.append((content, content.startswith("Error: ")))
        elif message["role"] == "user" and isinstance(message["content"], list):
            found += [(b["content"], b["is_error"]) for b in message["content"] if b["type"] == "tool_result"]
    return found


def openai_mutator(llm) -> dict:
    """The `mutator:` settings of the fake server's OpenAI model, its key in E2E_LLM_KEY."""
    return {
        "provider": "openai",
        "model": "gpt-4.1-mini",
        "api_key_env": "E2E_LLM_KEY",
        "base_url": llm.base_url("openai"),
        "retry_base_s": 0.01,
    }


def word_suite_repo(root: Path, llm, words: list[str], start: str, **settings) -> Path:
    """A repo whose built-in-runner eval (evals/s.eval.yaml) has one test per word, passing when the echo
    target's reply (prompt.md) contains it, and whose mutator is the fake server's OpenAI model."""
    from tests.runs.test_e2e_builtin import ECHO, TARGETS

    tests = [
        {"id": f"test-{w}", "input": "x", "files": ["../prompt.md"], "assertions": [{"type": "contains", "value": w}]}
        for w in words
    ]
    config = {
        "experiment": "exp",
        "artifact": "prompt.md",
        "eval": {"file": "evals/s.eval.yaml", "workers": 1, "holdout": 0.5},
        "mutator": openai_mutator(llm),
        "stop": {"max_cycles": 2},
        **settings,
    }
    return make_repo(
        root,
        {
            "prompt.md": start,
            "evals/s.eval.yaml": yaml.safe_dump({"execution": {"target": "echo"}, "tests": tests}),
            ".agentv/targets.yaml": yaml.safe_dump(TARGETS),
            "tools/echo.py": ECHO,
            "autoresearch.yaml": yaml.safe_dump(config),
        },
    )


def llm_repo(tmp_path, llm, protocol: str, start: dict | None = None, config: dict | None = None, **mutator):
    """The scenario repo (its eval scores the lines of prompt.md) with the command mutator swapped for an LLM."""
    repo = scenario_repo(
        tmp_path / "repo",
        {"prompt.md": scores(**(start or {"a": 0, "b": 0}))},
        {},
        config={"stop": {"max_cycles": 4}, **(config or {})},
    )
    config = yaml.safe_load((repo / "autoresearch.yaml").read_text())
    config["mutator"] = {
        "provider": protocol,
        "model": "claude-haiku-4-5",
        "api_key_env": "E2E_LLM_KEY",
        "base_url": llm.base_url(protocol),
        "retry_base_s": 0.01,
        **mutator,
    }
    (repo / "autoresearch.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    git(repo, "commit", "-qam", "LLM mutator")
    return repo
