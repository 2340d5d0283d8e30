"""`target: {extends: NAME, <overrides>}` of the Experiments page: a target of targets.yaml with some fields replaced.

The derived target is NAME's definition with the eval file's fields put over
it (`id`, when given, names it; otherwise it replaces NAME for this run). It
is checked as any target is (except that `model` may be written out: a model
name is no secret), so a bad override is an error naming the eval
file's `target.<field>`; extending a target nobody defined is an error too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from autoresearch.runs.evalfile.interpolate import reference_name
from autoresearch.runs.evalfile.problems import Problems
from autoresearch.runs.targets.specs import TargetSpec, agentv5_target, parse_targets

NOT_FIELDS = ("extends", "id", "hooks")


def extend(items: list[Any], target: dict[str, Any], specs: dict[str, TargetSpec], problems: Problems) -> None:
    """Add (or replace) the derived target in `specs`; its problems are the eval file's, under `target.*`."""
    base_name = target["extends"].strip()
    shaped = (agentv5_target(item) for item in items)  # a 5.x targets file names its targets by `id`
    base = next((item for item in shaped if isinstance(item, dict) and item.get("name") == base_name), None)
    if base is None:
        problems.add(
            None,
            "target.extends",
            f"no target named {base_name!r} to extend (defined: {', '.join(sorted(specs)) or 'none'})",
        )
        return
    name = target.get("id") or base_name
    overrides = {k: v for k, v in target.items() if k not in NOT_FIELDS}
    model = overrides.get("model")
    literal_model = isinstance(model, str) and reference_name(model) is None
    if literal_model:  # the page's `model: gpt-5.1`: a model name is no secret, unlike a key
        del overrides["model"]
    own = Problems(problems.file)
    parsed = parse_targets([{**base, **overrides, "name": name}], own)
    prefix = f"targets[{name}]"
    for p in own.items:
        problems.add(p.test_id, p.field.replace(prefix, "target", 1), p.message)
    for spec in parsed.values():
        if literal_model:
            spec.options["model"] = model
        spec.notes = [replace(n, file=problems.file, field=n.field.replace(prefix, "target", 1)) for n in spec.notes]
    specs.update(parsed)
