"""What the experiment has tried, in short: the memory every mutator is handed, across nights.

iterations.jsonl holds every cycle, but a mutator reading it on the hundredth cycle reads a long file of
numbers and still cannot see which tests an idea moved. The digest says, newest first, what each cycle
tried, whether it was kept and why, which tests it helped and which it hurt against the HEAD of its day,
and where its patch is; older cycles shrink to one line each, then to a count, so the file stays under
`LIMIT` bytes however long the history. It is derived from the lines and the run directories alone, so
it is rewritten after every cycle (outside the cycle's critical block, like the chart) and a run started
again, tonight or a month later, starts from the same memory.

Held-out tests never appear in it: it reads the run directories as the mutator may, after their held-out
rows were moved out of its sight (autoresearch.optimizer.cycle.holdout).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from dataclasses import dataclass, field
from itertools import accumulate, islice

from autoresearch.optimizer.experiment.history import Past
from autoresearch.plumbing import atomic, faults, inplace
from autoresearch.plumbing.paths import ExperimentPaths
from autoresearch.plumbing.surrogates import utf8
from autoresearch.plumbing.text import cut
from autoresearch.runs.errors import BadResults
from autoresearch.runs.results import load_rows
from autoresearch.trajectory.iterations import Iteration, Tail

LIMIT = 24 * 1024  # bytes: a page or two for the mutator to read before it chooses a change
DETAILED = 25  # the newest cycles with their per-test effect
NAMED = 6  # tests named per direction; the rest are counted
EPSILON = 1e-9
WHY = 300  # characters of a decision's reason or an error's message (it can quote a command's whole output)

HEADER = """# What this experiment has tried

{summary}

