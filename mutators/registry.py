"""Mutator providers by name: a new mutator is one module and one line in `MUTATORS`.

The config's `provider` names its mutator, and the config is of the class that mutator takes
(`MutatorConfig` is a union discriminated by `provider`), hence `Any` for it here. LLM providers
import their SDKs only when they first call a model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from autoresearch.mutators.base import Mutator
from autoresearch.mutators.command import CommandMutator
from autoresearch.mutators.config import MutatorConfig
from autoresearch.mutators.llm import LLMMutator
from autoresearch.mutators.replay import ReplayMutator


def _llm(config: Any, repo_root: Path) -> Mutator:
    return LLMMutator(config)


MUTATORS: dict[str, Callable[[Any, Path], Mutator]] = {
    "command": CommandMutator,
    "replay": ReplayMutator,
    "anthropic": _llm,
    "openai": _llm,
}


def build(config: MutatorConfig, repo_root: Path) -> Mutator:
    return MUTATORS[config.provider](config, repo_root)
