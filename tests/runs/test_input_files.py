"""`files` reach LLM targets only when asked (AgentV sends them nowhere), and the docs' built-in runner example (docs/evals.md) runs as written against the fake LLM server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from autoresearch.runs.evaluators.builtin import execute, prepare
from autoresearch.runs.results import load_rows
from autoresearch.runs.runner.run import RunOptions
from tests.helpers.fake_llm import FakeLLM, Reply, Request, text_reply
from tests.helpers.repos import cli, make_repo

EVALS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "evals.md"
GRADER_SYSTEM = "You are an expert grader"  # in every grader prompt (runs/graders/prompts.py)
ARTIFACT = "Greet with hello, then ask politely.\n"
GRADE = json.dumps({"score": 1, "assertions": [{"text": "ok", "passed": True}]})


@pytest.fixture
def llm():
    with FakeLLM() as server:
        server.handler = answer
        yield server


def is_grading(request: Request) -> bool:
    return GRADER_SYSTEM in json.dumps(request.body)


def answer(request: Request) -> Reply:
    """Graders get verdicts that pass; the target says hello."""
    return text_reply(GRADE if is_grading(request) else "Hello! Please wait.")


def target_bodies(llm: FakeLLM) -> list[str]:
    return [json.dumps(r.body) for r in llm.requests if not is_grading(r)]


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
@pytest.mark.parametrize("attach", [False, True])
def test_files_reach_an_llm_target_as_they_are_when_the_test_runs_only_when_asked(
    tmp_path, llm, monkeypatch, protocol, attach
):
    monkeypatch.setenv("FAKE_MODEL", "fake-model")
    (tmp_path / "skill.md").write_text("old skill")
    (tmp_path / "evals.json").write_text(
        json.dumps(
            {
                "evals": [
                    {
                        "id": 1,
                        "prompt": "Use the skill.",
                        "files": ["skill.md"],
                        "assertions": [{"type": "icontains", "value": "hello"}],
                    }
                ]
            }
        )
    )
    target = {"name": "bot", "provider": protocol, "model": "${{ FAKE_MODEL }}", "base_url": llm.base_url(protocol)}
    (tmp_path / "targets.yaml").write_text(
        yaml.safe_dump({"targets": [{**target, "attach_files": True} if attach else target]})
    )
    prepared = prepare(tmp_path / "evals.json", tmp_path)
    (tmp_path / "skill.md").write_text("new skill")
    execute(prepared, tmp_path / "out", RunOptions(), show_progress=False)
    assert load_rows(tmp_path / "out")[0]["score"] == 1.0
    sent = target_bodies(llm)
    with_file = 'Use the skill.\\n\\n<file path=\\"skill.md\\">\\nnew skill\\n</file>'
    assert len(sent) == 1 and (with_file in sent[0]) is attach and "skill" in sent[0]


def docs_files() -> dict[str, str]:
    """The built-in runner section's code blocks, by the path each names (a YAML block's first comment; the JSON is evals.json)."""
    section = EVALS_PAGE.read_text().split("## The built-in eval runner", 1)[1].split("\n## ", 1)[0]
    files = {}
    for kind, body in re.findall(r"```(yaml|json)\n(.*?)```", section, re.S):
        name = (
            "evals/evals.json" if kind == "json" else body.splitlines()[0].removeprefix("# ").split(":")[0].split()[0]
        )
        files[name] = body
    return files


def docs_repo(tmp_path: Path, eval_file: str) -> Path:
    files = docs_files()
    settings = yaml.safe_load(files["autoresearch.yaml"])
    settings["eval"]["file"] = eval_file
    files["autoresearch.yaml"] = yaml.safe_dump(settings)
    return make_repo(tmp_path / "repo", {**files, "prompt.md": ARTIFACT})


@pytest.mark.parametrize("eval_file", ["evals/greeter.eval.yaml", "evals/evals.json"])
def test_the_docs_example_runs_as_written(tmp_path, llm, eval_file):
    repo = docs_repo(tmp_path, eval_file)
    env = {
        "ANTHROPIC_MODEL": "fake-model",
        "ANTHROPIC_API_KEY": "fake-key",
        "ANTHROPIC_BASE_URL": llm.base_url("anthropic"),
    }
    assert cli(repo, "validate", eval_file, "--target", "claude", env=env).returncode == 0
    done = cli(repo, "eval", env=env)
    assert done.returncode == 0, done.stderr
    assert re.search(r"score 1\.0000 over \d test\(s\)", done.stdout)
    assert all(ARTIFACT.strip() in body for body in target_bodies(llm))
