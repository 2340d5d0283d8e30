"""User-defined assertion types: AgentV 4.42.4's `.agentv/assertions/` (and `.agentv/graders/`, `.agentv/judges/`).

AgentV registers every `*.ts`, `*.js`, `*.mts`, `*.mjs` file of those
directories, from the eval file's directory up to (not including) the
filesystem root, as a grader type named after the file (`word-count.ts` is
`type: word-count`); the nearest directory wins, `assertions` before
`graders` before `judges`, and a built-in type is never overridden. It runs
one as a code-grader whose command is `bun run FILE` (no shell: a file name
is one argument), with the code-grader's stdin payload and `config: null`
(the entry's other fields are dropped), and reads its output as a
code-grader's. Without `bun` on PATH that is AgentV's `spawn bun ENOENT`,
score 0, exactly as the real agentv scores it under Node. A type is looked
up among the files found, never turned into a path, so `type: ../x` names
nothing. AgentV waits for it forever; we stop it after `timeout_seconds`
(ours, default 60).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path
from typing import ClassVar

from pydantic import ConfigDict, Field

from autoresearch.runs.evalfile.model import GraderSpec
from autoresearch.runs.graders.base import Context, Score, parsed
from autoresearch.runs.graders.code import failed, run_grader
from autoresearch.runs.graders.options import Options

FOLDERS = ("assertions", "graders", "judges")
SCRIPT = re.compile(r"(?s)([^.].*)\.(ts|js|mts|mjs)")  # fast-glob's `*.ts` etc. (whole name): no dot files
RUNTIME = "bun"
KNOWN_KINDS = {
    "code-grader",
    "llm-grader",
    "rubric",
    "composite",
    "tool-trajectory",
    "field-accuracy",
    "latency",
    "cost",
    "token-usage",
    "execution-metrics",
    "skill-trigger",
    "contains",
    "contains-any",
    "contains-all",
    "icontains",
    "icontains-any",
    "icontains-all",
    "starts-with",
    "ends-with",
    "regex",
    "is-json",
    "equals",
    "rubrics",
    "inline-assert",
}
"""AgentV's grader kinds: a discovered file with one of these names is ignored, as AgentV never overrides them."""


def discover(eval_dir: Path) -> dict[str, Path]:
    """Type name -> script, as AgentV registers them for an eval file in `eval_dir`."""
    found: dict[str, Path] = {}
    levels = []
    directory = eval_dir.resolve()
    while directory.parent != directory:
        levels.append(directory)
        directory = directory.parent
    folders = [d / ".agentv" / "assertions" for d in levels]
    folders += [d / ".agentv" / name for d in levels for name in FOLDERS[1:]]
    for folder in folders:
        for script in _scripts(folder):
            name = SCRIPT.fullmatch(script.name).group(1)  # type: ignore[union-attr]
            if name not in KNOWN_KINDS:
                found.setdefault(name, script)
    return found


def _scripts(folder: Path) -> list[Path]:
    """The folder's script files (symlinks to files included, as fast-glob follows them), in name order."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [folder / n for n in names if SCRIPT.fullmatch(n) and (folder / n).is_file()]


class CustomOptions(Options):
    """The entry's own fields are AgentV's pass-through config, which it does not hand to the script."""

    model_config = ConfigDict(extra="allow")
    script: Path
    timeout_seconds: float = Field(default=60, gt=0)


class CustomGrader:
    options: ClassVar[type[Options]] = CustomOptions
    needs_llm: ClassVar[bool] = False

    def default_name(self, spec_type: str, options: Options) -> str:
        return spec_type

    def grade(self, spec: GraderSpec, ctx: Context) -> Score:
        opts = parsed(spec, self)
        runtime = shutil.which(RUNTIME)
        if runtime is None:
            return failed(f"spawn {RUNTIME} ENOENT")
        command = shlex.join([runtime, "run", str(opts.script)])
        return run_grader(command, ctx, None, ctx.eval_dir, opts.timeout_seconds, spec.name)


GRADER = CustomGrader()
