"""Cost of a call from its token usage: a shipped price table (prices.json) plus the user's overrides.

A model missing from both costs 0; that is said once per model in a warning,
so a budget that never moves is explained rather than silently wrong.
"""

from __future__ import annotations

import json
import logging
import threading
from functools import lru_cache
from importlib import resources

from autoresearch.plumbing.jsontypes import JSONObject

log = logging.getLogger("autoresearch.providers")
_warned: set[str] = set()
_warned_lock = threading.Lock()


@lru_cache(maxsize=1)
def shipped() -> dict[str, dict[str, float]]:
    table = json.loads(resources.files(__package__).joinpath("prices.json").read_text(encoding="utf-8"))
    return {model: price for model, price in table.items() if not model.startswith("_")}


def price_of(model: str, overrides: dict[str, dict[str, float]] | None = None) -> dict[str, float] | None:
    """The user's exact entry, else the longest shipped prefix of `model` (dated snapshots share a price)."""
    if overrides and model in overrides:
        return overrides[model]
    table = shipped()
    matches = [name for name in table if model == name or model.startswith(name + "-")]
    return table[max(matches, key=len)] if matches else None


def cost_usd(
    model: str,
    input_tokens: int,
    output_tokens: int,
    overrides: JSONObject | None = None,
    *,
    cached_tokens: int = 0,
    cache_write_tokens: int = 0,
) -> float:
    """`cached_tokens` and `cache_write_tokens` are part of `input_tokens` (as the Responses API counts them):
    priced at the model's cache rates where the table has them, else as input. An agent resends its whole
    conversation every turn, so most of its input is cached, at a twentieth of the price."""
    price = price_of(model, overrides)
    if price is None:
        _warn_once(model)
        return 0.0
    rate = price["input_per_mtok"]
    fresh = max(input_tokens - cached_tokens - cache_write_tokens, 0)
    cost = (
        fresh * rate
        + cached_tokens * price.get("cached_input_per_mtok", rate)
        + cache_write_tokens * price.get("cache_write_per_mtok", rate)
        + output_tokens * price["output_per_mtok"]
    )
    return cost / 1_000_000


def _warn_once(model: str) -> None:
    with _warned_lock:
        if model in _warned:
            return
        _warned.add(model)
    log.warning(
        "no price for model %r: its calls count as $0 (add it under mutator.prices: "
        "{%s: {input_per_mtok: ..., output_per_mtok: ...}})",
        model,
        model,
    )
