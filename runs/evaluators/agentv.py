"""The AgentV CLI as the evaluator: `agentv eval FILE --output RUN_DIR`."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from autoresearch.runs.config import EvalConfig
from autoresearch.runs.errors import RunsError
from autoresearch.runs.evaluators import EvalOutcome
from autoresearch.runs.evaluators.command import CommandEvaluator
from autoresearch.runs.matrix import keyed_rows
from autoresearch.runs.samples import write_index


class AgentVEvaluator:
    def __init__(self, config: EvalConfig, repo_root: Path):
        assert config.agentv is not None
        self.eval_file = config.agentv
        command = f"agentv eval {shlex.quote(config.agentv)} --output {{run_dir}}"
        if "max_retries" in config.model_fields_set:  # agentv's own default is ours
            command += f" --max-retries {config.max_retries}"
        self._inner = CommandEvaluator(config.model_copy(update={"command": command, "agentv": None}), repo_root)
        self.repo_root, self.field = repo_root, config.field("eval.agentv")

    def check(self) -> None:
        if shutil.which("agentv") is None:
            raise RunsError(
                f"{self.field}: needs the `agentv` CLI on PATH (npm install -g agentv), or use eval.command"
            )
        if not (self.repo_root / self.eval_file).is_file():  # relative to the repository root, as AgentV is run there
            raise RunsError(f"{self.field}: no such file {self.repo_root / self.eval_file}")

    def run(self, run_dir: Path) -> EvalOutcome:
        """AgentV's run; a matrix run's rows (`execution.targets`) get the ids `test@target`, in the
        rows and in index.jsonl, so the keep rules and `agentv compare` pair like with like."""
        outcome = self._inner.run(run_dir)
        keyed = keyed_rows(outcome.rows)
        if keyed != outcome.rows:
            write_index(run_dir, keyed)
            outcome.rows = keyed
        return outcome
