"""autoresearch as a library: `from autoresearch import Experiment`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .experiment import Experiment

__all__ = ["Experiment"]


def __getattr__(name: str) -> object:
    # the command line imports `autoresearch.optimizer`, which runs this file first: it must stay light
    if name == "Experiment":
        from .experiment import Experiment

        return Experiment
    raise AttributeError(f"module 'autoresearch' has no attribute {name!r}")
