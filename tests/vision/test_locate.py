"""The locator on the project's own table scenes, where every card's corners are known."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from art.scene import (CARD_W_CM, PHONE_FOV, Camera, Placed, Scene, deal_to_seats, fit_camera, render_scene,
                       round_table_seats)
from benchmarks.bench_vision_speed import judged
from benchmarks.scenes import CLOSE as CLOSE_TABLE
from benchmarks.scenes import STYLES, table_scenes
import vision.locate.candidates
import vision.locate.outlines
from vision.crop import CARD_ASPECT, order_quad, order_quads
from vision.locate import LocatorConfig, finish, locate_cards, rough_quads
from vision.locate.cloth import Cloth, check_area
from vision.locate.config import downscaled
from vision.locate.fitting import fit_quads
from vision.locate.geometry import intersection, iou, long_side, long_sides, on_grid
from vision.locate.snap import refine_quad, snap_sides
from vision.recognize import CardReader


def _frame(cards: list[Placed], camera: Camera, style: str = "felt", seed: int = 0) -> tuple[np.ndarray, list[dict]]:
    """Render cards on a table with no seats; return the frame and each card's truth."""
    frame, truth = render_scene(Scene((), tuple(cards), style), camera, seed=seed)
    return frame, truth["cards"]


def _corner_error(found: np.ndarray, corners: list[list[float]]) -> float:
    """Worst corner distance (pixels) from the best-matching found quad, either way round."""
    truth = np.array(corners, np.float32)
    errors = [
        float(np.linalg.norm(np.roll(quad, turn, axis=0) - truth, axis=1).max())
        for quad in found
        for turn in range(4)
    ]
    return min(errors, default=math.inf)


def _row(codes: list[str], gap_cm: float = 4.0, angle: float = 0.0) -> list[Placed]:
    """Cards face up in a row across the table."""
    step = CARD_W_CM + gap_cm
    return [
        Placed(code, True, ((i - (len(codes) - 1) / 2) * step, 0.0), angle) for i, code in enumerate(codes)
    ]


CLOSE = Camera(1280, 720, tilt=0, view_cm=60)
CUES = LocatorConfig()
"""The locator with its default settings."""


@pytest.mark.parametrize("style", ["felt", "wood", "cloth"])
def test_three_cards_on_each_table_are_found_to_within_three_pixels(style: str) -> None:
    frame, truth = _frame(_row(["9S", "1D", "10B"]), CLOSE, style)
    found = locate_cards(frame)
    for card in truth:
        assert _corner_error(found, card["corners"]) < 3.0, card["card"]


@pytest.mark.parametrize("angle", [0, 90, 180, 270, 33])
def test_a_turned_card_is_found_whatever_its_rotation(angle: float) -> None:
    frame, truth = _frame([Placed("7C", True, (0.0, 0.0), angle)], CLOSE)
    assert _corner_error(locate_cards(frame), truth[0]["corners"]) < 3.0


def test_cards_seen_from_a_camera_tilted_45_degrees_are_found() -> None:
    camera = Camera(1280, 720, tilt=45, yaw=20, view_cm=70)
    frame, truth = _frame(_row(["2S", "8C", "5D", "9B"]), camera, "wood")
    found = locate_cards(frame)
    for card in truth:
        side = np.linalg.norm(np.subtract(card["corners"][0], card["corners"][1]))
        assert _corner_error(found, card["corners"]) < max(3.0, 0.05 * side), card["card"]


def test_two_cards_touching_side_by_side_are_found_as_two() -> None:
    frame, truth = _frame(_row(["4C", "8D"], gap_cm=0.0, angle=10), CLOSE, "felt")
    found = locate_cards(frame)
    for card in truth:
        assert _corner_error(found, card["corners"]) < 4.0, card["card"]


def test_a_face_down_card_is_found_by_its_outline_not_its_pattern() -> None:
    frame, truth = _frame([Placed("3S", False, (0.0, 0.0), 20)], CLOSE, "felt")
    assert _corner_error(locate_cards(frame), truth[0]["corners"]) < 3.0


