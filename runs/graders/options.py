"""The pydantic base of the graders' options: every grader's but the text graders' (`autoresearch.runs.graders.plain`).

Apart from `base` so that importing the graders' shared types does not import pydantic: an eval whose graders
are all text graders never loads it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Options(BaseModel):
    """A grader's own fields; unknown ones are errors reported by name."""

    model_config = ConfigDict(extra="forbid")
