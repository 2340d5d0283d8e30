"""iterations.jsonl and the daemon's copy on a full disk: a write that fits only in part (the kernel writes
what fits and says how much, with no error) must not leave a torn line that the next append writes after."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from autoresearch.optimizer.guard import trusted
from autoresearch.optimizer.guard.ledger import Ledger, repair
from autoresearch.trajectory import iterations
from tests.optimizer.guard.test_ledger import COPY, _record

# Three lines appended under a file-size limit a few bytes past the second: the limit is how a full disk
# looks to write(2) here (a short count, then EFBIG), without a disk to fill.
FULL = """
import resource, signal, sys
from pathlib import Path
from autoresearch.optimizer.guard.ledger import Ledger
from tests.optimizer.guard.test_ledger import COPY, _record
file, copy, limit = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
ledger = Ledger.open(file, copy)
ledger.append(_record(1))
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
for cycle in (2, 3):
    try:
        ledger.append(_record(cycle))
    except OSError as full:
        print(cycle, full.errno)
"""


def test_a_line_that_fits_in_part_leaves_whole_lines_in_the_history_and_its_copy(tmp_path):
    file, copy = tmp_path / "results" / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    file.parent.mkdir()
    limit = len(iterations.encoded(_record(1))) + 20
    subprocess.run([sys.executable, "-c", FULL, file, copy, str(limit)], check=True, cwd=Path(__file__).parents[3])
    for path in (file, copy):
        assert path.read_bytes().endswith(b"\n"), path  # no torn line left for the next append to follow

    repair(file, copy, False)  # the next start, on a disk with room again
    Ledger.open(file, copy).append(_record(2))
    assert repair(file, copy, False) is None and copy.read_bytes() == file.read_bytes()
    assert [r.cycle for r in iterations.read(file)[0]] == [1, 2]


def test_a_torn_last_line_a_start_finds_is_not_counted_among_the_daemons(tmp_path):
    file, copy = tmp_path / "results" / "iterations.jsonl", tmp_path / "vault" / "iterations.jsonl"
    for path in (file, copy):  # a power cut mid-append, or a version that left a short write
        path.parent.mkdir()
        path.write_bytes(COPY + b'{"cycle": 4, "sc')
    ledger = Ledger.open(file, copy)
    ledger.append(_record(4))
    snapshot = trusted.take(trusted.Watched((), (), (), ledger))
    file.write_bytes(b"")  # a mutator's
    assert trusted.restore(snapshot, tmp_path / "aside", tmp_path / "results") == [file]
    assert file.read_bytes() == copy.read_bytes() == COPY + iterations.encoded(_record(4))
