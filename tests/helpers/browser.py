"""Real headless Chromium for the page tests (the trajectory page, the API's /docs): a launch failure fails
the suite, it never skips it. tests/conftest.py offers its fixtures to every package's tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlparse

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import Error, sync_playwright

    with sync_playwright() as pw:
        try:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Error as exc:
            pytest.fail(f"cannot launch {CHROMIUM} (apt-get install -y chromium): {exc}")
        yield chromium
        chromium.close()


@dataclass
class Watched:
    """A browser page with everything it asked the network for, and every dialog it tried to open."""

    page: object
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def offsite(self) -> list[str]:
        """Requests that would leave the machine: anything but file:// and 127.0.0.1."""
        return [u for u in self.requests if not (u.startswith("file://") or urlparse(u).hostname == "127.0.0.1")]


@pytest.fixture
def watched(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    w = Watched(page)
    context.on("request", lambda request: w.requests.append(request.url))

    def dismiss(dialog):
        w.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    yield w
    assert w.offsite() == [], "the page must never reach the network"
    context.close()
