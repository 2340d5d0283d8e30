"""What an eval target's model costs: `eval.prices`, else the shipped table.

providers counts a model it has no price for as $0 and warns about
`mutator.prices`, which does not apply to targets. So a target hands the
providers a table that always prices its model, and says itself, once per
model, that the model counts as $0 and where its price goes.
"""

from __future__ import annotations

import logging
import threading

from autoresearch.providers.prices import price_of
from autoresearch.runs.targets.specs import TargetSpec

log = logging.getLogger("autoresearch.runs")
FREE = {"input_per_mtok": 0.0, "output_per_mtok": 0.0}
_warned: set[str] = set()
_warned_lock = threading.Lock()


def model(spec: TargetSpec) -> str:
    return str(spec.options.get("model", ""))


def unpriced(specs: dict[str, TargetSpec]) -> dict[str, str]:
    """{target name: model} of the LLM targets and graders whose model has no price."""
    return {name: model(spec) for name, spec in specs.items() if price_of(model(spec), spec.prices) is None}


def table_for(spec: TargetSpec) -> dict[str, dict[str, float]]:
    """The price table for calls to this target: `eval.prices`, with an unpriced model at $0 (said once)."""
    name = model(spec)
    if price_of(name, spec.prices) is not None:
        return spec.prices
    with _warned_lock:
        first = name not in _warned
        _warned.add(name)
    if first:
        log.warning(
            "no price for eval target model %r: its calls count as $0 (add it under eval.prices: "
            "{%s: {input_per_mtok: ..., output_per_mtok: ...}})",
            name,
            name,
        )
    return {**spec.prices, name: FREE}
