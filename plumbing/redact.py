"""Secret values of the environment, masked wherever outside text enters what we write or print.

A key echoed by an eval, a target, a grader, a provider or a mutator must not
reach a log, an error message, a result file, a commit message or the chart.
Text from outside passes through `redact` where it enters (`process.tail`, every
excerpt of a command's output; mutation summaries) and where errors are written
(an error cycle, an index row's `error`, the log processor, the CLI's error
boundary). providers stays a leaf: its errors are masked at those sinks.
"""

from __future__ import annotations

import os
from typing import Any

SECRET_SUFFIXES = ("_KEY", "_TOKEN", "_SECRET", "_PASSWORD")
MASK = "***"
MIN_LENGTH = 8  # shorter values ("1", "true") would mask ordinary words


def secret_values() -> list[str]:
    """Values of variables named like secrets, read now: `.env` loading may have added some."""
    # names first: decoding every value of the environment each time cost more than the rest
    values = [os.environ[name] for name in os.environ if name.upper().endswith(SECRET_SUFFIXES)]
    return sorted((v for v in values if len(v) >= MIN_LENGTH), key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    for secret in secret_values() if secrets is None else secrets:
        text = text.replace(secret, MASK)
    return text


def redact_tree(value: Any, secrets: list[str] | None = None) -> Any:
    """A JSON-like value with every string in it, keys included, passed through `redact`."""
    secrets = secret_values() if secrets is None else secrets
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {redact(str(k), secrets): redact_tree(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_tree(v, secrets) for v in value]
    return value
