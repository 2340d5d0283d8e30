"""A `cli` target's `healthcheck`, run as AgentV 4.42.4 runs it: once, before the target's first command.

`command:` is rendered with the target's placeholders (an empty prompt,
`{EVAL_ID}` = `healthcheck`, `{ATTEMPT}` = 0, no files) and run in its `cwd`
(relative to the eval file's directory, which is also the default); `url:` is
fetched with GET (no proxy, as Node's fetch uses none) and must answer 2xx.
Each is bounded by its own `timeout_seconds`, else the target's. The outcome
is remembered: when it fails, every test and every grading on that target
fails with AgentV's message (`CLI healthcheck failed for 'NAME': ...`), an
execution_error, and the check is not run again.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable

from autoresearch.plumbing import owned, process

Render = Callable[[str, dict[str, str]], str]


class Healthcheck:
    """The remembered outcome of one target's check; `failure()` runs it on first use, one caller at a time."""

    def __init__(self, name: str, config: dict[str, Any] | None, eval_dir: Path, timeout_s: float, render: Render):
        self.name, self.config, self.eval_dir, self.render = name, config, eval_dir, render
        self.timeout_s = float(config.get("timeout_seconds") or timeout_s) if config else timeout_s
        self._lock = threading.Lock()
        self._outcome: list[str | None] = []  # empty until run; then [None] (healthy) or [why not]

    def failure(self) -> str | None:
        """None when the target is healthy (or has no check), else why it is not."""
        if self.config is None:
            return None
        with self._lock:
            if not self._outcome:
                why = self._url() if self.config.get("url") else self._command()
                self._outcome.append(None if why is None else f"CLI healthcheck failed for '{self.name}': {why}")
            return self._outcome[0]

    def _url(self) -> str | None:
        import urllib.error  # with http.client and ssl: 17-22 ms of CPU (load 25) of every eval file otherwise
        import urllib.request

        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(urllib.request.Request(str(self.config["url"]), method="GET"), timeout=self.timeout_s):  # type: ignore[index]
                return None
        except urllib.error.HTTPError as exc:
            return f"HTTP {exc.code} {exc.reason}"
        except (OSError, ValueError) as exc:
            return str(getattr(exc, "reason", None) or exc)

    def _command(self) -> str | None:
        config = self.config or {}
        cwd = self.eval_dir / config["cwd"] if config.get("cwd") else self.eval_dir
        with owned.temporary("autoresearch-healthcheck-") as scratch:
            prompt_file = Path(scratch) / "prompt.txt"
            prompt_file.write_text("", encoding="utf-8")
            values = {
                "PROMPT": "",
                "PROMPT_FILE": str(prompt_file),
                "EVAL_ID": "healthcheck",
                "ATTEMPT": "0",
                "FILES": "",
                "OUTPUT_FILE": str(Path(scratch) / "output.json"),
            }
            command = self.render(str(config["command"]), values)
            try:
                done = process.run(command, cwd=cwd, log_prefix=Path(scratch) / "healthcheck", timeout_s=self.timeout_s)
            except OSError as exc:
                return f"cannot run the command: {exc}"
        if done.timed_out:
            return f"timed out after {self.timeout_s:g}s"
        if done.returncode != 0:
            detail = process.tail(done.stderr.strip() or done.stdout.strip(), 2000)
            return (
                f"{detail} (exit code {done.returncode})"
                if detail
                else f"CLI healthcheck command exited with code {done.returncode}"
            )
        return None
