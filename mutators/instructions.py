"""The mutator instructions, filled in with the paths of one mutation."""

from __future__ import annotations

import json
from importlib import resources

from autoresearch.mutators.base import MutationRequest


def render(request: MutationRequest, changelog_by_reply: bool = False) -> str:
    """The instructions for one mutation. A mutator that cannot write files outside the artifact
    (the LLM mutator) gives its changelog as its final reply instead of writing mutation.md."""
    changelog_step = (
        "When the change is written, reply with a short changelog (it is saved for you)"
        if changelog_by_reply
        else f"Write a short changelog to {request.changelog_written}"
    )
    template = resources.files(__package__).joinpath("instructions.md").read_text(encoding="utf-8")
    scope = "this file only" if request.mode == "file" else "files under this directory only"
    text = template.format(
        mode=request.mode,
        artifact=request.artifact,
        run_dir=request.run_dir,
        iterations=request.iterations,
        digest=request.digest,
        initial_sha=request.initial_sha,
        cycle=request.cycle,
        pass_rates=json.dumps(request.pass_rates, sort_keys=True),
        scope=scope,
        changelog_step=changelog_step,
    )
    if request.sibling is None:
        return text
    return (
        f"{text.rstrip()}\n\n## Your strategy: {request.strategy}\n\n"
        f"You are candidate {request.sibling} of several made from HEAD at once, each following its own strategy. "
        f"{request.strategy_instructions}\n"
    )
