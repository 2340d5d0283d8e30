"""iterations.jsonl: one JSON object per cycle, appended whole or not at all.

Field names follow AgentV's autoresearch mode so its tools read our files;
extra fields are allowed and readers ignore what they do not know.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from plumbing.redact import redact_tree
from plumbing.clock import utc_now


class Iteration(BaseModel):
    model_config = ConfigDict(extra="allow")

    cycle: int = Field(ge=1)
    score: float
    decision: Literal["keep", "drop", "error"]
    cost_usd: float = 0.0
    assertions: dict[str, float] = Field(default_factory=dict)
    mutation: str = ""
    run_dir: str = ""
    timestamp: str = Field(default_factory=lambda: utc_now())


def append(path: Path, record: Iteration) -> None:
    """Append one line with a single write and fsync, so a crash leaves whole lines only.

    The line is strict JSON (a NaN or an infinity is a bug upstream, raised here before anything
    is written: other readers reject them) and carries no secret of the environment, whatever
    text reached the record (a grader's name, an error, a summary).
    """
    line = (json.dumps(redact_tree(record.model_dump(mode="json")), ensure_ascii=False, allow_nan=False) + "\n").encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        _drop_partial_tail(fd, path)
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def _drop_partial_tail(fd: int, path: Path) -> None:
    """A power cut can leave a final line without its newline; cut it before appending after it."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    with open(path, "rb") as f:
        data = f.read()
    os.ftruncate(fd, data.rfind(b"\n") + 1)


def read(path: Path) -> tuple[list[Iteration], int]:
    """(records, number of lines that did not parse). A missing file is an empty history."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return [], 0
    records, bad = [], 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            records.append(Iteration.model_validate_json(line))
        except ValueError:
            bad += 1
    return records, bad
