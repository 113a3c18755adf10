"""End to end in headless Chromium with its synthetic camera: the phone camera page keeps the
screen on, comes back by itself when it is shown again or its camera stops, and the server
hears at once when it goes."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from vision.frames import PushedFrames
from vision.source import SourceStatus
from webui.app import create_app
from webui.server import BackgroundServer
from webui.table import TableService

from conftest import PIN, PLAYERS
from test_webui_browser import camera_context, new_page, playwright_api

WAKE_LOCK_RECORDED = """
window.wakeLocks = [];  // headless Chromium may refuse the real lock: a stand-in records each ask
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: { request: async (type) => {
  const sentinel = new EventTarget();
  Object.assign(sentinel, { type, released: false, onrelease: null });
  sentinel.release = async () => {
    sentinel.released = true;
    const gone = new Event("release");
    sentinel.dispatchEvent(gone);
    if (sentinel.onrelease) sentinel.onrelease(gone);
  };
  window.wakeLocks.push(sentinel);
  return sentinel;
} } });
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
WAKE_LOCK_REFUSED = """
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: { request: async () => {
  throw new DOMException("refused", "NotAllowedError");
} } });
"""
SEEN = """(state) => {
  Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
  Object.defineProperty(document, "hidden", { value: state === "hidden", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""The page hidden or shown as a locked phone or another app would leave it."""
SENT = "Number(document.querySelector('#sent').textContent)"


@pytest.fixture
def phone_page(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator:
    """A phone at 390x844 in Italian with the table PIN given before, the wake lock as the test's
    parameter makes it (recorded, absent or refused)."""
    with playwright_api.sync_playwright() as driver:
        context = camera_context(driver, tmp_path, getattr(request, "param", WAKE_LOCK_RECORDED))
        yield new_page(context, 390, 844)
        context.close()


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[tuple[TableService, PushedFrames, list[SourceStatus], str]]:
    """The app on loopback reading the phone camera page, every status of its source kept."""
    app = create_app({"DATABASE": str(tmp_path / "table.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    table.setup(PLAYERS, dealer="Dario", stake=0.5)
    seen: list[SourceStatus] = []
    source = PushedFrames(on_status=lambda s: (seen.append(s), table.camera_status(s.to_json())))
    table.phone = source
    server = BackgroundServer(app, threads=8)
    yield table, source, seen, server.url
    source.close()
    table.close()
    server.stop()


def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within %g s" % timeout
        time.sleep(0.05)


def frames_flow(page, more: int = 3) -> None:
    """Wait until `more` frames more than now reached the server."""
    now = page.evaluate(SENT)
    page.wait_for_function(f"{SENT} >= {now + more}", timeout=20000)


def test_the_camera_page_stays_awake_and_comes_back_by_itself(phone_page, phone) -> None:
    table, source, seen, url = phone
    page = phone_page
    page.goto(url + "/fotocamera")
    page.click("#camera-start")
    frames_flow(page)
    assert page.evaluate("wakeLocks.map((l) => l.type)") == ["screen"]
    assert page.locator("#camera-awake").is_hidden() and page.locator("#camera-back").is_hidden()
    assert source.status().code == "source.receiving"

    page.evaluate(SEEN, "hidden")  # the phone locks
    until(lambda: source.status().code == "source.page_hidden", 2.0)  # at once, not after 5 s
    assert table.state()["camera"]["text_it"] == (
        "la fotocamera del telefono: la pagina è nascosta (telefono bloccato o un'altra app "
        "davanti); riparte quando la pagina torna in vista")
    assert page.evaluate("wakeLocks[0].released") is True
    assert page.evaluate("document.querySelector('#video').srcObject.active") is False

    page.evaluate(SEEN, "visible")  # unlocked: no tap
    frames_flow(page)
    assert page.locator("#camera-back").is_visible()
    assert page.locator("#camera-back").inner_text() == "La fotocamera è ripartita"
    assert page.evaluate("wakeLocks.length") == 2
    assert source.status().code == "source.receiving"

    page.evaluate("document.querySelector('#video').srcObject.getVideoTracks()[0].stop()")  # a call
    frames_flow(page)
    assert page.evaluate("wakeLocks.map((l) => l.released)") == [True, True, False]
    codes = [s.code for s in seen]
    assert codes[codes.index("source.page_hidden"):] == [
        "source.page_hidden", "source.receiving", "source.page_stopped", "source.receiving"]
    assert page.locator("#camera-awake").is_hidden()


@pytest.mark.parametrize("phone_page", [NO_WAKE_LOCK, WAKE_LOCK_REFUSED], indirect=True,
                         ids=["absent", "refused"])
def test_without_a_wake_lock_the_page_says_how_to_keep_the_screen_on(phone_page, phone) -> None:
    table, source, seen, url = phone
    page = phone_page
    page.goto(url + "/fotocamera")
    assert page.locator("#camera-awake").is_hidden()  # nothing to say before the camera runs
    page.click("#camera-start")
    frames_flow(page)
    assert page.locator("#camera-awake").is_visible()
    assert page.locator("#camera-awake").inner_text() == (
        "Questo browser non può tenere acceso lo schermo: nelle impostazioni del telefono allunga "
        "il tempo di blocco dello schermo (o toglilo finché si gioca).")
