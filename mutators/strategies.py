"""Search strategies: named instruction variants (and, for an LLM mutator, model settings) that the
siblings of a cycle with parallel candidates follow, so that K candidates explore K different
directions instead of K samples of the same one."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Strategy(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    """A short name (letters, digits, `.`, `_`, `-`): it goes into the commit message and iterations.jsonl."""
    instructions: str = ""
    """What this strategy asks of the mutator, added to its instructions (and in AUTORESEARCH_STRATEGY_INSTRUCTIONS)."""
    model: str | None = Field(default=None, min_length=1)
    """LLM mutators: the model this strategy uses instead of `mutator.model`."""
    temperature: float | None = Field(default=None, ge=0)
    """LLM mutators: the sampling temperature this strategy uses instead of `mutator.temperature`."""


BUILTIN: tuple[Strategy, ...] = (
    Strategy(
        name="fix-failing",
        instructions="Find the assertion that fails on the most tests and make the one change most likely to fix it.",
    ),
    Strategy(
        name="simplify",
        instructions=(
            "Make the artifact simpler: remove or merge instructions that do not help any passing test, "
            "without breaking one. A shorter artifact that scores the same is an improvement."
        ),
    ),
    Strategy(
        name="clarify",
        instructions=(
            "Rewrite the part behind the failing tests for clarity: say plainly what is expected, "
            "in the order it is needed, with one example where one helps."
        ),
    ),
)


def assign(strategies: tuple[Strategy, ...], k: int, shift: int) -> list[Strategy]:
    """The strategy of each of the K siblings: round-robin from `shift` (which the loop advances when the
    experiment plateaus, so a strategy that got stuck gives way)."""
    return [strategies[(shift + i) % len(strategies)] for i in range(k)]


def rotation(decisions: list[str], period: int) -> int:
    """How many times the assignment has rotated: once at every `period`-th cycle in a row without a KEEP."""
    shift = streak = 0
    for decision in decisions:
        streak = 0 if decision == "keep" else streak + 1
        if streak and streak % period == 0:
            shift += 1
    return shift
