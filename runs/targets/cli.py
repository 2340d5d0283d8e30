"""The `cli` provider: a command line with AgentV's placeholders, run in the eval file's directory.

Placeholders are shell-escaped. The answer is read from `{OUTPUT_FILE}` when
the command uses it, else from stdout, and read as AgentV reads it
(`runs.targets.cli_output`: output messages with tool calls, measurements).
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path
from typing import Literal

from runs import process
from runs.evalfile.model import Case
from runs.targets import Answer, TargetFailed, cli_output
from runs.targets.prompt import question
from runs.targets.specs import TargetSpec


class CliTarget:
    prompt_mode: Literal["agent", "lm"] = "agent"  # AgentV gives a command file references, not file contents

    def __init__(self, spec: TargetSpec, eval_dir: Path):
        self.name, self.grader_target = spec.name, spec.grader_target
        self.eval_dir, self.provider = eval_dir, spec.provider
        self.template: str = spec.options["command"]
        self.cwd = eval_dir / spec.options["cwd"] if spec.options.get("cwd") else eval_dir
        self.timeout_s = spec.timeout_s
        self.files_format: str = spec.options.get("files_format") or "{path}"

    def answer(self, case: Case, attempt: int) -> Answer:
        files = list(dict.fromkeys(f.resolve() for f in case.input_files()))
        return self._run(question(case, "agent", self.eval_dir), case.id, attempt, files)

    def converse(self, history: list[dict[str, str]], turn_id: str) -> Answer:
        """One turn of a conversation, as AgentV asks a command: {PROMPT} is the turn's own input (the command
        keeps its own history), {EVAL_ID} is `test/turn-N`, no {FILES}."""
        return self._run(history[-1]["content"], turn_id, 0, [])

    def _run(self, prompt: str, eval_id: str, attempt: int, files: list[Path]) -> Answer:
        """AgentV 4.42.4 first writes the prompt to `$TMPDIR/agentv-<eval id>-<time>.prompt.txt`: a `/` in the id
        (a test's, or a conversation turn's `test/turn-N`) makes that a file in a directory that does not exist,
        so the answer fails with ENOENT before the command runs. It fails here the same way, unless that directory
        exists."""
        folder = (Path(tempfile.gettempdir()) / f"agentv-{eval_id}").parent
        if "/" in eval_id and not folder.is_dir():
            raise TargetFailed(f"ENOENT: no such file or directory, open '{folder}/{Path(eval_id).name}-<time>.prompt.txt'")
        with tempfile.TemporaryDirectory(prefix="autoresearch-test-") as scratch:
            return self._command(prompt, eval_id, attempt, files, Path(scratch))

    def _command(self, prompt: str, eval_id: str, attempt: int, files: list[Path], scratch: Path) -> Answer:
        prompt_file, output_file = scratch / "prompt.md", scratch / "output.txt"
        prompt_file.write_text(prompt, encoding="utf-8")
        values = {
            "PROMPT": prompt,
            "PROMPT_FILE": str(prompt_file),
            "EVAL_ID": eval_id,
            "ATTEMPT": str(attempt),
            "FILES": format_files(files, self.files_format),
            "OUTPUT_FILE": str(output_file),
        }
        command = self.template
        for key, value in values.items():
            command = command.replace("{" + key + "}", value if key == "FILES" else shlex.quote(value))
        done = process.run(command, cwd=self.cwd, log_prefix=scratch / "target", timeout_s=self.timeout_s)
        if done.timed_out:
            raise TargetFailed(f"target {self.name} timed out after {self.timeout_s:g}s")
        if done.returncode != 0:
            raise TargetFailed(f"target {self.name} exited {done.returncode}: {process.tail(done.stderr or done.stdout)}")
        if "{OUTPUT_FILE}" in self.template:
            if not output_file.is_file():
                raise TargetFailed(f"target {self.name} wrote no output file")
            return cli_output.parse(output_file.read_text(encoding="utf-8", errors="replace"))
        return cli_output.parse(done.stdout)


def format_files(files: list[Path], template: str) -> str:
    """{FILES}: each file through the target's `files_format` (`{path}`, `{basename}`, shell-escaped), space-joined, as AgentV."""
    return " ".join(template.replace("{path}", shlex.quote(str(f))).replace("{basename}", shlex.quote(f.name)) for f in files)
