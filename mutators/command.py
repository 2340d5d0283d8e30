"""A mutator that runs a command (a coding agent such as `claude -p`, or any script)."""

from __future__ import annotations

import os
import shlex
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path

from autoresearch.mutators import homes, spend
from autoresearch.mutators.base import MutationRequest, MutationResult, summary_from
from autoresearch.mutators.config import CommandMutatorConfig
from autoresearch.mutators.errors import MutationFailed, MutatorConfigError
from autoresearch.mutators.instructions import render
from autoresearch.plumbing import process, trees
from autoresearch.plumbing.program import missing_program


class CommandMutator:
    def __init__(self, config: CommandMutatorConfig, repo_root: Path):
        self.config, self.repo_root = config, repo_root

    def check(self) -> None:
        problem = missing_program(self.config.command, self.repo_root)
        if problem:
            raise MutatorConfigError(f"{self.config.field('mutator.command')}: {problem}")

    def mutate(self, request: MutationRequest) -> MutationResult:
        prompt_file = request.log_dir / "mutator-prompt.md"
        prompt_file.parent.mkdir(parents=True, exist_ok=True)
        seen = _as_seen(request)
        prompt_file.write_text(render(seen), encoding="utf-8")
        env = seen.env(prompt_file)
        command = self.config.command
        for name, value in env.items():
            command = command.replace("{" + name.lower() + "}", shlex.quote(value))
        request.cost_file.unlink(missing_ok=True)  # one left by an attempt a crash cut short
        try:
            with _agent_homes(request) as copies:
                done = process.run(
                    _in_sandbox(command, request, prompt_file, copies),
                    cwd=request.repo_root,
                    log_prefix=request.log_dir / "mutator",
                    timeout_s=self.config.timeout_s,
                    env=env,
                )
        finally:
            _collect_outbox(request)
        report = spend.Report(
            done.stdout, request.cost_file, self.config.command, os.environ, self.config.price_table()
        )
        reading = spend.read(report)
        spent = _result(
            reading, summary_from(request.changelog, done.stdout if reading.reply is None else reading.reply)
        )
        if done.timed_out:
            raise MutationFailed(
                f"mutator timed out after {self.config.timeout_s:g}s", reason="mutator-timeout", spent=spent
            )
        if done.returncode != 0:
            raise MutationFailed(
                f"mutator exited {done.returncode}: {process.tail(done.stderr or done.stdout)}", spent=spent
            )
        return spent


NOT_COUNTED = (
    "the command mutator reported no spend, so stop.budget_usd does not count it: use a command that reports "
    f'its cost (`claude -p ... --output-format json`, `codex exec --json`) or write {{"cost_usd": ...}} to ${spend.COST_FILE_VARIABLE}'
)


def _result(reading: spend.Reading, summary: str) -> MutationResult:
    """The mutation's summary and spend, with the warnings its reports gave."""
    if reading.spend is None:
        return MutationResult(summary, notes=(*reading.warnings, NOT_COUNTED))
    s = reading.spend
    return MutationResult(summary, s.cost_usd or 0.0, s.tokens_in, s.tokens_out, notes=reading.warnings)


def _as_seen(request: MutationRequest) -> MutationRequest:
    """The request as the command sees it: in a sandbox, its checkout is out of the user's tree (see
    autoresearch.plumbing.sandbox), and so are the artifact and whatever else lies in it."""
    if request.sandbox is None:
        return request
    sandbox = request.sandbox.opening(work=request.repo_root)
    return replace(request, repo_root=sandbox.seen(request.repo_root), artifact=sandbox.seen(request.artifact))


def _agent_homes(request: MutationRequest) -> AbstractContextManager[tuple[tuple[Path, Path], ...]]:
    """A sandboxed mutator's coding-agent homes: throwaway copies (see autoresearch.mutators.homes)."""
    return nullcontext(()) if request.sandbox is None else homes.throwaway()


def _in_sandbox(
    command: str, request: MutationRequest, prompt_file: Path, copies: tuple[tuple[Path, Path], ...]
) -> str | list[str]:
    """The command, in the request's sandbox if it has one: its checkout and outbox writable, the agent homes'
    copies writable at their real paths, the run just decided, the history, its digest and its instructions
    readable, what the mutator must not read hidden."""
    if request.sandbox is None:
        return command
    request.outbox.mkdir(parents=True, exist_ok=True)
    sandbox = request.sandbox.opening(
        readable=(request.run_dir, request.iterations, request.digest, prompt_file),
        writable=(request.outbox,),
        work=request.repo_root,
        copies=copies,
    )
    sandbox = replace(sandbox, hidden=(*sandbox.hidden, *request.hidden))
    return sandbox.argv(["/bin/sh", "-c", command], sandbox.seen(request.repo_root))


def _collect_outbox(request: MutationRequest) -> None:
    """A sandboxed mutator's changelog and cost file, moved from its outbox to where the loop reads them."""
    if request.sandbox is None:
        return
    for written, kept in (
        (request.changelog_written, request.changelog),
        (request.cost_file_written, request.cost_file),
    ):
        if written.is_file() and not written.is_symlink():
            written.replace(kept)
    trees.remove(request.outbox, ignore_errors=True)
