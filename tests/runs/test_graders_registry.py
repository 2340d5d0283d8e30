"""The graders' registry (`autoresearch.runs.graders.HOMES`): each type is found in the module the table names.

A type is imported with its module on first use, so the table, not the modules, says which types exist; a
grader added to a module's `GRADERS` and not to the table would be an unknown type to the parser.
"""

from __future__ import annotations

import pkgutil
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module

from autoresearch.runs import graders
from autoresearch.runs.graders import HOMES, REGISTRY, Registry


def test_the_table_names_every_grader_of_every_module_and_nothing_else():
    listed: dict[str, set[str]] = defaultdict(set)
    for kind, home in HOMES.items():
        listed[home].add(kind)
    found = {}
    for info in pkgutil.iter_modules(graders.__path__):
        module = import_module(f"{graders.__name__}.{info.name}")
        if hasattr(module, "GRADERS"):
            found[info.name] = set(module.GRADERS)
    found["composite"] = {"composite"}  # built where the table is read: it is handed the registry
    assert found == dict(listed)


def test_the_registry_gives_each_type_its_modules_grader():
    for kind, home in HOMES.items():
        grader = REGISTRY[kind]
        assert type(grader).__module__ == f"{graders.__name__}.{home}"
        assert REGISTRY.get(kind) is grader and kind in REGISTRY
    assert REGISTRY.get("no-such-type") is None and "no-such-type" not in REGISTRY
    assert sorted(REGISTRY) == sorted(HOMES) and len(REGISTRY) == len(HOMES)


def test_threads_that_ask_for_one_type_at_once_get_one_grader():
    fresh = Registry(HOMES)
    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(lambda _: fresh["composite"], range(32)))
    assert len({id(grader) for grader in found}) == 1
