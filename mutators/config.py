"""The `mutator:` section of autoresearch.yaml, one model per provider."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field


class CommandMutatorConfig(BaseModel):
    """Any program that edits files: a coding-agent CLI, a script."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    provider: Literal["command"] = "command"
    command: str
    """Shell command run in the repository root; sees AUTORESEARCH_* variables and {placeholders} of the same names in lower case."""
    timeout_s: float = Field(default=1800, gt=0)
    """Seconds before the mutator is killed and the cycle counts as an error."""


class ReplayMutatorConfig(BaseModel):
    """Recorded edits applied in order, one per cycle: for demos and for re-running a past experiment."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    provider: Literal["replay"] = "replay"
    file: str
    """A YAML list of edits, relative to the repository root: each `{summary, content}` (file artifact) or `{summary, files: {relative path: content file or null}}` (directory)."""


MutatorConfig = Annotated[Union[CommandMutatorConfig, ReplayMutatorConfig], Field(discriminator="provider")]
