"""Mutator providers by their config: a new mutator is one module and one `case` in `build`.

The config's class is its provider (`MutatorConfig` is a union discriminated by `provider`), so matching on
the class hands each mutator the config it takes. LLM providers import their SDKs only when they first call a
model.
"""

from __future__ import annotations

from pathlib import Path

from autoresearch.mutators.base import Mutator
from autoresearch.mutators.command import CommandMutator
from autoresearch.mutators.config import CommandMutatorConfig, LLMMutatorConfig, MutatorConfig, ReplayMutatorConfig
from autoresearch.mutators.llm import LLMMutator
from autoresearch.mutators.replay import ReplayMutator


def build(config: MutatorConfig, repo_root: Path) -> Mutator:
    match config:
        case CommandMutatorConfig():
            return CommandMutator(config, repo_root)
        case ReplayMutatorConfig():
            return ReplayMutator(config, repo_root)
        case LLMMutatorConfig():
            return LLMMutator(config)
