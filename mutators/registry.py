"""Mutator providers by name: a new mutator is one module and one line in `MUTATORS`.

The config's `provider` names its mutator, and the config is of the class that mutator takes
(`MutatorConfig` is a union discriminated by `provider`), hence `Any` for it here. Each mutator's module is
imported when the config chooses it: a command mutator needs neither the LLM mutator's file tools nor the
provider clients' retry table, turns and prices (about a sixth of `run`'s and `validate`'s own imports), and
LLM providers import their SDKs only when they first call a model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from autoresearch.mutators.base import Mutator
from autoresearch.mutators.config import MutatorConfig


def _command(config: Any, repo_root: Path) -> Mutator:
    from autoresearch.mutators.command import CommandMutator

    return CommandMutator(config, repo_root)


def _replay(config: Any, repo_root: Path) -> Mutator:
    from autoresearch.mutators.replay import ReplayMutator

    return ReplayMutator(config, repo_root)


def _llm(config: Any, repo_root: Path) -> Mutator:
    from autoresearch.mutators.llm import LLMMutator

    return LLMMutator(config)


MUTATORS: dict[str, Callable[[Any, Path], Mutator]] = {
    "command": _command,
    "replay": _replay,
    "anthropic": _llm,
    "openai": _llm,
}


def build(config: MutatorConfig, repo_root: Path) -> Mutator:
    return MUTATORS[config.provider](config, repo_root)
