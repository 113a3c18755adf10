"""The committed learned locator on the project's own table scenes, where every card's corners are known."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.locate import LocatorConfig, learned_locator, locate_cards
from vision.locnet import LocatorModelError, LocatorNet, core_quad, default_locator_path
from vision.art.scene import Camera, Scene, deal_to_seats, fit_camera, render_scene, round_table_seats

NET = LocatorConfig(method="net")


def _corner_error(found: np.ndarray, corners: list[list[float]]) -> float:
    """Worst corner distance (pixels) from the best-matching found quad, either way round."""
    truth = np.array(corners, np.float32)
    errors = [float(np.linalg.norm(np.roll(q, turn, axis=0) - truth, axis=1).max()) for q in found for turn in range(4)]
    return min(errors, default=math.inf)


def test_the_shipped_locator_loads_as_an_option_beside_the_default_cues() -> None:
    assert default_locator_path().is_file()
    assert isinstance(learned_locator(NET), LocatorNet)
    assert learned_locator(LocatorConfig()) is None  # not the default: see models/MODEL_CARD.md


def _round(style: str) -> tuple[np.ndarray, list[dict]]:
    """Six players' cards round a table (player 2's face down), camera tilted 30 degrees."""
    rng = np.random.default_rng(5)
    names = [f"player {i}" for i in range(6)]
    seats = round_table_seats(names)
    hands = {name: (code, name != "player 2") for name, code in zip(names, ["9S", "1D", "10B", "4C", "7D", "2S"])}
    dealt = deal_to_seats(seats, hands, rng)
    camera = fit_camera(dealt, Camera(1280, 720, tilt=30, yaw=12))
    frame, truth = render_scene(Scene(seats, dealt, style), camera, seed=3)
    return frame, truth["cards"]


@pytest.mark.parametrize("style", ["wood", "cloth", "felt"])
def test_every_card_of_a_round_gets_a_quad_centred_on_it(style: str) -> None:
    frame, cards = _round(style)
    centres = locate_cards(frame, NET).mean(axis=1)
    for card in cards:  # the face-down card included
        outline = np.array(card["corners"], np.float32).reshape(-1, 1, 2)
        assert any(cv2.pointPolygonTest(outline, (float(x), float(y)), False) > 0 for x, y in centres), (style, card["card"])


@pytest.mark.parametrize("style", ["wood", "felt"])
def test_on_wood_and_felt_most_cards_of_a_round_are_found_to_within_a_few_pixels(style: str) -> None:
    frame, cards = _round(style)
    found = locate_cards(frame, NET)
    close = [
        _corner_error(found, card["corners"]) < max(3.0, 0.06 * float(np.linalg.norm(np.subtract(*card["corners"][:2]))))
        for card in cards
    ]
    assert sum(close) >= 4, close  # the cues find all six: the learned locator is not the default yet


def test_the_checked_cloth_alone_gives_almost_no_candidates() -> None:
    frame, _ = render_scene(Scene((), (), "cloth"), Camera(1280, 720, tilt=30, view_cm=110), seed=4)
    assert len(locate_cards(frame, NET)) <= 2


def test_a_cards_core_lies_a_fifth_of_its_width_inside_every_side() -> None:
    card = np.float32([[100, 50], [160, 50], [160, 150], [100, 150]])  # 60 px wide, 100 px long
    assert np.allclose(core_quad(card), [[112, 62], [148, 62], [148, 138], [112, 138]], atol=1e-3)


def test_a_file_that_is_no_locator_is_refused_with_its_name(tmp_path: Path) -> None:
    bad = tmp_path / "locator.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(LocatorModelError, match="locator.onnx"):
        LocatorNet(bad)
    assert learned_locator(LocatorConfig(model=bad)) is None  # the hand-fitted locator takes over


def test_an_unknown_method_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="'magic'"):
        learned_locator(LocatorConfig(method="magic"))
