"""Fixtures for the mutator tests: the wire-level fake LLM server."""

from tests.helpers.fake_llm import fake_llm  # noqa: F401 (a fixture, used by name)
