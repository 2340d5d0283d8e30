"""What `validate` does once its options are read: run's start-up checks with nothing made, and the verdict.

Kept apart from `validate`'s options (typer, with the click it carries: about 50 ms of CPU) so that a plain
`validate`, as scripts and the tests type it, is answered without the parser (`commands.quick`), as a plain
`run` and `status` are.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from autoresearch.optimizer.commands.common import load
from autoresearch.plumbing.jsontypes import JSONObject
from autoresearch.plumbing.repo import config_dir

if TYPE_CHECKING:
    from autoresearch.optimizer.config import Config
    from autoresearch.runs.evaluators.builtin import Prepared
    from autoresearch.runs.parse import EvalFileError


def configured(config: Path, target: str | None, as_json: bool) -> int:
    """Run's startup checks, nothing made; then, for an eval file, its tests and notes as for PATH."""
    from autoresearch.optimizer.startup import checks
    from autoresearch.plumbing.errors import AutoresearchError
    from autoresearch.plumbing.redact import redact

    cfg = load(config, {"eval.target": target})
    try:
        ws, paths, *_ = checks.check(cfg, config_dir(config), make_worktree=False)
    except _eval_file_errors(cfg) as exc:
        return refused(str(cfg.eval.file), exc, as_json)
    except AutoresearchError as exc:
        if not as_json:
            raise  # the CLI's boundary prints run's own line, and exits with run's code
        problem = {"file": None, "test_id": None, "field": None, "message": redact(str(exc))}
        print(json.dumps({"file": None, "ok": False, "tests": None, "problems": [problem], "notes": []}))
        return exc.exit_code
    if cfg.eval.file is None:
        kind = "an eval command" if cfg.eval.command else "the agentv CLI"
        if as_json:
            print(
                json.dumps({"file": None, "ok": True, "tests": None, "problems": [], "notes": [f"the eval is {kind}"]})
            )
        else:
            print(f"{config}: ok, `run` can start (the eval is {kind}: its scores are seen when it runs)")
        return 0
    from autoresearch.runs.evaluators.builtin import load as load_eval
    from autoresearch.runs.runner.settings import overridden

    settings, eval_file = cfg.eval, ws.root / cfg.eval.file
    prepared = load_eval(settings, ws.root)
    workers = settings.workers if "workers" in settings.model_fields_set else None
    wins = [
        f"{eval_file}: {line} ({cfg.source} wins)"
        for line in overridden(prepared.suite, workers, settings.repeat, settings.budget_usd)
    ]
    return accepted(str(eval_file), prepared, wins, as_json)


def _eval_file_errors(cfg: Config) -> tuple[type[EvalFileError], ...]:
    """What the checks raise on a bad eval file, to be listed; none without one: the built-in runner's parser
    (a third of a second to import) is then never loaded."""
    if cfg.eval.file is None:
        return ()
    from autoresearch.runs.parse import EvalFileError

    return (EvalFileError,)


def refused(file: str, exc: EvalFileError, as_json: bool) -> int:
    _say({"file": file, "ok": False, "tests": 0, "problems": list(exc.problems), "notes": []}, as_json)
    return exc.exit_code


def accepted(file: str, prepared: Prepared, notes: list[str], as_json: bool) -> int:
    from autoresearch.runs.runner.filerefs import unread

    notes = [*prepared.suite.notes, *notes, *map(str, unread(prepared.suite, prepared.targets))]
    _say({"file": file, "ok": True, "tests": len(prepared.suite.cases), "problems": [], "notes": notes}, as_json)
    return 0


def _say(verdict: JSONObject, as_json: bool) -> None:
    if as_json:  # each problem an object: {file, test_id, field, message}
        print(json.dumps(verdict, default=asdict))
    elif verdict["ok"]:
        print(
            "\n".join([*(f"note: {n}" for n in verdict["notes"]), f"{verdict['file']}: ok, {verdict['tests']} test(s)"])
        )
    else:
        print("\n".join([*map(str, verdict["problems"]), f"{len(verdict['problems'])} problem(s)"]))
