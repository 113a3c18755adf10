"""The table's plane from the cards lying on it: a leaning phone's perspective undone, the squeeze left
undone by the cards' right angles, lengths in cards; a thing of another size is no card of the deck."""

from __future__ import annotations

import numpy as np
import pytest

from art.scene import PHONE_FOV, Camera, Placed, fit_camera, round_table_seats, seen_quads
from vision.labels import BACK
from vision.plane import table_plane

CARD_CM = 9.3
"""A drawn card's length (art.scene.CARD_H_CM)."""


def dealt(count: int, tilt: float, yaw: float) -> tuple[np.ndarray, np.ndarray]:
    """Each of `count` places' card on an oval (cm), and its quad in a 1280x720 phone's frame."""
    seats = round_table_seats([f"P{k}" for k in range(count)], (26.0 + 1.2 * count, 16.5 + 0.75 * count))
    cards = [Placed(BACK, False, seat.position, seat.facing) for seat in seats]
    camera = fit_camera(tuple(cards), Camera(1280, 720, tilt, yaw, fov=PHONE_FOV), margin=0.07)
    return np.array([seat.position for seat in seats]), seen_quads(tuple(cards), camera).astype(np.float64)


@pytest.mark.parametrize("tilt", [0.0, 30.0, 45.0, 60.0, 70.0])
@pytest.mark.parametrize("count", [6, 8])
def test_the_places_lie_on_the_plane_as_on_the_table_in_card_lengths(count: int, tilt: float) -> None:
    table, quads = dealt(count, tilt, 15.0)
    quads += np.random.default_rng(count).normal(0.0, 0.7, quads.shape)  # an outline's jitter
    plane, cards = table_plane(quads)
    assert cards.all()
    on_plane = plane(quads.mean(axis=1))
    gaps = np.linalg.norm(on_plane[:, None] - on_plane[None], axis=2)
    true = np.linalg.norm(table[:, None] - table[None], axis=2) / CARD_CM
    pairs = np.triu_indices(count, 1)
    assert gaps[pairs] == pytest.approx(true[pairs], rel=0.06)


@pytest.mark.parametrize("tilt", [30.0, 60.0])
def test_a_place_on_the_plane_is_found_again_in_the_picture(tilt: float) -> None:
    _, quads = dealt(8, tilt, 15.0)
    plane, _ = table_plane(quads)
    assert plane.pixels(plane(quads)) == pytest.approx(quads, abs=1e-6)


def test_the_picture_alone_squeezes_the_far_side_that_the_plane_undoes() -> None:
    table, quads = dealt(8, 65.0, 0.0)
    centres = quads.mean(axis=1)
    picture = np.linalg.norm(centres[:, None] - centres[None], axis=2)[np.triu_indices(8, 1)]
    true = np.linalg.norm(table[:, None] - table[None], axis=2)[np.triu_indices(8, 1)]
    on_plane = table_plane(quads)[0](centres)
    plane = np.linalg.norm(on_plane[:, None] - on_plane[None], axis=2)[np.triu_indices(8, 1)]
    assert np.std(picture / true) / np.mean(picture / true) > 0.2
    assert np.std(plane / true) / np.mean(plane / true) < 0.02


def test_a_check_of_the_cloth_read_as_a_back_near_the_camera_is_no_card_of_the_deck() -> None:
    _, quads = dealt(6, 60.0, 0.0)
    near = quads[np.argmax(quads.mean(axis=1)[:, 1])]
    check = (near - near.mean(axis=0)) * 0.45 + near.mean(axis=0) + (90.0, 0.0)  # a card's length less than half
    _, cards = table_plane(np.vstack([quads, check[None]]))
    assert cards.tolist() == [True] * 6 + [False]


def test_two_cards_tell_no_perspective_and_are_both_kept() -> None:
    _, quads = dealt(6, 60.0, 0.0)
    plane, cards = table_plane(quads[:2])
    assert cards.tolist() == [True, True]
    assert plane.lengths(quads[:2]).max() == pytest.approx(1.0, rel=0.3)


def checks_near_the_camera(quads: np.ndarray, scale: float = 0.45) -> np.ndarray:
    """Two of the cloth's checks read as backs either side of the nearest card, `scale` of its length:
    about a far card's size, where the nearest card lies."""
    near = quads[np.argmax(quads.mean(axis=1)[:, 1])]
    return np.array([(near - near.mean(axis=0)) * scale + near.mean(axis=0) + (dx, 20.0) for dx in (-300.0, 300.0)])


@pytest.mark.parametrize("count", [6, 8])
def test_two_checks_read_as_backs_near_a_leaning_phone_are_no_cards_though_a_plane_through_all_leans_to_them(
        count: int) -> None:
    _, quads = dealt(count, 60.0, 0.0)
    _, cards = table_plane(np.vstack([quads, checks_near_the_camera(quads)]))
    assert cards.tolist() == [True] * count + [False, False]


@pytest.mark.parametrize("count", [4, 5])
def test_where_two_checks_fit_a_plane_as_well_as_the_near_card_which_are_cards_is_not_told(count: int) -> None:
    # four or five places: the checks, the far cards and the side ones fit a level plane about as well as
    # the near card and the others fit the leaning one; neither the checks nor the near card is told a card
    _, quads = dealt(count, 60.0, 0.0)
    _, cards = table_plane(np.vstack([quads, checks_near_the_camera(quads)]))
    near = int(np.argmax(quads.mean(axis=1)[:, 1]))
    assert not cards[near] and not cards[count:].any()
