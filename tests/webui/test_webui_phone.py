"""The phone as the camera: the view it is aimed by (each place in view or cut off, the outline
before the deal, the cards read), and what the table hears of it (the light, the battery)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from live.aim import FRAMED, aim_view
from vision.detections import CardDetections
from vision.seats import CARD_LENGTH, Seats
from webui.phone import SIZES, PhoneWatch, aim_in

FILMS = Path(__file__).resolve().parents[2] / "sample_images" / "sequences"
PLAYERS = ("Anna", "Bruno", "Carla", "Dario")


def card(x: float, y: float, length: float = 100.0) -> np.ndarray:
    """An upright card's quad centred on (x, y)."""
    w, h = 0.6 * length / 2, length / 2
    return np.array([[x - w, y - h], [x + w, y - h], [x + w, y + h], [x - w, y + h]], np.float32)


def read(*cards: tuple[str, np.ndarray]) -> CardDetections:
    """The cards read: each a code ("back" face down) and its quad."""
    n = len(cards)
    return CardDetections(np.stack([q for _, q in cards]) if n else np.zeros((0, 4, 2), np.float32),
                          np.array([c for c, _ in cards]), np.ones(n, np.float32),
                          np.zeros(n, bool))


@pytest.mark.parametrize(("points", "cut"), [
    ([(640, 120), (1100, 360), (640, 600), (180, 360)], {}),
    ([(640, 31), (1100, 360), (640, 600), (180, 360)], {}),  # a card's half width inside
    ([(640, 29), (1100, 360), (640, 600), (180, 360)], {"Anna": "top"}),
    ([(640, 120), (1260, 360), (640, 700), (180, 360)], {"Bruno": "right", "Carla": "bottom"}),
    ([(640, 120), (1100, 360), (640, 600), (-20, 360)], {"Dario": "left"}),
])
def test_each_place_is_in_view_or_cut_off_past_an_edge(points, cut) -> None:
    cards = read(("3D", card(640, 360)))  # one card 100 px long: a place 30 px inside is in view
    view = aim_view(Seats(PLAYERS, tuple(points)), (1280, 720), cards, 4)
    assert {s["player"]: s["cut"] for s in view["seats"] if s["cut"]} == cut
    assert [s["player"] for s in view["seats"]] == list(PLAYERS)
    assert view["outline"] is None


def test_before_the_places_are_known_the_outline_to_keep_the_cards_in_is_drawn() -> None:
    view = aim_view(None, (1280, 720), read(), 6)
    inset = round(FRAMED * CARD_LENGTH)  # no card in sight: the assumed card's length
    assert view == {"width": 1280, "height": 720, "players": 6, "seats": [], "cards": [], "steep": False,
                    "outline": [[inset, inset], [1280 - inset, inset], [1280 - inset, 720 - inset],
                                [inset, 720 - inset]]}


def test_the_cards_read_are_named_in_the_page_s_language_and_a_back_is_a_back() -> None:
    cards = read(("9C", card(300, 300)), ("back", card(600, 300)), ("none", card(900, 300)))
    view = aim_view(None, (1280, 720), cards, 4)
    assert [(c["face"], c["card"]) for c in view["cards"]] == [("up", "9C"), ("down", None)]
    assert [c["card"] for c in aim_in(view, "it")["cards"]] == [
        {"code": "9C", "name": "Cavallo di Coppe"}, None]
    assert aim_in(view, "en")["cards"][0]["card"] == {"code": "9C", "name": "Knight of Cups"}
    assert view["cards"][0]["quad"] == [[270, 250], [330, 250], [330, 350], [270, 350]]


def test_the_smallest_picture_the_phone_sends_is_the_films_size() -> None:
    # the floor: the size the project's films, the one from a phone at the table's edge among
    # them, are narrated exactly at (tests/live/test_watch.py)
    widths = {json.loads(f.read_text())["width"] for f in FILMS.glob("*.json")}
    assert widths == {SIZES[-1]} and list(SIZES) == sorted(SIZES, reverse=True)


def _jpeg(light: float) -> bytes:
    """The sample hand's reveal (960x540) under `light`, as the phone sends it."""
    film = cv2.VideoCapture(str(FILMS / "hand.mp4"))
    film.set(cv2.CAP_PROP_POS_FRAMES, 323)
    ok, frame = film.read()
    film.release()
    assert ok
    return cv2.imencode(".jpg", (frame * light).astype(np.uint8))[1].tobytes()


def test_the_light_is_said_once_three_measures_a_second_apart_agree() -> None:
    watch = PhoneWatch()
    dark, bright = _jpeg(0.04), _jpeg(1.0)
    said = [watch.heard(dark, (960, 540), {}, now=t)["light"] for t in (0.0, 0.5, 1.0, 2.0)]
    assert said == [None, None, None, "dark"]  # 0.5 s: not measured again
    said = [watch.heard(p, (960, 540), {}, now=t)["light"]
            for p, t in ((bright, 3.0), (dark, 4.0), (bright, 5.0), (bright, 6.0), (bright, 7.0))]
    assert said == ["dark", "dark", "dark", "dark", None]  # a light flicked on and off is no news
