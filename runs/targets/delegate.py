"""`use_target`: a target that stands for another (AgentV's delegation), followed as AgentV 4.42.4's CLI follows it.

A name may be written as `${{ VAR }}`, read from the environment when the
run starts: a file that `validate` accepts may name a variable only set on
the machine that runs it, so an unset one is the run's error, not the
file's. AgentV follows at most five links; a chain still unresolved after
them (or a loop) names no concrete target, and AgentV then fails the run.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from autoresearch.runs.targets.specs import TargetSpec

ENV_REFERENCE = re.compile(r"^\$\{\{\s*([A-Z0-9_]+)\s*\}\}$", re.IGNORECASE)
MAX_LINKS = 5


@dataclass(frozen=True)
class Followed:
    name: str | None = None  # the concrete target
    problem: str | None = None  # the file's error: a name no target has
    unresolved: str | None = None  # the run's error: nothing concrete to run (an unset variable, a loop)


def follow(name: str, specs: dict[str, TargetSpec]) -> Followed:
    current = specs[name]
    chain = [name]
    for _ in range(MAX_LINKS):
        raw = current.use_target
        if not raw:
            return Followed(current.name)
        match = ENV_REFERENCE.match(raw)
        variable = match.group(1) if match else None
        resolved = (os.environ.get(variable, "") if variable else raw).strip()
        if not resolved:  # only a variable can be empty: parsing keeps no blank use_target
            return Followed(
                unresolved=f"target {name!r}: use_target reads {variable}, which is not set: set it to a target's name"
            )
        following = specs.get(resolved)
        if following is None:
            defined = ", ".join(sorted(n for n, s in specs.items() if not s.use_target))
            message = f"target {name!r}: use_target {resolved!r} is not a defined target (defined: {defined})"
            return Followed(unresolved=message) if variable else Followed(problem=message)
        current = following
        chain.append(resolved)
    if current.use_target:
        return Followed(
            unresolved=f"target {name!r} names no concrete target in {MAX_LINKS} links: {' -> '.join(chain)}"
        )
    return Followed(current.name)
