"""`code-grader`: the user's command reads the test as JSON on stdin and prints `{score, assertions}`.

It runs through `runs.process` in the eval file's directory, so it is killed
with its children on timeout like every other command we start.
"""

from __future__ import annotations

import json
import shlex
import tempfile
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from runs import process
from runs.evalfile.model import GraderSpec
from runs.graders.base import Context, GraderFailed, Options, Score, assertion, parsed


class CodeOptions(Options):
    command: str | list[str]
    cwd: str | None = None
    timeout_seconds: float = Field(default=60, gt=0)


class CodeGrader:
    options: ClassVar[type[Options]] = CodeOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        command = opts.command if isinstance(opts.command, str) else shlex.join(opts.command)
        with tempfile.TemporaryDirectory(prefix="autoresearch-grader-") as scratch:
            stdin = Path(scratch) / "input.json"
            stdin.write_text(json.dumps(payload(ctx)), encoding="utf-8")
            done = process.run(
                f"{command} < {shlex.quote(str(stdin))}",
                cwd=ctx.eval_dir / opts.cwd if opts.cwd else ctx.eval_dir,
                log_prefix=Path(scratch) / "grader",
                timeout_s=opts.timeout_seconds,
            )
        if done.timed_out:
            raise GraderFailed(f"code-grader timed out after {opts.timeout_seconds:g}s")
        if done.returncode != 0:
            raise GraderFailed(f"code-grader exited {done.returncode}: {process.tail(done.stderr or done.stdout)}")
        return _result(done.stdout)


def payload(ctx: Context) -> dict[str, Any]:
    case = ctx.case
    return {
        "test_id": case.id,
        "input": case.render_messages(),
        "input_text": case.prompt_text(),
        "output": ctx.output,
        "expected_output": case.expected_output,
        "criteria": case.criteria,
        "metadata": case.metadata,
        "token_usage": {"input": ctx.input_tokens, "output": ctx.output_tokens},
        "cost_usd": ctx.cost_usd,
        "duration_ms": ctx.duration_ms,
    }


def _result(stdout: str) -> Score:
    try:
        value = json.loads(stdout.strip().splitlines()[-1] if stdout.strip() else "")
        score = value["score"]
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise ValueError("score is not a number")
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise GraderFailed(f"code-grader must print {{\"score\": 0..1, \"assertions\": [...]}} ({exc}): {process.tail(stdout)}") from None
    items = value.get("assertions") or []
    checks = [assertion(str(a.get("text", "")), bool(a.get("passed")), a.get("evidence") or None) for a in items if isinstance(a, dict)]
    return Score(float(score), checks, value.get("details") if isinstance(value.get("details"), dict) else None)


GRADERS = {"code-grader": CodeGrader()}
