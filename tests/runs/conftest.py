"""Fixtures for the built-in runner's tests: the AgentV compat cases copied out of shared/, eval trees in tmp dirs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

COMPAT = Path(__file__).resolve().parents[2].parent / "shared" / "compat" / "agentv"


@pytest.fixture
def compat_dir(tmp_path: Path) -> Path:
    """A writable copy of ../shared/compat/agentv, so nothing is ever written into shared/."""
    target = tmp_path / "compat"
    shutil.copytree(COMPAT, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target
