"""`autoresearch validate PATH`: check an eval file and its targets, listing every problem with file, test id and field."""

from __future__ import annotations

from pathlib import Path

import typer

PathArgument = typer.Argument(..., help="An EVAL.yaml or evals.json.")
TargetOption = typer.Option(None, "--target", help="Check this target instead of the file's execution.target.")


def command(path: Path = PathArgument, target: str = TargetOption) -> int:
    """Check an eval file and its targets without running anything; exit 30 when there is a problem."""
    from runs.evalfile import EvalFileError
    from runs.evalfile.interpolate import find_repo_root
    from runs.evaluators.builtin import prepare

    eval_file = path.resolve()
    try:
        prepared = prepare(eval_file, find_repo_root(eval_file.parent), target=target)
    except EvalFileError as exc:
        for problem in exc.problems:
            print(problem)
        print(f"{len(exc.problems)} problem(s)")
        return exc.exit_code
    print(f"{path}: ok, {len(prepared.suite.cases)} test(s)")
    return 0
