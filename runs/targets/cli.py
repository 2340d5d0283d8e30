"""The `cli` provider: a command line with AgentV's placeholders, run in the eval file's directory.

Placeholders are shell-escaped. The answer is read from `{OUTPUT_FILE}` only, as
AgentV 4.42.4 reads it (`autoresearch.runs.targets.cli_output`: output messages
with tool calls, measurements): a command without that placeholder fails every
test, there ("Failed to read output file") and here, where it is not even run,
since nothing it could print would be read.

A 5.x file's target follows AgentV 5 instead, whose cli provider returns a failed
run as an answer rather than throwing: `Error: <what failed>` is graded as the
answer, the test is an execution_error with the graders' score, and nothing is
retried (`AnsweredInError`). A command without `{OUTPUT_FILE}` runs there, and
fails so ("Failed to read output file"). A test with a docker environment runs the
command in its container (`autoresearch.runs.targets.container`).
"""

from __future__ import annotations

import math
import re
import shlex
import signal
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NoReturn

from autoresearch.plumbing import process
from autoresearch.plumbing.scratch import scratch
from autoresearch.providers.turns import Reply
from autoresearch.runs.evalfile.docker_recipe import DockerEnvironment
from autoresearch.runs.evalfile.model import Case
from autoresearch.runs.evalfile.prompt import question
from autoresearch.runs.grader_llm import GraderLLM, GraderRetry
from autoresearch.runs.targets import Answer, AnsweredInError, TargetFailed, TargetMisconfigured, cli_output, container
from autoresearch.runs.targets.healthcheck import Healthcheck
from autoresearch.runs.targets.specs import TargetSpec


@dataclass(frozen=True)
class Call:
    """One run of the command: what fills its placeholders, where it runs and for how long, and whether it
    answers a test or grades one."""

    prompt: str
    eval_id: str
    attempt: int = 0
    files: list[Path] = field(default_factory=list)
    grading: bool = False  # the target grades a test (its reply is a grader's)
    cwd: Path | None = None  # the test's workspace, else the target's own `cwd`
    timeout_s: float | None = None  # a test's own bound, else the target's timeout_seconds
    container: DockerEnvironment | None = None  # AgentV 5's docker environment: the command runs in it


