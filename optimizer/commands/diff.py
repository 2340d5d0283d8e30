"""`autoresearch diff A B`: what changed in the artifact between two versions, and test by test how they scored."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from autoresearch.optimizer.commands.options import ConfigOption
from autoresearch.plumbing.jsontypes import JSONObject

if TYPE_CHECKING:
    from autoresearch.optimizer.gitrepo.workspace import Workspace
    from autoresearch.plumbing.paths import ExperimentPaths
    from autoresearch.trajectory.iterations import Iteration

SIDE = re.compile(r"^(?:(?P<cycle>\d+)|(?P<name>[^:]+?)(?::(?P<at>\d+))?)$")


def command(
    a: str = typer.Argument(..., help="CYCLE of the experiment, EXPERIMENT (its best), or EXPERIMENT:CYCLE."),
    b: str = typer.Argument(..., help="The same, for the other side."),
    experiment: str = typer.Option(
        None, "--experiment", "-e", help="Whose cycles a bare CYCLE names (default: the config's)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the diff and the comparison as JSON."),
    config: Path = ConfigOption,
) -> int:
    """Show the artifact diff (git diff of the two commits) and the per-test comparison of their results,
    as `autoresearch compare` prints it: `diff 2 7` compares two cycles, `diff fast slow` the best of two
    experiments, `diff fast:3 slow` mixes them. A side that was not a KEEP has no commit: only its
    results are compared. Unknown cycles or experiments: exit 30.
    """
    from autoresearch.runs.compare import compare
    from autoresearch.runs.compare_table import table

    left, right = (_side(spec, experiment, config) for spec in (a, b))
    patch = _artifact_diff(left, right)
    result = compare(left.rows(), right.rows())
    if as_json:
        print(
            json.dumps(
                {"a": left.as_dict(), "b": right.as_dict(), "diff": patch, "comparison": result.to_json()}, indent=2
            )
        )
        return 0
    print(patch or f"artifact: no difference between {left.label} and {right.label}")
    print()
    print(table(result, left.label, right.label))
    return 0


@dataclass(frozen=True)
class Side:
    label: str  # `exp:4`, as printed
    ws: "Workspace"
    paths: "ExperimentPaths"
    record: "Iteration"

    def rows(self) -> list[JSONObject]:
        from autoresearch.plumbing.errors import InvalidInput
        from autoresearch.runs.errors import BadResults
        from autoresearch.runs.results import load_rows

        name = self.record.run_dir
        if not name or "/" in name or name in (".", ".."):
            raise InvalidInput(f"{self.label}: its record names no run directory ({name!r}) in {self.paths.iterations}")
        try:
            return load_rows(self.paths.run_dir(name))
        except BadResults:
            if self.record.decision != "error":
                raise
            why = self.record.error_reason or "failed"  # a mutator's failure never ran the eval: no rows to read
            raise InvalidInput(f"{self.label} was an error cycle ({why}): it has no results to compare") from None

    def as_dict(self) -> JSONObject:
        return {
            "label": self.label,
            "cycle": self.record.cycle,
            "commit": self.record.commit,
            "score": self.record.score,
        }


def _side(spec: str, default: str | None, config: Path) -> Side:
    """`7` (a cycle of the default experiment), `exp` (its best KEEP) or `exp:7`."""
    from autoresearch.optimizer.commands.common import experiment as find_experiment
    from autoresearch.optimizer.experiment import versions
    from autoresearch.optimizer.experiment.history import History
    from autoresearch.plumbing.errors import InvalidInput

    match = SIDE.match(spec)
    if match is None:
        raise InvalidInput(f"{spec!r}: name a version as CYCLE, EXPERIMENT or EXPERIMENT:CYCLE")
    name = default if match["cycle"] else match["name"]
    cfg, ws, paths = find_experiment(name, config)
    past = versions.records(paths, cfg.experiment_name)
    cycle = match["cycle"] or match["at"]
    record = versions.cycle_of(past, int(cycle), cfg.experiment_name) if cycle else History(past).best
    if record is None:
        raise InvalidInput(f"experiment '{cfg.experiment_name}' has no KEEP to compare")
    return Side(f"{cfg.experiment_name}:{record.cycle}", ws, paths, record)


def _artifact_diff(left: Side, right: Side) -> str:
    """`git diff` of the two commits over both artifact paths; a side that was not a KEEP has none."""
    from autoresearch.optimizer.experiment.versions import a_decision

    missing = [s for s in (left, right) if not s.record.commit]
    if missing:
        return "\n".join(f"artifact: {s.label} was {a_decision(s.record.decision)}, never committed" for s in missing)
    paths = sorted({left.ws.artifact, right.ws.artifact})
    return left.ws.git("diff", left.record.commit or "", right.record.commit or "", "--", *paths)
