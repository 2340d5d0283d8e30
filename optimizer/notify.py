"""`notify:`: tell people when a run finishes, fails or keeps a candidate, through apprise URLs.

A notification must never stop or slow the run: the loop only queues a message, one
background thread sends it with bounded socket timeouts, a failure is a warning in the
log, and the run waits for what is still queued at its end for a bounded time only.
Messages go through `redact` (no secret of the environment in a chat channel), and a URL
is only ever shown as apprise's privacy form with its path masked (`shown_url`).
"""

from __future__ import annotations

import logging
import queue
import re
import threading
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from autoresearch.optimizer.daemonlog import get
from autoresearch.plumbing.errors import Interrupted, exit_code_for
from autoresearch.plumbing.redact import MASK, redact

if TYPE_CHECKING:
    from apprise.plugins.base import NotifyBase

    from autoresearch.optimizer.experiment.state import State
    from autoresearch.trajectory.iterations import Iteration

Event = Literal["finished", "failed", "kept"]
EVENTS: tuple[Event, ...] = ("finished", "failed", "kept")
SOCKET_TIMEOUT_S = 5.0  # connect and read, per URL: a receiver that hangs costs the sender thread this at most
DRAIN_S = 10.0  # how long the end of a run waits for notifications still queued


class NotifyConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    urls: list[str] = Field(default_factory=list)
    """Apprise URLs to notify (`slack://...`, `mailto://...`, `ntfy://...`, `discord://...`, `json://host/path` for a webhook); none = no notifications."""
    events: list[Event] = Field(default_factory=lambda: list(EVENTS))
    """Which events send: `finished` (a run ended, with its summary), `failed` (a run ended with an error), `kept` (a cycle committed a candidate)."""

    @field_validator("urls")
    @classmethod
    def _apprise_urls(cls, urls: list[str]) -> list[str]:
        for i, url in enumerate(urls):
            if _plugin(url) is None:
                scheme = url.split("://", 1)[0] if "://" in url else "no scheme"
                raise ValueError(f"URL {i + 1} is not one apprise can send to ({scheme[:20]}); see apprise's URL list")
        return urls


def _plugin(url: str) -> NotifyBase | None:
    """apprise's notifier for a URL, its socket timeouts capped; None for a malformed or unknown URL."""
    import apprise

    logging.getLogger("apprise").disabled = True  # it would print URLs and tracebacks; we log our own line
    plugin = apprise.Apprise.instantiate(url)
    if plugin is not None:
        plugin.socket_connect_timeout = min(plugin.socket_connect_timeout or SOCKET_TIMEOUT_S, SOCKET_TIMEOUT_S)
        plugin.socket_read_timeout = min(plugin.socket_read_timeout or SOCKET_TIMEOUT_S, SOCKET_TIMEOUT_S)
    return plugin


class Notifier:
    """Sends queued messages on its own thread, in order; `close` waits for them for a bounded time."""

    def __init__(self, config: NotifyConfig, experiment: str):
        self.events, self.experiment = set(config.events), experiment
        self._urls = list(config.urls)
        self._queue: queue.Queue[tuple[str, str, str] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="notify", daemon=True)
        if self._urls:
            self._thread.start()

    def send(self, event: Event, title: str, body: str) -> None:
        if self._urls and event in self.events:
            self._queue.put((event, redact(f"autoresearch {self.experiment}: {title}"), redact(body)))

    def close(self, timeout_s: float = DRAIN_S) -> None:
        if not self._thread.is_alive():
            return
        self._queue.put(None)
        self._thread.join(timeout_s)
        if self._thread.is_alive():
            get().warning("notifications still sending at the end of the run: given up", waited_s=timeout_s)

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            event, title, body = item
            for url in self._urls:
                self._deliver(url, event, title, body)

    def _deliver(self, url: str, event: str, title: str, body: str) -> None:
        plugin = _plugin(url)
        # apprise leaves `url` untyped, the one call of an untyped function in the typed packages
        shown = shown_url(plugin.url(privacy=True)) if plugin is not None else "?"  # type: ignore[no-untyped-call]
        try:
            sent = plugin is not None and plugin.notify(body=body, title=title)
        except Exception as exc:  # a plugin's bug must not end the sender thread: the next message still goes
            get().warning("notification failed", trigger=event, url=shown, error=redact(str(exc)))
            return
        if not sent:
            get().warning("notification failed", trigger=event, url=shown)


def shown_url(private: str) -> str:
    """An apprise URL's privacy form (its passwords masked) as a log may show it: every path segment
    masked too, as a webhook's path holds its token (`json://host/hooks/<token>`), but those apprise
    already shortened (`T...Q`); its options left out."""
    scheme, _, rest = private.partition("://")
    host, *segments = rest.split("?", 1)[0].split("/")
    masked = [s if not s or re.fullmatch(r".\.\.\..", s) else MASK for s in segments]
    return redact("/".join([f"{scheme}://{host}", *masked]))


_current = Notifier(NotifyConfig(), "")


def start(config: NotifyConfig, experiment: str) -> Notifier:
    """The run's notifier, which the loop reaches through `current` (as it reaches the log through `get`)."""
    global _current
    _current = Notifier(config, experiment)
    return _current


def current() -> Notifier:
    return _current


def kept(entry: "Iteration") -> None:
    """A cycle committed its candidate (the original's line is no news)."""
    if entry.decision == "keep" and not entry.measures_head:
        commit = f", commit {entry.commit[:10]}" if entry.commit else ""
        _current.send("kept", f"cycle {entry.cycle} kept, score {entry.score:.4f}", f"{entry.mutation}{commit}")


def ended(notifier: Notifier, state: "State", error: BaseException | None) -> None:
    """The run's last message (a stop or Ctrl-C is a finish, any other error a failure), then the
    bounded wait for everything queued."""
    facts = (
        f"best {_score(state.best_score)} (cycle {state.best_cycle}), original {_score(state.original_score)}; "
        f"{state.keeps} keeps, {state.drops} drops, {state.errors} errors; ${state.cost_usd:.4f} spent"
    )
    if error is None:
        notifier.send("finished", f"finished ({state.stop_reason})", facts)
    elif isinstance(error, (Interrupted, KeyboardInterrupt)):
        notifier.send("finished", "stopped (interrupted)", facts)
    else:
        code = exit_code_for(error)
        notifier.send("failed", f"failed (exit {code if code is not None else 'on a bug'})", f"{error}\n{facts}")
    notifier.close()


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"
