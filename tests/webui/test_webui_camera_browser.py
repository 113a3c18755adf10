"""End to end in headless Chromium with its synthetic camera: the phone camera page keeps the
screen on, comes back by itself when it is shown again or its camera stops, and the server
hears at once when it goes; a drawn film played into it over HTTPS is aimed by, read and settled."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from art.y4m import film_frames, write_y4m
from live.aim import aim_view
from live.loop import LiveLoop
from vision.detections import CardDetections
from vision.frames import PushedFrames
from vision.source import SourceStatus
from webui.app import create_app
from webui.certs import ensure_certificate
from webui.demo import FILMS
from webui.server import BackgroundServer, tls_context
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


def filming_now(page, url: str) -> None:
    """Open the camera page, start its camera and wait for its pictures to reach the server."""
    page.goto(url + "/fotocamera")
    page.click("#camera-start")
    frames_flow(page)


def test_the_camera_page_stays_awake_and_comes_back_by_itself(phone_page, phone) -> None:
    table, source, seen, url = phone
    page = phone_page
    filming_now(page, url)
    assert page.evaluate("wakeLocks.map((l) => l.type)") == ["screen"]
    assert page.locator("#camera-awake").is_hidden() and page.locator("#camera-back").is_hidden()
    assert source.status().code == "source.receiving"

    page.evaluate(SEEN, "hidden")  # the phone locks
    until(lambda: source.status().code == "source.page_hidden", 2.0)  # at once, not after 5 s
    assert table.state("it")["camera"]["text"] == (
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


FILM = "hand"
"""The sample hand (five players on wood, seen from above at 30 degrees): Carla pays."""


@pytest.fixture
def filmed(tmp_path: Path) -> Iterator[tuple[TableService, str, dict]]:
    """The app over HTTPS (its own self-signed certificate) with the live loop reading the phone
    camera page, its table set up as the film's."""
    truth = json.loads((FILMS / f"{FILM}.json").read_text(encoding="utf-8"))
    app = create_app({"DATABASE": str(tmp_path / "table.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    table.setup(truth["players"], truth["rules"], dealer=truth["dealer"])
    source = PushedFrames(on_status=lambda s: table.camera_status(s.to_json()))
    table.phone = source
    loop = LiveLoop(table, source).start()
    cert, key, _ = ensure_certificate(tmp_path / "tls", ["127.0.0.1"])
    server = BackgroundServer(app, threads=8, tls=tls_context(str(cert), str(key)))
    yield table, server.url, truth
    loop.stop()
    table.close()
    server.stop()


@pytest.fixture
def filming(tmp_path: Path) -> Iterator:
    """A phone at 390x844 whose camera plays the film (960x540, 15 a second, as drawn)."""
    film = tmp_path / f"{FILM}.y4m"
    write_y4m(film_frames(FILMS / f"{FILM}.mp4"), film, 15)
    with playwright_api.sync_playwright() as driver:
        context = camera_context(driver, tmp_path, WAKE_LOCK_RECORDED, film)
        yield new_page(context, 390, 844)
        context.close()


def aim_says(page, text: str, timeout: float = 30000) -> None:
    page.wait_for_function("(text) => document.querySelector('#aim').textContent === text", arg=text,
                           timeout=timeout)


def test_a_hand_filmed_by_the_phone_page_is_aimed_by_read_and_settled_right(filmed, filming) -> None:
    table, url, truth = filmed
    page = filming
    page.goto(url + "/fotocamera")
    assert page.evaluate("location.protocol") == "https:" and page.evaluate("isSecureContext")
    page.click("#camera-start")
    # before the deal: the outline to keep the cards in; at the deal every place found and ticked
    aim_says(page, "I posti si trovano alla prima distribuzione: tieni le carte di tutti dentro "
                   "la cornice")
    assert page.locator("#aim-marks polygon.outline").count() == 1
    aim_says(page, "Tutti e 5 i posti si vedono")
    assert page.locator("#aim-marks circle.seen").count() == 5
    assert page.locator("#aim-marks circle.cut").count() == 0
    marks = page.evaluate("[...document.querySelectorAll('#aim-marks text')].map((t) => t.textContent)")
    assert marks[-5:] == [f"✓ {name}" for name in truth["players"]]
    assert page.locator("#aim-marks polygon.quad").count() >= 5  # the cards read, drawn
    assert page.evaluate("wakeLocks.map((l) => l.type)") == ["screen"]
    assert page.locator("#torch").is_hidden()  # the fake camera has no torch
    assert page.locator("#light").is_hidden()  # lit and sharp enough
    assert page.locator("#camera-note").inner_text() == "960×540"

    until(lambda: bool(table.game.results), 90.0)  # the hand, at the film's pace (23 s)
    result = table.game.results[0]
    assert list(result.losers) == truth["expected"][0]["losers"]

    page.evaluate(SEEN, "hidden")  # the phone locks...
    until(lambda: table.state()["camera"]["code"] == "source.page_hidden", 2.0)
    page.evaluate(SEEN, "visible")  # ...and is unlocked: the camera comes back, aimed as before
    frames_flow(page)
    assert page.locator("#camera-back").is_visible()
    assert page.evaluate("wakeLocks.length") == 2
    assert table.state()["camera"]["code"] == "source.receiving"
    # headless Chromium tells a battery full and charging
    assert table.state()["phone"] == {"width": 960, "height": 540, "slow": False, "light": None,
                                      "battery": 100, "charging": True, "battery_low": False}


TORCH_OFFERED = WAKE_LOCK_RECORDED + """
window.torches = [];  // a phone's rear camera: its track offers a torch, and each ask is recorded
const capabilities = MediaStreamTrack.prototype.getCapabilities;
MediaStreamTrack.prototype.getCapabilities = function () { return { ...capabilities.call(this), torch: true }; };
MediaStreamTrack.prototype.applyConstraints = async function (wanted) { window.torches.push(wanted.advanced[0].torch); };
"""
BATTERY_LOW = WAKE_LOCK_RECORDED + """
navigator.getBattery = async () => Object.assign(new EventTarget(), { level: 0.15, charging: false });
"""
NO_BATTERY = WAKE_LOCK_RECORDED + "delete Navigator.prototype.getBattery;"


@pytest.mark.parametrize("phone_page", [TORCH_OFFERED], indirect=True)
def test_a_torch_the_camera_offers_is_turned_on_and_off_and_kept_across_a_restart(phone_page,
                                                                                  phone) -> None:
    page = phone_page
    page.goto(phone[3] + "/fotocamera")
    assert page.locator("#torch").is_hidden()  # no camera yet
    page.click("#camera-start")
    frames_flow(page)
    torch = page.locator("#torch")
    assert torch.is_visible() and torch.inner_text() == "Accendi la torcia"
    torch.click()
    page.wait_for_function("document.querySelector('#torch').getAttribute('aria-pressed') === 'true'")
    assert torch.inner_text() == "Spegni la torcia" and page.evaluate("torches") == [True]
    page.evaluate(SEEN, "hidden")  # the browser lets go of the torch with the camera...
    page.evaluate(SEEN, "visible")
    frames_flow(page)
    assert page.evaluate("torches") == [True, True]  # ...and it is lit again when it comes back
    torch.click()
    page.wait_for_function("document.querySelector('#torch').getAttribute('aria-pressed') === 'false'")
    assert page.evaluate("torches") == [True, True, False]


def test_no_torch_button_where_the_camera_offers_none(phone_page, phone) -> None:
    page = phone_page
    filming_now(page, phone[3])
    assert page.locator("#torch").is_hidden()


@pytest.mark.parametrize("phone_page", [BATTERY_LOW], indirect=True)
def test_a_low_battery_asks_for_the_charger_here_and_on_the_live_page(phone_page, phone) -> None:
    table, source, seen, url = phone
    page = phone_page
    page.goto(url + "/fotocamera")
    assert page.locator("#battery").inner_text() == "Batteria 15%: collegalo alla corrente"
    assert "low" in page.locator("#battery").get_attribute("class")
    page.click("#camera-start")
    frames_flow(page)
    assert table.state()["phone"]["battery_low"] is True
    live = page.context.new_page()
    live.goto(url + "/live")
    live.wait_for_function("document.querySelector('#phone-line').textContent.includes('Batteria')")
    assert live.locator("#phone-line").inner_text() == (
        "Telefono: immagini 1280×720 · Batteria 15%: collegalo alla corrente")


@pytest.mark.parametrize("phone_page", [NO_BATTERY], indirect=True)
def test_without_the_battery_api_nothing_is_said_of_it(phone_page, phone) -> None:
    table, source, seen, url = phone
    page = phone_page
    filming_now(page, url)
    assert page.locator("#battery").is_hidden()
    assert "battery" not in table.state()["phone"]


def test_a_slow_link_steps_the_picture_down_to_its_floor_and_back_up_when_it_recovers(
        phone_page, phone) -> None:
    table, source, seen, url = phone
    page = phone_page
    filming_now(page, url)
    assert page.locator("#camera-note").inner_text() == "1280×720"
    link = page.context.new_cdp_session(page)
    link.send("Network.enable")
    link.send("Network.emulateNetworkConditions", {  # a weak Wi-Fi: 300 ms each way
        "offline": False, "latency": 300, "downloadThroughput": -1, "uploadThroughput": -1})
    page.wait_for_function("document.querySelector('#camera-note').textContent === '960×540'",
                           timeout=30000)
    assert page.locator("#camera-pace").inner_text().endswith("collegamento lento: immagine ridotta")
    until(lambda: table.state()["phone"]["height"] == 540)
    assert table.state()["phone"]["slow"] is True
    frames_flow(page, 4)
    assert page.locator("#camera-note").inner_text() == "960×540"  # never below the floor
    link.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    page.wait_for_function("document.querySelector('#camera-note').textContent === '1280×720'",
                           timeout=30000)
    until(lambda: table.state()["phone"]["slow"] is False)


@pytest.fixture
def dark_room(tmp_path: Path) -> Iterator:
    """A phone at 390x844 whose camera sees the sample hand's reveal in a room with a twentyfifth of
    the light (a second of film, round and round)."""
    film = tmp_path / "dark.y4m"
    frames = film_frames(FILMS / f"{FILM}.mp4", light=0.04)
    write_y4m((frame for k, frame in enumerate(frames) if 315 <= k < 330), film, 15)
    with playwright_api.sync_playwright() as driver:
        context = camera_context(driver, tmp_path, WAKE_LOCK_RECORDED, film)
        yield new_page(context, 390, 844)
        context.close()


def test_a_picture_too_dark_to_read_cards_is_said_here_and_on_the_live_page(phone, dark_room) -> None:
    table, source, seen, url = phone
    page = dark_room
    page.goto(url + "/fotocamera")
    page.click("#camera-start")
    page.wait_for_selector("#light:not([hidden])", timeout=15000)  # three measures a second apart
    assert page.locator("#light").inner_text() == (
        "Troppo buio per leggere le carte: accendi una luce o la torcia")
    assert table.state()["phone"]["light"] == "dark"
    live = page.context.new_page()
    live.goto(url + "/live?lang=en")
    live.wait_for_function("document.querySelector('#phone-line').textContent.includes('dark')")
    assert live.locator("#phone-line").inner_text() == (
        "Phone: pictures 960×540 · Battery 100% (charging) · Too dark to read the cards: turn on a "
        "light or the torch")


@pytest.mark.parametrize("language, words", [
    ("it", "Il telefono è troppo inclinato: le carte scoperte non si leggono. Alzalo sopra il tavolo, "
           "o mettilo più in alto"),
    ("en", "The phone leans too far: cards shown cannot be read. Raise it over the table, or stand it "
           "higher"),
])
def test_a_phone_leaning_too_far_to_read_a_face_is_told_to_rise(phone_page, phone, language, words) -> None:
    table, source, seen, url = phone
    page = phone_page
    page.goto(f"{url}/fotocamera?lang={language}")
    page.click("#camera-start")
    frames_flow(page)
    table.show_aim(aim_view(None, (960, 540), CardDetections.empty(), len(PLAYERS), steep=True))
    aim_says(page, words)
    assert "cut" in page.locator("#aim").get_attribute("class")  # said as a warning
    table.show_aim(aim_view(None, (960, 540), CardDetections.empty(), len(PLAYERS)))
    aim_says(page, {"it": "I posti si trovano alla prima distribuzione: tieni le carte di tutti dentro la "
                          "cornice",
                    "en": "The places are found at the first deal: keep everyone's cards inside the "
                          "frame"}[language])
