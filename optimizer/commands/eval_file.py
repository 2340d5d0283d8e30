"""`autoresearch eval PATH`: one eval file through the built-in runner, a summary table, an AgentV run directory."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path


def run_eval_file(path: Path, output: Path | None, target: str | None, workers: int, threshold: float | None) -> int:
    from optimizer.commands.common import setup_logging
    from plumbing.repo import find_repo_root
    from runs.evaluators.builtin import execute, prepare
    from runs.results import mean_score
    from runs.runner import RunOptions

    setup_logging()  # provider retries are warnings: formatted, and with secrets masked, like every command's
    eval_file = path.resolve()
    repo_root = find_repo_root(eval_file.parent)
    prepared = prepare(eval_file, repo_root, target=target)
    for note in prepared.suite.notes:  # what AgentV accepts and this run ignores, said before the scores it could explain
        print(f"note: {note}")
    run_dir = output or Path(".agentv") / "results" / datetime.now(timezone.utc).strftime("eval_%Y-%m-%dT%H-%M-%S-%fZ")
    finished = execute(prepared, run_dir, RunOptions(workers=workers))
    print(table(finished.rows))
    mean = mean_score(finished.rows) if finished.rows else 0.0
    errors = sum(1 for r in finished.rows if r["execution_status"] == "execution_error")
    print(f"\nmean {mean:.4f} over {len(finished.rows)} test(s), {errors} error(s), cost ${finished.cost_usd:.4f}")
    for note in finished.notes:
        print(f"note: {note}")
    print(f"results: {run_dir}")
    return 1 if threshold is not None and mean < threshold else 0


def table(rows: list[dict]) -> str:
    width = max([len("test"), *(len(r["test_id"]) for r in rows)])
    lines = [f"{'test':<{width}}  {'score':>6}  status"]
    for row in sorted(rows, key=lambda r: r["test_id"]):
        detail = f"  {row['error']}" if row.get("error") else ""
        lines.append(f"{row['test_id']:<{width}}  {row['score']:>6.3f}  {row['execution_status']}{detail}")
    return "\n".join(lines)
