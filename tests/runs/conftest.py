"""Fixtures for the built-in runner's tests: the AgentV compat cases (tests/runs/compat/*), eval trees in tmp dirs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

COMPAT_ROOT = Path(__file__).resolve().parent / "compat"
COMPAT_CASES = sorted(p.name for p in COMPAT_ROOT.iterdir() if (p / "expected.jsonl").is_file())


def copy_case(name: str, tmp_path: Path) -> Path:
    """A writable copy of one compat case, so a test never writes into the repository."""
    target = tmp_path / "compat" / name
    shutil.copytree(COMPAT_ROOT / name, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target


@pytest.fixture(params=COMPAT_CASES)
def compat_case(request, tmp_path: Path) -> Path:
    """Each compat case directory (one with an expected.jsonl recorded by the real agentv), copied."""
    return copy_case(request.param, tmp_path)
