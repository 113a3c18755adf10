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


def _whose(card: dict) -> str:
    return f"{card['seat']}'s {card['card']}" if card["seat"] else f"the stock's {card['card']}"


@pytest.mark.parametrize("name", STILLS)
def test_every_card_in_view_is_named_as_the_ground_truth_says(name: str, capsys) -> None:
    found, truth = _read(name, capsys)
    wrong = []
    for card in truth["cards"]:
        if card["visible"] < WHOLE:
            continue
        readings = [f for f in found if _same_card(f, card)]
        if len(readings) != 1:
            wrong.append(f"{_whose(card)}: {len(readings)} readings")
        elif card["face_up"] and readings[0]["card"] != card["card"]:
            wrong.append(f"{_whose(card)} read as {readings[0]['card'] or 'unsure'}")
        elif not card["face_up"] and readings[0]["face"] != "down":
            wrong.append(f"{_whose(card)}, face down, read as {readings[0]['card'] or 'unsure'}")
    assert not wrong, f"{name}.jpg: " + "; ".join(wrong)


@pytest.mark.parametrize("name", STILLS)
def test_nothing_but_the_cards_is_taken_for_a_card(name: str, capsys) -> None:
    found, truth = _read(name, capsys)
    phantoms = [f for f in found if not any(_same_card(f, card) for card in truth["cards"])]
    assert not phantoms, f"{name}.jpg: cards where there are none: {[p['quad'] for p in phantoms]}"
