"""The deterministic grader server answers the same request text with the same reply, over both wire protocols."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoresearch.runs.targets.llm import LLMTarget
from autoresearch.runs.targets.specs import TargetSpec
from tests.helpers.grader_server import GraderServer, RuleTable

TABLE = RuleTable.parse(
    {
        "default": "no rule",
        "rules": [
            {"contains": ["Paris", "criteria"], "reply": '{"score": 1}'},
            {"contains": "Paris", "reply": '{"score": 0.5}'},
        ],
    }
)


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
def test_the_first_rule_whose_strings_all_occur_gives_the_reply(tmp_path: Path, monkeypatch, protocol):
    monkeypatch.setenv("GRADER_KEY", "test-key")
    with GraderServer(TABLE) as server:
        spec = TargetSpec(
            "grader",
            protocol,
            {"model": "m", "base_url": server.base_url(protocol)},
            api_key_env="GRADER_KEY",
            timeout_s=60,  # bounds a broken server only: at load 15 a first call took more than 10 s
        )
        grader = LLMTarget(spec, tmp_path)
        replies = [
            grader.grade("answer: Paris", "grade by the criteria").text,
            grader.grade("answer: Paris", None).text,
            grader.grade("Lyon", None).text,
        ]
    assert replies == ['{"score": 1}', '{"score": 0.5}', "no rule"]
