"""`executor:` in autoresearch.yaml: where the eval's work runs (this machine, or a Ray cluster)."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from autoresearch.plumbing.sourced import Sourced


class ExecutorConfig(Sourced):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, populate_by_name=True)

    kind: Literal["local", "ray"] = Field(default="local", alias="type")
    """`local` runs tests in this process's threads and the eval command here; `ray` sends each test attempt (and each command-eval run, and each eval whose tests share an AgentV workspace) to a Ray cluster as one task (`pip install 'autoresearch[ray]'`)."""
    address: str | None = None
    """`ray`: the cluster, `auto` (a cluster started on this machine), `ray://host:port` (Ray Client), or unset for RAY_ADDRESS (else `auto`)."""
    num_cpus: float = Field(default=1, gt=0)
    """`ray`: CPU slots each task holds on its node."""
    resources: dict[str, float] = Field(default_factory=dict)
    """`ray`: custom resources each task holds, such as `{agent_slot: 1}`."""
    env: list[str] = Field(default_factory=list)
    """`ray`: names of environment variables (API keys) set in each task's environment at dispatch, besides those of the repository's `.env` and every `*_API_KEY`, `*_BASE_URL` and `*_TOKEN` of the driver's environment."""
    max_snapshot_mb: float = Field(default=100, gt=0)
    """`ray`: the largest snapshot of the tree shipped to the workers, compressed (a bigger tree is refused at start)."""
    max_retries: int = Field(default=3, ge=0)
    """`ray`: times a task is run again when its worker node is lost (never for the test's own failure)."""

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, raw: object) -> object:
        """`executor: ray` is `executor: {type: ray}`."""
        return {"type": raw} if isinstance(raw, str) else raw