class CliTarget:
    prompt_mode: Literal["agent", "lm"] = "agent"  # AgentV gives a command file references, not file contents

    def __init__(self, spec: TargetSpec, eval_dir: Path, agentv: int = 4):
        self.agentv = agentv  # the AgentV major whose rules a failed run follows (`AnsweredInError` from 5)
        self.name, self.grader_target = spec.name, spec.grader_target
        self.eval_dir, self.provider = eval_dir, spec.provider
        self.template: str = spec.options["command"]
        self.cwd = eval_dir / spec.options["cwd"] if spec.options.get("cwd") else eval_dir
        self.timeout_s = spec.timeout_s
        self.files_format: str = spec.options.get("files_format") or "{path}"
        self.health = Healthcheck(self.name, spec.options.get("healthcheck"), eval_dir, self.timeout_s, render)

    def answer(self, case: Case, attempt: int, cwd: Path | None = None) -> Answer:
        """The command's answer; it runs in the test's workspace when it has one (AgentV's request.cwd wins over the target's `cwd`)."""
        if self.agentv < 5:
            self._require_output_file()
        files = list(dict.fromkeys(f.resolve() for f in case.input_files()))
        recipe = case.workspace.container if case.workspace is not None else None
        prompt = question(case, "agent", self.eval_dir)
        return self._run(Call(prompt, case.id, attempt, files, cwd=cwd, timeout_s=case.timeout_s, container=recipe))

    def converse(self, history: list[dict[str, str]], turn_id: str) -> Answer:
        """One turn of a conversation, as AgentV asks a command: {PROMPT} is the turn's own input (the command
        keeps its own history), {EVAL_ID} is `test/turn-N`, no {FILES}."""
        self._require_output_file()
        return self._run(Call(history[-1]["content"], turn_id))

    def _require_output_file(self) -> None:
        """AgentV reads the answer from that file alone: without it no run can answer, so none is made."""
        if "{OUTPUT_FILE}" not in self.template:
            raise TargetMisconfigured(
                f"Failed to read output file: the command of target {self.name} has no {{OUTPUT_FILE}}, where "
                "AgentV 4.42.4 reads a cli target's answer (its stdout is not read); write the answer to {OUTPUT_FILE}"
            )

    def grader_for(self, test_id: str, attempt: int) -> GraderLLM:
        """This target as a test's grader, as AgentV invokes a `cli` grader target: the grader prompt is the
        question (the system prompt is not sent), `{EVAL_ID}` the test's, no files; the reply is what the
        command wrote to `{OUTPUT_FILE}`, read as an answer is (`cli_output`). A failure is asked again, as AgentV
        retries it (`GraderRetry`)."""

        def grade(prompt: str, system: str | None) -> Reply:
            try:
                answer = self._run(Call(prompt, test_id, attempt, grading=True))
            except TargetFailed as exc:
                raise GraderRetry(str(exc)) from None
            return Reply(answer.text, answer.input_tokens, answer.output_tokens, answer.cost_usd)

        return grade

    def _run(self, call: Call) -> Answer:
        """AgentV 4.42.4 first writes the prompt to `$TMPDIR/agentv-<eval id>-<time>.prompt.txt`: a `/` in the id
        (a test's, or a conversation turn's `test/turn-N`) makes that a file in a directory that does not exist,
        so the answer fails with ENOENT before the command runs. It fails here the same way, unless that directory
        exists. The target's healthcheck comes first."""
        unhealthy = self.health.failure()
        if unhealthy:
            raise TargetFailed(unhealthy)
        if "/" in call.eval_id:
            folder = (Path(tempfile.gettempdir()) / f"agentv-{call.eval_id}").parent
            if not folder.is_dir():
                raise TargetFailed(
                    f"ENOENT: no such file or directory, open '{folder}/{Path(call.eval_id).name}-<time>.prompt.txt'"
                )
        with scratch("autoresearch-test-") as folder:
            return self._command(call, folder)

    def _command(self, call: Call, scratch: Path) -> Answer:
        """The command with AgentV's placeholders; its answer what it wrote to `{OUTPUT_FILE}`."""
        prompt_file, output_file = scratch / "prompt.md", scratch / "output.txt"
        if "{PROMPT_FILE}" in self.template:  # no command could find it otherwise: a file made and removed a test
            prompt_file.write_text(call.prompt, encoding="utf-8")
        values = {
            "PROMPT": call.prompt,
            "PROMPT_FILE": str(prompt_file),
            "EVAL_ID": call.eval_id,
            "ATTEMPT": str(call.attempt),
            "FILES": format_files(call.files, self.files_format),
            "OUTPUT_FILE": str(output_file),
        }
        timeout_s = (
            call.timeout_s or self.timeout_s
        )  # a test's `run: {timeout_seconds}` or the file's, else the target's
        done = self._execute(call, render(self.template, values), timeout_s, scratch)
        if done.timed_out:
            self._failed(call, f"target {self.name} timed out after {timeout_s:g}s", timed_out(timeout_s))
        if done.returncode != 0:
            self._failed(
                call,
                f"target {self.name} exited {done.returncode}: {process.tail(done.stderr or done.stdout)}",
                exited(done),
            )
        if not output_file.is_file():
            self._failed(
                call,
                f"Failed to read output file: {'grader' if call.grading else 'target'} {self.name} wrote "
                "nothing to {OUTPUT_FILE}",
                f"Failed to read output file '{output_file}': ENOENT: no such file or directory, open '{output_file}'",
            )
        answer = cli_output.parse(output_file.read_text(encoding="utf-8", errors="replace"), self.agentv)
        if answer.task_error and answer.task_error.strip() and self.agentv >= 5 and not call.grading:
            raise AnsweredInError(answer.task_error.strip(), answer)  # AgentV 5: graded, an execution_error
        return answer

    def _execute(self, call: Call, command: str, timeout_s: float | None, scratch: Path) -> process.Completed:
        """The command on the host, in the test's workspace or the target's cwd, or in the test's container."""
        if call.container is None:
            return process.run(command, cwd=call.cwd or self.cwd, log_prefix=None, timeout_s=timeout_s)
        ran = container.run(call.container, command, timeout_s, scratch)
        if ran.infra:  # AgentV's sandbox_infra_failure: docker's own output is the message
            detail = ran.done.stderr.strip() or ran.done.stdout.strip() or "Sandbox runtime failed"
            self._failed(call, f"target {self.name}: docker failed: {detail}", detail)
        return ran.done

    def _failed(self, call: Call, message: str, agentv5_message: str) -> NoReturn:
        """Raise the failure: AgentV 5 grades a test's `Error: <its message>` (a grader's run fails as in 4.x)."""
        if self.agentv >= 5 and not call.grading:
            raise AnsweredInError(message, cli_output.plain(f"Error: {agentv5_message}"))
        raise TargetFailed(message)


def timed_out(timeout_s: float | None) -> str:
    """AgentV 5's message for a command killed at its timeout (whole seconds, rounded up)."""
    return "CLI provider timed out" + (f" after {math.ceil(timeout_s)}s" if timeout_s else "")


def exited(done: process.Completed) -> str:
    """AgentV 5's message for a command that failed: its stderr, else its stdout, with the exit code; a signal's name."""
    if done.returncode is not None and done.returncode < 0:
        return f"CLI terminated by signal {signal.Signals(-done.returncode).name}"
    detail = done.stderr.strip() or done.stdout.strip()
    return f"{detail} (exit code {done.returncode})" if detail else f"CLI exited with code {done.returncode}"


def render(template: str, values: dict[str, str]) -> str:
    """AgentV's renderTemplate: `{KEY}` replaced in one pass (a value holding `{OUTPUT_FILE}` stays as it is),
    each value shell-quoted except `{FILES}`, which `format_files` has quoted path by path; unknown keys stay."""
    quoted = {key: value if key == "FILES" else shlex.quote(value) for key, value in values.items()}
    return re.sub(r"\{([A-Z_]+)\}", lambda m: quoted.get(m.group(1), m.group(0)), template)


def format_files(files: list[Path], template: str) -> str:
    """{FILES}: each file through the target's `files_format` (`{path}`, `{basename}`, shell-escaped), space-joined, as AgentV."""
    return " ".join(
        template.replace("{path}", shlex.quote(str(f))).replace("{basename}", shlex.quote(f.name)) for f in files
    )
