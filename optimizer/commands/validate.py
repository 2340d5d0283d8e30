"""`autoresearch validate [PATH]`: check an eval file and its targets, listing every problem with file, test id and field.

Without PATH it checks the config and the eval that `run` would use: autoresearch.yaml's
`eval.file`, with its inline `eval.targets` and `eval.target`. An eval command (or the agentv
CLI) has nothing to check before it runs: a valid config is all there is.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import typer

from autoresearch.optimizer.commands.common import ConfigOption, config_dir, load

PathArgument = typer.Argument(
    None,
    help="An EVAL.yaml or evals.json; without it, the eval of autoresearch.yaml (eval.file, eval.targets, eval.target).",
)
TargetOption = typer.Option(None, "--target", help="Check this target instead of the file's execution.target.")
JsonOption = typer.Option(False, "--json", help="Print one JSON object instead of text (schema in the README).")


def command(
    path: Path = PathArgument, target: str = TargetOption, config: Path = ConfigOption, as_json: bool = JsonOption
) -> int:
    """Check an eval file and its targets without running anything; exit 30 when there is a problem.

    What AgentV accepts and ignores (metadata-only fields, unknown fields it
    warns about) is printed as `note:` lines: the file is still ok.
    """
    from autoresearch.plumbing.repo import find_repo_root
    from autoresearch.runs.evalfile import EvalFileError
    from autoresearch.runs.evaluators.builtin import prepare

    inline_targets, settings = None, None
    if path is None:
        configured = _configured(config, target, as_json)
        if configured is None:
            return 0
        path, repo_root, inline_targets, target = configured
        settings = load(config).eval
    else:
        repo_root = find_repo_root(path.resolve().parent)
    verdict = {"file": str(path), "ok": True, "tests": 0, "problems": [], "notes": []}
    try:
        prepared = prepare(path.resolve(), repo_root, inline_targets, target)
    except EvalFileError as exc:
        verdict.update(ok=False, problems=list(exc.problems))
        _say(verdict, as_json)
        return exc.exit_code
    verdict["tests"] = len(prepared.suite.cases)
    verdict["notes"] = list(prepared.suite.notes)
    if settings is not None:
        from autoresearch.runs.run_settings import overridden

        workers = settings.workers if "workers" in settings.model_fields_set else None
        for line in overridden(prepared.suite, workers, settings.repeat, settings.budget_usd):
            verdict["notes"].append(f"{path}: {line} (autoresearch.yaml wins)")
    _say(verdict, as_json)
    return 0


def _say(verdict: dict, as_json: bool) -> None:
    if as_json:  # each problem an object: {file, test_id, field, message}
        print(json.dumps(verdict, default=asdict))
    elif verdict["ok"]:
        print(
            "\n".join([*(f"note: {n}" for n in verdict["notes"]), f"{verdict['file']}: ok, {verdict['tests']} test(s)"])
        )
    else:
        print("\n".join([*map(str, verdict["problems"]), f"{len(verdict['problems'])} problem(s)"]))


def _configured(
    config: Path, target: str | None, as_json: bool
) -> tuple[Path, Path, list[dict] | None, str | None] | None:
    """The configured eval file, its repository root, inline targets and target (the flag wins);
    None, after saying so, when the eval is a command: the valid config was the whole check."""
    from autoresearch.plumbing.repo import find_repo_root

    cfg = load(config)
    if cfg.eval.file is None:
        kind = "an eval command" if cfg.eval.command else "the agentv CLI"
        if as_json:
            print(
                json.dumps({"file": None, "ok": True, "tests": None, "problems": [], "notes": [f"the eval is {kind}"]})
            )
        else:
            print(f"{config}: ok (the eval is {kind}: it is checked when it runs)")
        return None
    repo_root = find_repo_root(config_dir(config))
    return repo_root / cfg.eval.file, repo_root, cfg.eval.targets, target or cfg.eval.target