Read this before you choose a change. A discarded idea failed under the keep rule against the HEAD of its
day: do not propose it again unless you change what made it fail. A test "helped" or "hurt" scored higher
or lower than HEAD on it. The full record is {iterations}; patches are relative to {root}.
"""


CLOSING = "\n({count} older cycles not listed here: read them in the record.)\n"
LATEST = b"\n## The latest cycles, newest first\n"
EARLIER = b"\n## Earlier cycles, one line each\n\n"


@dataclass
class Budget:
    """Text made of whole parts, each its UTF-8 bytes, none added once it would pass `left` bytes."""

    left: int
    parts: list[bytes] = field(default_factory=list)

    def add(self, part: bytes) -> bool:
        if len(part) > self.left:
            return False
        self.parts.append(part)
        self.left -= len(part)
        return True

    def add_each(self, parts: list[bytes]) -> int:
        """`add` each of `parts` up to the first that does not fit; returns how many were added."""
        ends = list(accumulate(map(len, parts)))
        taken = bisect_right(ends, self.left)
        self.parts += parts[:taken]
        self.left -= ends[taken - 1] if taken else 0
        return taken


@dataclass(frozen=True)
class Effect:
    """A candidate's per-test movement against HEAD's results at the time it was decided."""

    helped: list[str]
    hurt: list[str]


@dataclass(slots=True)
class Recent:
    """A detailed cycle: its line, the HEAD it was judged against, and its block once made (UTF-8 bytes), kept
    while the cycle is among the newest and gone with it: a cycle's line, run directory and saved patch never
    change once its line is written, and making the blocks again for every write was most of its cost."""

    record: Iteration
    head: Past | None
    block: bytes | None = None


@dataclass
class Seen:
    """What the digest can show of the lines read so far, bounded however long the history: the counts of
    its summary, the newest DETAILED candidates with the HEAD each was judged against, and as many older
    one-line entries as LIMIT could hold. The lines come in the file's order, which is the cycles' order."""

    start: Iteration | None = None
    best: Iteration | None = None  # the last KEEP
    decided: int = 0
    keeps: int = 0
    errors: int = 0
    recent: deque[Recent] = field(default_factory=lambda: deque(maxlen=DETAILED))
    older: deque[bytes] = field(default_factory=deque)  # one-line entries' UTF-8, oldest first
    # where each of `older` starts, and where the newest ends, in bytes of all the entries ever pushed: the
    # newest that fit in a size are found by halving, not by summing a few hundred sizes every write
    older_starts: deque[int] = field(default_factory=deque)
    older_end: int = 0
    kept: deque[Past] = field(default_factory=lambda: deque(maxlen=DETAILED + 1))  # the newest KEEPs

    @classmethod
    def of(cls, records: list[Iteration]) -> Seen:
        seen = cls()
        for record in records:
            seen.add(record)
        return seen

    def add(self, record: Iteration) -> None:
        self.start = self.start or record
        if not record.measures_head:
            self.decided += 1
            self.keeps += record.decision == "keep"
            self.errors += record.decision == "error"
            if len(self.recent) == DETAILED:
                self._push_older(_one_line(self.recent[0].record))
            self.recent.append(Recent(record, self._head_before(record.cycle)))
        if record.decision == "keep":
            self.best = record
            self.kept.append(Past.of(record))

    def _head_before(self, cycle: int) -> Past | None:
        """HEAD as the cycle found it: the last KEEP before it."""
        return next((p for p in reversed(self.kept) if p.cycle <= cycle - 1), None)

    @property
    def older_bytes(self) -> int:
        return self.older_end - self.older_starts[0] if self.older else 0

    def _push_older(self, line: bytes) -> None:
        self.older.append(line)
        self.older_starts.append(self.older_end)
        self.older_end += len(line)
        while self.older_bytes > LIMIT:  # these could never fit: the text is at most LIMIT bytes
            self.older.popleft()
            self.older_starts.popleft()

    def newest_older(self, left: int) -> tuple[bytes, int]:
        """The newest one-line entries whose sizes sum to at most `left` bytes, newest first, as one text; how
        many."""
        first = bisect_left(self.older_starts, self.older_end - left)
        if first == len(self.older):
            return b"", 0
        return b"".join(reversed(list(islice(self.older, first, None)))), len(self.older) - first


@dataclass
class Digest:
    """The digest's writer for one run. It reads the lines appended since its last write (a whole read every
    cycle grew the daemon's heap with the night), and makes each detailed cycle's block once (`Recent`). The
    text is put together from the UTF-8 bytes of its parts, each encoded once when it is made: the whole text
    encoded again at every write, and each block's size taken from its encoding, cost more than joining it."""

    paths: ExperimentPaths
    _seen: Seen = field(default_factory=Seen)
    _tail: Tail | None = None
    _kept: tuple[str, dict[str, float] | None] | None = None  # the newest KEEP's run directory read, its scores

    def write(self) -> None:
        """The digest of iterations.jsonl as it is now (read from where the last write stopped), written over
        the last one's bytes (autoresearch.plumbing.inplace.cut): no mutator runs while the loop writes it, and
        one a kill cut short is written whole again before the next start's first mutation. Made anew only
        when the file is not the daemon's own (missing, a link, a second name of another file)."""
        if self._tail is None:
            self._tail = Tail(self.paths.iterations)
        records, restarted = self._tail.new()
        if restarted:  # the file was replaced: its cycles may be other lines now
            self._seen = Seen()
        for record in records:
            self._seen.add(record)
        text = self._render(self._seen)
        if not inplace.cut(self.paths.digest, text, lambda: faults.point("digest-overwritten")):
            atomic.write_bytes(self.paths.digest, text, durable=False)

    def render(self, records: list[Iteration]) -> str:
        """The digest of these lines, made from nothing this writer kept."""
        return Digest(self.paths)._render(Seen.of(records)).decode("utf-8")

    def _render(self, seen: Seen) -> bytes:
        """Whole blocks, newest first, while they fit: the text never exceeds LIMIT bytes."""
        text = Budget(LIMIT - len(CLOSING.encode("utf-8")))
        summary = HEADER.format(summary=_summary(seen), iterations=self.paths.iterations, root=self.paths.results_dir)
        text.add(utf8(summary))
        newest = list(reversed(seen.recent))
        shown = 0
        if newest and text.add(LATEST):
            shown = text.add_each(self._fitting(newest, text.left))
        cut = [_one_line(entry.record) for entry in newest[shown:]]  # the newest that had no room in full
        if (cut or seen.older) and text.add(EARLIER):
            taken = text.add_each(cut)
            shown += taken
            if taken == len(cut):
                older, count = seen.newest_older(text.left)
                shown += count
                text.add(older)
        if shown < seen.decided:
            text.parts.append(utf8(CLOSING.format(count=seen.decided - shown)))
        return b"".join(text.parts)

    def _fitting(self, newest: list[Recent], room: int) -> list[bytes]:
        """The blocks of the newest cycles, in order, up to the first that would pass `room` bytes; each made
        once (`Recent`), and none past that one made at all."""
        blocks = []
        for entry in newest:
            if entry.block is None:
                entry.block = utf8(self._block(entry.record, entry.head))
            room -= len(entry.block)
            if room < 0:
                break
            blocks.append(entry.block)
        return blocks

    def _block(self, record: Iteration, head: Past | None) -> str:
        lines = [f"\n### Cycle {record.cycle}: {_verdict(record, head)}\n"]
        lines.append(f"- Tried: {record.mutation or '(no summary)'}\n")
        if record.reason or record.error:
            why = record.error if record.decision == "error" else record.reason
            lines.append(f"- Why: {cut(' '.join(str(why).split()), WHY)}\n")
        effect = self._read_effect(record, head)
        if effect is not None:
            lines.append(f"- Helped: {_named(effect.helped)}; hurt: {_named(effect.hurt)}\n")
        for candidate in record.candidates or []:
            note = f" ({candidate.reason})" if candidate.reason else ""
            saved = f" (patch: {candidate.patch})" if candidate.patch else ""
            lines.append(f"- Candidate {candidate.index}, {candidate.decision}{note}: {candidate.summary}{saved}\n")
        patch = self._patch(record)
        if patch:
            lines.append(f"- Patch: {patch}\n")
        return "".join(lines)

    def _read_effect(self, record: Iteration, head: Past | None) -> Effect | None:
        if record.decision == "error" or head is None or not record.run_dir or not head.run_dir:
            return None
        ours, theirs = self._scores(record.run_dir), self._head_scores(head.run_dir)
        if record.decision == "keep":  # the next cycles' HEAD
            self._kept = (record.run_dir, ours)
        if ours is None or theirs is None:
            return None
        both = sorted(ours.keys() & theirs.keys())
        return Effect(
            helped=[t for t in both if ours[t] > theirs[t] + EPSILON],
            hurt=[t for t in both if ours[t] < theirs[t] - EPSILON],
        )

    def _head_scores(self, run_dir: str) -> dict[str, float] | None:
        """HEAD's scores, read once while it is HEAD: every cycle's block is against them (a run directory's
        results never change once its line is written)."""
        if self._kept is None or self._kept[0] != run_dir:
            self._kept = (run_dir, self._scores(run_dir))
        return self._kept[1]

    def _scores(self, run_dir: str) -> dict[str, float] | None:
        """Each test's score in a run directory's results (the last row of a test, as compare reads them);
        None where there are none to read."""
        try:
            rows = load_rows(self.paths.run_dir(run_dir))
        except BadResults:
            return None
        return {str(row["test_id"]): float(row["score"]) for row in rows}

    def _patch(self, record: Iteration) -> str | None:
        """A dropped candidate's saved patch, relative to the results directory; a KEEP is its commit."""
        if record.decision == "keep":
            return f"commit {record.commit[:12]}" if record.commit else None
        if not record.run_dir:
            return None
        saved = self.paths.run_dir(record.run_dir) / "candidate.patch"
        return str(saved.relative_to(self.paths.results_dir)) if saved.is_file() else None