def test_a_card_under_a_hand_still_gives_a_quad_on_the_part_that_shows() -> None:
    frame, truth = _frame([Placed("6B", True, (0.0, 0.0), 0, cover=0.2)], CLOSE, "felt")
    corners = np.array(truth[0]["corners"], np.float32)
    found = locate_cards(frame)
    inside = [quad for quad in found if _centre_inside(quad, corners)]
    assert len(inside) == len(found) == 1, "one quad, on the covered card"
    top = corners[:2]  # the hand reaches over the bottom end: the top corners still show
    assert min(np.linalg.norm(quad[:, None] - top[None], axis=2).min(axis=0).max() for quad in inside) < 5.0


def _centre_inside(quad: np.ndarray, corners: np.ndarray) -> bool:
    import cv2

    centre = quad.mean(axis=0)
    return cv2.pointPolygonTest(corners.reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), False) > 0


def test_a_card_cut_by_the_edge_of_the_frame_still_gives_a_quad() -> None:
    camera = Camera(1280, 720, tilt=0, view_cm=60)
    frame, truth = _frame([Placed("1S", True, (28.5, 0.0), 0)], camera)  # right end past the frame
    corners = np.array(truth[0]["corners"], np.float32)
    assert corners[:, 0].max() > 1280, "the scene should cut the card"
    found = locate_cards(frame)
    assert any(_centre_inside(quad, corners) and quad[:, 0].min() < corners[:, 0].min() + 4 for quad in found)


def test_an_empty_table_yields_no_candidates() -> None:
    frame, _ = _frame([], CLOSE, "wood")
    assert locate_cards(frame).shape == (0, 4, 2)  # not even a quad round the whole wood grain


def test_small_frames_and_blank_frames_give_no_quads() -> None:
    assert locate_cards(np.zeros((1, 1, 3), np.uint8)).shape == (0, 4, 2)
    assert locate_cards(np.full((480, 640), 128, np.uint8)).shape == (0, 4, 2)


def test_quads_come_ordered_with_a_short_first_side() -> None:
    frame, truth = _frame([Placed("10D", True, (0.0, 0.0), 90)], CLOSE)
    quad = locate_cards(frame)[0]
    assert np.allclose(quad, order_quad(quad))
    short, long = np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])
    assert short / long == pytest.approx(CARD_ASPECT, abs=0.05)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1920, width=32), st.floats(0, 1080, width=32)), min_size=4, max_size=4))
def test_quads_ordered_together_are_ordered_as_each_alone(corners: list[tuple[float, float]]) -> None:
    quad = np.array(corners, np.float32)
    together = order_quads(np.stack([quad, quad[::-1], quad[[2, 3, 0, 1]]]))
    assert all(np.array_equal(ordered, order_quad(one)) for ordered, one in zip(together, [quad, quad[::-1], quad[[2, 3, 0, 1]]]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(st.floats(0, 1920, width=32), st.floats(0, 1080, width=32)), min_size=4, max_size=4),
                max_size=6))
def test_cards_measured_together_are_as_long_as_each_measured_alone(corners: list[list[tuple[float, float]]]) -> None:
    quads = np.array(corners, np.float32).reshape(-1, 4, 2)
    assert long_sides(quads).tolist() == [long_side(quad) for quad in quads]


def test_refinement_pulls_a_loose_quad_onto_the_card_edges() -> None:
    frame, truth = _frame([Placed("5C", True, (0.0, 0.0), 15)], CLOSE)
    corners = np.array(truth[0]["corners"], np.float32)
    centre = corners.mean(axis=0)
    loose = centre + (corners - centre) * 1.04 + np.float32([2.0, -1.5])
    assert _corner_error(np.array([refine_quad(frame, loose, 8.0)]), truth[0]["corners"]) < 1.5


def test_a_coarser_work_size_still_finds_big_cards() -> None:
    frame, truth = _frame(_row(["9S", "1D"]), CLOSE)
    found = locate_cards(frame, LocatorConfig(work_side=320))
    for card in truth:
        assert _corner_error(found, card["corners"]) < 4.0


def test_a_card_cut_by_the_frame_is_completed_to_a_whole_card_beyond_the_edge() -> None:
    frame, truth = _frame([Placed("1S", True, (28.5, 0.0), 0)], Camera(1280, 720, tilt=0, view_cm=60))
    assert _corner_error(locate_cards(frame), truth[0]["corners"]) < 6.0


