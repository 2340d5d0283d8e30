"""Shared fixtures. Subpackages keep their own fixtures in their own conftest.py."""

from __future__ import annotations

import pytest

from tests.helpers.fake_llm import fake_llm  # noqa: F401  (the wire-level fake LLM server, for every package's tests)


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    """Commits made in tests need an identity; never read the developer's own git config."""
    from tests.helpers.repos import GIT_ENV

    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
