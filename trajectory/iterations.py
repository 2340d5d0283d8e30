"""iterations.jsonl: one JSON object per cycle, appended whole or not at all.

Field names follow AgentV's autoresearch mode so its tools read our files.
Every field the daemon writes is declared below; a line read may carry others
(another tool's), which are kept and ignored, but a line written (`append`)
may not: a field we do not declare is a misspelt one of ours.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)

from autoresearch.plumbing import folders
from autoresearch.plumbing.clock import utc_now
from autoresearch.plumbing.errors import writing
from autoresearch.plumbing.redact import redact_tree, shown_in_json
from autoresearch.plumbing.surrogates import utf8, validate_json

Decision = Literal["keep", "drop", "error"]
_LINE = json.JSONEncoder(ensure_ascii=False, allow_nan=False)  # json.dumps with these made an encoder a line


def _or_none(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """An optional field written in another shape (by another tool, or by hand) reads as absent: the
    line stays readable, as it did when these fields were undeclared."""
    try:
        return handler(value)
    except ValidationError:
        return None


def _number_or_none(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    return None if isinstance(value, bool) else _or_none(value, handler)  # a number field never takes a boolean


Text = Annotated[str | None, WrapValidator(_or_none)]
Flag = Annotated[bool | None, WrapValidator(_or_none)]
Count = Annotated[int | None, WrapValidator(_number_or_none)]
# An optional measurement: written as null when it is not a finite number (a clock that jumped, a
# division by zero upstream), where a required one (the score, the cost) is refused at `append`.
Measure = Annotated[
    float | None,
    WrapValidator(_number_or_none),
    PlainSerializer(lambda v: v if v is None or math.isfinite(v) else None),
]


def _finite(model: BaseModel) -> BaseModel:
    """A line's fields of another tool's (or a hand's) hold no NaN or infinity: `log --json` printed them as
    they came, which no strict JSON reader (jq, JavaScript's JSON.parse) takes. Declared numbers refuse them
    (`allow_inf_nan`); the line is then one that does not parse, as with any other bad field."""
    if model.model_extra:
        json.dumps(model.model_extra, allow_nan=False)  # ValueError at the first non-finite number
    return model


class Candidate(BaseModel):
    """One of a cycle's candidates when `search.candidates` > 1; the cycle's own fields describe its outcome."""

    model_config = ConfigDict(extra="allow", allow_inf_nan=False)
    finite_extras = model_validator(mode="after")(_finite)

    index: int = Field(ge=0)  # the sibling index; merge candidates are numbered after the siblings
    decision: Decision
    strategy: str = ""
    summary: str = ""
    score: Measure = None
    wins: Count = None
    losses: Count = None
    reason: Text = None
    cost_usd: float = 0.0
    lost_attempts: Count = None  # `executor: ray`: its mutation attempts lost with their node (spend not known)
    eval_lost_attempts: Count = None  # `executor: ray`: its evals' task attempts lost with their node (the same)
    patch: Text = None  # a candidate not kept: its saved patch, relative to the experiment's results directory
    merge_of: Annotated[list[int] | None, WrapValidator(_or_none)] = None  # a merge: the siblings it combines
    parent: Text = None  # search.parents: pareto: the earlier candidate it started from, `<cycle>-<index>` (none: HEAD)


@dataclass(frozen=True)
class Partial:
    """A score over some of the eval's tests: an early discard stopped the rest (optimizer/cycle/early.py)."""

    scored: int
    total: int

    def __str__(self) -> str:
        return f"over {self.scored} of {self.total} tests (discarded early)"


class Iteration(BaseModel):
    # pydantic keeps the strings it reads in a cache of 16,384 shared by every model: a night's run
    # directories, timestamps and commits filled it (about 150 bytes a line read, held for good); field
    # names repeat and are worth caching, values never repeat
    model_config = ConfigDict(extra="allow", cache_strings="keys", allow_inf_nan=False)
    finite_extras = model_validator(mode="after")(_finite)

    cycle: int = Field(ge=1)
    score: float
    decision: Decision
    cost_usd: float = 0.0
    assertions: dict[str, float] = Field(default_factory=dict)
    mutation: str = ""
    run_dir: str = ""
    timestamp: str = ""  # stamped by `append`; a line read without one (another tool's, a hand-written one) is
    # of unknown time, drawn "–": a default of now would change on every read of the same line
    duration_s: Measure = None
    reason: Text = None  # why the decision (a rule's words, "original", a veto)
    commit: Text = None  # a KEEP's commit
    tests: Count = None  # how many tests the score is over: the original's (all), an early discard's (those it ran)
    error: Text = None  # an error cycle's message, redacted
    error_reason: Text = None  # an error cycle's kind: eval-failed, no-change, out-of-scope, ...
    # the measuring stick: which eval measured this line (the result cache's eval key), and whether the line is
    # HEAD measured again because the eval changed since HEAD's results (no decision compares two evals)
    eval_key: Text = None  # absent on lines of older versions: unknown
    rebaseline: Flag = None
    rows_sha256: Text = None  # a KEEP's index.jsonl as decided: the next run's baseline, checked at resume
    holdout_rows_sha256: Text = None  # a KEEP's held-out index.jsonl as decided (with a holdout): the same
    holdout_sha256: Text = None  # the split (holdout.json) the KEEP was decided with: checked at resume the same
    # the comparison with HEAD's results, as `agentv compare` summarizes it
    wins: Count = None
    losses: Count = None
    ties: Count = None
    mean_delta: Measure = None
    # what the mutation spent
    mutation_cost_usd: Measure = None
    tokens_in: Count = None
    tokens_out: Count = None
    # `executor: ray`: the mutation attempts lost with their node (each run again, or the candidate's error); what
    # they spent is not known, and not in mutation_cost_usd
    mutation_lost_attempts: Count = None
    # the result cache, repeats and early discards (present only when they were involved)
    eval_runs: Count = None
    cache_hits: Count = None
    skipped_tests: Count = None
    # `executor: ray`: the eval tasks' attempts lost with their node (each run again, or its test's execution_error);
    # what they spent is not known, and not in cost_usd
    eval_lost_attempts: Count = None
    # the significant rule's evidence
    samples: Count = None  # candidate runs drawn (HEAD's after a KEEP skip them: the winner's curse)
    head_samples: Count = None
    p_value: Measure = None
    interval: Annotated[list[float] | None, WrapValidator(_or_none)] = None
    # the holdout guard
    holdout_score: Measure = None
    holdout_tests: Count = None
    holdout_regressed: Flag = None
    holdout_z: Measure = None
    # parallel candidates (search.candidates > 1)
    strategy: Text = None  # the strategy of the candidate the cycle's decision is about
    candidates: Annotated[list[Candidate] | None, WrapValidator(_or_none)] = None
    parent: Text = None  # the shown candidate's parent, as its entry in `candidates` says (none: HEAD)
    # a batch made ahead (search.overlap): its edits, how many carried onto the new HEAD, and the mutation spend
    # of those that did not (on the line before, within its mutation_cost_usd: lost to the overlap)
    made_ahead: Count = None
    carried: Count = None
    overlap_lost_usd: Measure = None
    overlap_lost_tokens_in: Count = None
    overlap_lost_tokens_out: Count = None
    # objectives and promotion gates (autoresearch.policies.objectives, autoresearch.policies.gates)
    objectives: Annotated[dict[str, float] | None, WrapValidator(_or_none)] = (
        None  # overall: correctness, cost, latency_p50, ...
    )
    composite: Measure = None  # the score the keep rule decided on, when `objectives:` weights are set
    gate: Text = None  # the gate that blocked a candidate the keep rule would have kept
    # a pick of several candidates decided again (autoresearch.optimizer.cycle.confirm): its first run's figures
    selected_score: Measure = None
    selected_wins: Count = None
    selected_losses: Count = None

    @property
    def measures_head(self) -> bool:
        """The original (cycle 1) or a re-baseline: HEAD measured as it is, no change decided on."""
        return self.cycle == 1 or bool(self.rebaseline)

    @property
    def partial(self) -> Partial | None:
        """An early discard's score is over the tests it ran, not all of them: how many of how many."""
        if not self.skipped_tests:
            return None
        scored = self.tests if self.tests is not None else sum(n or 0 for n in (self.wins, self.losses, self.ties))
        return Partial(scored, scored + self.skipped_tests)


def append(path: Path, record: Iteration) -> None:
    """Append one line with a single write and fsync, so a crash leaves whole lines only."""
    append_line(path, encoded(record))


def encoded(record: Iteration) -> bytes:
    """The record's line. Strict JSON (a NaN or an infinity is a bug upstream, raised here before anything
    is written: other readers reject them), with no secret of the environment, whatever text reached the
    record (a grader's name, an error, a summary), and UTF-8 whatever that text holds (a lone surrogate is
    written as its escape: autoresearch.plumbing.surrogates)."""
    undeclared = unknown_fields(record)
    if undeclared:
        raise ValueError(f"refusing to write fields no line declares: {', '.join(undeclared)}")
    data = fields(record)
    if not record.timestamp:  # "" is dumped in its place among the fields: stamped there
        data["timestamp"] = utc_now()
    line = _LINE.encode(data)
    if shown_in_json(line):  # masked only where a secret may show: the walk is most of a line's writing
        line = _LINE.encode(redact_tree(data))
    return utf8(line + "\n")


def fields(record: Iteration) -> dict[str, Any]:
    """The record's fields as its line holds them. Dumped as Python values, which are JSON's here: pydantic's
    JSON mode wrote a key holding a lone surrogate (an assertion's name) as three U+FFFD, and two such names
    became one."""
    return record.model_dump(exclude_none=True)


def append_line(path: Path, line: bytes, sync: bool = True) -> os.stat_result:
    """Append `line` (an `encoded` record) with a single write, and fsync unless not `sync`; returns the
    file's status after it. A write the disk takes only in part (full: the kernel writes what fits and
    says how many bytes, with no error) is cut off again and raised: no torn line is left for the next
    append to write after. A symbolic link in the file's place (an unsandboxed mutator's, or a process it
    left behind) is not written through: OSError (ELOOP), and the file the link names is untouched."""
    fd = folders.within(path.parent, lambda: os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644))
    try:
        size = _drop_partial_tail(fd, path)
        with writing(path):
            try:
                done = os.write(fd, line)
                while done < len(line):  # the next write raises (ENOSPC, EFBIG) where nothing more fits
                    done += os.write(fd, line[done:])
            except OSError:
                os.ftruncate(fd, size)
                raise
            if sync:
                os.fsync(fd)
        return os.fstat(fd)
    finally:
        os.close(fd)


def unknown_fields(record: Iteration) -> list[str]:
    """The fields of a line, or of its candidates' entries, that the models do not declare (kept on reading)."""
    names = list(record.model_extra or {})
    for entry in record.candidates or []:
        names += [f"candidates[{entry.index}].{name}" for name in entry.model_extra or {}]
    return names


def _drop_partial_tail(fd: int, path: Path) -> int:
    """A power cut can leave a final line without its newline; cut it before appending after it. Returns
    the size left."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return size
    with open(path, "rb") as f:
        data = f.read()
    size = data.rfind(b"\n") + 1
    os.ftruncate(fd, size)
    return size


def read(path: Path) -> tuple[list[Iteration], int]:
    """(records, number of lines that did not parse). A missing file is an empty history."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return [], 0
    return _parse(text)


def _parse(text: str) -> tuple[list[Iteration], int]:
    records, bad = [], 0
    for record in parsed(text):
        if record is None:
            bad += 1
        else:
            records.append(record)
    return records, bad


def parsed(text: str) -> Iterator[Iteration | None]:
    """Each non-blank line's record, or None for a line that does not parse, one at a time: a reader that
    keeps less than the record holds one whole record at a time, not the file's. Lines end at "\\n" alone, as
    `append` ends them: `str.splitlines` also ends one at U+2028, U+2029 or U+0085, which a line's text holds
    as written (JSON escapes none of them), and the cycle of a mutation summary quoting one was lost."""
    for line in text.split("\n"):
        if not line.strip():
            continue
        try:
            yield validate_json(Iteration, line)
        except ValueError:
            yield None


class Tail:
    """The lines appended to iterations.jsonl since the last call, read from where the last call stopped: a
    reader that runs every cycle costs the new lines, not the whole night (a full read every cycle left
    the daemon's heap a little larger each time, bench/run_memory.py). A file that shrank or was replaced
    is read from its start again (`restarted`), and a line not yet ended is left for the next call."""

    def __init__(self, path: Path):
        self.path = path
        self._at: tuple[int, int] = (0, 0)  # (inode, offset of the first byte not read)

    def new(self) -> tuple[list[Iteration], bool]:
        """(the records appended since, whether they start from the file's beginning after all)."""
        text, restarted = self.new_text()
        return _parse(text)[0], restarted

    def new_text(self) -> tuple[str, bool]:
        """(the whole lines appended since, whether they start from the file's beginning after all)."""
        inode, offset = self._at
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)  # no buffered file object for one read a cycle
        except FileNotFoundError:
            self._at = (0, 0)
            return "", inode != 0
        try:
            st = os.fstat(fd)
            restarted = inode != 0 and (st.st_ino != inode or st.st_size < offset)
            offset = 0 if restarted else offset
            data = os.pread(fd, max(0, st.st_size - offset), offset)  # a regular file's reads are never short
        finally:
            os.close(fd)
        whole = data[: data.rfind(b"\n") + 1]
        self._at = (st.st_ino, offset + len(whole))
        return whole.decode("utf-8", errors="replace"), restarted
