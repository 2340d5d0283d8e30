"""A deterministic grader LLM on 127.0.0.1: its reply is a pure function of the request's text.

AgentV's LLM graders and ours send different prompts for the same test, so a
queue of scripted replies cannot make both graders see the same answer. This
server answers from a rule table instead: the first rule whose `contains`
strings all occur in the request's text (`model: NAME`, then the system prompt
and the messages, in order)
gives the reply; no rule matching gives `default`. Both tools then get the same
reply for the same test whatever the wording around the answer, which is what
a compat case compares. It speaks the OpenAI Chat Completions and Anthropic
Messages protocols (streamed or not) through `tests.helpers.fake_llm`.

    {"default": "{\"score\": 0}", "rules": [{"contains": ["Paris"], "reply": "{\"score\": 1}"}]}

As a process (how a compat case is recorded with the real `agentv`):

    python -m tests.helpers.grader_server rules.json --port-file port.txt
"""

from __future__ import annotations

import argparse
import json
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.helpers.fake_llm import FakeLLM, Reply, Request, text_reply


@dataclass(frozen=True)
class Rule:
    contains: tuple[str, ...]
    reply: str


@dataclass(frozen=True)
class RuleTable:
    rules: tuple[Rule, ...]
    default: str

    @classmethod
    def load(cls, path: Path) -> RuleTable:
        return cls.parse(json.loads(path.read_text(encoding="utf-8")))

    @classmethod
    def parse(cls, raw: dict[str, Any]) -> RuleTable:
        rules = []
        for item in raw.get("rules", []):
            contains = item["contains"]
            rules.append(Rule(tuple([contains] if isinstance(contains, str) else contains), item["reply"]))
        return cls(tuple(rules), raw.get("default", '{"score": 0, "assertions": []}'))

    def answer(self, text: str) -> str:
        for rule in self.rules:
            if all(needle in text for needle in rule.contains):
                return rule.reply
        return self.default


def request_text(request: Request) -> str:
    """Everything the grader was told, as one text: `model: NAME`, the system prompt(s), then each message's text."""
    body = request.body
    parts: list[str] = [f"model: {body.get('model', '')}"]
    system = body.get("system")
    parts.extend(_texts(system))
    for message in body.get("messages", []):
        parts.extend(_texts(message.get("content")))
    return "\n".join(parts)


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [str(block.get("text", "")) for block in content if isinstance(block, dict) and "text" in block]
    return []


class GraderServer(FakeLLM):
    """A FakeLLM whose every reply comes from a RuleTable."""

    def __init__(self, table: RuleTable) -> None:
        super().__init__()
        self.table = table
        self.handler = self._reply

    def _reply(self, request: Request) -> Reply:
        return text_reply(self.table.answer(request_text(request)))

    def env(self) -> dict[str, str]:
        """The variables a compat case's `.agentv/targets.yaml` reads to reach this server."""
        return {
            "GRADER_BASE_URL": self.base_url("openai"),
            "GRADER_API_KEY": "test-key",
            "GRADER_MODEL": "gpt-4o-mini",
            "GRADER_MODEL_2": "second-grader-model",  # a second grader target, told apart by `model:`
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", type=Path)
    parser.add_argument("--port-file", type=Path, help="write the port here once listening")
    args = parser.parse_args(argv)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    with GraderServer(RuleTable.load(args.rules)) as server:
        if args.port_file:
            args.port_file.write_text(str(server.port), encoding="utf-8")
        print(json.dumps(server.env()), flush=True)
        stop.wait()


if __name__ == "__main__":
    main()
