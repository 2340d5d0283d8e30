"""JavaScript regular expressions, run by V8: the engine of the Node that runs AgentV.

AgentV's `regex` grader is `new RegExp(value, flags).test(output)`. A
translation to Python's `re` kept disagreeing at the edges (`\\p{Lu}` with `u`,
`[^]`, `\\k<name>`, `$` before a trailing newline, case folding, UTF-16 code
units without `u`, the `y` and `v` flags), so the pattern runs in V8 itself
through mini-racer, and `tests/runs/test_jsregex.py` checks a generated corpus
against Node. A fresh RegExp per test, as AgentV builds one, so `g` and `y`
start at index 0.

mini-racer loads a large library: it is imported, and its one context made,
the first time a regex is used. A pattern that backtracks for ever hangs Node;
here it stops after `TIMEOUT_SEC` with a `TimeoutError`.
"""

from __future__ import annotations

import atexit
import threading
from typing import Any

TIMEOUT_SEC = 10.0
_FUNCTIONS = """
globalThis.__autoresearch_test = (pattern, flags, text) => new RegExp(pattern, flags).test(text);
globalThis.__autoresearch_check = (pattern, flags) => {
  try { new RegExp(pattern, flags); return null; } catch (error) { return String(error.message); }
};
"""
_lock = threading.Lock()  # one V8 context, entered by one thread at a time
_context: list[Any] = []  # made on first use


def problem(pattern: str, flags: str = "") -> str | None:
    """JavaScript's SyntaxError message for `new RegExp(pattern, flags)`, or None when it compiles."""
    return _call("__autoresearch_check", pattern, flags)  # type: ignore[no-any-return]


def matches(pattern: str, flags: str, text: str, timeout_sec: float = TIMEOUT_SEC) -> bool:
    """`new RegExp(pattern, flags).test(text)`; raise `TimeoutError` past `timeout_sec` (check `problem` first)."""
    return bool(_call("__autoresearch_test", pattern, flags, text, timeout_sec=timeout_sec))


def _call(function: str, *args: str, timeout_sec: float = TIMEOUT_SEC) -> Any:
    with _lock:
        if not _context:
            _context.append(_made())
        return _context[0].call(function, *args, timeout_sec=timeout_sec)


def _made() -> Any:
    """The context, made as if no event loop ran here. mini-racer adopts the loop running in the thread that
    makes its context (a notebook cell's, a browser driver's) and then refuses every call with a timeout from
    that thread; made where no loop runs, it starts a loop of its own, which any thread can call. Made in a
    thread of its own instead, it crashed or hung the process at exit."""
    import asyncio

    from py_mini_racer import MiniRacer

    running = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        context = MiniRacer()
    finally:
        asyncio.events._set_running_loop(running)
    context.eval(_FUNCTIONS)
    atexit.register(context.close)  # while Python still runs: freed during finalization, V8 could hang the exit
    return context
