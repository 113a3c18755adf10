"""The live loop looks for cards seen flat (a phone leaning across the table) unless the cards it follows
show the table seen from above."""

from __future__ import annotations

import numpy as np
import pytest

from art.scene import CARD_H_CM, CARD_W_CM, PHONE_FOV, Camera, Placed, fit_camera, round_table_seats, seen_quads
from referee.events import ChooseDealer
from referee.game import Game
from vision.detections import CardDetections
from vision.frames import Frame
from live.loop import LEANS, TableWatcher


def backs(*sizes: tuple[float, float, float, float]) -> CardDetections:
    """Face-down cards, each (x, y, width, height) in frame pixels."""
    quads = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]] for x, y, w, h in sizes], np.float32)
    return CardDetections(quads, np.array(["back"] * len(sizes)), np.full(len(sizes), 0.99, np.float32),
                          np.zeros(len(sizes), bool))


def dealt(count: int, tilt: float) -> CardDetections:
    """Each of `count` places' card on an oval table, as a 1280x720 phone `tilt` degrees from straight down sees it."""
    seats = round_table_seats([f"P{k}" for k in range(count)], (26.0 + 1.2 * count, 16.5 + 0.75 * count))
    cards = [Placed("back", False, seat.position, seat.facing) for seat in seats]
    camera = fit_camera(tuple(cards), Camera(1280, 720, tilt, 15.0, fov=PHONE_FOV), margin=0.07)
    return CardDetections(seen_quads(tuple(cards), camera), np.array(["back"] * count), np.full(count, 0.99, np.float32),
                          np.zeros(count, bool))


def watched(cards: CardDetections) -> TableWatcher:
    """A loop after a second of frames showing `cards`."""
    game = Game(["Anna", "Bruno", "Carla", "Dario"])
    game.play(ChooseDealer("Anna"))
    watcher = TableWatcher(game)
    picture = np.zeros((720, 1280, 3), np.uint8)
    for k in range(15):
        watcher.advance(Frame(picture, k / 15, k), cards)
    return watcher


def leaning_after(cards: CardDetections) -> bool:
    """Whether the loop's locator looks for flat cards after a second of frames showing `cards`."""
    return watched(cards).still.reader.locator.leaning


def test_a_table_seen_from_above_is_searched_for_cards_of_their_own_proportions_only() -> None:
    # seen from above, the far cards are as large as the near ones
    assert not leaning_after(backs((100, 100, 80, 130), (1000, 100, 78, 127), (100, 500, 82, 133), (1000, 500, 80, 130)))


def test_a_table_seen_by_a_phone_leaning_at_its_edge_is_searched_for_cards_seen_flat() -> None:
    # from 60 degrees the far cards are a fraction of the near ones' area, and those lying across the
    # picture are seen flatter than any card from above
    far = 0.9 * LEANS
    assert leaning_after(backs((100, 600, 110, 100), (1000, 600, 110, 100), (300, 100, 110 * far, 100), (800, 100, 110, 100 * 0.25)))


def test_the_loop_looks_for_flat_cards_until_it_has_seen_the_table() -> None:
    # the first deal's far cards must be found as they come: with fewer than three cards followed, flat ones too
    assert leaning_after(backs((100, 100, 80, 130)))


def test_the_far_sides_cards_alike_in_size_still_show_a_leaning_phone_by_their_perspective() -> None:
    # from 60 degrees the first cards dealt lie on the far side: each near LEANS of another's area, but the
    # perspective across their places, carried over the picture, makes a card at its near edge twice as long
    assert leaning_after(backs((250, 340, 100, 40), (605, 184, 70, 32), (930, 340, 100, 40)))


def test_cards_lying_in_a_row_tell_nothing_of_the_view_and_the_loop_keeps_looking_for_flat_cards() -> None:
    # the deck and two far cards, all across the picture's far side: alike in size, from above or not
    assert leaning_after(backs((580, 240, 60, 36), (210, 290, 130, 22), (770, 305, 130, 30)))


@pytest.mark.parametrize("count", [5, 6, 8])
@pytest.mark.parametrize(("tilt", "leaning"), [(0.0, False), (10.0, False), (15.0, False),
                                               (45.0, True), (60.0, True), (66.0, True)])
def test_every_place_dealt_tells_a_phone_held_above_the_table_from_one_leaning_at_its_edge(
        count: int, tilt: float, leaning: bool) -> None:
    assert leaning_after(dealt(count, tilt)) is leaning


@pytest.mark.parametrize(("tilt", "steep"), [(0.0, False), (30.0, False), (45.0, False), (55.0, True), (66.0, True)])
def test_past_fifty_degrees_no_face_is_named(tilt: float, steep: bool) -> None:
    assert watched(dealt(6, tilt)).still.reader.steep is steep


@pytest.mark.parametrize("tilt", [0.0, 45.0, 60.0])
def test_the_dealt_cards_give_the_reader_the_tables_plane_to_read_faces_upright_on(tilt: float) -> None:
    # undone on the plane, every place's card is about one card long and a card's width wide, whatever the
    # phone's lean: the plane tells which way each lies
    cards = dealt(6, tilt)
    plane = watched(cards).still.reader.plane
    assert plane is not None
    corners = plane(cards.quad)
    sides = np.sort(np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2), axis=1)
    assert np.allclose(sides[:, 2:], 1.0, atol=0.1)
    assert np.allclose(sides[:, :2], CARD_W_CM / CARD_H_CM, atol=0.1)


def test_cards_lying_in_a_row_give_no_plane() -> None:
    assert watched(backs((580, 240, 60, 36), (210, 290, 130, 22), (770, 305, 130, 30))).still.reader.plane is None
