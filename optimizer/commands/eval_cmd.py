"""`autoresearch eval`: run the configured eval once on the working tree, without the loop."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import typer

from optimizer.commands.common import ConfigOption, config_dir, load, setup_logging


def command(config: Path = ConfigOption) -> int:
    """Run the configured eval once on the working tree (uncommitted changes included) and print the score and pass rates."""
    from optimizer.workspace import open_workspace
    from runs import evaluators
    from runs.results import assertion_rates, mean_score

    cfg = load(config)
    setup_logging()
    ws = open_workspace(config_dir(config), cfg.artifact)
    evaluator = evaluators.build(cfg.eval, ws.root)
    evaluator.check()
    run_dir = ws.root / cfg.results_dir / "evals" / datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S-%f")
    run_dir.mkdir(parents=True)
    outcome = evaluator.run(run_dir)
    tests = {r["test_id"] for r in outcome.rows}
    print(f"score {mean_score(outcome.rows):.4f} over {len(tests)} test(s), cost ${outcome.cost_usd:.4f}")
    for name, rate in sorted(assertion_rates(outcome.rows).items()):
        print(f"  {rate:6.1%}  {name}")
    print(f"results: {run_dir}")
    return 0
