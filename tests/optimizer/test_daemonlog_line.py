"""A log line made without `logging.Logger.log`'s walk up the stack: the same JSON in daemon.log, field for
field, as the record `logging` made; and the iterations line's log event as `model_dump` gave its figures."""

from __future__ import annotations

import json
import logging
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
