"""A log line made without `logging.Logger.log`'s walk up the stack: the same JSON in daemon.log, field for
field, as the record `logging` made; and the iterations line's log event as `model_dump` gave its figures."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autoresearch.optimizer import daemonlog
from autoresearch.optimizer.cycle import record as record_module
from autoresearch.trajectory.iterations import Iteration


@pytest.fixture
def log_file(tmp_path):
    path = tmp_path / "daemon.log"
    daemonlog.setup(path, console=False)
    yield path
    daemonlog.setup(None, console=False)


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_line_is_what_the_record_logging_made_wrote(log_file, monkeypatch):
    """The same event through our logger and through `logging.Logger.log` as the logger called it before:
    the same keys in the same order, the same values (but the time), the masking applied to both."""
    monkeypatch.setenv("ACME_API_KEY", "sk-live-0123456789abcdef")
    daemonlog.bind(experiment="exp", cycle=3, phase="decide")
    values = {"score": 0.25, "wins": 2, "paths": ("a", "sk-live-0123456789abcdef/b"), "odd": object.__new__(object)}
    daemonlog.get().bind(run="r1").warning("kept", **values)
    logging.getLogger("autoresearch").log(
        logging.WARNING, "kept", extra={daemonlog._EVENT: {"run": "r1", **values, "event": "kept"}}
    )
    daemonlog.unbind_all()
    ours, theirs = _lines(log_file)
    assert list(ours) == list(theirs) and ours.pop("timestamp") and theirs.pop("timestamp")
    ours["odd"] = theirs["odd"] = "<object>"  # its repr holds its address
    assert ours == theirs and ours["paths"] == ["a", "***/b"] and ours["level"] == "warning"


def test_a_line_does_not_walk_the_stack_for_its_callers_file(log_file):
    walked = []

    def count(frame, event, arg):
        if event == "call" and frame.f_code is logging.Logger.findCaller.__code__:
            walked.append(frame)

    sys.setprofile(count)
    try:
        daemonlog.get().info("drop", score=0.5)
    finally:
        sys.setprofile(None)
    assert not walked and _lines(log_file)[-1]["event"] == "drop"


@pytest.mark.parametrize(
    "figures",
    [
        {},
        {"wins": 1, "losses": 0, "ties": 2, "mean_delta": 0.5},
        {"ties": 0, "mean_delta": float("nan")},
        {"wins": 3, "mean_delta": float("inf")},
    ],
)
def test_the_lines_log_event_has_its_comparison_as_model_dump_gave_it(figures):
    entry = Iteration(cycle=2, score=0.5, decision="drop", **figures)
    assert record_module._compared(entry) == entry.model_dump(
        include={"wins", "losses", "ties", "mean_delta"}, exclude_none=True
    )
    assert list(record_module._compared(entry)) == list(
        entry.model_dump(include={"wins", "losses", "ties", "mean_delta"}, exclude_none=True)
    )


def test_a_secret_in_a_tuple_inside_a_value_or_in_a_value_json_cannot_encode_is_masked(log_file, monkeypatch):
    """Values masked through every container a line may hold, and those JSON writes through their repr (a
    path, an exception) masked as that repr: neither reached daemon.log as it was."""
    secret = "sk-live-0123456789abcdef"
    monkeypatch.setenv("ACME_API_KEY", secret)
    daemonlog.get().warning("undid", moved=[("a", f"{secret}/b")], where=Path(f"/tmp/{secret}"), why=OSError(secret))
    text = log_file.read_text()
    assert secret not in text, text
    line = _lines(log_file)[-1]
    assert line["moved"] == [["a", "***/b"]] and line["where"] == "PosixPath('/tmp/***')", line
    assert line["why"] == "OSError('***')", line


# pytest adds its handler to every logger that does not propagate (its log capture): the daemon's own handlers
# alone, as a run has them, are in a process of their own
OUR_HANDLERS_ALONE = """
import logging, sys
from pathlib import Path
from autoresearch.optimizer import daemonlog
made = []
factory = logging.getLogRecordFactory()
logging.setLogRecordFactory(lambda *a, **k: made.append(a[4]) or factory(*a, **k))
daemonlog.setup(Path(sys.argv[1]), quiet=False)
daemonlog.bind(experiment="exp", cycle=4, phase="decide")
values = {"score": 0.25, "wins": 2, "paths": ("a", "sk-live-0123456789abcdef/b"), "odd": object.__new__(object)}
daemonlog.get().bind(run="r1").warning("kept", **values)
daemonlog.file_only().error("the closing line")
logging.getLogger("autoresearch").log(
    logging.WARNING, "kept", extra={daemonlog._EVENT: {"run": "r1", **values, "event": "kept"}}
)
daemonlog.setup(None, console=False)
print(made)
"""


def _our_handlers_alone(tmp_path):
    log = tmp_path / "daemon.log"
    env = {**os.environ, "ACME_API_KEY": "sk-live-0123456789abcdef"}
    done = subprocess.run([sys.executable, "-c", OUR_HANDLERS_ALONE, str(log)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done, _lines(log)


def test_a_line_to_the_daemons_handlers_alone_makes_no_log_record_and_is_the_records_line(tmp_path):
    """The console and daemon.log are ours: the line is written from the event, with no `LogRecord` handed
    through `logging` (half a line's cost), and it is the line the record made, on the console and in the file."""
    done, (ours, closing, theirs) = _our_handlers_alone(tmp_path)
    assert done.stdout == "['kept']\n"  # the record `logging.Logger.log` made, alone
    assert list(ours) == list(theirs) and ours.pop("timestamp") and theirs.pop("timestamp")
    assert ours["odd"].startswith("<object object at") and theirs["odd"].startswith("<object object at")
    ours["odd"] = theirs["odd"] = "<object>"
    assert ours == theirs and ours["paths"] == ["a", "***/b"] and ours["level"] == "warning"
    assert closing["event"] == "the closing line" and closing["level"] == "error"


def test_the_console_shows_a_line_but_not_a_file_only_one(tmp_path):
    done, _ = _our_handlers_alone(tmp_path)
    shown = "cycle 4   decide   WARNING: kept run=r1 score=0.25 wins=2 paths=['a', '***/b'] odd=<object object at"
    first, second = done.stderr.splitlines()
    assert first.startswith(shown) and second.startswith(shown), done.stderr


def test_a_handler_not_ours_gets_the_record_and_daemon_log_the_same_line(log_file):
    """A handler a test or a library user added gets the line as a `logging` record, with our event on it."""
    got = []

    class Keep(logging.Handler):
        def emit(self, record):
            got.append(record)

    root = logging.getLogger("autoresearch")
    theirs = Keep()
    root.addHandler(theirs)
    try:
        daemonlog.get().info("keep", score=0.75)
    finally:
        root.removeHandler(theirs)
    assert [r.__dict__[daemonlog._EVENT] for r in got] == [{"score": 0.75, "event": "keep"}]
    assert _lines(log_file)[-1]["event"] == "keep" and _lines(log_file)[-1]["score"] == 0.75


UNWRITABLE_VALUE = """
import sys
from pathlib import Path
from autoresearch.optimizer import daemonlog


class NoRepr:
    def __repr__(self):
        raise ValueError("no repr for this value")


daemonlog.setup(Path(sys.argv[1]), quiet=False)
daemonlog.get().info("drop", value=NoRepr())
daemonlog.get().info("the next line")
daemonlog.setup(None, console=False)
print("the caller went on")
"""


def test_a_value_whose_repr_raises_is_a_logging_error_not_the_callers(tmp_path):
    """Masked, such a value is its repr: the line is lost with `logging`'s report of it on stderr, once for each
    handler, as when each formatted the record; the caller (a cycle) goes on and so do the lines after it."""
    log = tmp_path / "daemon.log"
    env = {**os.environ, "ACME_API_KEY": "sk-live-0123456789abcdef"}
    done = subprocess.run([sys.executable, "-c", UNWRITABLE_VALUE, str(log)], capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stdout == "the caller went on\n", done.stderr
    assert done.stderr.count("--- Logging error ---") == 2 and "no repr for this value" in done.stderr
    assert [line["event"] for line in _lines(log)] == ["the next line"]
