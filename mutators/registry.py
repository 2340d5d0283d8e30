"""Mutator providers by name. LLM providers import their SDKs only when built."""

from __future__ import annotations

from pathlib import Path

from mutators.base import Mutator


def build(config, repo_root: Path) -> Mutator:
    from mutators.command import CommandMutator
    from mutators.llm import LLMMutator
    from mutators.replay import ReplayMutator

    builders = {
        "command": lambda: CommandMutator(config, repo_root),
        "replay": lambda: ReplayMutator(config, repo_root),
        "anthropic": lambda: LLMMutator(config),
        "openai": lambda: LLMMutator(config),
    }
    return builders[config.provider]()