@pytest.mark.parametrize("angle", [0, 30])
def test_a_card_a_hand_covers_by_a_third_is_also_guessed_whole(angle: float) -> None:
    frame, truth = _frame([Placed("6B", True, (0.0, 0.0), angle, cover=0.3)], CLOSE, "felt")
    assert _corner_error(locate_cards(frame), truth[0]["corners"]) < 6.0


def test_the_squares_of_a_checked_cloth_are_not_all_candidates() -> None:
    frame, truth = _frame(_row(["9S", "1D"]), Camera(1280, 720, tilt=30, view_cm=90), "cloth", seed=1)
    found = locate_cards(frame, CUES)
    every = locate_cards(frame, LocatorConfig(drop_lattice=False))
    assert len(every) > 10 * len(truth)  # the squares, kept, crowd the candidates
    assert len(found) == len(truth)  # dropped, they leave the two cards
    for card in truth:  # and no card is lost with the squares
        assert _corner_error(found, card["corners"]) < 4.0, card["card"]


def test_on_a_checked_cloth_seen_at_a_tilt_the_checks_are_not_handed_on_as_cards() -> None:
    players = [f"player {i + 1}" for i in range(6)]
    hands = {name: (code, code != "10B") for name, code in zip(players, ["9S", "1D", "10B", "3C", "7S", "5D"])}
    seats = round_table_seats(players)
    dealt = deal_to_seats(seats, hands, np.random.default_rng(1))
    camera = fit_camera(dealt, Camera(1280, 720, tilt=30, yaw=10))
    frame, truth = render_scene(Scene(seats, dealt, "cloth"), camera, seed=1)
    found = locate_cards(frame, CUES)
    for card in truth["cards"]:
        assert _corner_error(found, card["corners"]) < 4.0, card["card"]
    off_the_cards = [
        quad for quad in found if not any(_centre_inside(quad, np.array(card["corners"], np.float32)) for card in truth["cards"])
    ]
    assert off_the_cards == []  # the classifier reads every candidate: checks would cost time


