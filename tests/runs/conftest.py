"""Fixtures for the built-in runner's tests: the AgentV compat cases (tests/runs/compat), eval trees in tmp dirs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

COMPAT = Path(__file__).resolve().parent / "compat" / "agentv"


@pytest.fixture
def compat_dir(tmp_path: Path) -> Path:
    """A writable copy of the compat cases, so a test never writes into the repository."""
    target = tmp_path / "compat"
    shutil.copytree(COMPAT, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target
