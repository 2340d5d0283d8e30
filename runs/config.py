"""The `eval:` section of autoresearch.yaml."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from autoresearch.plumbing.sourced import Sourced


class MetricConfig(BaseModel):
    """A single number printed by the eval command (karpathy-style training runs)."""

    model_config = ConfigDict(extra="forbid")

    pattern: str
    """Regular expression with one group that captures the number, searched in stdout then stderr; the last match wins."""
    goal: Literal["maximize", "minimize"] = "maximize"
    """Whether a higher (maximize) or lower (minimize, e.g. val_bpb) number is better."""


class ModelPrice(BaseModel):
    """What a target's model costs, in USD per million tokens (the shape of `mutator.prices`)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    input_per_mtok: float = Field(ge=0)
    """USD per million input (prompt) tokens."""
    output_per_mtok: float = Field(ge=0)
    """USD per million output (completion) tokens."""


class EvalConfig(Sourced):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    command: str | None = None
    """Shell command run in the repository root; it must write {run_dir}/index.jsonl (AgentV rows) unless `metric` is set."""
    metric: MetricConfig | None = None
    """Read one number from the command's output instead of index.jsonl."""
    agentv: str | None = None
    """An AgentV eval file, run with the `agentv` CLI (`agentv eval FILE --output {run_dir}`)."""
    file: str | None = None
    """An AgentV EVAL.yaml or a skill-creator evals.json, run by the built-in runner (no Node, no agentv CLI)."""
    workers: int = Field(default=8, ge=1)
    """Built-in runner: tests run at once; when not set, the eval file's `evaluate_options.max_concurrency`, else 8."""
    target: str | None = None
    """Built-in runner: the target to use instead of the eval file's `execution.target`."""
    targets: list[dict[str, Any]] | None = None
    """Built-in runner: targets as in AgentV's targets.yaml; when set, targets.yaml files are not searched."""
    holdout: float = Field(default=0, ge=0, lt=1)
    """Fraction of the tests held out of the mutator's sight (0 = off): split once per experiment, seeded and stratified by pass/fail; a KEEP also needs no significant regression on them."""
    repeat: int = Field(default=1, ge=1)
    """Samples per test. Built-in runner: attempts combined by `repeat_strategy` (above 1 it replaces the eval file's `execution.trials` / `evaluate_options.repeat`). Other evals: N invocations into {run_dir}/sample-1/ … sample-N/, merged into index.jsonl as per-test means plus `samples`."""
    repeat_strategy: Literal["pass_any", "pass_all", "mean"] = "pass_any"
    """Built-in runner: a test's score over its attempts: the best (pass_any), the worst (pass_all) or the mean."""
    max_retries: int = Field(default=2, ge=0)
    """How many times a `cli` target's failed answer (it exits non-zero, times out or writes no {OUTPUT_FILE}) is asked again, after 1 s, 2 s, 4 s, … (at most 30 s), and a `replay` target's failed lookup (at once); AgentV 4.42.4's `--max-retries`, whose default this is. `eval.agentv` passes it to agentv when set; 0 = never."""
    budget_usd: float = Field(default=0, ge=0)
    """Built-in runner: stop starting tests once the eval has spent this much (0 = no limit; set, it replaces the eval file's `budget_usd`)."""
    prices: dict[str, ModelPrice] = Field(default_factory=dict)
    """Built-in runner: prices of target and LLM-grader models missing from the shipped table, or overrides: {model: {input_per_mtok, output_per_mtok}}. A model priced nowhere counts as $0, so a budget refuses it."""
    sandbox: bool = False
    """An eval command runs in a kernel sandbox (bubblewrap): the checkout read-only, the run directory its only writable place (seen apart from the checkout), the rest of the results directory not there, nothing it starts outliving it. Off by default: many evals write beside their code."""
    timeout_s: float = Field(default=1800, gt=0)
    """Seconds before an eval command (or `agentv`) is killed and the cycle counts as an error; a `file` eval bounds each test by its target's `timeout_seconds` instead."""

    @model_validator(mode="after")
    def _one_kind(self) -> "EvalConfig":
        kinds = [name for name in ("command", "agentv", "file") if getattr(self, name)]
        if len(kinds) != 1:
            raise ValueError("set exactly one of 'command', 'agentv' or 'file'")
        if self.metric and not self.command:
            raise ValueError("'metric' needs 'command'")
        return self

    def price_table(self) -> dict[str, dict[str, float]]:
        """`prices` as providers takes it (plain dicts)."""
        return {model: price.model_dump() for model, price in self.prices.items()}

    @property
    def goal(self) -> Literal["maximize", "minimize"]:
        return self.metric.goal if self.metric else "maximize"
