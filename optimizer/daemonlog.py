"""The daemon's logging: readable lines on the console, JSON lines in daemon.log.

Every line carries the experiment, cycle and phase (bound with `bind` by the
loop, in a context variable that the threads of a run inherit). Every secret
the masker knows (plumbing/redact.py) is masked in both outputs, so an API key
echoed by an eval's error message never lands in a log.

The standard library's `logging` underneath, with the few parts of structlog this
used written here (a bound logger, context binding, a JSON renderer): importing
structlog loaded rich's traceback and asyncio, a sixth of a second of CPU in every
`run` process and every daemon.

Logging is process-wide, but a run's daemon.log is its own: `write_to` names the
file in a context variable, which the threads of the run inherit, and each file
takes only the lines of the context that named it (the Python API may run two
experiments in one process, in two threads).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path
from types import MappingProxyType
from typing import Any

from autoresearch.plumbing.errors import NO_ROOM
from autoresearch.plumbing.redact import redact_tree, secret_values
from autoresearch.plumbing.text import inert

FILE_ONLY = "autoresearch.file"
CONSOLE = "autoresearch.console"
_log_file: ContextVar[str | None] = ContextVar("autoresearch_log_file", default=None)
_bound: ContextVar[Mapping[str, Any]] = ContextVar("autoresearch_log_context", default=MappingProxyType({}))
_EVENT = "autoresearch_event"  # the LogRecord attribute that carries one of our events
_NO_FILE, _NO_FUNCTION = "(unknown file)", "(unknown function)"  # as `logging` names them when it looks for none
_JSON = json.JSONEncoder(default=repr)  # json.dumps with `default` made an encoder a line


def bind(**values: Any) -> None:
    """Put `values` (experiment, cycle, phase) on every line logged from this context from now on."""
    _bound.set({**_bound.get(), **values})


def unbind_all() -> None:
    """Forget what `bind` put on the lines of this context."""
    _bound.set(MappingProxyType({}))


class Logger:
    """A logger with values bound to each of its lines: `get().bind(experiment=...).warning("text", key=value)`."""

    def __init__(self, name: str, values: Mapping[str, Any] = MappingProxyType({})) -> None:
        self._logger, self._values = logging.getLogger(name), values

    def bind(self, **values: Any) -> Logger:
        return Logger(self._logger.name, {**self._values, **values})

    def info(self, event: str, **values: Any) -> None:
        self._log(logging.INFO, event, values)

    def warning(self, event: str, **values: Any) -> None:
        self._log(logging.WARNING, event, values)

    def error(self, event: str, **values: Any) -> None:
        self._log(logging.ERROR, event, values)

    def _log(self, level: int, event: str, values: dict[str, Any]) -> None:
        """Where every handler the line reaches is one of ours (the daemon's console and daemon.log), the event
        made once and written by each: the record `logging` makes and hands from logger to handler to formatter,
        each formatting it again, was half a line's cost (bench/loop_phases.py), for the same text. Any other
        handler (a test's, a library user's) gets the record as `logging.Logger.log` makes it, but for the
        caller's file and line, which no line of ours shows: finding them walked the stack."""
        logger = self._logger
        if not logger.isEnabledFor(level):
            return
        fields = {**self._values, **values, "event": event}
        handlers = _ours(logger)
        if handlers is None:
            logger.handle(_record(logger.name, level, fields))
            return
        line = _Line(logger.name, level, fields)
        for handler in handlers:
            if level >= handler.level and handler.takes(logger.name):
                handler.put(line)


class _Line:
    """A line on its way to our handlers: its event completed once, by the first handler that writes it and
    inside that handler's error handling, as its `format` was: a value whose repr raises is `logging`'s error
    to print (`--- Logging error ---`), the line lost, not an exception out of the caller's `info` (a cycle
    cut short for a log line). The record is made only for `handleError`."""

    __slots__ = ("_event", "fields", "level", "name")

    def __init__(self, name: str, level: int, fields: dict[str, Any]) -> None:
        self.name, self.level, self.fields = name, level, fields
        self._event: dict[str, Any] | None = None

    def event(self) -> dict[str, Any]:
        if self._event is None:  # one that raised is tried again by the next handler, which reports it too
            self._event = _completed(dict(self.fields), logging.getLevelName(self.level))
        return self._event

    def record(self) -> logging.LogRecord:
        return _record(self.name, self.level, self.fields)


def _record(name: str, level: int, fields: dict[str, Any]) -> logging.LogRecord:
    record = logging.getLogRecordFactory()(name, level, _NO_FILE, 0, fields["event"], None, None, _NO_FUNCTION)
    record.__dict__[_EVENT] = fields
    return record


def _ours(logger: logging.Logger) -> list[_Ours] | None:
    """The handlers a line of `logger` reaches, as `logging.Logger.callHandlers` walks to them, where all are ours
    and nothing filters but they: else None (the line goes through `logging`)."""
    handlers: list[_Ours] = []
    current: logging.Logger | None = logger
    while current is not None:
        if current.disabled or current.filters:
            return None
        for handler in current.handlers:
            if not isinstance(handler, _Ours) or handler.filters:
                return None
            handlers.append(handler)
        if not current.propagate:
            break
        current = current.parent
    return handlers or None  # none: `logging`'s last resort says it


def _event_of(record: logging.LogRecord) -> dict[str, Any]:
    """The event of a record, ours or a plain `logging` one (providers' retries), with this context's bound
    values, its level and a UTC timestamp; every string masked, inside lists, tuples and mappings too (the
    paths the guard undid), and the repr of a value JSON cannot write."""
    return _completed(dict(getattr(record, _EVENT, None) or {"event": record.getMessage()}), record.levelname)


def _completed(event: dict[str, Any], level_name: str) -> dict[str, Any]:
    """`event` with this context's bound values, its level, the time, and every secret masked."""
    for key, value in _bound.get().items():
        event.setdefault(key, value)
    event["level"] = level_name.lower()
    event["timestamp"] = datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")
    secrets = secret_values()
    if secrets:
        for key, value in event.items():
            event[key] = redact_tree(value, secrets)
    return event


class _Ours(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler of ours: which loggers' lines it takes, and an event's text. `Logger` writes its events with
    `put`; a plain `logging` record (a provider's retry) goes through `emit` as any handler's, to the same text."""

    def takes(self, name: str) -> bool:
        raise NotImplementedError

    def text(self, event: dict[str, Any]) -> str:
        raise NotImplementedError

    def filter(self, record: logging.LogRecord) -> bool:
        return self.takes(record.name) and bool(super().filter(record))

    def format(self, record: logging.LogRecord) -> str:
        return self.text(_event_of(record))

    def put(self, line: _Line) -> None:
        """`logging.StreamHandler.emit` of the line's text, under the handler's lock."""
        try:
            text = self.text(line.event())
            with self.lock:  # type: ignore[union-attr]
                if self._ready():
                    self.stream.write(text + self.terminator)
                    self.flush()
        except RecursionError:
            raise
        except Exception:
            self.handleError(line.record())

    def _ready(self) -> bool:
        return True


class _Console(_Ours):
    """stderr, but for the lines of `file_only`."""

    def takes(self, name: str) -> bool:
        return name != FILE_ONLY

    def text(self, event: dict[str, Any]) -> str:
        return format_event(event)


def format_event(event: Mapping[str, Any]) -> str:
    """`cycle 3   eval     message key=value`: one log event as a line to read by eye.

    Used for the console and to render daemon.log's JSON lines back for people.
    """
    event = dict(event)
    for key in ("timestamp", "experiment", "logger"):
        event.pop(key, None)
    level = event.pop("level", "info")
    cycle, phase = event.pop("cycle", None), event.pop("phase", None)
    message = event.pop("event", "")
    prefix = f"cycle {cycle:<3} {phase or '':<8}" if cycle else f"{phase or '':<14}"
    extras = " ".join(f"{k}={v}" for k, v in event.items() if not k.startswith("_"))
    marker = {"warning": "WARNING: ", "error": "ERROR: "}.get(level, "")
    line = f"{prefix} {marker}{message}{' ' + extras if extras else ''}".rstrip()
    return inert(line)  # an eval's stderr quoted in an error


def render_line(line: str, quiet: bool = False, with_time: bool = False) -> str | None:
    """One line of daemon.log for people: JSON events formatted, anything else (a traceback, the
    daemon's own prints) as it is; None when `quiet` hides an info event.

    `with_time` starts the line with the event's local time, for reading a log after the fact.
    """
    try:
        event = json.loads(line)
    except ValueError:
        return line
    if not isinstance(event, dict):
        return line
    if quiet and event.get("level") not in ("warning", "error", "critical"):
        return None
    text = format_event(event)
    if with_time and event.get("timestamp"):
        text = f"{_local_time(event['timestamp'])} {text}"
    return text


def _local_time(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone().strftime("%m-%d %H:%M:%S")
    except ValueError:
        return stamp


def setup(log_file: Path | None, quiet: bool = False, console: bool = True) -> None:
    """Configure logging for one CLI invocation (never at import time)."""
    root = logging.getLogger("autoresearch")
    for handler in root.handlers:
        handler.close()
    root.handlers.clear()
    _log_file.set(None)  # every file is closed: this context names none until `write_to`
    root.setLevel(logging.INFO)
    root.propagate = False
    if console:  # a detached daemon has no console: its stderr is the log file itself
        to_console = _Console(sys.stderr)
        to_console.setLevel(logging.WARNING if quiet else logging.INFO)
        to_console.set_name(CONSOLE)
        root.addHandler(to_console)
    if log_file is not None:
        write_to(log_file)


def for_library(quiet: bool = True) -> None:
    """`setup` for the Python API, once per process: a later run, maybe in another thread while the first
    goes on, must not take away the log files of the runs before it."""
    if not any(h.get_name() == CONSOLE for h in logging.getLogger("autoresearch").handlers):
        setup(None, quiet=quiet)


def write_to(log_file: Path) -> None:
    """Also write JSON lines to `log_file` from now on: called as soon as a run owns its experiment, so that
    what it repairs before its first cycle is in daemon.log too. The lines of this context (this thread,
    and threads started with a copy of its context) go to this file alone; lines logged where no run
    named a file (a thread that copied nothing) go to every file."""
    root = logging.getLogger("autoresearch")
    path = str(log_file.absolute())
    _log_file.set(path)
    if any(getattr(h, "baseFilename", None) == path for h in root.handlers):
        return
    log_file.parent.mkdir(parents=True, exist_ok=True)
    root.addHandler(_LogFile(log_file, path))


class _LogFile(logging.FileHandler, _Ours):
    """daemon.log, whose lines a disk with no room loses: `logging` printed a traceback for each one (`--- Logging
    error ---`) and closing the file raised one (exit 1). The run's records find no room too, and stop it with one
    line and exit 50 (a log line is said, not recorded: nothing the run resumes from is lost with it).

    A line belongs to the file its context named (`write_to`), told in the thread that logs, which sees that
    context."""

    def __init__(self, log_file: Path, owner: str) -> None:
        super().__init__(log_file, encoding="utf-8")
        self.owner = owner

    def takes(self, name: str) -> bool:
        named = _log_file.get()
        return named is None or named == self.owner

    def text(self, event: dict[str, Any]) -> str:
        return _JSON.encode(event)

    def _ready(self) -> bool:
        """As `logging.FileHandler.emit` in append mode: a file closed meanwhile is opened again."""
        if self.stream is None:
            self.stream = self._open()
        return self.stream is not None

    def handleError(self, record: logging.LogRecord) -> None:
        if not _no_room(sys.exc_info()[1]):
            super().handleError(record)

    def close(self) -> None:
        try:
            super().close()  # the file is closed even when its last flush fails
        except OSError as exc:
            if not _no_room(exc):
                raise


def _no_room(exc: BaseException | None) -> bool:
    return isinstance(exc, OSError) and exc.errno in NO_ROOM


@contextmanager
def closing_run_log() -> Iterator[None]:
    """For the Python API's runs: the daemon.log that `write_to` names inside is closed on the way out, and
    its lines end there (a notebook's next run, of this experiment or another, opens its own)."""
    try:
        yield
    finally:
        path = _log_file.get()
        if path is not None:
            root = logging.getLogger("autoresearch")
            for handler in [h for h in root.handlers if getattr(h, "baseFilename", None) == path]:
                root.removeHandler(handler)
                handler.close()
            _log_file.set(None)


def get() -> Logger:
    """The daemon's logger: one, made once (a Logger binds nothing until `bind`, which makes a new one)."""
    return _ROOT


_ROOT = Logger("autoresearch")


def file_only() -> Logger:
    """A logger for daemon.log alone, for what the console already says another way (the CLI's
    closing error line)."""
    return Logger(FILE_ONLY)


def new_lines(log: Path, offset: int) -> tuple[list[str], int]:
    """The whole lines written to `log` after byte `offset`, and the offset to read from next.

    A line still being written is returned once it is whole; a log that shrank (an experiment
    restarted) is read again from its start.
    """
    try:
        size = log.stat().st_size
    except FileNotFoundError:
        return [], 0
    if size < offset:
        offset = 0
    if size == offset:
        return [], offset
    with open(log, "rb") as f:
        f.seek(offset)
        data = f.read()
    end = data.rfind(b"\n") + 1
    return data[:end].decode(errors="replace").splitlines(), offset + end
