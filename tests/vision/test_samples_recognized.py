"""`saltacavallo recognize` names every card in the project's own sample stills."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from webui.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
STILLS = ["deal", "re-cavallo", "reveal-tie"]
WHOLE = 0.9
"""A card at least this much in view must be read; the stock's lower cards are mostly hidden."""


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    return (
        cv2.pointPolygonTest(quad.astype(np.float32), (float(point[0]), float(point[1])), False)
        >= 0
    )


def _same_card(found: dict, truth: dict) -> bool:
    """The found quad and the true quad lie on each other: each one's centre inside the other."""
    a, b = np.array(found["quad"]), np.array(truth["corners"])
    return _inside(a.mean(axis=0), b) and _inside(b.mean(axis=0), a)


def _read(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[list[dict], dict]:
    """Run the command on one still and return its readings and the still's ground truth."""
    assert main(["recognize", "--json", str(SAMPLES / f"{name}.jpg")]) == 0
    found = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["cards"]
    truth = json.loads((SAMPLES / f"{name}.json").read_text())
    return found, truth


SEEN = {
    "deal": {"Anna": "down", "Bruno": "down", "Carla": "down", "Dario": "down", "Elena": "down", "stock": "down"},
    "re-cavallo": {"Anna": "down", "Bruno": "10S", "Carla": "down", "Dario": "9D", "Elena": "down", "stock": "down"},
    "reveal-tie": {"Anna": "2C", "Bruno": "7D", "Carla": "2S", "Dario": "10B", "Elena": "5C"},
}
"""What each still shows at each seat: a card face up by its code, "down" for a card face down."""


def _place(card: dict) -> str:
    """The seat a true card lies at, or "stock"."""
    return card["seat"] or "stock"


@pytest.mark.parametrize("name", STILLS)
def test_each_seat_is_read_as_the_still_shows_it(name: str, capsys) -> None:
    found, truth = _read(name, capsys)
    shown = {_place(card): card["card"] if card["face_up"] else "down" for card in truth["cards"] if card["visible"] >= WHOLE}
    assert shown == SEEN[name]  # the story told above is the still's own truth
    read: dict[str, list[str]] = {}
    for reading in found:
        places = {_place(card) for card in truth["cards"] if _same_card(reading, card)}
        value = reading["card"] or ("down" if reading["face"] == "down" else "?")
        for place in places or {"nowhere"}:
            read.setdefault(place, []).append(value)
    assert read == {place: [value] for place, value in SEEN[name].items()}


@pytest.mark.parametrize("name", STILLS)
def test_nothing_but_the_cards_is_taken_for_a_card(name: str, capsys) -> None:
    found, truth = _read(name, capsys)
    phantoms = [f for f in found if not any(_same_card(f, card) for card in truth["cards"])]
    assert not phantoms, f"{name}.jpg: cards where there are none: {[p['quad'] for p in phantoms]}"
