"""YAML read as AgentV reads it (YAML 1.2 core schema): `2025-01-01` and `yes` stay strings.

PyYAML's safe loader follows YAML 1.1, which turns dates into `datetime.date`
and `yes`/`no`/`on`/`off` into booleans; AgentV's parser keeps them as text,
so a test whose input is a date would otherwise be refused or sent differently.
"""

from __future__ import annotations

import re
from typing import Any

import yaml


class CoreLoader(yaml.SafeLoader):
    """SafeLoader without the YAML 1.1 timestamp and yes/no/on/off implicit types."""


CoreLoader.yaml_implicit_resolvers = {
    first: [
        (tag, regexp)
        for tag, regexp in resolvers
        if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")
    ]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=CoreLoader)  # noqa: S506 - a SafeLoader subclass
