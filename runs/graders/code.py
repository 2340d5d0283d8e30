"""`code-grader`: the user's command reads the test as JSON on stdin and prints `{score, assertions}`, as in AgentV 4.42.4.

The stdin is AgentV's payload (`autoresearch.runs.graders.payload`); the whole stdout,
trimmed, is parsed as one JSON object (so indented JSON works). A command that
prints no JSON object is graded by its exit code (0 passes, its stdout the
assertion). A command that fails (exits non-zero printing JSON or writing to
stderr, times out, cannot start) scores 0 with the reason as its assertion:
a quality failure, not an execution error, exactly as AgentV counts it. The last lines it
wrote (its stderr, else its stdout, where AgentV's SDK reports its own failure) are that
assertion's evidence and a warning in the log, masked as every command's words are.
It runs through `autoresearch.plumbing.process` in the eval file's directory, so it is killed
with its children on timeout like every other command we start.
"""

from __future__ import annotations

import json
import logging
import shlex
from pathlib import Path
from typing import Any, ClassVar, Protocol

from pydantic import ConfigDict, Field

from autoresearch.plumbing import owned, process
from autoresearch.plumbing.redact import redact
from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.evalfile.workspace import Docker, Repo
from autoresearch.runs.graders.base import Context, Score, assertion, parsed
from autoresearch.runs.graders.options import Options
from autoresearch.runs.graders.payload import code_grader_input
from autoresearch.runs.graders.scoring import clamp
from autoresearch.runs.workspace import docker

log = logging.getLogger("autoresearch.runs")
KNOWN = {"command", "script", "cwd", "timeout_seconds", "target", "config", "preprocessors"}


class CodeOptions(Options):
    """Fields AgentV does not know are passed to the command in `config`, as AgentV passes them."""

    model_config = ConfigDict(extra="allow")
    command: str | list[str]
    cwd: str | None = None
    timeout_seconds: float = Field(default=60, gt=0)
    config: dict[str, Any] | None = None

    def passed_config(self) -> dict[str, Any]:
        extra = {k: v for k, v in (self.model_extra or {}).items() if k not in KNOWN and v is not None}
        return {**extra, **(self.config or {})}


class CodeGrader:
    options: ClassVar[type[Options]] = CodeOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        workspace = ctx.case.workspace
        if workspace is not None and workspace.docker is not None:  # AgentV's argv: a string runs in a login shell
            argv = ["sh", "-lc", opts.command.strip()] if isinstance(opts.command, str) else opts.command
            return in_container(workspace.docker, workspace.repos, argv, ctx, opts.passed_config(), spec.name)
        command = opts.command if isinstance(opts.command, str) else shlex.join(opts.command)
        return run_grader(
            command,
            ctx,
            opts.passed_config(),
            ctx.eval_dir / opts.cwd if opts.cwd else ctx.eval_dir,
            opts.timeout_seconds,
            spec.name,
        )


def _payload(ctx: Context, config: dict[str, Any] | None, scratch: str) -> str:
    return json.dumps(code_grader_input(ctx, config, Path(scratch)), indent=2, ensure_ascii=False)


def run_grader(
    command: str, ctx: Context, config: dict[str, Any] | None, cwd: Path, timeout_s: float, name: str = "code-grader"
) -> Score:
    """The command fed AgentV's code-grader payload on stdin (and the workspace in `AGENTV_WORKSPACE_PATH`),
    its output read as AgentV reads it."""
    with owned.temporary("autoresearch-grader-") as scratch:
        stdin = _payload(ctx, config, scratch)
        env = {"AGENTV_WORKSPACE_PATH": str(ctx.workspace_path)} if ctx.workspace_path else None
        done = _finished(command, stdin, cwd, timeout_s, env)
    if isinstance(done, str):
        return failed(done)
    if done.timed_out:
        return _reported(failed(f"timed out after {timeout_s:g}s", done), ctx, name)
    return _reported(result(done.returncode or 0, done.stdout.strip(), done.stderr.strip(), done), ctx, name)


def in_container(
    container: Docker,
    repos: tuple[Repo, ...] | None,
    argv: list[str],
    ctx: Context,
    config: dict[str, Any] | None,
    name: str = "code-grader",
) -> Score:
    """The grader run in a container of its own (`workspace.docker`), fed the payload it gets on the host."""
    with owned.temporary("autoresearch-grader-") as scratch:
        try:
            done = docker.run_grader(container, argv, _payload(ctx, config, scratch), repos)
        except docker.DockerFailed as exc:
            return failed(str(exc))
    if done.timed_out:
        return _reported(failed(f"timed out after {container.timeout_s:g}s", done), ctx, name)
    return _reported(result(done.returncode or 0, done.stdout.strip(), done.stderr.strip(), done), ctx, name)


