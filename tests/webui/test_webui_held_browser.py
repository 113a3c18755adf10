"""A held hand cleared from a phone, in headless Chromium at phone size, the page never reloaded:
every way on tapped on one phone, its outcome on both within a second, taken back from the
other, tapped again, and the hand played on to its verdict. The two phones open the server at
two loopback addresses (127.0.0.2 and 127.0.0.3), as two devices on the table's Wi-Fi would."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from tornado.netutil import bind_sockets

from referee.observe import DEAL_STILL, SETTLE_STILL
from webui.app import create_app
from webui.demo import DemoFilms, demo_loop
from webui.server import BackgroundServer
from webui.table import TableService

from conftest import PIN, PLAYERS
from held_story import FACES, PAST_THE_WALL, UNDER_THE_HANDS, StoryTable

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
WITHIN = 1.0
"""The issue's bound: every open page shows a decision's outcome within a second."""

playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="the playwright package is not installed")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)",
                allow_module_level=True)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator:
    """Headless Chromium; every page has the table PIN as if typed once before."""
    with playwright_api.sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        context.add_init_script(f"localStorage.setItem('saltacavallo.pin', '{PIN}');")
        yield context
        context.close()


@pytest.fixture
def story(tmp_path: Path) -> Iterator[tuple[StoryTable, list[str]]]:
    """Dario deals to Anna, Bruno (the Re di Coppe), Carla and Dario; the server answers at
    127.0.0.2 and 127.0.0.3."""
    app = create_app({"DATABASE": str(tmp_path / "table.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    table.setup(PLAYERS, dealer="Dario")
    told = StoryTable(table)
    told.dealt()
    server, urls = two_addresses(app)
    yield told, urls
    table.close()
    server.stop()


def phones(browser, urls: list[str]) -> list:
    """One phone-sized page at each address, following the table, marked to catch a reload."""
    pages = []
    for url in urls:
        page = browser.new_page()
        page.set_viewport_size(PHONE)
        page.goto(url + "/")
        page.wait_for_selector(".seat")
        page.evaluate("window.sameDocument = true")
        pages.append(page)
    return pages


def shown(pages: list, selector: str, timeout: float = 5000) -> None:
    for page in pages:
        page.wait_for_selector(selector, timeout=timeout)


def text(page, selector: str) -> str:
    return page.locator(selector).inner_text()


def tap_and_time(tapper, pages: list, selector: str, seen: str) -> float:
    """Tap `selector` on one phone; seconds from the tap until every phone shows `seen` (the
    tap itself waits for the button to lie still, which a busy machine can make slow)."""
    tapper.click(selector)
    tapped = time.monotonic()
    shown(pages, seen, timeout=5000)
    return time.monotonic() - tapped


WAYS = {
    "continue": ("#held .ways > button:nth-child(1)",
                 "Mano 1: le carte sono tornate a posto: si continua"),
    "swap": ("#held .ways > button:nth-child(2)", "Mano 1: Carla ha scambiato con Dario (deciso "
                                                   "a mano)"),
    "redeal": ("#held .redeal button", "Mano 1: la mano non vale: Dario ridà le carte"),
    "write": ("#held .write button[type=submit]",
              "Mano 1: le carte scritte a mano: Anna Cinque di Spade, Bruno Re di Coppe, Carla "
              "Tre di Denari, Dario Sette di Bastoni"),
}


@pytest.mark.parametrize("way", list(WAYS))
def test_each_way_on_clears_the_held_hand_on_every_phone_and_is_taken_back(
        browser, story, way: str) -> None:
    told, urls = story
    one, two = pages = phones(browser, urls)
    told.tell(PAST_THE_WALL)
    if way == "write":
        told.tell([(9.0, FACES)])  # turned up: the camera's names fill the hand in
    shown(pages, "#held:not([hidden]) .ways button")
    for page in pages:
        assert text(page, "#held h2") == "Mano ferma: decidete voi"
        assert text(page, "#held .rule") == "Anna non può scambiare: Bruno ha il Re di Coppe (muro)"
        assert [b.inner_text() for b in page.locator("#held .ways button").all()] == [
            "Le carte sono tornate a posto: continua", "Era uno scambio tra Carla e Dario",
            "Ridai le carte", "Scrivi la mano"]
        assert page.locator("#held .held-photos img").first.get_attribute("src").startswith(
            "/evidence/held-01-")
    if way == "write":  # the table shows the cards as the camera sees them now
        assert one.locator('.seat[data-player="Anna"] .seen-name').inner_text() == (
            "Cinque di Spade")
        assert one.locator("#held .write select[name=Anna]").input_value() == "5S"
        one.select_option("#held .write select[name=Dario]", "7B")  # the camera misread it
        assert one.locator('#held .write-seat[data-player="Dario"] img').get_attribute(
            "src") == "/cards/7B.svg"
    selector, said = WAYS[way]
    seen = f'#decided:not([hidden]) .says:text-is("{said}")'
    assert tap_and_time(one, pages, selector, seen) < WITHIN
    for page in pages:
        assert page.locator("#held").is_hidden()
    # Taken back from the other phone: the hand is held again, on both.
    assert tap_and_time(two, pages, "#decided .take-back", "#held:not([hidden]) .ways button") < (
        WITHIN)
    for page in pages:
        assert page.locator("#decided").is_hidden()
    if way == "write":
        one.select_option("#held .write select[name=Dario]", "7B")
    one.click(selector)  # and chosen again: the game goes on
    shown(pages, seen)
    if way == "redeal":
        empty = "Anna - Bruno - Carla - Dario -"
        fresh = "Anna down#11 Bruno down#12 Carla down#13 Dario down#14"
        told.tell([(10.0, empty), (11.0, fresh), (11.0 + DEAL_STILL, fresh)])
        shown(pages, '#says:text-is("Mano 1: tocca ad Anna")')
        assert told.table.game.hand.number == 1 and told.table.game.results == []
    else:
        told.tell([(10.0, FACES), (10.0 + SETTLE_STILL + 0.5, FACES)])
        shown(pages, "#verdict:not([hidden]) .by-hand li")
        for page in pages:
            assert text(page, "#verdict .says") == "Carla perde una vita"
            assert text(page, "#verdict .by-hand li") == said
    for page in pages:
        assert page.evaluate("window.sameDocument") is True  # never reloaded


def test_the_question_of_two_cards_covered_together_is_answered_on_a_phone(browser,
                                                                           story) -> None:
    told, urls = story
    one, two = pages = phones(browser, urls)
    told.tell(UNDER_THE_HANDS)
    shown(pages, "#held:not([hidden]) .question")
    assert text(one, "#held .question .ask") == "C'è stato uno scambio tra Anna e Carla?"
    # Yes: the cards were exchanged, which is not allowed; the hand waits for them put back.
    seen = '#held:not([hidden]) .ways > button:text-is("Le carte sono tornate a posto: continua")'
    assert tap_and_time(one, pages, "#held .answers .yes", seen) < WITHIN
    assert told.table.state()["held"]["code"] == "swap.put_back"
    told.tell([(9.0, FACES), (13.0, FACES)])  # nothing is played while it waits
    assert told.table.game.results == []
    told.table.take_back(told.table.state()["decided"]["number"])  # (said "yes" by mistake)
    shown(pages, "#held:not([hidden]) .question")
    no = '#decided:not([hidden]) .says:text-is("Mano 1: nessuno scambio tra Anna e Carla: si continua")'
    assert tap_and_time(two, pages, "#held .answers .no", no) < WITHIN
    told.tell([(14.0, FACES), (14.0 + SETTLE_STILL + 0.5, FACES)])
    shown(pages, "#verdict:not([hidden]) .by-hand li")
    for page in pages:
        assert text(page, "#verdict .says") == "Carla perde una vita"
        assert page.evaluate("window.sameDocument") is True


def test_a_held_hand_reads_in_english_on_the_english_page(browser, story) -> None:
    told, urls = story
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    page.goto(urls[1] + "/?lang=en")
    told.tell(PAST_THE_WALL)
    page.wait_for_selector("#held:not([hidden]) .ways button")
    assert text(page, "#held h2") == "The hand is held: you decide"
    assert [b.inner_text() for b in page.locator("#held .ways button").all()] == [
        "The cards are back in place: go on", "It was a swap between Carla and Dario",
        "Deal again", "Write the hand"]
    assert text(page, "#held .rule") == "Anna cannot swap: Bruno shows the Re di Coppe (wall)"


# -- the demo's held hands, through the whole live loop ------------------------------------------

FILMS = Path(__file__).resolve().parents[2] / "sample_images" / "sequences"


def waiting_from(name: str) -> float:
    """When the film's table begins to wait for the page (its truth's segments), in seconds."""
    truth = json.loads((FILMS / f"{name}.json").read_text(encoding="utf-8"))
    return next(s["from"] for s in truth["segments"]
                if s["note"] == "the family answers the held hand on the page") / truth["fps"]


def two_addresses(app) -> tuple[BackgroundServer, list[str]]:
    sockets = bind_sockets(0, "127.0.0.2")
    port = sockets[0].getsockname()[1]
    sockets += bind_sockets(port, "127.0.0.3")
    server = BackgroundServer(app, host="127.0.0.2", sockets=sockets, threads=8)
    return server, [f"http://127.0.0.2:{port}", f"http://127.0.0.3:{port}"]


def test_a_held_hand_of_the_demo_is_cleared_in_one_tap_and_played_to_its_verdict(
        browser, tmp_path: Path) -> None:
    """The hidden film: Gino and Leo exchange their cards under their hands and back again. A loop
    that keeps up with the film follows the cards crossing and holds the illegal swap; one that
    drops frames cannot tell and asks. Once the cards lie back, one tap on a phone (the cards are
    back, or no swap), and both phones follow the hand to its verdict, whose photo shows what was
    decided by hand."""
    app = create_app({"DATABASE": str(tmp_path / "hidden.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    films = DemoFilms(names=("hidden",), rounds=1, hold=30.0)  # in real time, as a table plays
    loop = demo_loop(table, films, answers={}).start()  # a person answers, not the demo
    server, urls = two_addresses(app)
    try:
        pages = []
        for url in urls:
            page = browser.new_page()
            page.set_viewport_size(PHONE)
            page.goto(url + "/")
            page.evaluate("window.sameDocument = true")
            pages.append(page)
        shown(pages, "#held:not([hidden]) h2", timeout=120000)
        one = pages[0]
        if table.state()["held"]["code"] == "swap.unseen":  # the exchange was not seen: asked
            assert text(one, "#held .question .ask") == "C'è stato uno scambio tra Gino e Leo?"
            tap, said = "#held .answers .no", "Mano 1: nessuno scambio tra Gino e Leo: si continua"
        else:  # seen, crossing under the hands: an illegal swap, to be put back
            assert table.state()["held"]["code"] == "swap.undo"
            assert text(one, "#held .rule") == "Gino non può scambiare con Leo: Gino può scambiare con Ida"
            tap, said = WAYS["continue"]
        assert one.locator("#held .held-photos img").first.get_attribute("src").startswith(
            "/evidence/held-01-")
        put_back = waiting_from("hidden")  # the cards lie back: the family answers
        deadline = time.monotonic() + 60
        while loop.holds.controller.seen.at < put_back + 0.5:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert table.state()["held"] is not None
        assert tap_and_time(one, pages, tap, f'#decided:not([hidden]) .says:text-is("{said}")') < WITHIN
        shown(pages, "#verdict:not([hidden]) .by-hand li", timeout=120000)
        for page in pages:
            assert text(page, "#verdict .says") == "Ida perde una vita"
            assert text(page, "#verdict .by-hand li") == said
            assert page.evaluate("window.sameDocument") is True
        assert table.game.results[0].swaps == (("Leo", "Mara"),)
        photo = one.locator("#verdict img.evidence").get_attribute("src")
        picture = cv2.imread(str(table.evidence_dir / Path(photo).name))
        edge = picture[:3, : picture.shape[1] // 2].astype(int)  # the top edge's left half
        gold = np.abs(edge - (40, 178, 230)).max(axis=2) < 60
        assert gold.mean() > 0.9  # the settlement's photo framed in gold: decided by hand
    finally:
        loop.stop()
        table.close()
        server.stop()


def test_the_demo_answers_its_held_hand_after_ten_seconds_and_says_so(browser,
                                                                      tmp_path: Path) -> None:
    """The stands film: an illegal swap nobody puts back; the page says the demo will answer
    in 10 s as a family would, and then that it did: the hand is void, Dario deals again."""
    app = create_app({"DATABASE": str(tmp_path / "stands.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    loop = demo_loop(table, DemoFilms(names=("stands",), rounds=1, hold=15.0)).start()
    server = BackgroundServer(app)
    page = browser.new_page()
    page.set_viewport_size(PHONE)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#held:not([hidden]) .demo:not([hidden])", timeout=120000)
        held = time.monotonic()
        assert text(page, "#held .demo") == ("Tra 10 s la demo risponde da sola, come farebbe "
                                             "una famiglia: Ridai le carte")
        said = ("Mano 1: la demo ha risposto come farebbe una famiglia: la mano non vale: Dario "
                "ridà le carte")
        page.wait_for_selector(f'#decided:not([hidden]) .says:text-is("{said}")', timeout=60000)
        assert time.monotonic() - held >= 8.0
        assert page.locator("#held").is_hidden()
        assert table.game.results == [] and table.game.next_dealer == "Dario"
    finally:
        loop.stop()
        table.close()
        server.stop()


def test_a_dealers_draw_never_read_is_written_on_a_phone_and_the_hand_settled(browser,
                                                                             story) -> None:
    told, urls = story
    one, two = pages = phones(browser, urls)
    kept = "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 6B#4"
    told.tell([(9.0, kept), (10.0, kept),
               (10.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario -"),  # Dario takes up his card
               (11.0, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario down#5"),  # and draws
               (12.0, "Anna - Bruno - Carla - Dario down#5"),  # gathered before it is read
               (12.5, "Anna - Bruno - Carla - Dario down#5")])
    shown(pages, "#held:not([hidden]) .write")
    for page in pages:
        assert text(page, "#warnings p").startswith(
            "! Mano 1: Dario ha pescato una carta che la fotocamera non ha letto")
        assert [b.inner_text() for b in page.locator("#held .ways button").all()] == [
            "Ridai le carte", "Scrivi la mano"]  # nothing left on the table to watch on
    one.select_option("#held .write select[name=Dario]", "1S")
    said = ("Mano 1: le carte scritte a mano: Anna Cinque di Spade, Bruno Re di Coppe, Carla Tre "
            "di Denari, Dario Asso di Spade")
    seen = f'#decided:not([hidden]) .says:text-is("{said}")'
    assert tap_and_time(one, pages, "#held .write button[type=submit]", seen) < WITHIN
    shown(pages, "#verdict:not([hidden]) .by-hand li")
    for page in pages:
        assert text(page, "#verdict .says") == "Dario perde una vita"
        assert page.evaluate("window.sameDocument") is True
