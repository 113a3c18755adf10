"""Every page through Flask's test client: Italian first, English on request, cards, QR codes."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from conftest import WITH_PIN, WORKED_EXAMPLE, play
from webui.pages import CARDS

PAGES = [("/", "Tavolo", "Table"), ("/live", "Stato della fotocamera", "Camera status"),
         ("/storico", "Annulla l&#39;ultima mossa", "Undo the last event"),
         ("/setup", "Primo mazziere", "First dealer"),
         ("/fotocamera", "Accendi la fotocamera", "Start the camera")]


@pytest.mark.parametrize("path, italian, english", PAGES)
def test_every_page_is_italian_first_with_an_english_switch(client: FlaskClient, path: str,
                                                            italian: str, english: str) -> None:
    page = client.get(path)
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert italian in page.text and '<html lang="it">' in page.text
    assert f'href="/lang/en?next={path}"' in page.text
    english_page = client.get(path + "?lang=en")
    assert english in english_page.text and '<html lang="en">' in english_page.text
    assert "lang=en" in english_page.headers["Set-Cookie"]
    assert english in client.get(path).text  # the cookie keeps the choice


def test_pages_load_nothing_from_outside(client: FlaskClient) -> None:
    for path, _, _ in PAGES:
        text = client.get(path).text
        assert "http://" not in text and "https://" not in text, path


def test_the_language_switch_goes_back_only_within_the_site(client: FlaskClient) -> None:
    answer = client.get("/lang/en?next=/storico")
    assert answer.status_code == 302 and answer.headers["Location"] == "/storico"
    outside = client.get("/lang/it?next=//evil.example/")
    assert outside.headers["Location"] == "/"
    assert client.get("/lang/fr").status_code == 404


def test_static_files_are_served(client: FlaskClient) -> None:
    assert "function follow" in client.get("/static/app.js").text
    assert ".seat" in client.get("/static/style.css").text


@pytest.mark.parametrize("code, name", [("9S", "9S"), ("10D", "10D"), ("1b", "1B"), ("spade-09", "9S"),
                                        ("back", "back")])
def test_cards_come_in_the_projects_own_deck_art(client: FlaskClient, code: str, name: str) -> None:
    card = client.get(f"/cards/{code}.svg")
    assert card.status_code == 200 and card.mimetype == "image/svg+xml"
    assert card.text.lstrip().startswith(("<svg", "<?xml"))
    assert card.data == (CARDS / f"{name}.svg").read_bytes()
    assert card.headers["Cache-Control"] == "public, max-age=604800"  # a week: the deck never changes


def test_an_unknown_card_is_404_on_a_page_without_a_trace(client: FlaskClient) -> None:
    answer = client.get("/cards/11Z.svg")
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    assert "Pagina non trovata" in answer.text and "Traceback" not in answer.text


@pytest.mark.parametrize("which, path", [("table", "/"), ("camera", "/fotocamera")])
def test_qr_codes_point_at_the_table_and_the_camera_page(client: FlaskClient, which: str,
                                                         path: str) -> None:
    answer = client.get(f"/qr/{which}.svg")
    assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
    assert answer.text.startswith("<?xml") or answer.text.startswith("<svg")
    assert client.get("/qr/other.svg").status_code == 404


def test_a_verdict_page_exists_for_each_settled_hand(seated: FlaskClient) -> None:
    assert seated.get("/mano/1").status_code == 404
    play(seated, WORKED_EXAMPLE)
    page = seated.get("/mano/1")
    assert page.status_code == 200 and 'data-hand="1"' in page.text
    assert seated.get("/mano/2").status_code == 404


def test_the_table_page_offers_the_camera_page_by_qr(client: FlaskClient) -> None:
    page = client.get("/").text
    assert 'src="/qr/camera.svg"' in page and "Usa questo telefono come fotocamera" in page


def test_a_live_picture_is_404_until_the_camera_shows_one(client: FlaskClient, table) -> None:
    assert client.get("/api/live.jpg").status_code == 404
    table.show_frame(b"\xff\xd8\xff\xd9")
    answer = client.get("/api/live.jpg")
    assert answer.status_code == 200 and answer.data == b"\xff\xd8\xff\xd9"


def test_the_pin_header_is_what_the_pages_send(client: FlaskClient) -> None:
    assert "X-Table-Pin" in client.get("/static/app.js").text
    assert client.post("/api/pin", headers=WITH_PIN).status_code == 200
