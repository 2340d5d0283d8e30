"""The `eval:` section of autoresearch.yaml."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class MetricConfig(BaseModel):
    """A single number printed by the eval command (karpathy-style training runs)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    pattern: str
    """Regular expression with one group that captures the number, searched in stdout then stderr; the last match wins."""
    goal: Literal["maximize", "minimize"] = "maximize"
    """Whether a higher (maximize) or lower (minimize, e.g. val_bpb) number is better."""


class EvalConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    command: str | None = None
    """Shell command run in the repository root; it must write {run_dir}/index.jsonl (AgentV rows) unless `metric` is set."""
    metric: MetricConfig | None = None
    """Read one number from the command's output instead of index.jsonl."""
    agentv: str | None = None
    """An AgentV eval file, run with the `agentv` CLI (`agentv eval FILE --output {run_dir}`)."""
    timeout_s: float = Field(default=1800, gt=0)
    """Seconds before the eval is killed and the cycle counts as an error."""

    @model_validator(mode="after")
    def _one_kind(self) -> "EvalConfig":
        kinds = [name for name in ("command", "agentv") if getattr(self, name)]
        if len(kinds) != 1:
            raise ValueError("set exactly one of 'command' or 'agentv'")
        if self.metric and not self.command:
            raise ValueError("'metric' needs 'command'")
        return self

    @property
    def goal(self) -> str:
        return self.metric.goal if self.metric else "maximize"
