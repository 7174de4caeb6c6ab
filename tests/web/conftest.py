"""Fixtures of the browser tests: one live server, one headless Chromium (Debian's, never a
downloaded one), and the directory where screenshots go."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from baofen.server import ServerConfig

from ..root_network import root_network
from ..server.harness import ROOT, ThreadServer
from .ui import Person, person_in

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = ROOT / "test-output" / "screenshots"

FAST = {
    "bot_delay": 0.01, "drop_grace": 30.0, "rate_per_second": 1000.0,
    "rate_burst": 1000.0, "create_burst": 1000.0,
}
"""Computer players act at once and the next hand comes soon; the rate limits are raised since a
test clicks faster than people do, and every browser test creates its tables from one address."""


@pytest.fixture(autouse=True)
def quiet_network() -> Iterator[None]:
    """No test of this run changes the machine's interfaces while a browser test runs
    (:mod:`tests.root_network`)."""
    with root_network(changes=False):
        yield


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for every browser test (each test makes its own tables, and the club tests
    their own accounts: every browser is at one address, so its sign-ups are not limited)."""
    db = tmp_path_factory.mktemp("web") / "baofen.db"
    live = ThreadServer(ServerConfig(db=f"sqlite:///{db}", **FAST, signup_burst=1000.0))
    yield live
    live.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """The Playwright driver."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def chromium(playwright: Playwright) -> Iterator[Browser]:
    """Debian's headless Chromium."""
    if not Path(CHROMIUM).exists():
        reason = (f"the browser tests need Debian's Chromium at {CHROMIUM} (as root: apt-get "
                  "install -y chromium fonts-noto-cjk; .ci/run does it)")
        if os.environ.get("BAOFEN_TEST_REQUIRE_CHROMIUM"):
            pytest.fail(reason)  # CI (.ci/run) has installed it: its absence is a failure there
        pytest.skip(reason)
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def page_server(web_server: ThreadServer) -> ThreadServer:
    """The server a test's :func:`person` opens pages of (a module with a server of its own
    overrides it)."""
    return web_server


@pytest.fixture
def person(chromium: Browser, page_server: ThreadServer, viewport: dict[str, int],
           language: str) -> Iterator[Person]:
    """A person whose pages are in the test's ``language``, at its ``viewport`` (both
    parametrized by the test), on :func:`page_server`; closed after it, failing on any
    script error seen."""
    yield from _someone(chromium, page_server, viewport, language)


@pytest.fixture
def friend(chromium: Browser, page_server: ThreadServer, viewport: dict[str, int],
           language: str) -> Iterator[Person]:
    """Another person like :func:`person`, in a browser of their own (a friend at their
    table)."""
    yield from _someone(chromium, page_server, viewport, language)


def _someone(chromium: Browser, server: ThreadServer, viewport: dict[str, int],
             language: str) -> Iterator[Person]:
    someone = person_in(chromium, server.base, viewport, language)
    yield someone
    someone.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where screenshots are saved (printed at the end of the run)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print where the screenshots are."""
    if SCREENSHOTS.exists() and any(SCREENSHOTS.iterdir()):
        terminalreporter.write_line(f"browser screenshots: {SCREENSHOTS}")
