"""`autoresearch eval`: run the configured eval once on the working tree, without the loop.

With a PATH (an EVAL.yaml or evals.json) it runs that file with the built-in
runner instead: no autoresearch.yaml needed, like `agentv eval FILE`.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import load, setup_logging
from autoresearch.optimizer.commands.options import ConfigOption
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.repo import config_dir

DEFAULT_RESULTS = Path(".agentv") / "results"  # where `agentv eval FILE` writes, under the working directory

PathArgument = typer.Argument(None, help="An EVAL.yaml or evals.json to run directly with the built-in runner.")
OutputOption = typer.Option(
    None, "--output", "-o", help="PATH only: the run directory to write (as agentv eval --output)."
)
TargetOption = typer.Option(
    None, "--target", help="PATH only: the target to use instead of the file's execution.target."
)
WorkersOption = typer.Option(
    None,
    "--workers",
    min=1,
    help="PATH only: tests run at once (default: the file's evaluate_options.max_concurrency, else 8).",
)
ThresholdOption = typer.Option(
    None, "--threshold", min=0.0, max=1.0, help="PATH only: exit 1 when the mean score is below this."
)
RetriesOption = typer.Option(
    None,
    "--max-retries",
    min=0,
    help="PATH only: times a failed cli answer is asked again (as agentv eval --max-retries; default 2).",
)
JsonOption = typer.Option(False, "--json", help="Print one JSON object instead of text (schema in the README).")


def command(
    path: Path = PathArgument,
    config: Path = ConfigOption,
    output: Path = OutputOption,
    target: str = TargetOption,
    workers: int | None = WorkersOption,
    threshold: float = ThresholdOption,
    max_retries: int | None = RetriesOption,
    as_json: bool = JsonOption,
) -> int:
    """Run the configured eval once on the working tree (uncommitted changes included) and print the score and pass rates; or run the eval file PATH."""
    from autoresearch.optimizer import signals

    signals.install(left="")  # SIGTERM as Ctrl-C: exit 130, the targets and commands it started ended
    if path is not None:
        return run_file(path, output, target, workers, threshold, as_json, max_retries)
    from autoresearch.optimizer.daemonlog import get
    from autoresearch.optimizer.evalreport import EvalReport
    from autoresearch.optimizer.experiment import busy
    from autoresearch.optimizer.gitrepo.workspace import exclude, open_workspace
    from autoresearch.runs.evaluators.registry import build, unread_files
    from autoresearch.runs.results import assertion_rates, mean_score

    cfg = load(config)
    setup_logging()
    ws = open_workspace(config_dir(config), cfg.artifact)
    busy.require_idle(ws.root / cfg.results_dir, "this eval would score it as your artifact")
    evaluator = build(cfg.eval, ws.root, cfg.executor_at(ws.root))
    evaluator.check()
    for unread in unread_files(evaluator):  # said before the scores it would explain, as `run` says it
        get().warning(str(unread))
    exclude(ws.root, cfg.results_dir)  # as `run` does: results never dirty the user's tree
    run_dir = ws.root / cfg.results_dir / "evals" / datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S-%f")
    run_dir.mkdir(parents=True)
    outcome = evaluator.run(run_dir)
    metric = cfg.eval.metric is not None
    report = EvalReport(
        kind="metric" if metric else "score",
        score=mean_score(outcome.rows),
        goal=cfg.eval.goal,
        tests=len({r["test_id"] for r in outcome.rows}),
        cost_usd=outcome.cost_usd,
        assertions={} if metric else dict(sorted(assertion_rates(outcome.rows).items())),
        results=str(run_dir),
    )
    print(json.dumps(report.model_dump()) if as_json else report.text())
    return 0


def run_file(
    path: Path,
    output: Path | None,
    target: str | None,
    workers: int | None,
    threshold: float | None,
    as_json: bool,
    max_retries: int | None = None,
) -> int:
    """One eval file through the built-in runner: a summary table and an AgentV run directory."""
    from autoresearch.plumbing import reaper

    reaper.start()  # the watcher's interpreter starts while the runner is imported and the file read
    from autoresearch.optimizer.daemonlog import get
    from autoresearch.plumbing.repo import find_repo_root
    from autoresearch.runs.evaluators.builtin import execute, prepare
    from autoresearch.runs.results import mean_score
    from autoresearch.runs.runner.filerefs import unread
    from autoresearch.runs.runner.retry import DEFAULT_MAX_RETRIES
    from autoresearch.runs.runner.settings import run_options

    setup_logging()  # provider retries are warnings: formatted, and with secrets masked, like every command's
    eval_file = path.resolve()
    repo_root = find_repo_root(eval_file.parent)
    prepared = prepare(eval_file, repo_root, target=target)
    if not as_json:  # what AgentV accepts and this run ignores, said before the scores it could explain
        for note in prepared.suite.notes:
            print(f"note: {note}")
    for never_read in unread(prepared.suite, prepared.targets):  # a warning, on stderr: --json keeps stdout one object
        get().warning(str(never_read))
    if output is None:
        exclude_default_results()
    run_dir = output or DEFAULT_RESULTS / datetime.now(timezone.utc).strftime("eval_%Y-%m-%dT%H-%M-%S-%fZ")
    retries = DEFAULT_MAX_RETRIES if max_retries is None else max_retries
    finished = execute(prepared, run_dir, run_options(prepared.suite, workers, max_retries=retries))
    mean = mean_score(finished.rows) if finished.rows else 0.0
    errors = sum(1 for r in finished.rows if r["execution_status"] == "execution_error")
    failed = threshold is not None and mean < threshold
    if as_json:
        tests = [
            {k: r.get(k) for k in ("test_id", "score", "execution_status", "error")}
            for r in sorted(finished.rows, key=lambda r: r["test_id"])
        ]
        report = {
            "mean": mean,
            "tests": tests,
            "errors": errors,
            "cost_usd": finished.cost_usd,
            "notes": [*map(str, prepared.suite.notes), *finished.notes],  # each a line, as printed without --json
            "threshold": threshold,
            "passed": not failed,
            "results": str(run_dir),
        }
        print(json.dumps(report))
        return 1 if failed else 0
    print(table(finished.rows))
    print(f"\nmean {mean:.4f} over {len(finished.rows)} test(s), {errors} error(s), cost ${finished.cost_usd:.4f}")
    for note in finished.notes:
        print(f"note: {note}")
    print(f"results: {run_dir}")
    return 1 if failed else 0


def exclude_default_results() -> None:
    """AgentV's default results folder, under the working directory, added to .git/info/exclude as
    `results_dir` is, so that an eval run in a repository never leaves it untracked."""
    from autoresearch.optimizer.gitrepo.workspace import exclude
    from autoresearch.plumbing.repo import git_root

    here = Path.cwd().resolve()
    root = git_root(here)
    if root is not None:
        exclude(root, (here / DEFAULT_RESULTS).relative_to(root).as_posix())


def table(rows: list[JSONObject]) -> str:
    width = max([len("test"), *(len(r["test_id"]) for r in rows)])
    lines = [f"{'test':<{width}}  {'score':>6}  status"]
    for row in sorted(rows, key=lambda r: r["test_id"]):
        detail = f"  {row['error']}" if row.get("error") else ""
        lines.append(f"{row['test_id']:<{width}}  {row['score']:>6.3f}  {row['execution_status']}{detail}")
    return "\n".join(lines)