def _summary(seen: Seen) -> str:
    if not seen.decided or seen.start is None:
        return "No candidate has been tried yet."
    best, start = seen.best, seen.start
    where = (
        f" HEAD is cycle {best.cycle}'s, scoring {best.score:.4g} (the original: {start.score:.4g})." if best else ""
    )
    return (
        f"{seen.decided} candidates decided: {seen.keeps} kept, {seen.decided - seen.keeps - seen.errors} discarded, "
        f"{seen.errors} failed.{where}"
    )


def _verdict(record: Iteration, head: Past | None) -> str:
    if record.decision == "error":
        return f"failed ({record.error_reason or 'error'})"
    against = f" against HEAD's {head.score:.4g}" if head is not None else ""
    word = "KEPT" if record.decision == "keep" else "discarded"
    return f"{word}, scoring {record.score:.4g}{against}"


def _one_line(record: Iteration) -> bytes:
    word = {"keep": "kept", "error": "failed"}.get(record.decision, "discarded")
    return utf8(f"- {record.cycle}, {word}: {record.mutation or '(no summary)'}\n")


def _named(tests: list[str]) -> str:
    if not tests:
        return "none"
    shown = ", ".join(tests[:NAMED])
    return shown if len(tests) <= NAMED else f"{shown} and {len(tests) - NAMED} more"
