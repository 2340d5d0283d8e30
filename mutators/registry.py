"""Mutator providers by name: a plain dict, so a new mutator is one module and one line.

The LLM mutators import their SDKs only when they make a call (providers/), not here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mutators.base import Mutator
from mutators.command import CommandMutator
from mutators.llm import LLMMutator
from mutators.replay import ReplayMutator


def _llm(config, repo_root: Path) -> Mutator:
    return LLMMutator(config)


BUILDERS: dict[str, Callable[..., Mutator]] = {
    "command": CommandMutator,
    "replay": ReplayMutator,
    "anthropic": _llm,
    "openai": _llm,
}


def build(config, repo_root: Path) -> Mutator:
    return BUILDERS[config.provider](config, repo_root)
