"""What the masker (plumbing/redact.py) is told at the start of a command: where this config's secrets come from.

The masker reads the environment itself, but an eval command that loads `.env`
with its own dotenv, or AgentV loading the `.env` files of its folders, prints
keys this process's environment never held; and a key may live in a variable
whose name looks like no key (`mutator.api_key_env: LLM_CREDENTIAL`). So the
masker learns every `.env` (and `.env.*`) the daemon, its evals or a command
mutator may load: those of each folder from the eval file's, and from each
file the eval or mutator command names, up to the repository root (AgentV's
search, and python-dotenv's `find_dotenv` from a script), the root's
included; and the variables the config names as keys.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

from autoresearch.optimizer.config import Config
from autoresearch.plumbing import redact
from autoresearch.runs.evalfile.interpolate import reference_name


def learn(config: Config, root: Path) -> None:
    """Feed the masker what `config` run in the checkout at `root` may load or name."""
    redact.learn(key_names(config), dotenv_files(config, root.resolve()))


def key_names(config: Config) -> set[str]:
    """The variables the config names as keys: the mutator's, the inline targets', those shipped to Ray tasks."""
    names = set(config.executor.env)
    if (mutator_key := getattr(config.mutator, "api_key_env", None)) is not None:
        names.add(mutator_key)
    for target in config.eval.targets or []:
        if (name := reference_name(target.get("api_key"))) is not None:
            names.add(name)
    return names


def dotenv_files(config: Config, root: Path) -> list[Path]:
    """The `.env` files of the root and of each folder between it and the eval's files."""
    folders = {root}
    for named in _named_files(config):
        folders.update(_up_to(root, (root / named).resolve().parent))
    return [file for folder in sorted(folders) for file in sorted(folder.glob(".env*")) if file.is_file()]


def _named_files(config: Config) -> Iterator[str]:
    """The eval file, and each word of the eval's or the mutator's command that is a path
    (`python3 evals/score.py {run_dir}`)."""
    yield from (name for name in (config.eval.agentv, config.eval.file) if name)
    for command in (config.eval.command, getattr(config.mutator, "command", None)):
        try:
            words = shlex.split(command or "")
        except ValueError:  # unbalanced quotes: the shell will say so when it runs
            words = []
        yield from (word for word in words if "/" in word and "{" not in word)


def _up_to(root: Path, folder: Path) -> Iterator[Path]:
    """`folder` and its parents up to `root`; nothing for a folder outside it."""
    if not folder.is_relative_to(root):
        return
    while folder != root:
        yield folder
        folder = folder.parent
