"""What every mutator gets and gives back.

A mutator is handed *paths only* (the artifact, the run just decided, the
history and its digest) and rewrites the artifact in place; it never receives file contents
from the loop, so its prompt does not grow with the eval.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from autoresearch.plumbing import jsonlines
from autoresearch.plumbing.redact import redact
from autoresearch.plumbing.sandbox import Sandbox
from autoresearch.plumbing.text import cut


@dataclass(frozen=True)
class MutationRequest:
    repo_root: Path
    artifact: Path  # absolute
    mode: Literal["file", "directory"]
    run_dir: Path  # the run just decided; the changelog goes to run_dir/mutation.md
    iterations: Path
    digest: Path  # what was tried so far, in short (autoresearch.optimizer.experiment.digest)
    initial_sha: str
    pass_rates: dict[str, float]
    cycle: int  # the cycle the candidate will be
    log_dir: Path  # where the mutator's own logs go (the candidate's run directory)
    read_only: tuple[Path, ...] = ()  # paths the mutator must never write besides everything outside the artifact
    hidden: tuple[Path, ...] = ()  # paths the mutator must not even read (the holdout's results)
    sibling: int | None = None  # with parallel candidates: this candidate's index among the cycle's (0, 1, ...)
    siblings: int = 1  # and how many candidates the cycle makes
    strategy: str = ""  # the strategy it follows (autoresearch.mutators.strategies), and what that asks
    strategy_instructions: str = ""
    sandbox: Sandbox | None = None  # a command mutator's, when it runs in one (repo_root is then a throwaway checkout)

    @property
    def changelog(self) -> Path:
        """Siblings share the run just decided, so each writes its own changelog there."""
        return self.run_dir / ("mutation.md" if self.sibling is None else f"mutation-{self.sibling}.md")

    @property
    def outbox(self) -> Path:
        """Where a sandboxed mutator writes its changelog (the run directory is read-only to it); the
        mutator moves it to `changelog` once the command has ended."""
        return self.log_dir / "outbox"

    @property
    def cost_file(self) -> Path:
        """Where a command mutator's spend report is kept (see autoresearch.mutators.spend)."""
        return self.log_dir / "mutator-cost.json"

    @property
    def cost_file_written(self) -> Path:
        """Where the command is told to write it ($AUTORESEARCH_COST_FILE): in a sandbox, its outbox."""
        return self.cost_file if self.sandbox is None else self.outbox / self.cost_file.name

    @property
    def changelog_written(self) -> Path:
        """Where the mutator is told to write its changelog."""
        return self.changelog if self.sandbox is None else self.outbox / self.changelog.name

    def env(self, prompt_file: Path) -> dict[str, str]:
        """The AUTORESEARCH_* variables a command mutator sees (also its {placeholders})."""
        return {
            "AUTORESEARCH_ARTIFACT": str(self.artifact),
            "AUTORESEARCH_ARTIFACT_MODE": self.mode,
            "AUTORESEARCH_RUN_DIR": str(self.run_dir),
            "AUTORESEARCH_ITERATIONS": str(self.iterations),
            "AUTORESEARCH_DIGEST": str(self.digest),
            "AUTORESEARCH_INITIAL_SHA": self.initial_sha,
            "AUTORESEARCH_PASS_RATES": json.dumps(self.pass_rates, sort_keys=True),
            "AUTORESEARCH_CYCLE": str(self.cycle),
            "AUTORESEARCH_PROMPT_FILE": str(prompt_file),
            "AUTORESEARCH_COST_FILE": str(self.cost_file_written),
            **(
                {"AUTORESEARCH_CHANGELOG": str(self.changelog_written)}
                if self.sandbox or self.sibling is not None
                else {}
            ),
            **(
                {
                    "AUTORESEARCH_SIBLING": str(self.sibling),
                    "AUTORESEARCH_STRATEGY": self.strategy,
                    "AUTORESEARCH_STRATEGY_INSTRUCTIONS": self.strategy_instructions,
                }
                if self.sibling is not None
                else {}
            ),
        }


@dataclass
class MutationResult:
    summary: str
    cost_usd: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    extra: dict[str, list[str]] = field(default_factory=dict)  # {"written": paths} of an LLM mutator
    notes: tuple[str, ...] = ()  # warnings for the run's log (a spend not counted, a malformed cost file)
    lost_attempts: int = 0  # `executor: ray`: earlier attempts lost with their node, whose spend is not known


class Mutator(Protocol):
    def check(self) -> None:
        """Raise a `MutatorError` now if this mutator cannot run at all (missing key, command, file)."""
        ...

    def mutate(self, request: MutationRequest) -> MutationResult:
        """Rewrite the artifact in place; raise `MutationFailed` when this attempt failed."""
        ...


SUMMARY_LIMIT = 200
CLOSING = re.compile(
    r"\b(close[sd]?|fix(?:e[sd])?|resolve[sd]?)(\s*:\s*|\s+)(?=#\d|gh-\d|[\w.-]+/[\w.-]+#\d|https?://)", re.IGNORECASE
)
"""GitHub's closing keyword before an issue reference, in any of the forms it reads."""
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""What no commit message nor terminal takes from a mutator: a NUL (git's arguments end at one), an escape
sequence's ESC (a terminal that `log` prints to obeys it), any other control, and a lone surrogate (no UTF-8)."""


def one_line(text: str) -> str:
    """A summary as it goes into the commit message and iterations.jsonl: one line, no secrets, and no
    closing reference: "Fixes #12" in a KEEP's commit would close the user's issue 12 once the branch is
    pushed, on a model's word. A zero-width space before the reference keeps the text and disarms it.
    An `UNPRINTABLE` character is shown as U+FFFD: a NUL in a changelog ended the night at the commit."""
    line = " ".join(redact(text).split())  # masked first: a key of several lines is masked whole
    line = UNPRINTABLE.sub("\ufffd", line)
    line = CLOSING.sub("\\1\\2\u200b", line)
    return cut(line, SUMMARY_LIMIT)


def summary_from(changelog: Path, fallback_output: str) -> str:
    """The first line of mutation.md if the mutator wrote one, else the last non-empty output line. Lines end
    at a newline alone: `str.splitlines` also ended one at U+2028 or U+0085, and cut a summary there."""
    if changelog.is_file():
        for line in jsonlines.lines(changelog.read_text(encoding="utf-8", errors="replace")):
            if line.strip():
                return one_line(line.lstrip("# ").strip())
    lines = [ln for ln in jsonlines.lines(fallback_output) if ln.strip()]
    return one_line(lines[-1]) if lines else "(no summary)"
