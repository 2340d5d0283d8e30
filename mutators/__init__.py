"""Mutators: whatever rewrites the artifact between cycles (an LLM, a command, a replay)."""
