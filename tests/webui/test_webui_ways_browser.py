"""Every hold and warning the live loop raises has a way on at the table page, in headless
Chromium at phone size, in Italian and in English: each code raised through the real service
(holding the hand, and only warning), its ways on read off both pages; and a dealer's card read
anew, which the camera never saw him draw, taken for his draw in one tap and played to its
verdict."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.cards import parse_card
from referee.events import Draw
from referee.observe import SETTLE_STILL, Said
from referee.wording import RAISED
from vision.seats import UNSURE
from webui.app import create_app
from webui.server import BackgroundServer
from webui.table import TableService
from webui.words import say

from conftest import PIN, PLAYERS
from held_story import StoryTable

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}

playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="the playwright package is not installed")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)",
                allow_module_level=True)

HEADS = {(True, "it"): "Mano ferma: decidete voi", (True, "en"): "The hand is held: you decide",
         (False, "it"): "Da controllare: decidete voi", (False, "en"): "To check: you decide"}
"""The panel's heading: the hand held, or a warning asked while the hand goes on."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TableService, str]]:
    """One server on loopback for the module, its table and its address."""
    folder = tmp_path_factory.mktemp("ways")
    app = create_app({"DATABASE": str(folder / "table.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    server = BackgroundServer(app, host="127.0.0.1")
    yield table, server.url
    table.close()
    server.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """Headless Chromium; every page has the table PIN as if typed once before."""
    with playwright_api.sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=str(CHROMIUM),
            headless=True, args=FLAGS)
        context.add_init_script(f"localStorage.setItem('saltacavallo.pin', '{PIN}');")
        yield context
        context.close()


@pytest.fixture
def story(served) -> StoryTable:
    """A new game: Dario deals to Anna, Bruno (the Re di Coppe), Carla and Dario."""
    table, _ = served
    table.setup(PLAYERS, dealer="Dario")
    told = StoryTable(table)
    told.dealt()
    return told


@pytest.fixture
def pages(browser, served, story) -> Iterator[dict]:
    """The table page on two phones, one in Italian and one in English."""
    _, url = served
    opened = {}
    for language in ("it", "en"):
        page = browser.new_page()
        page.set_viewport_size(PHONE)
        page.goto(f"{url}/?lang={language}")
        page.wait_for_selector(".seat")
        opened[language] = page
    yield opened
    for page in opened.values():
        page.close()


def buttons(held: dict) -> list[str]:
    """The ways on as the page's buttons say them, in the order offered (the question's two
    answers in its place), in the language the state was asked in."""
    said = []
    for way in held["ways"]:
        if way["way"] != "seats":  # a link to the picture where the places are tapped
            said += [way["yes"]["text"], way["no"]["text"]] if way["way"] == "unseen" else [way["text"]]
    return said


@pytest.mark.parametrize("holding", [True, False], ids=["held", "warned"])
def test_every_code_the_loop_raises_has_a_way_on_at_the_table_page_in_both_languages(
        story: StoryTable, pages: dict, holding: bool) -> None:
    table = story.table
    panel = "#held" if holding else "#asked"
    for at, code in enumerate(sorted(RAISED), start=9):
        story.raise_code(code, holding, at=float(at))
        shown_in = {language: table.state(language)["held" if holding else "asked"]
                    for language in pages}
        held = shown_in["it"]
        assert held["code"] == code
        for language, page in pages.items():
            shown = f'{panel}:not([hidden])[data-id="{held["id"]}"] .ways button'
            page.wait_for_selector(shown, timeout=5000)
            said = page.locator(f"{panel} .ways button").all_inner_texts()
            assert said and said == buttons(shown_in[language]), (code, language)
            links = page.locator(f"{panel} .ways a.way").all_inner_texts()
            assert links == [way["text"] for way in shown_in[language]["ways"]
                             if way["way"] == "seats"], (code, language)
            assert page.locator(f"{panel} h2").inner_text() == HEADS[holding, language]
        assert not set(buttons(shown_in["it"])) & set(buttons(shown_in["en"])), code  # one language
        table.resolve(held["id"], "seen in the test")  # as on the Storico page
        for page in pages.values():
            page.wait_for_selector(f"{panel}[hidden]", state="attached", timeout=5000)


DEALER_READ_ANEW = [(9.0, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 6B#4"),
                    (10.0, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 6B#4"),
                    (10.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4"),
                    (11.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4")]
"""Everyone keeps and turns up; then the card at Dario's seat, never seen lifted, reads 1B."""


def test_a_dealers_card_read_anew_is_taken_for_his_draw_in_one_tap(story: StoryTable,
                                                                   pages: dict) -> None:
    story.tell(DEALER_READ_ANEW)
    italian, english = pages["it"], pages["en"]
    for page in pages.values():
        page.wait_for_selector("#asked:not([hidden]) .ways button", timeout=5000)
        assert page.locator("#held").is_hidden()
    assert italian.locator("#asked .says").inner_text() == (
        "Mano 1: la carta di Dario ora si legge 1B, ma prima si leggeva 6B: correggetela se è "
        "così")
    assert italian.locator("#asked .ways button").all_inner_texts() == [
        "Era una pescata: Dario ha pescato l'Asso di Bastoni",
        "Correggi la carta: Dario ha l'Asso di Bastoni", "Ridai le carte", "Scrivi la mano"]
    assert english.locator("#asked .ways button").all_inner_texts() == [
        "It was a draw: Dario drew the Asso di Bastoni",
        "Correct the card: Dario holds the Asso di Bastoni", "Deal again", "Write the hand"]
    assert italian.locator("#warnings p").count() == 0  # asked, not repeated in the banner
    italian.click('#asked .ways button:text-is("Era una pescata: Dario ha pescato l\'Asso di '
                  'Bastoni")')
    said = "Mano 1: Dario ha pescato l'Asso di Bastoni (deciso a mano)"
    italian.wait_for_selector(f'#decided:not([hidden]) .says:text-is("{said}")', timeout=5000)
    english.wait_for_selector("#asked[hidden]", state="attached", timeout=5000)
    game = story.table.game
    assert list(game.history)[-1] == Draw("Dario", parse_card("1B"))
    assert story.table.state()["warnings"] == []
    line = DEALER_READ_ANEW[-1][1]
    story.tell([(12.0, line), (12.0 + SETTLE_STILL + 0.5, line)])  # the camera goes on
    for page in pages.values():
        page.wait_for_selector("#verdict:not([hidden]) .by-hand li", timeout=5000)
    assert italian.locator("#verdict .says").inner_text() == "Dario perde una vita"
    assert english.locator("#verdict .by-hand li").inner_text() == (
        "Hand 1: Dario drew the Asso di Bastoni (decided by a person)")


def test_a_deal_whose_places_cannot_be_named_leads_to_the_picture_to_tap_them(story: StoryTable,
                                                                               pages: dict) -> None:
    table = story.table
    for at, code in enumerate(UNSURE, start=20):
        text = say(code, {}, "en")
        with table.lock:
            story.holds.told([Said("warning", 1, {"message": text}, text, say(code, {}, "it"), None, code, {})],
                             float(at))
        asked = table.state()["asked"]
        assert asked["code"] == code
        for language, page in pages.items():
            link = page.locator(f'#asked:not([hidden])[data-id="{asked["id"]}"] .ways a.way')
            link.wait_for(timeout=5000)
            assert link.inner_text() == {"it": "Tocca il posto di ogni giocatore sulla foto",
                                         "en": "Tap each player's place on the picture"}[language]
            assert link.get_attribute("href") == "/setup#tap-seats"
            assert page.locator("#asked h2").inner_text() == HEADS[False, language]
        table.resolve(asked["id"], "tapped in the test")
        for page in pages.values():
            page.wait_for_selector("#asked[hidden]", state="attached", timeout=5000)
