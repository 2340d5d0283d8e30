"""`autoresearch validate [PATH]`: check an eval file and its targets, listing every problem with file, test id and field.

Without PATH it checks the config and the eval that `run` would use: autoresearch.yaml's
`eval.file`, with its inline `eval.targets` and `eval.target`. An eval command (or the agentv
CLI) has nothing to check before it runs: a valid config is all there is.
"""

from __future__ import annotations

from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import ConfigOption, config_dir, load

PathArgument = typer.Argument(
    None,
    help="An EVAL.yaml or evals.json; without it, the eval of autoresearch.yaml (eval.file, eval.targets, eval.target).",
)
TargetOption = typer.Option(None, "--target", help="Check this target instead of the file's execution.target.")


def command(path: Path = PathArgument, target: str = TargetOption, config: Path = ConfigOption) -> int:
    """Check an eval file and its targets without running anything; exit 30 when there is a problem.

    What AgentV accepts and ignores (metadata-only fields, unknown fields it
    warns about) is printed as `note:` lines: the file is still ok.
    """
    from autoresearch.plumbing.repo import find_repo_root
    from autoresearch.runs.evalfile import EvalFileError
    from autoresearch.runs.evaluators.builtin import prepare

    inline_targets, settings = None, None
    if path is None:
        configured = _configured(config, target)
        if configured is None:
            return 0
        path, repo_root, inline_targets, target = configured
        settings = load(config).eval
    else:
        repo_root = find_repo_root(path.resolve().parent)
    try:
        prepared = prepare(path.resolve(), repo_root, inline_targets, target)
    except EvalFileError as exc:
        for problem in exc.problems:
            print(problem)
        print(f"{len(exc.problems)} problem(s)")
        return exc.exit_code
    for note in prepared.suite.notes:
        print(f"note: {note}")
    if settings is not None:
        from autoresearch.runs.run_settings import overridden

        workers = settings.workers if "workers" in settings.model_fields_set else None
        for line in overridden(prepared.suite, workers, settings.repeat, settings.budget_usd):
            print(f"note: {path}: {line} (autoresearch.yaml wins)")
    print(f"{path}: ok, {len(prepared.suite.cases)} test(s)")
    return 0


def _configured(config: Path, target: str | None) -> tuple[Path, Path, list[dict] | None, str | None] | None:
    """The configured eval file, its repository root, inline targets and target (the flag wins);
    None, after saying so, when the eval is a command: the valid config was the whole check."""
    from autoresearch.plumbing.repo import find_repo_root

    cfg = load(config)
    if cfg.eval.file is None:
        kind = "an eval command" if cfg.eval.command else "the agentv CLI"
        print(f"{config}: ok (the eval is {kind}: it is checked when it runs)")
        return None
    repo_root = find_repo_root(config_dir(config))
    return repo_root / cfg.eval.file, repo_root, cfg.eval.targets, target or cfg.eval.target