def _polka_dots(width: int = 640, height: int = 360, pitch: int = 24, radius: int = 4) -> np.ndarray:
    """A red cloth with white dots, as under half the valid photos."""
    cloth = np.full((height, width, 3), (40, 30, 170), np.uint8)
    for y in range(pitch // 2, height, pitch):
        for x in range(pitch // 2 + (y // pitch % 2) * pitch // 2, width, pitch):
            cv2.circle(cloth, (x, y), radius, (235, 235, 240), -1)
    return cloth


@pytest.mark.parametrize("style, checked", [("cloth", True), ("wood", False), ("felt", False)])
def test_a_checked_cloth_is_known_before_the_search(style: str, checked: bool) -> None:
    frame, _ = _frame(_row(["9S", "1D", "10B"]), Camera(1280, 720, tilt=30, view_cm=90), style, seed=1)
    assert (check_area(cv2.resize(frame, (320, 180), interpolation=cv2.INTER_AREA)) > 0) is checked  # the thumbnail


@pytest.mark.parametrize("view_cm, tilt", [(60, 0), (60, 30), (45, 30)])
def test_a_checked_cloth_seen_close_is_known_before_the_search_and_its_checks_are_not_read(view_cm: float, tilt: float) -> None:
    # a phone held over the table: 20-30 checks across the frame, each as large as a card's short side
    frame, _ = _frame(_row(["9S", "1D", "10B"]), Camera(1280, 720, tilt=tilt, view_cm=view_cm), "cloth", seed=1)
    assert Cloth.of(downscaled(frame, CUES)[0]).checked
    assert sorted(CardReader()(frame).label) == ["10B", "1D", "9S"]


def test_on_a_checked_cloth_seen_close_only_outlines_that_could_hold_a_card_are_fitted(monkeypatch: pytest.MonkeyPatch) -> None:
    # the speed benchmark's close gingham table: six cards of about 140 px among checks of a third of that
    frame, truth = table_scenes(6, (1280, 720), CLOSE_TABLE[(1280, 720)])[1]
    cloth = Cloth.of(downscaled(frame, CUES)[0])
    assert cloth.checked
    fitted: list[float] = []
    fit = vision.locate.candidates.fit_quads

    def spied(contours: list[np.ndarray]) -> list[np.ndarray | None]:
        fitted.extend(cv2.contourArea(cv2.convexHull(contour)) for contour in contours)
        return fit(contours)

    monkeypatch.setattr(vision.locate.candidates, "fit_quads", spied)
    found = locate_cards(frame, CUES)
    least = cloth.least_card_hull(CUES.min_rectangularity)  # smaller, every quad it gives is a check or two
    assert fitted and min(fitted) > least
    for card in truth["cards"]:  # and no card is lost with the checks (9C, overlapped, is 5.7 px off either way)
        assert _corner_error(found, card["corners"]) < 6.0, card["card"]


def test_polka_dots_are_no_checked_cloth() -> None:
    assert check_area(cv2.resize(_polka_dots(), (320, 180), interpolation=cv2.INTER_AREA)) == 0


def _lace(width: int = 320, height: int = 180, pitch: int = 30, side: int = 5) -> np.ndarray:
    """A grey lace cloth's thumbnail: light knots and dark holes of one size, as many of each, lying scattered
    (each several of its sides from the next), where a gingham's checks lie next to each other."""
    cloth = np.full((height, width, 3), 120, np.uint8)
    for y in range(pitch // 3, height - side, pitch):
        for x in range(pitch // 3, width - side, pitch):
            cv2.rectangle(cloth, (x, y), (x + side - 1, y + side - 1), (235, 235, 235), -1)
            cv2.rectangle(cloth, (x + pitch // 2, y + pitch // 2), (x + pitch // 2 + side - 1, y + pitch // 2 + side - 1), (20, 20, 20), -1)
    return cloth


def test_lace_is_no_checked_cloth() -> None:
    # taken for checks, every card on it would be searched for among the lace's edges, and missed
    assert check_area(_lace()) == 0


def _outline_of(card: np.ndarray, bite: bool) -> np.ndarray:
    """The traced outline of a filled quad, with a finger's bite out of one side when asked."""
    mask = np.zeros((400, 400), np.uint8)
    cv2.fillPoly(mask, [np.round(card).astype(np.int32)], 255)
    if bite:
        middle = ((card[0] + card[1]) / 2).round().astype(int)
        cv2.circle(mask, (int(middle[0]), int(middle[1])), 12, 0, -1)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=len).astype(np.float32)


def test_outlines_fitted_together_give_each_the_quad_it_gets_alone() -> None:
    # the locator fits a frame's outlines in one batch, padded to the longest: padding must weigh nothing
    outlines = []
    for k, (width, angle) in enumerate([(60, 10), (150, 35), (90, 80), (200, 5), (40, 60)]):
        box = ((200.0, 200.0), (width, width / CARD_ASPECT), angle)
        outlines.append(_outline_of(cv2.boxPoints(box), bite=k % 2 == 1))
    outlines.append(_outline_of(np.float32([[100, 300], [300, 300], [200, 120], [200, 120]]), bite=False))  # no card
    together = fit_quads(outlines)
    alone = [fit_quads([outline])[0] for outline in outlines]
    assert together[-1] is None and alone[-1] is None
    for both, one in zip(together[:-1], alone[:-1]):
        assert both is not None and np.array_equal(both, one)


def test_two_quads_with_a_side_on_one_line_at_the_frames_edge_intersect_in_the_smaller_one() -> None:
    # as the search found them at x = 0: cv2.intersectConvexConvex alone gives the larger quad's whole area
    large = np.float32([[-2.37e-15, 203.79], [27.25, 208.16], [25.83, 254.54], [1.78e-15, 267.31]])
    small = np.float32([[15, 239], [20, 257], [0, 267], [0, 235]])
    assert intersection(on_grid(large), on_grid(small)) == pytest.approx(cv2.contourArea(small))
    assert iou(large, small) == pytest.approx(cv2.contourArea(small) / cv2.contourArea(large))


def test_quads_finished_some_at_a_time_are_those_finished_all_together() -> None:
    # the reader finishes only the quads it reads, a few at a time (vision.recognize)
    frame, _ = table_scenes(6, (1280, 720), CLOSE_TABLE[(1280, 720)])[0]
    found = rough_quads(frame, CUES)
    rough, scale = found.quads, found.scale
    together = finish(frame, rough, scale, CUES)
    evens, odds = finish(frame, rough[::2], scale, CUES), finish(frame, rough[1::2], scale, CUES)
    assert len(rough) > 10
    assert np.array_equal(evens[: len(rough[::2])], together[: len(rough)][::2])
    assert np.array_equal(odds[: len(rough[1::2])], together[: len(rough)][1::2])
    assert len(evens) + len(odds) == len(together)  # the guesses for cards under a hand, after them


def test_quads_snapped_together_snap_each_as_alone_however_far_each_reaches() -> None:
    # one pass samples the widest reach for every quad: each must still look only within its own
    frame, _ = table_scenes(6, (1280, 720), CLOSE_TABLE[(1280, 720)])[1]
    rough = rough_quads(frame, CUES).quads
    reach = np.resize(np.float32([3.0, 40.0, 6.5, 12.0]), len(rough))
    together, straight = snap_sides(frame, rough, reach)
    for k in range(len(rough)):
        alone, alone_straight = snap_sides(frame, rough[k : k + 1], reach[k : k + 1])
        assert np.array_equal(alone[0], together[k]) and np.array_equal(alone_straight[0], straight[k])


def test_the_wood_grain_between_the_cards_is_passed_over_as_squiggles_and_no_card_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # the planks' grain encloses regions of thousands of points, a card's outline a few hundred
    points: list[int] = []
    find = vision.locate.candidates.find_outlines

    def counted(*args: object) -> list:
        found = find(*args)
        points.append(sum(len(outline.points) for outline in found))
        return found

    monkeypatch.setattr(vision.locate.candidates, "find_outlines", counted)
    wood = STYLES.index("wood")
    reader = CardReader()
    kept = []  # the share of the outlines' points kept, of those the search kept not passing squiggles over
    for frame, truth in [table_scenes(6, (1280, 720), CLOSE_TABLE[(1280, 720)])[wood], table_scenes(15, (1920, 1080))[wood]]:
        points.clear()
        read = reader(frame)
        passing_over = sum(points)
        with monkeypatch.context() as patch:
            patch.setattr(vision.locate.outlines, "SQUIGGLE", math.inf)
            points.clear()
            read_all = reader(frame)
        kept.append(passing_over / sum(points))
        assert sorted(read.label) == sorted(read_all.label)
        assert judged(read, truth["cards"]) == judged(read_all, truth["cards"])
    assert kept[0] < 0.7  # seen close, the grain's outlines are most of the points


@pytest.mark.parametrize("slant", [30.0, 45.0, 60.0])
def test_a_phone_leaning_across_the_table_finds_the_cards_lying_slantwise_at_every_place(slant: float) -> None:
    # a card turned on the table, seen from 66 degrees, is a parallelogram filling as little as 0.56 of its
    # box; a card seen square-on, or tilted from up to 45 degrees, fills 0.7 or more
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino", "Ivo"]
    seats = round_table_seats(names, (35.6, 22.5))
    cards = tuple(Placed("back", False, seat.position, seat.facing + slant) for seat in seats)
    camera = fit_camera(cards, Camera(1280, 720, tilt=66.0, fov=PHONE_FOV), margin=0.07)
    frame, truth = render_scene(Scene((), cards, "felt"), camera)
    found = locate_cards(frame, replace(CUES, leaning=True)).mean(axis=1)
    for card in truth["cards"]:
        assert float(np.linalg.norm(found - np.mean(card["corners"], axis=0), axis=1).min()) < 20


@pytest.mark.parametrize("style", ["felt", "wood"])
def test_a_phone_leaning_across_the_table_finds_the_cards_lying_across_its_picture(style: str) -> None:
    # from 66 degrees a card lying sideways at a side of the table keeps a third of its width: the live
    # loop's leaning locator finds a card at every place, a photo's (not leaning) passes those slivers over
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
    seats = round_table_seats(names, (33.2, 21.0))
    cards = tuple(Placed("back", False, seat.position, seat.facing) for seat in seats)
    camera = fit_camera(cards, Camera(1280, 720, tilt=66.0, fov=PHONE_FOV), margin=0.07)
    frame, truth = render_scene(Scene((), cards, style), camera)
    centres = [np.mean(card["corners"], axis=0) for card in truth["cards"]]

    def places_found(config: LocatorConfig) -> int:
        found = locate_cards(frame, config).mean(axis=1)
        return sum(bool(len(found)) and float(np.linalg.norm(found - centre, axis=1).min()) < 20 for centre in centres)

    assert places_found(replace(CUES, leaning=True)) == len(names)
    assert places_found(CUES) < len(names)
