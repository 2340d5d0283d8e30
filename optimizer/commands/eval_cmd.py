"""`autoresearch eval`: run the configured eval once on the working tree, without the loop.

With a PATH (an EVAL.yaml or evals.json) it runs that file with the built-in
runner instead: no autoresearch.yaml needed, like `agentv eval FILE`.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import typer

from optimizer.commands.common import ConfigOption, config_dir, load, setup_logging

PathArgument = typer.Argument(None, help="An EVAL.yaml or evals.json to run directly with the built-in runner.")
OutputOption = typer.Option(None, "--output", "-o", help="PATH only: the run directory to write (as agentv eval --output).")
TargetOption = typer.Option(None, "--target", help="PATH only: the target to use instead of the file's execution.target.")
WorkersOption = typer.Option(None, "--workers", min=1, help="PATH only: tests run at once (default: the file's evaluate_options.max_concurrency, else 8).")
ThresholdOption = typer.Option(None, "--threshold", min=0.0, max=1.0, help="PATH only: exit 1 when the mean score is below this.")


def command(
    path: Path = PathArgument,
    config: Path = ConfigOption,
    output: Path = OutputOption,
    target: str = TargetOption,
    workers: int | None = WorkersOption,
    threshold: float = ThresholdOption,
) -> int:
    """Run the configured eval once on the working tree (uncommitted changes included) and print the score and pass rates; or run the eval file PATH."""
    if path is not None:
        from optimizer.commands.eval_file import run_eval_file

        return run_eval_file(path, output, target, workers, threshold)
    from optimizer import busy
    from optimizer.workspace import exclude, open_workspace
    from runs import evaluators
    from runs.results import assertion_rates, mean_score

    cfg = load(config)
    setup_logging()
    ws = open_workspace(config_dir(config), cfg.artifact)
    busy.require_idle(ws.root / cfg.results_dir, "this eval would score it as your artifact")
    evaluator = evaluators.build(cfg.eval, ws.root)
    evaluator.check()
    exclude(ws, cfg.results_dir)  # as `run` does: results never dirty the user's tree
    run_dir = ws.root / cfg.results_dir / "evals" / datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S-%f")
    run_dir.mkdir(parents=True)
    outcome = evaluator.run(run_dir)
    tests = {r["test_id"] for r in outcome.rows}
    print(f"score {mean_score(outcome.rows):.4f} over {len(tests)} test(s), cost ${outcome.cost_usd:.4f}")
    for name, rate in sorted(assertion_rates(outcome.rows).items()):
        print(f"  {rate:6.1%}  {name}")
    print(f"results: {run_dir}")
    return 0