def run_command(
    command: str, stdin: str, cwd: Path, timeout_s: float | None, env: dict[str, str] | None = None
) -> process.Completed | str:
    """The command run by the shell with `stdin` as its input, or why it did not finish."""
    done = _finished(command, stdin, cwd, timeout_s, env)
    if not isinstance(done, str) and done.timed_out:
        return f"timed out after {timeout_s:g}s"
    return done


def _finished(
    command: str, stdin: str, cwd: Path, timeout_s: float | None, env: dict[str, str] | None
) -> process.Completed | str:
    """The command run by the shell with `stdin` as its input (killed at `timeout_s`), or why it could not start."""
    with owned.temporary("autoresearch-grader-") as scratch:
        path = Path(scratch) / "input.json"
        path.write_text(stdin, encoding="utf-8")
        try:
            return process.run(
                f"{command} < {shlex.quote(str(path))}",
                cwd=cwd,
                log_prefix=Path(scratch) / "grader",
                timeout_s=timeout_s,
                env=env,
            )
        except OSError as exc:
            return f"cannot run the command: {exc}"


class Output(Protocol):
    """What a finished grader command wrote (a local process's or a container's)."""

    @property
    def stdout(self) -> str: ...

    @property
    def stderr(self) -> str: ...


EVIDENCE_LINES = 20  # of a failed grader's output, in its assertion's evidence and the log
EVIDENCE_CHARS = 4000


def last_lines(output: Output | None) -> str | None:
    """The end of what a failed grader wrote, masked: its stderr, else its stdout (AgentV's SDK prints its own
    failure there, as JSON, and exits 1 with nothing on stderr); None when it wrote nothing."""
    text = (output.stderr.strip() or output.stdout.strip()) if output is not None else ""
    if not text:
        return None
    lines = redact(text).splitlines()[-EVIDENCE_LINES:]  # masked before the cut, which could halve a key
    return "\n".join(lines)[-EVIDENCE_CHARS:]


def failed(reason: str, output: Output | None = None) -> Score:
    """AgentV's failed grader: 0, the reason as its one assertion (its words); the output's end as evidence."""
    return Score(0.0, [assertion(f"Code evaluator failed: {reason}", False, last_lines(output))], verdict="fail")


def _reported(score: Score, ctx: Context, name: str) -> Score:
    """The score, its failure (one with output to show) said in the log too, where the user looks first."""
    if score.verdict == "fail" and score.assertions and (evidence := score.assertions[0].get("evidence")):
        log.warning("%s: %s of test %s; it wrote:\n%s", name, score.assertions[0]["text"], ctx.case.id, evidence)
    return score


def exit_reason(returncode: int, stderr: str) -> str:
    """AgentV's words for a failed command, its stderr masked and cut as AgentV's formatStderr cuts it."""
    shown = redact(stderr.strip())
    if len(shown) > 2000:
        shown = f"...(truncated, last 2000 chars)\n{shown[-2000:]}"
    return f"Code evaluator exited with code {returncode}" + (f": {shown}" if shown else "")


def checked_assertions(items: Any) -> list[dict[str, Any]]:
    """The `{text, passed, evidence?}` entries a command printed; others are dropped, as AgentV drops them."""
    return [
        assertion(a["text"], bool(a.get("passed")), a["evidence"] if isinstance(a.get("evidence"), str) else None)
        for a in (items if isinstance(items, list) else [])
        if isinstance(a, dict) and isinstance(a.get("text"), str)
    ]


def result(returncode: int, stdout: str, stderr: str, output: Output | None = None) -> Score:
    """AgentV's reading of a finished command: a JSON object is the answer; otherwise the exit code is."""
    if returncode != 0 and (stdout.startswith(("{", "[")) or stderr):
        return failed(exit_reason(returncode, stderr), output)
    try:
        value = json.loads(stdout)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        passed = returncode == 0
        return Score(
            1.0 if passed else 0.0, [assertion(stdout or ("exit 0" if passed else f"exit {returncode}"), passed)]
        )
    checks = checked_assertions(value.get("assertions"))
    score = value.get("score")
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        score = sum(1 for c in checks if c["passed"]) / len(checks) if checks else 0.0
    details = value.get("details")
    return Score(clamp(score), checks, details if isinstance(details, dict) else None)


GRADERS = {"code-grader": CodeGrader()}
