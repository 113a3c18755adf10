"""The evening on a phone in headless Chromium: three short games, the sums, the chart, the picture."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from webui.app import create_app
from webui.server import BackgroundServer

from conftest import PIN, WITH_PIN
from test_webui_browser import CHROMIUM, FLAGS, playwright_api
from test_webui_evening import THREE, short_game

PHONE = {"width": 390, "height": 844}

SHARE = """localStorage.setItem('saltacavallo.pin', '%s');
navigator.canShare = (data) => Boolean(data.files && data.files.length);
navigator.share = async (data) => { window.shared = data.files[0]; };""" % PIN
"""The phone's share sheet, standing in for the real one: it keeps the file it is handed."""


@pytest.fixture
def phone(tmp_path: Path) -> Iterator:
    """An app on a fresh file, served, and a phone-sized page of headless Chromium."""
    app = create_app({"DATABASE": str(tmp_path / "table.db"), "PIN": PIN})
    server = BackgroundServer(app, threads=8)
    with playwright_api.sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True, args=FLAGS,
            viewport=PHONE, has_touch=True)
        context.add_init_script(SHARE)
        page = context.new_page()
        yield app.test_client(), page, server.url
        context.close()
    app.extensions["saltacavallo.table"].close()
    server.stop()


def texts(page, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


def test_three_games_on_a_phone_show_the_sums_the_chart_and_the_picture(phone) -> None:
    client, page, url = phone
    client.post("/api/setup", json={"players": THREE, "dealer": "Carla", "lives": 1,
                                    "stake": 0.5}, headers=WITH_PIN)
    page.goto(url + "/serata")
    short_game(client, ("Anna", "Bruno"))
    page.wait_for_function("document.querySelectorAll('#ev-games li.over').length === 1")
    page.click("#ev-next")  # one tap, the PIN kept from before
    page.wait_for_function("document.querySelectorAll('#ev-games li').length === 2")
    assert page.locator("#ev-next").is_disabled()
    short_game(client, ("Bruno", "Carla"))
    page.click("#ev-change-fold summary")
    page.fill("#ev-change input[name=stake]", "1")
    page.click("#ev-change button[type=submit]")
    page.wait_for_selector("#toast:not([hidden])")
    page.wait_for_function("!document.querySelector('#ev-next').disabled")
    page.click("#ev-next")
    page.wait_for_function("document.querySelectorAll('#ev-games li').length === 3")
    short_game(client, ("Carla", "Anna"))
    page.wait_for_function("document.querySelectorAll('#ev-games li.over').length === 3")
    # the sums are drawn as the evening's answer comes: read them once shown, a row a player
    page.wait_for_function("document.querySelector('#ev-net').checkVisibility()"
                           " && document.querySelectorAll('#ev-net tr').length === 3")
    assert texts(page, "#ev-games li") == [
        "Partita 1: vince Carla (piatto 2, posta 0,50 €)",
        "Partita 2: vince Anna (piatto 2, posta 0,50 €)",
        "Partita 3: vince Bruno (piatto 2, posta 1,00 €)"]
    cells = page.eval_on_selector_all("#ev-net tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))")
    assert cells == [["Bruno", "+1,00 €"], ["Anna", "-0,50 €"], ["Carla", "-0,50 €"]]  # read by cell, not by layout
    assert texts(page, "#ev-payments li") == ["Anna dà 0,50 € a Bruno", "Carla dà 0,50 € a Bruno"]
    lives = page.eval_on_selector_all("#ev-chart svg g.series",
                                      "gs => gs.map(g => [g.dataset.player, g.dataset.lives])")
    assert lives == [["Anna", "1,1,0"], ["Bruno", "1,1,1"], ["Carla", "1,0,0"]]  # game 3
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.click("#ev-share")
    page.wait_for_function("window.shared !== undefined")
    png = page.evaluate("""async () => { const bytes = new Uint8Array(await window.shared
        .arrayBuffer()); let s = ''; bytes.forEach((b) => s += String.fromCharCode(b));
        return [window.shared.type, window.shared.name, btoa(s)]; }""")
    assert png[:2] == ["image/png", "saltacavallo-serata.png"]
    picture = cv2.imdecode(np.frombuffer(base64.b64decode(png[2]), np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[1] == 1080 and picture.shape[0] > 1000
    header = picture[10:80, 10:1070].reshape(-1, 3)
    assert (np.abs(header.astype(int) - [26, 31, 122]).sum(axis=1) < 30).mean() > 0.8  # the red band
    assert picture[100:].std() > 20  # words and lines drawn, not a blank page

    client.post("/api/undo", headers=WITH_PIN)  # the last hand taken back: every phone hears
    page.wait_for_function("document.querySelectorAll('#ev-games li.over').length === 2")
    assert texts(page, "#ev-payments li") == ["Bruno dà 0,50 € ad Anna",
                                              "Bruno dà 0,50 € a Carla"]
