"""What a command mutator spent, read from what it reports: a coding agent's own report, or a cost file.

The loop cannot see what a coding-agent CLI pays its model, yet it is most of
a night's spend. Each entry of `READERS` is a plain function that reads one
kind of report out of what the finished command left (its standard output,
the file at `$AUTORESEARCH_COST_FILE`) and gives a `Spend`, or None when that
report is not there. Another agent's report is one more function and one
line in `READERS`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autoresearch.mutators import codex_spend
from autoresearch.plumbing import jsonlines
from autoresearch.plumbing.errors import AutoresearchError
from autoresearch.plumbing.jsontypes import JSONObject

COST_FILE_VARIABLE = "AUTORESEARCH_COST_FILE"


@dataclass(frozen=True)
class Spend:
    """One mutation's spend, as its command reported it."""

    cost_usd: float | None = None  # None: this report tells no cost (it may still carry the agent's reply)
    tokens_in: int = 0
    tokens_out: int = 0
    # The agent's final message: the summary when it wrote no changelog, never its raw JSON. None: not an agent's
    # output; "": an agent's output that ends without a message (the summary is then "(no summary)").
    reply: str | None = None


@dataclass(frozen=True)
class Report:
    """What a finished command mutator left that may tell its spend."""

    stdout: str
    cost_file: Path  # where it was told to write one (it may not have)
    command: str = ""  # its command line (Codex's model is named there, or in Codex's config)
    environ: Mapping[str, str] = field(default_factory=dict)  # the environment it ran with (finds that config)
    prices: dict[str, dict[str, float]] = field(default_factory=dict)  # `mutator.prices`, before the shipped table


class Unreadable(AutoresearchError):
    """A report that is there but malformed: its message is the one-line warning (`read` catches it: a
    malformed report never fails a mutation)."""


SpendReader = Callable[[Report], Spend | None]


class _CostFile(BaseModel):
    """`$AUTORESEARCH_COST_FILE`: a JSON object such as {"cost_usd": 0.42}."""

    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)  # built when a cost file is read

    cost_usd: float = Field(ge=0, allow_inf_nan=False)
    tokens_in: int = Field(default=0, ge=0)
    tokens_out: int = Field(default=0, ge=0)


def from_cost_file(report: Report) -> Spend | None:
    """The file a mutator wrote at `$AUTORESEARCH_COST_FILE` (a wrapper script that knows its agent's cost)."""
    path = report.cost_file
    if not path.exists() and not path.is_symlink():
        return None
    where = f"${COST_FILE_VARIABLE} ({path})"
    if path.is_symlink() or not path.is_file():
        raise Unreadable(f"{where} is not a regular file")
    try:
        read = _CostFile.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise Unreadable(f"{where} cannot be read: {exc.strerror}") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(p) for p in error["loc"]) or "(the whole file)"
        raise Unreadable(f'{where}: field {field!r}: {error["msg"]} (expected {{"cost_usd": 0.42}})') from None
    return Spend(read.cost_usd, read.tokens_in, read.tokens_out)


def from_claude_code(report: Report) -> Spend | None:
    """Claude Code's result object (`claude -p --output-format json`, or the last line of `stream-json`):
    `total_cost_usd`, which it prices itself, its token usage, and `result`, its final message."""
    result = _last_result(report.stdout)
    if result is None:
        return None
    usage = result.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    caches = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    reply = result.get("result")
    return Spend(
        _cost(result.get("total_cost_usd")),
        sum(_count(usage, key) for key in caches),
        _count(usage, "output_tokens"),
        reply if isinstance(reply, str) and reply.strip() else "",
    )


def from_codex(report: Report) -> Spend | None:
    """Codex's `codex exec --json` events: their token usage, which Codex does not price, priced with the
    shipped table as the model its command line or its config names; its last message as the reply."""
    model = codex_spend.model_of(report.command, report.environ)
    found = codex_spend.read(report.stdout, model, report.prices or None)
    return None if found is None else Spend(found.cost_usd, found.tokens_in, found.tokens_out, found.reply)


def _last_result(stdout: str) -> JSONObject | None:
    """Claude Code's last `{"type": "result", ...}` line in the output (`json` prints only that one)."""
    for line in reversed(jsonlines.lines(stdout)):
        if not line.lstrip().startswith("{"):
            continue
        try:
            found = json.loads(line)
        except ValueError:
            continue
        if isinstance(found, dict) and found.get("type") == "result":
            return found
    return None


def _cost(value: object) -> float | None:
    """A cost as a report may give it: a finite number, not negative (and not a JSON true)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return None
    return float(value)


def _count(usage: JSONObject, key: str) -> int:
    value = usage.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


# In order: the first that tells a cost is the one counted (a cost file, written on purpose, comes first).
READERS: dict[str, SpendReader] = {
    "cost-file": from_cost_file,
    "claude-code": from_claude_code,
    "codex": from_codex,
}


@dataclass(frozen=True)
class Reading:
    """What the readers made of one mutation's reports."""

    spend: Spend | None  # the first that tells a cost; None: the spend is not counted
    reply: str | None  # the first agent reply found; "": an agent's output without one; None: no agent's output
    warnings: tuple[str, ...]  # one line for each malformed report


def read(report: Report) -> Reading:
    """Every reader's view of `report`; a malformed report is a warning, never an error of the mutation."""
    found: list[Spend] = []
    warnings: list[str] = []
    for reader in READERS.values():
        try:
            spend = reader(report)
        except Unreadable as exc:
            warnings.append(f"ignored the mutator's spend report: {exc}")
            continue
        if spend is not None:
            found.append(spend)
    counted = next((s for s in found if s.cost_usd is not None), None)
    replies = [s.reply for s in found if s.reply is not None]
    reply = next((r for r in replies if r), "" if replies else None)
    return Reading(counted, reply, tuple(warnings))
