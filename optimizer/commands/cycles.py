"""`autoresearch log [EXPERIMENT]`: the experiment's cycles as a table, one line each, from iterations.jsonl."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.optimizer.commands.common import experiment as find_experiment
from autoresearch.optimizer.commands.options import ConfigOption

if TYPE_CHECKING:
    from autoresearch.trajectory.iterations import Iteration


def command(
    experiment: str = typer.Argument(None, help="Experiment name (default: the config's)."),
    config: Path = ConfigOption,
    as_json: bool = typer.Option(False, "--json", help="Print the cycles' records as a JSON array."),
) -> int:
    """List every cycle: its decision, score, objectives and gate (when recorded), commit and what it tried.

    A KEEP's commit is a version you can return to with `autoresearch rollback --to CYCLE`.
    """
    from autoresearch.optimizer.experiment import versions
    from autoresearch.trajectory import iterations

    cfg, _, paths = find_experiment(experiment, config)
    records = versions.records(paths, cfg.experiment_name)
    if as_json:
        print(json.dumps([iterations.fields(r) for r in records], indent=2))  # fields(): names kept whole
        return 0
    print("\n".join(table(records)))
    return 0


def table(records: list[Iteration]) -> list[str]:
    """Columns for what some cycle recorded: objectives and gates appear only in experiments that use them."""
    extras = [key for key in ("objectives", "gate") if any(_extra(r, key) for r in records)]
    head = f"{'cycle':>5}  {'decision':<8}  {'score':>7}  {'commit':<10}"
    lines = [head + "".join(f"  {key:<24}" for key in extras) + "  mutation / reason"]
    for r in records:
        line = f"{r.cycle:>5}  {r.decision:<8}  {r.score:>7.4f}  {(r.commit or '-')[:10]:<10}"
        line += "".join(f"  {_shown(_extra(r, key)):<24}" for key in extras)
        why = r.mutation if r.decision == "keep" else f"{r.mutation} ({r.error_reason or r.reason or '?'})"
        why = f"score {r.partial}; {why}" if r.partial else why
        lines.append(f"{line}  {why[:80]}")
    return lines


def _extra(record: Iteration, key: str) -> object:
    return (record.model_extra or {}).get(key) if key not in type(record).model_fields else getattr(record, key)


def _shown(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}={round(v, 4):g}" if isinstance(v, float) else f"{k}={v}" for k, v in value.items())
    return "-" if value is None else str(value)
