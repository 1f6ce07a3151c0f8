"""The web server under test: a real server (uvicorn on loopback) on a real database, SQLite or
the private PostgreSQL of ``scripts/services.sh`` (``database_url`` and ``sqlite_url`` come from
the root ``tests/conftest.py``), and Debian's chromium driven by Playwright.

Screenshots go to ``test-artifacts/`` at the top of the checkout (ignored by git).
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from aiosmtpd.controller import Controller

from rennleitung.play import RaceService, TimedOut
from rennleitung.play.clock import ManualClock
from rennleitung.web.app import create_app
from rennleitung.web.settings import Settings
from rennleitung.web.wire import server_config
from tests.conftest import free_port

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


class LiveServer:
    """uvicorn serving ``create_app(settings)`` in a thread, on a free loopback port."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(replace(settings, base_url=self.url))
        self.server = uvicorn.Server(server_config(self.app, settings, "127.0.0.1", self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    @property
    def clock(self) -> ManualClock:
        """The server's clock, when it was given a ``ManualClock`` (``make_settings(db,
        clock=ManualClock())``)."""
        found = self.app.state.settings.clock
        if not isinstance(found, ManualClock):
            raise RuntimeError("this server follows the system clock: give it a ManualClock")
        return found

    def advance(self, seconds: float) -> list[TimedOut]:
        """Move the server's clock forward and run what its ticker runs (``run_due``: the
        deadlines now due, then the quiet races to abandon) without waiting for it; returns
        the bots' decisions for every time that ran out."""
        self.clock.advance(seconds)
        races: RaceService = self.app.state.races
        return races.run_due()


def make_settings(db_url: str, **changes: Any) -> Settings:
    values: dict[str, Any] = {"db_url": db_url, "secret": "test-secret-" + uuid.uuid4().hex,
                              "demo": False}
    values.update(changes)
    return Settings(**values)


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    with LiveServer(make_settings(database_url)) as live:
        yield live


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright (never a downloaded browser build)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `sh scripts/services.sh` installs it")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--no-sandbox"])
        yield PatientBrowser(launched)
        launched.close()


class PatientBrowser:
    """The browser whose contexts wait up to 20 s for an element or a navigation (Playwright's
    default is 30 s). A form's round trip takes well under two seconds even on two busy cores;
    the waits that take longer (a bot race to the flag) say so with their own timeout. What
    took longer before was chromium's renderer stall (docs/CONTRIBUTING.md, "Browser tests"),
    which never ends: the shorter wait makes its one rerun cost 20 s instead of a minute."""

    def __init__(self, launched: Any) -> None:
        self.launched = launched

    def new_context(self, **options: Any) -> Any:
        """A context that prefers reduced motion unless told otherwise: the "you" ring's
        pulse repaints the whole board every frame while it runs (a third of a core per page),
        and a test driving a race restarts it with every page; it is decoration only, and
        ``test_stylesheets.py`` checks that it ends."""
        options.setdefault("reduced_motion", "reduce")
        context = self.launched.new_context(**options)
        context.set_default_timeout(20_000)
        context.set_default_navigation_timeout(20_000)
        return context


def shot(target: Any, name: str) -> Path:
    """A screenshot of a page or element under ``test-artifacts/``."""
    from playwright.sync_api import Error as PlaywrightError

    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    for attempt in range(3):  # headless chromium now and then refuses a capture on a busy machine
        try:
            target.screenshot(path=str(path))
            return path
        except PlaywrightError as error:
            if "Unable to capture screenshot" not in str(error) or attempt == 2:
                raise
            time.sleep(0.5)
    return path


class Client(httpx.Client):
    """An HTTP client that reads the CSRF token from the last page it loaded."""

    csrf = ""

    def page(self, path: str) -> httpx.Response:
        response = self.get(path)
        marker = 'name="csrf" value="'
        if marker in response.text:
            self.csrf = response.text.split(marker, 1)[1].split('"', 1)[0]
        elif 'data-csrf="' in response.text:
            self.csrf = response.text.split('data-csrf="', 1)[1].split('"', 1)[0]
        return response

    def submit(self, path: str, data: dict[str, Any] | None = None,
               **kwargs: Any) -> httpx.Response:
        return self.post(path, data={"csrf": self.csrf, **(data or {})}, **kwargs)


def client(server: LiveServer) -> Client:
    return Client(base_url=server.url, follow_redirects=False, timeout=30)


def signed_up(server: LiveServer, name: str, email: str = "",
              password: str = "correct horse") -> Client:
    person = client(server)
    person.page("/signup")
    answer = person.submit("/signup", {"name": name, "email": email, "password": password})
    assert answer.status_code == 303, answer.text
    return person


GREEN, YELLOW, ORANGE = "#8fd18f", "#f2d16b", "#f59a3c"


def wait_for_change(page: Any, version: str) -> None:
    page.wait_for_function(
        "v => { const m = document.getElementById('race-version');"
        " return m && m.dataset.version !== v; }", arg=version, timeout=60_000)


def choose_destination(page: Any) -> Any:
    """The farthest free destination, else the one costing fewest brake and tyre points (tyres
    weigh double: a car without them is out), else the first."""
    free = page.locator(f'svg.overlay path.dest[fill="{GREEN}"]')
    if free.count():
        return free.first
    costly = page.locator(f'svg.overlay path.dest[fill="{YELLOW}"]')
    if costly.count():
        titles = costly.evaluate_all("paths => paths.map(p => p.textContent)")
        return costly.nth(min(range(len(titles)), key=lambda n: cost(titles[n])))
    tested = page.locator(f'svg.overlay path.dest[fill="{ORANGE}"]')
    if tested.count():
        return tested.first
    return page.locator("svg.overlay path.dest").first


def cost(title: str) -> int:
    found = re.findall(r"(\d+) (brake|tyre) points", title)
    return sum(int(n) * (2 if kind == "tyre" else 1) for n, kind in found)


def pick_gear(form: Any) -> None:
    """The highest legal gear up to 4th: quick, and a car that survives a lap."""
    gears = [int(g) for g in form.locator("input[name=gear]").evaluate_all(
        "inputs => inputs.map(i => i.value)")]
    low = [g for g in gears if g <= 4]
    gear = max(low) if low else min(gears)
    form.locator(f"input[name=gear][value='{gear}']").check()


class Inbox:
    """Mail received by the real SMTP server."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.arrived = threading.Event()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        self.arrived.set()
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()
