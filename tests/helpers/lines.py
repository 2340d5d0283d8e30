"""Comparing iterations lines of two runs of the same plan: what must agree, leaving out what cannot
(times, run directory names, commit shas, the wording of a recovery)."""

from __future__ import annotations

VARYING = {"timestamp", "duration_s", "run_dir", "commit", "reason"}


def comparable(line: dict, *racy: str) -> dict:
    """The line without its varying fields nor the `racy` ones (in the line and in its candidates); a
    candidate's saved patch reduced to whether it has one."""
    fields = {k: v for k, v in line.items() if k not in VARYING.union(racy)}
    if "candidates" in fields:
        fields["candidates"] = [
            {**{k: v for k, v in c.items() if k not in racy}, "patch": bool(c.get("patch"))}
            for c in fields["candidates"]
        ]
    return fields
