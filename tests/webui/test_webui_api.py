"""The JSON API through Flask's test client: the state, every change, every bad request."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.events import Settle
from vision.frames import PushedFrames
from webui.table import TableService

from conftest import PIN, PLAYERS, WITH_PIN, WORKED_EXAMPLE, play



@pytest.fixture(autouse=True)
def in_english(client: FlaskClient) -> None:
    """The client reads the API in English, as a page whose language is English (its `lang`
    cookie); `?lang=it` asks a single answer in Italian."""
    client.set_cookie("lang", "en")


def said(client: FlaskClient, path: str, method: str = "POST", **asked) -> tuple[str, str]:
    """A refusal as the pages read it, asked in English and then in Italian (a refusal changes
    nothing)."""
    english, italian = (client.open(path, method=method, query_string={"lang": lang}, **asked)
                        for lang in ("en", "it"))
    assert english.status_code == italian.status_code >= 400
    return english.get_json()["error"], italian.get_json()["error"]


def italian(client: FlaskClient) -> dict:
    """The state as an Italian page reads it."""
    return client.get("/api/state?lang=it").get_json()


def jpeg(width: int = 64, height: int = 48) -> bytes:
    """A real JPEG of a grey picture."""
    ok, data = cv2.imencode(".jpg", np.full((height, width, 3), 128, np.uint8))
    assert ok
    return data.tobytes()


def test_before_any_setup_the_state_asks_for_players(client: FlaskClient) -> None:
    state = client.get("/api/state").get_json()
    assert state["ready"] is False
    assert state["players"] == [] and state["verdicts"] == []
    assert italian(client)["says"] == "Scegli i giocatori per cominciare"
    assert client.get("/api/record").status_code == 409


def test_setup_seats_the_table_with_the_first_dealer(seated: FlaskClient) -> None:
    state = seated.get("/api/state").get_json()
    assert state["players"] == PLAYERS
    assert state["lives"] == {"Anna": 3, "Bruno": 3, "Carla": 3, "Dario": 3}
    assert state["phase"] == "deal" and state["dealer"] == "Dario"
    assert state["stake"] == 0.5 and state["pot"] == 0
    assert italian(seated)["says"] == "Mano 1: Dario fa le carte"


def test_the_worked_example_shows_targets_walls_and_the_verdict(seated: FlaskClient) -> None:
    play(seated, WORKED_EXAMPLE[:2])
    state = seated.get("/api/state").get_json()
    assert state["phase"] == "turns" and state["current_player"] == "Carla"
    assert italian(seated)["turn"]["text"] == ("Carla può scambiare con Anna: salta il Cavallo di "
                                               "Bastoni di Dario")
    assert state["turn"]["text"] == ("Carla may swap with Anna: Dario's Cavallo di Bastoni is "
                                     "jumped")
    seats = {s["player"]: s for s in state["seats"]}
    assert seats["Bruno"]["card"] == "10C" and seats["Bruno"]["card_name"]["name"] == "King of Cups"
    seats_it = {s["player"]: s for s in italian(seated)["seats"]}
    assert seats_it["Bruno"]["card_name"] == {"code": "10C", "name": "Re di Coppe"}
    assert seats["Anna"]["card"] == "back" and seats_it["Anna"]["why"] == "Anna ha tenuto la carta"
    assert seats["Dario"]["dealer"] is True
    play(seated, WORKED_EXAMPLE[2:])
    state = seated.get("/api/state").get_json()
    assert state["lives"] == {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3}
    assert state["pot"] == 1 and state["dealer"] == "Anna"
    (verdict,) = state["verdicts"]
    assert verdict["hand"] == 1 and verdict["losers"] == ["Carla"]
    assert italian(seated)["verdicts"][0]["says"] == "Carla perde una vita"
    assert verdict["says"] == "Carla loses a life"
    assert {c["player"]: c["code"] for c in verdict["cards"]} == {
        "Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}
    assert verdict["swaps"] == [["Carla", "Anna"]] and verdict["evidence"] is None


def test_the_wall_is_said_in_words_for_the_player_at_it(seated: FlaskClient) -> None:
    play(seated, WORKED_EXAMPLE[:1])
    turn = italian(seated)["turn"]
    assert turn["player"] == "Anna" and turn["may"] == ["keep"]
    assert turn["text"] == "Anna non può scambiare: Bruno ha il Re di Coppe (muro)"


def test_undo_takes_back_the_last_event(seated: FlaskClient) -> None:
    play(seated, WORKED_EXAMPLE)
    answer = seated.post("/api/undo", headers=WITH_PIN)
    assert answer.status_code == 200
    state = answer.get_json()
    assert state["phase"] == "settle" and state["lives"]["Carla"] == 3 and state["pot"] == 0
    assert state["last_event"]["kind"] == "reveal"
    assert italian(seated)["last_event"]["text"] == "Le carte vengono scoperte"


def test_undo_with_nothing_to_undo_is_refused(client: FlaskClient) -> None:
    answer = client.post("/api/undo", headers=WITH_PIN)
    assert answer.status_code == 409
    assert said(client, "/api/undo", headers=WITH_PIN) == ("no game yet: set up the players first",
                            "nessuna partita: scegliete prima i giocatori")


def test_a_revive_between_hands_gives_a_life_back(client: FlaskClient) -> None:
    client.post("/api/setup", json={"players": PLAYERS, "dealer": "Dario", "lives": 1},
                headers=WITH_PIN)
    play(client, [{"kind": "deal", "cards": {"Anna": "1D", "Bruno": "5C", "Carla": "6S",
                                             "Dario": "7B"}},
                  {"kind": "keep", "player": "Anna"}, {"kind": "keep", "player": "Bruno"},
                  {"kind": "keep", "player": "Carla"},
                  {"kind": "reveal", "cards": {"Anna": "1D", "Bruno": "5C", "Carla": "6S",
                                               "Dario": "7B"}},
                  {"kind": "keep", "player": "Dario"}, {"kind": "settle"}])
    seats = {s["player"]: s for s in client.get("/api/state").get_json()["seats"]}
    assert seats["Anna"]["alive"] is False and seats["Anna"]["may"] == ["revive"]
    refused = client.post("/api/corrections", json={"kind": "revive", "dead": "Carla",
                                                     "living": "Bruno"}, headers=WITH_PIN)
    assert refused.status_code == 409
    assert said(client, "/api/corrections", json={"kind": "revive", "dead": "Carla",
                                                  "living": "Bruno"}, headers=WITH_PIN) == (
        "hand 1: Carla cannot be revived: Carla is not dead",
                             "mano 1: Carla non può tornare in gioco: Carla ha ancora vite")
    play(client, [{"kind": "revive", "dead": "Anna", "living": "Bruno"}])
    state = client.get("/api/state").get_json()
    assert state["lives"] == {"Anna": 1, "Bruno": 0, "Carla": 1, "Dario": 1}
    assert italian(client)["last_event"]["text"] == "Bruno dà una vita ad Anna"


def test_a_player_joins_and_another_leaves_between_hands(seated: FlaskClient) -> None:
    play(seated, [{"kind": "join", "player": "Elena", "before": "Anna"},
                  {"kind": "leave", "player": "Bruno"}])
    state = seated.get("/api/state").get_json()
    assert state["players"] == ["Elena", "Anna", "Carla", "Dario"]
    assert italian(seated)["last_event"]["text"] == "Bruno si alza dal tavolo"


def test_a_misread_card_is_corrected_after_the_reveal(seated: FlaskClient) -> None:
    play(seated, WORKED_EXAMPLE[:3])
    play(seated, [{"kind": "reveal", "cards": {"Anna": "5S", "Bruno": "10C", "Carla": "3D",
                                               "Dario": "9B"}},
                  {"kind": "correct", "player": "Carla", "card": "4D"}, {"kind": "settle"}])
    (verdict,) = seated.get("/api/state").get_json()["verdicts"]
    assert {c["player"]: c["code"] for c in verdict["cards"]}["Carla"] == "4D"
    assert verdict["losers"] == ["Carla"]


def test_an_illegal_correction_is_409_with_the_rule(seated: FlaskClient) -> None:
    play(seated, WORKED_EXAMPLE[:1])
    answer = seated.post("/api/corrections", json={"kind": "swap", "player": "Anna"},
                         headers=WITH_PIN)
    assert answer.status_code == 409
    assert said(seated, "/api/corrections", json={"kind": "swap", "player": "Anna"},
                headers=WITH_PIN) == (
        "hand 1: Anna cannot swap: Bruno shows the Re di Coppe (wall)",
                            "mano 1: Anna non può scambiare: Bruno ha il Re di Coppe (muro)")
    assert answer.get_json()["code"] == "walk.wall" and answer.get_json()["hand"] == 1
    assert seated.get("/api/state").get_json()["current_player"] == "Anna"


@pytest.mark.parametrize("body, message", [
    ({"kind": "jump", "player": "Anna"}, "not an event: unknown event kind 'jump'"),
    ({"kind": "deal"}, "not an event: the event has no 'cards'"),
    ({"kind": "deal", "cards": {"Anna": "11D"}}, "not an event: unknown card code '11D'"),
    ([1, 2], "the body must be a JSON object"),
])
def test_a_correction_that_is_no_event_is_400(seated: FlaskClient, body: object,
                                              message: str) -> None:
    answer = seated.post("/api/corrections", json=body, headers=WITH_PIN)
    assert answer.status_code == 400
    assert answer.get_json()["error"].startswith(message)


@pytest.mark.parametrize("path", ["/api/setup", "/api/corrections", "/api/record", "/api/seats"])
def test_malformed_json_is_400_naming_where(seated: FlaskClient, path: str) -> None:
    answer = seated.post(path, data=b'{"players": [', headers=WITH_PIN,
                         content_type="application/json")
    assert answer.status_code == 400
    assert answer.get_json()["error"].startswith("the body is not valid JSON: ")
    assert "line 1 column 14" in answer.get_json()["error"]


@pytest.mark.parametrize("body, english, italian", [
    ({"players": ["Anna", "Bruno"]}, "a table has 3 to 20 players, not 2",
     "al tavolo siedono da 3 a 20 giocatori, non 2"),
    ({"players": [f"P{i}" for i in range(21)]}, "a table has 3 to 20 players, not 21",
     "al tavolo siedono da 3 a 20 giocatori, non 21"),
    ({"players": ["Anna", "Bruno", " anna "]}, "Anna and anna are the same name: each player "
     "needs a different one", "Anna e anna sono lo stesso nome: ogni giocatore ne vuole uno diverso"),
    ({"players": ["Anna", "Bruno", "   "]}, "a player needs a name",
     "manca un nome: ogni giocatore ne ha uno"),
    ({"players": ["Anna", "Bruno", "x" * 20000]}, "the name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxx… is "
     "too long: at most 24 characters", "il nome 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxx… è troppo lungo: "
     "al massimo 24 caratteri"),
    ({"players": ["Anna", "Bruno", "Car\nla"]}, "the name 'Car\\nla' holds characters that "
     "cannot be printed", "il nome 'Car\\nla' contiene caratteri che non si stampano"),
    ({"players": ["Anna", "Bruno", 7]}, "a player's name is text, not 7",
     "il nome di un giocatore è un testo, non 7"),
    ({"players": "Anna"}, "players must be a list of names", "i giocatori sono un elenco di nomi"),
    ({"players": PLAYERS, "rules": "milano"}, "unknown rules preset 'milano'",
     "non ci sono regole 'milano': scegli tra napoli, classica"),
    ({"players": PLAYERS, "rules": {"dealer_draw": "never"}}, "dealer_draw cannot be 'never': "
     "choose one of after_reveal, blind", "la variante dealer_draw non può essere 'never'"),
    ({"players": PLAYERS, "lives": "tre"}, "lives must be a whole number from 1 to 9, not 'tre'",
     "le vite a testa sono un numero intero da 1 a 9, non 'tre'"),
    ({"players": PLAYERS, "lives": 1000000000}, "lives must be a whole number from 1 to 9",
     "le vite a testa sono un numero intero da 1 a 9"),
    ({"players": PLAYERS, "rules": {"lives": 0}}, "lives must be a whole number from 1 to 9",
     "le vite a testa sono un numero intero da 1 a 9"),
    ({"players": PLAYERS, "dealer": "Zeno"}, "the first dealer Zeno is not at the table",
     "il primo mazziere Zeno non è al tavolo"),
    ({"players": PLAYERS, "stake": -1}, "the stake per life must be a number from 0 to 1000",
     "la posta per vita è un numero da 0 a 1000"),
    ({"players": PLAYERS, "stake": 0.125}, "the stake per life must be a number from 0 to 1000 "
     "with at most two decimals, not 0.125", "la posta per vita è un numero da 0 a 1000, al "
     "massimo con due decimali, non 0.125"),
])
def test_a_bad_setup_is_refused_in_both_languages_and_keeps_the_game(
        seated: FlaskClient, body: dict, english: str, italian: str | None) -> None:
    version = seated.get("/api/state").get_json()["version"]
    answer = seated.post("/api/setup", json=body, headers=WITH_PIN)
    assert answer.status_code == 400
    assert answer.get_json()["error"].startswith(english)
    if italian is not None:
        asked = seated.post("/api/setup?lang=it", json=body, headers=WITH_PIN)
        assert asked.status_code == 400 and asked.get_json()["error"].startswith(italian)
    state = seated.get("/api/state").get_json()
    assert state["players"] == PLAYERS and state["version"] == version


@pytest.mark.parametrize("body, english", [
    (b"[" * 100000, "the body is nested too deep: at most 32 levels"),
    (b"[" * 33 + b"]" * 33, "the body is nested too deep: at most 32 levels"),
    (b'{"players": "' + b"x" * (300 * 1024) + b'"}', "the body is too big: at most 256 KB"),
    (b'{"players": NaN}', "the body is not valid JSON: NaN is not a number"),
    (b'{"lives": ' + b"9" * 5000 + b"}", "the body is not acceptable JSON"),
    (b'{"players": ["\\ud800", "Bruno", "Carla"]}', "the body holds text that is not valid "
     "Unicode"),
    (b'{"players": ["Ann\xe0"]}', "the body is not UTF-8 text"),
])
def test_a_body_no_page_would_send_is_refused_before_it_is_read(seated: FlaskClient, body: bytes,
                                                                 english: str) -> None:
    for path in ("/api/setup", "/api/corrections", "/api/record"):
        answer = seated.post(path, data=body, headers=WITH_PIN, content_type="application/json")
        assert answer.status_code == 400, path
        assert answer.get_json()["error"].startswith(english), path
        asked = seated.post(path + "?lang=it", data=body, headers=WITH_PIN,
                            content_type="application/json")
        assert asked.get_json()["error"] != answer.get_json()["error"]
    assert seated.get("/api/state").get_json()["players"] == PLAYERS


def test_a_joining_player_needs_a_name_of_his_own(seated: FlaskClient) -> None:
    answer = seated.post("/api/corrections?lang=it", json={"kind": "join", "player": "CARLA"},
                         headers=WITH_PIN)
    assert answer.status_code == 400
    assert answer.get_json()["error"] == ("Carla e CARLA sono lo stesso nome: ogni giocatore "
                                             "ne vuole uno diverso")


def test_the_camera_may_choose_the_first_dealer(client: FlaskClient) -> None:
    answer = client.post("/api/setup", json={"players": PLAYERS, "dealer": None},
                         headers=WITH_PIN)
    state = answer.get_json()
    assert state["phase"] == "choose_dealer" and state["dealer_by_camera"] is True
    play(client, [{"kind": "face_up", "player": "Anna", "card": "3D"},
                  {"kind": "face_up", "player": "Bruno", "card": "5C"},
                  {"kind": "face_up", "player": "Carla", "card": "7D"}])
    assert client.get("/api/state").get_json()["dealer"] == "Carla"


def test_the_record_exports_and_imports_as_a_new_game(seated: FlaskClient,
                                                      table: TableService) -> None:
    play(seated, WORKED_EXAMPLE)
    record = seated.get("/api/record?download=1")
    assert record.headers["Content-Disposition"].startswith("attachment")
    data = json.loads(record.data)
    assert data["players"] == PLAYERS and len(data["hands"]) == 1
    play(seated, [WORKED_EXAMPLE[0]])
    answer = seated.post("/api/record", json=data, headers=WITH_PIN)
    assert answer.status_code == 200
    state = answer.get_json()
    assert state["lives"]["Carla"] == 2 and state["phase"] == "deal" and state["hand"] is None
    kept = sorted(p.name for p in table.db_path.parent.glob("table-*.db"))
    assert len(kept) == 1  # the game replaced by the import is kept beside, renamed


def test_an_illegal_record_is_refused_naming_the_rule(seated: FlaskClient) -> None:
    record = {"players": PLAYERS, "dealer": "Dario",
              "hands": [{"deal": {"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"},
                         "turns": {"Anna": "swap"}}]}
    answer = seated.post("/api/record", json=record, headers=WITH_PIN)
    assert answer.status_code == 409
    assert answer.get_json()["error"] == (
        "hand 1: Anna cannot swap: Bruno shows the Re di Coppe (wall)")
    assert seated.get("/api/state").get_json()["phase"] == "deal"


CHANGES = [("/api/setup", {"players": PLAYERS}), ("/api/undo", {}),
           ("/api/corrections", {"kind": "settle"}), ("/api/record", {"players": PLAYERS}),
           ("/api/seats", {}), ("/api/warnings/1/resolve", {}), ("/api/pin", {})]


@pytest.mark.parametrize("path, body", CHANGES)
def test_every_change_needs_the_pin(client: FlaskClient, path: str, body: dict) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 403
    assert said(client, path, json=body) == ("this change needs the table PIN",
                                             "per questa modifica serve il PIN del tavolo")
    wrong = said(client, path, json=body, headers={"X-Table-Pin": "0000"})
    assert wrong == ("wrong PIN", "PIN sbagliato")


def test_a_frame_needs_the_pin(client: FlaskClient) -> None:
    assert client.post("/api/frame", data=jpeg(), content_type="image/jpeg").status_code == 403


def test_repeated_wrong_pins_are_slowed_down(client: FlaskClient) -> None:
    for _ in range(3):
        assert client.post("/api/pin", headers={"X-Table-Pin": "1111"}).status_code == 403
    slowed = client.post("/api/pin", headers={"X-Table-Pin": PIN})
    assert slowed.status_code == 429
    assert slowed.headers["Retry-After"] == "1"
    assert slowed.get_json()["error"].startswith("too many wrong PINs: wait ")
    assert client.get("/api/state").status_code == 200  # watching stays free


def test_the_right_pin_is_accepted(client: FlaskClient) -> None:
    assert client.post("/api/pin", headers=WITH_PIN).get_json() == {"ok": True}


def test_a_phone_frame_reaches_the_phone_source(client: FlaskClient,
                                                table: TableService) -> None:
    phone = PushedFrames()
    table.phone = phone
    answer = client.post("/api/frame", data=jpeg(64, 48), content_type="image/jpeg",
                         headers=WITH_PIN)
    # no live loop reads it: answered at once, with nothing yet to aim by and no word on the light
    assert answer.status_code == 200 and answer.get_json() == {
        "ok": True, "width": 64, "height": 48, "waited": 0, "aim": None, "light": None}
    frame = next(phone.frames())
    assert frame.pixels.shape == (48, 64, 3)
    phone.close()


@pytest.mark.parametrize("query, said", [
    ("battery=0.15&charging=0&slow=1", {"slow": True, "battery": 15, "charging": False,
                                         "battery_low": True}),
    ("battery=0.15&charging=1&slow=0", {"slow": False, "battery": 15, "charging": True,
                                         "battery_low": False}),
    ("battery=0.54", {"slow": False, "battery": 54, "charging": False, "battery_low": False}),
    ("", {"slow": False}),  # a browser that tells no battery
    ("battery=lots&slow=yes", {"slow": False}),  # not understood: left out, the picture kept
    ("battery=7", {"slow": False}),
])
def test_what_the_camera_page_says_with_a_picture_reaches_the_live_page(
        client: FlaskClient, table: TableService, query: str, said: dict) -> None:
    table.phone = PushedFrames()
    answer = client.post("/api/frame?" + query, data=jpeg(), content_type="image/jpeg",
                         headers=WITH_PIN)
    assert answer.status_code == 200
    assert client.get("/api/state").get_json()["phone"] == {
        "width": 64, "height": 48, "light": None, **said}
    table.phone.close()


def test_the_live_page_hears_of_a_phone_only_once_it_sends(client: FlaskClient) -> None:
    assert client.get("/api/state").get_json()["phone"] is None


def test_the_camera_page_hidden_is_said_at_once(client: FlaskClient, table: TableService) -> None:
    phone = PushedFrames(on_status=lambda s: table.camera_status(s.to_json()))
    table.phone = phone
    client.post("/api/frame", data=jpeg(), content_type="image/jpeg", headers=WITH_PIN)
    assert client.get("/api/state").get_json()["camera"]["state"] == "live"
    answer = client.post("/api/frame/away", json={"why": "hidden"}, headers=WITH_PIN)
    assert answer.status_code == 200
    camera = client.get("/api/state").get_json()["camera"]  # at once, not after 5 s of silence
    assert (camera["state"], camera["code"]) == ("reconnecting", "source.page_hidden")
    assert italian(client)["camera"]["text"] == ("la fotocamera del telefono: la pagina è nascosta (telefono "
                                 "bloccato o un'altra app davanti); riparte quando la pagina torna "
                                 "in vista")
    assert camera["text"] == ("the phone's camera: its page is hidden (the phone locked, or "
                              "another app in front); it starts again when the page is shown")
    client.post("/api/frame/away", json={"why": "stopped"}, headers=WITH_PIN)
    assert italian(client)["camera"]["text"] == (
        "la fotocamera del telefono si è fermata (una chiamata, o spenta dalla pagina)")
    phone.close()


@pytest.mark.parametrize("body, headers, status", [
    ({"why": "hidden"}, {}, 403), ({"why": "asleep"}, WITH_PIN, 400), ({}, WITH_PIN, 400),
])
def test_a_hide_message_needs_the_pin_and_a_known_why(client: FlaskClient, table: TableService,
                                                      body: dict, headers: dict,
                                                      status: int) -> None:
    table.phone = PushedFrames()
    answer = client.post("/api/frame/away", json=body, headers=headers)
    assert answer.status_code == status
    assert table.phone.status().code == "source.waiting"


def test_a_hide_message_without_a_phone_source_is_409(client: FlaskClient) -> None:
    answer = client.post("/api/frame/away", json={"why": "hidden"}, headers=WITH_PIN)
    assert answer.status_code == 409


def test_a_frame_without_a_phone_source_is_409(client: FlaskClient) -> None:
    answer = client.post("/api/frame", data=jpeg(), content_type="image/jpeg", headers=WITH_PIN)
    assert answer.status_code == 409
    assert "not reading a phone camera" in answer.get_json()["error"]


@pytest.mark.parametrize("data, status, message", [
    (b"hello, not a picture", 415, "the frame is not a JPEG picture"),
    (jpeg()[:-200], 400, "the JPEG frame is cut short (no end marker)"),
    (b"\xff\xd8\xff\xe0\x00\x01" + b"\x00" * 40 + b"\xff\xd9", 400, "the JPEG frame is corrupt"),
    (b"\xff\xd8\xff" + b"\x00" * (2 * 1024 * 1024), 413, "the frame is too big: 2048 kB"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, 415, "the frame is not a JPEG picture"),
])
def test_a_bad_frame_is_refused_with_a_message(client: FlaskClient, table: TableService,
                                               data: bytes, status: int, message: str) -> None:
    phone = PushedFrames()
    table.phone = phone
    answer = client.post("/api/frame", data=data, content_type="image/jpeg", headers=WITH_PIN)
    assert answer.status_code == status
    assert answer.get_json()["error"].startswith(message)
    assert phone.status().state.value == "connecting"  # nothing reached the source
    phone.close()


def test_an_upload_over_the_server_limit_is_413(client: FlaskClient) -> None:
    assert said(client, "/api/frame", data=b"\xff" * (4 * 1024 * 1024),
                content_type="image/jpeg", headers=WITH_PIN) == (
        "the upload is too big: at most 3 MB", "l'invio è troppo grande: al massimo 3 MB")


def test_seats_tapped_on_the_picture_are_kept_for_the_live_loop(seated: FlaskClient,
                                                                table: TableService) -> None:
    taps = {"Anna": [640, 650], "Bruno": [1100, 360], "Carla": [640, 80], "Dario": [180, 360]}
    answer = seated.post("/api/seats", json={"width": 1280, "height": 720, "players": taps},
                         headers=WITH_PIN)
    assert answer.status_code == 200
    assert answer.get_json()["seats_placed"] == sorted(PLAYERS)
    assert json.loads(table.seats_path.read_text()) == {
        "width": 1280, "height": 720,
        "players": {name: [float(x), float(y)] for name, (x, y) in taps.items()}}


@pytest.mark.parametrize("body, message, italian", [
    ({"width": 1280, "height": 720, "players": {"Anna": [1, 1]}},
     "tap a seat for every player: Bruno, Carla, Dario missing",
     "segnate il posto di ogni giocatore; ancora senza posto: Bruno, Carla, Dario"),
    ({"width": 1280, "height": 720, "players": {"Zeno": [1, 1]}}, "Zeno is not at the table",
     "Zeno non è al tavolo"),
    ({"width": 100, "height": 100, "players": {"Anna": [150, 1]}},
     "Anna's seat lies outside the 100x100 picture",
     "il posto di Anna è fuori dall'immagine di 100x100"),
    ({"width": "wide", "height": 720, "players": {}},
     "the picture's width and height must be whole positive numbers",
     "larghezza e altezza dell'immagine sono numeri interi positivi"),
])
def test_bad_seats_are_refused(seated: FlaskClient, body: dict, message: str,
                               italian: str) -> None:
    answer = seated.post("/api/seats", json=body, headers=WITH_PIN)
    assert answer.status_code == 409
    assert said(seated, "/api/seats", json=body, headers=WITH_PIN) == (message, italian)


def test_a_warning_shows_until_a_person_resolves_it(seated: FlaskClient,
                                                    table: TableService) -> None:
    heard: list[tuple[int, str]] = []
    table.on_resolve(lambda ident, how: heard.append((ident, how)))
    ident = table.warn("Carla's card moved before the reveal", 1)
    (warning,) = seated.get("/api/state").get_json()["warnings"]
    assert warning["id"] == ident and warning["message"] == "Carla's card moved before the reveal"
    answer = seated.post(f"/api/warnings/{ident}/resolve", json={"how": "kept as seen"},
                         headers=WITH_PIN)
    assert answer.status_code == 200 and answer.get_json()["warnings"] == []
    assert heard == [(ident, "kept as seen")]
    again = seated.post(f"/api/warnings/{ident}/resolve", json={"how": "x"}, headers=WITH_PIN)
    assert again.status_code == 409
    assert said(seated, f"/api/warnings/{ident}/resolve", json={"how": "x"},
                headers=WITH_PIN) == (f"there is no open warning {ident}",
                           f"non c'è un avviso aperto numero {ident}")


def test_evidence_is_served_only_from_its_folder(seated: FlaskClient,
                                                 table: TableService) -> None:
    (table.evidence_dir / "hand-1.jpg").write_bytes(jpeg())
    (table.db_path.parent / "secret.jpg").write_bytes(b"not for the page")
    play(seated, WORKED_EXAMPLE[:-1])
    table.play(Settle(), evidence="hand-1.jpg")
    (verdict,) = seated.get("/api/state").get_json()["verdicts"]
    assert verdict["evidence"] == "/evidence/hand-1.jpg"
    photo = seated.get(verdict["evidence"])
    assert photo.status_code == 200 and photo.data == jpeg()
    for path in ("/evidence/..%2Fsecret.jpg", "/evidence/../secret.jpg",
                 "/evidence/%2e%2e%2fsecret.jpg", "/evidence/table.db", "/evidence/nothing.jpg"):
        answer = seated.get(path)
        assert answer.status_code == 404, path
        assert b"not for the page" not in answer.data


def test_an_unforeseen_error_shows_no_trace(app: Flask) -> None:
    @app.get("/api/test-crash")
    def crash() -> str:
        raise ZeroDivisionError("secret detail")

    answer = app.test_client().get("/api/test-crash")
    assert answer.status_code == 500
    assert said(app.test_client(), "/api/test-crash", "GET") == ("the server could not do that (the error is in its log)",
                            "il server non è riuscito a farlo (l'errore è nel suo registro)")
    assert b"Traceback" not in answer.data and b"secret detail" not in answer.data


def test_a_wrong_method_and_an_unknown_path_answer_json(client: FlaskClient) -> None:
    assert client.get("/api/undo").status_code == 405
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and "error" in missing.get_json()

