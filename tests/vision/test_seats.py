"""Seats: found at the first deal, read from a file, moved with the camera; what lies at each."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from hand_story import FPS, HAND, HOLD, played, truth
from art.scene import PHONE_FOV, Camera, Placed, Seat, card_corners_cm, fit_camera, round_table_seats
from referee.observation import TableObservation
from vision.detections import CardDetections
from vision.io import read_image
from vision.labels import BACK
from vision.recognize import CardReader
from vision.seats import (
    DEAL_PAUSE,
    LATE,
    SeatFinder,
    Seats,
    SeatsError,
    beyond_ring,
    by_the_stock,
    deal_turns,
    inside_ring,
    load_seats,
    observe,
    similarity,
)
from vision.track import CardTracker

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
LENGTH = 135.0
"""About the length of the sample hand's cards in its 1280x720 frames."""


def places(seen: TableObservation) -> dict[str, str]:
    """Each seat in story notation without the confidence (`down#2`, `10S#3`, `-`)."""
    return {name: re.sub(r"@.*", "", view.code) for name, view in seen.seats.items()}


def truth_seats() -> dict[str, list[float]]:
    return {seat["name"]: seat["at"] for seat in truth()["seats"]}


# --- what the table shows at the sample hand's moments at rest ------------------------------------

REST = [
    (4, "Anna has a card", {"Anna": "down#2"}, ()),
    (7, "Bruno has a card", {"Anna": "down#2", "Bruno": "down#3"}, ()),
    (10, "Carla has a card", {"Anna": "down#2", "Bruno": "down#3", "Carla": "down#4"}, ()),
    (13, "Dario has a card", {"Anna": "down#2", "Bruno": "down#3", "Carla": "down#4", "Dario": "down#5"}, ()),
    (16, "Elena has a card", {"Anna": "down#2", "Bruno": "down#3", "Carla": "down#4", "Dario": "down#5",
                              "Elena": "down#6"}, ()),
    (18, "Bruno shows the 10S", {"Anna": "down#2", "Bruno": "10S#3", "Carla": "down#4", "Dario": "down#5",
                                 "Elena": "down#6"}, ()),
    (21, "Anna keeps", {"Anna": "down#2", "Bruno": "10S#3", "Carla": "down#4", "Dario": "9D#5",
                        "Elena": "down#6"}, ()),
    (24, "Carla and Elena have swapped", {"Anna": "down#2", "Bruno": "10S#3", "Carla": "down#4",
                                          "Dario": "9D#5", "Elena": "down#6"}, ()),
    (27, "the reveal", {"Anna": "4C#2", "Bruno": "10S#3", "Carla": "3S#4", "Dario": "9D#5", "Elena": "2B#6"}, ()),
    (28, "Elena puts her 2B aside", {"Anna": "4C#2", "Bruno": "10S#3", "Carla": "3S#4", "Dario": "9D#5"},
     ("2B#6",)),
    (32, "Elena shows the 6D", {"Anna": "4C#2", "Bruno": "10S#3", "Carla": "3S#4", "Dario": "9D#5",
                                "Elena": "6D#7"}, ("2B#6",)),
]
"""(key frame, what happens, the seats that hold a card, the cards elsewhere); the stock lies in
the middle throughout. Carla's place keeps id 4 and Elena's id 6 through the swap: a hand covers
both places while the cards change hands in the sample's few frames."""


def last_frames(seats: Seats | None, every: int = 0) -> dict[int, TableObservation]:
    """The observation at the last frame received of each key frame (with seats found when None: the frames
    before they are found are seen with them once they are, as the live loop does)."""
    tracker, finder = CardTracker(), SeatFinder(PLAYERS, "Elena", seats)
    seen: dict[int, TableObservation] = {}
    unseated: list[tuple[int, CardDetections, float]] = []
    for key, _, at, detections in played(every=every):
        tracked = tracker.update(detections, at)
        unseated.append((key, tracked, at))
        found = finder.update(tracked, at)
        if found:
            seen.update({key: observe(tracked, found, at) for key, tracked, at in unseated})
            unseated.clear()
    return seen


def expect(seated: dict[str, str]) -> dict[str, str]:
    return {name: seated.get(name, "-") for name in PLAYERS}


@pytest.fixture(scope="module")
def seats_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand's seats as a seats file, as a host would write it."""
    path = tmp_path_factory.mktemp("seats") / "seats.json"
    path.write_text(json.dumps(truth_seats()))
    return path


def test_a_seats_file_without_the_stock_learns_it_from_the_pile_before_the_deal(seats_file: Path) -> None:
    tracker, finder = CardTracker(), SeatFinder(PLAYERS, "Elena", load_seats(seats_file, PLAYERS))
    for key, _, at, detections in played():
        if key < 4:
            finder.update(tracker.update(detections, at), at)
    pile = np.mean(truth()["frames"][0]["cards"][-1]["corners"], axis=0)  # the top card of the stock
    assert finder.seats is not None and finder.seats.stock is not None
    assert np.linalg.norm(np.subtract(finder.seats.stock, pile)) < 0.2 * LENGTH
    assert finder.seats.points == tuple(tuple(p) for p in truth_seats().values())


@pytest.mark.parametrize(("key", "note", "seated", "elsewhere"), REST, ids=[r[1] for r in REST])
def test_each_moment_at_rest_shows_exactly_its_seats(seats_file: Path, key: int, note: str,
                                                     seated: dict[str, str], elsewhere: tuple[str, ...]) -> None:
    seen = last_frames(load_seats(seats_file, PLAYERS))[key]
    assert places(seen) == expect(seated)
    assert tuple(re.sub(r"@.*", "", v.code) for v in seen.elsewhere) == elsewhere
    assert seen.stock
    assert all(view.confidence > 0.9 for view in seen.seats.values() if view.card_id is not None)
    assert seen.at == pytest.approx(((key + 1) * HOLD - 1) / FPS)


def test_with_every_third_frame_lost_the_moments_show_the_same_seats(seats_file: Path) -> None:
    seen = last_frames(load_seats(seats_file, PLAYERS), every=3)  # 3 or 4 of each moment's 5 frames come
    assert [places(seen[key]) for key, *_ in REST] == [expect(seated) for _, _, seated, _ in REST]
    assert [tuple(re.sub(r"@.*", "", v.code) for v in seen[key].elsewhere) for key, *_ in REST] == [
        elsewhere for *_, elsewhere in REST]


def test_the_seats_are_found_at_the_first_deal_counterclockwise_from_the_dealers_right() -> None:
    tracker, finder = CardTracker(), SeatFinder(PLAYERS, "Elena")
    found_at = None
    for key, index, at, detections in played():
        if finder.update(tracker.update(detections, at), at) and found_at is None:
            found_at = (key, index)
    seats = finder.seats
    assert seats is not None and seats.names == tuple(PLAYERS)
    gaps = {name: float(np.linalg.norm(np.subtract(seats.point(name), at))) for name, at in truth_seats().items()}
    assert max(gaps.values()) < 0.2 * LENGTH, gaps
    # Elena's card, down in key frame 16, has lain still half a second since the picture before it came, and
    # no card more came to rest for DEAL_PAUSE after it: no place lies where no player sits
    assert found_at is not None and found_at[1] == 17 * HOLD + 2 + round(DEAL_PAUSE * FPS)
    pile = np.mean(truth()["frames"][0]["cards"][-1]["corners"], axis=0)  # the top card of the stock
    assert np.linalg.norm(np.subtract(seats.stock, pile)) < 0.2 * LENGTH


def test_the_automatic_seats_give_the_same_moments_as_the_seats_file() -> None:
    seen = last_frames(None)
    for key, _, seated, elsewhere in REST:
        if key >= 18:
            assert places(seen[key]) == expect(seated)
            assert tuple(re.sub(r"@.*", "", v.code) for v in seen[key].elsewhere) == elsewhere


@pytest.mark.parametrize(("dealer", "first"), [("Elena", "Anna"), ("Bruno", "Carla"), (None, "Anna")])
def test_the_first_card_dealt_lies_at_the_dealers_right(dealer: str | None, first: str) -> None:
    tracker, finder = CardTracker(), SeatFinder(PLAYERS, dealer)
    for _, _, at, detections in played():
        finder.update(tracker.update(detections, at), at)
    assert finder.seats is not None
    order = PLAYERS[PLAYERS.index(first):] + PLAYERS[: PLAYERS.index(first)]
    found = {name: finder.seats.point(name) for name in PLAYERS}
    nearest = [min(found, key=lambda name: np.linalg.norm(np.subtract(found[name], truth_seats()[place])))
               for place in PLAYERS]
    assert nearest == order  # the sample's places (bottom, right, top, top left, left) named from `first` on


def test_a_camera_nudged_between_hands_moves_the_seats_with_it() -> None:
    turn = cv2.getRotationMatrix2D((640, 360), 2.0, 1.0)
    turn[:, 2] += (24.0, -16.0)
    reader = CardReader()
    nudged = [reader(cv2.warpAffine(read_image(HAND / f["file"]).pixels, turn, (1280, 720),
                                    borderMode=cv2.BORDER_REPLICATE)) for f in truth()["frames"][:22]]
    tracker, finder = CardTracker(), SeatFinder(PLAYERS, "Elena")
    at = 0.0
    for _, _, at, detections in played():
        finder.update(tracker.update(detections, at), at)
    first = finder.seats
    assert first is not None
    frame = int(at * FPS)
    for _ in range(2 * FPS):  # the cards are gathered: the table is empty for two seconds
        frame += 1
        finder.update(tracker.update(CardDetections.empty(), frame / FPS), frame / FPS)
    assert finder.seats == first
    for detections in nudged:  # the next deal, seen by the nudged camera
        for _ in range(HOLD):
            frame += 1
            finder.update(tracker.update(detections, frame / FPS), frame / FPS)
    moved = finder.seats
    assert moved is not None
    for name in PLAYERS:
        want = turn @ np.array([*first.point(name), 1.0])
        assert np.linalg.norm(np.subtract(moved.point(name), want)) < 0.1 * LENGTH, name
    assert np.linalg.norm(np.subtract(moved.stock, turn @ np.array([*first.stock, 1.0]))) < 0.2 * LENGTH


def test_similarity_recovers_a_turn_and_a_shift() -> None:
    matrix = cv2.getRotationMatrix2D((100, 50), 5.0, 1.02)
    source = np.array([[10.0, 20.0], [300.0, 40.0], [150.0, 260.0], [40.0, 200.0]])
    target = source @ matrix[:, :2].T + matrix[:, 2]
    assert similarity(source, target) == pytest.approx(matrix, abs=1e-9)
    assert similarity(source[:1], target[:1]) == pytest.approx(
        np.array([[1, 0, *(target[0] - source[0])[:1]], [0, 1, *(target[0] - source[0])[1:]]]))


# --- what lies where --------------------------------------------------------------------------------


def card(code: str, at: tuple[float, float], ident: int) -> CardDetections:
    w, h = LENGTH * 0.62 / 2, LENGTH / 2
    quad = np.array([[[at[0] - w, at[1] - h], [at[0] + w, at[1] - h], [at[0] + w, at[1] + h],
                      [at[0] - w, at[1] + h]]], np.float32)
    return CardDetections(quad, np.array([code]), np.float32([0.75]), np.array([False]), np.array([ident]))


def table(*cards: CardDetections) -> CardDetections:
    return CardDetections(*(np.concatenate([getattr(c, f) for c in cards]) for f in
                            ("quad", "label", "confidence", "abstain", "tracker_id")))


def test_of_two_cards_at_a_seat_the_nearer_holds_it_the_other_is_elsewhere_and_it_is_crowded() -> None:
    seats = Seats(("Anna", "Bruno", "Carla"), ((600.0, 600.0), (1000.0, 350.0), (500.0, 150.0)), stock=(650.0, 350.0))
    seen = observe(table(card("back", (610, 590), 1), card("7C", (660, 640), 2), card("back", (652, 352), 3),
                         card("1D", (1010, 340), 4)), seats, 3.5)
    assert seen == TableObservation.of(3.5, {"Anna": "down#1@0.75", "Bruno": "1D#4@0.75", "Carla": "-"},
                                       stock=True, elsewhere=("7C#2@0.75",), crowded=("Anna",))


def test_with_the_stock_unknown_a_face_down_card_at_no_seat_is_the_stock() -> None:
    seats = Seats(("Anna", "Bruno"), ((600.0, 600.0), (1000.0, 350.0)))
    assert observe(table(card("back", (700, 300), 1)), seats, 0.0).stock
    assert not observe(table(card("3S", (700, 300), 1)), seats, 0.0).stock


# --- seats files ------------------------------------------------------------------------------------


def test_a_seats_file_gives_the_places_in_seating_order(tmp_path: Path) -> None:
    path = tmp_path / "seats.json"
    path.write_text('{"Carla": [830, 184], "Anna": [681.5, 602], "Bruno": [1049, 380], "stock": [663, 322]}')
    seats = load_seats(path, ["Anna", "Bruno", "Carla"])
    assert seats == Seats(("Anna", "Bruno", "Carla"), ((681.5, 602.0), (1049.0, 380.0), (830.0, 184.0)),
                          None, (663.0, 322.0))
    assert seats.to_json() == {"Anna": [681.5, 602.0], "Bruno": [1049.0, 380.0], "Carla": [830.0, 184.0],
                               "stock": [663.0, 322.0]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"Anna": [1, 2], "Bruno": [3, 4]', "not a seats file in JSON"),
        ('[[1, 2], [3, 4], [5, 6]]', "a seats file is an object"),
        ('{"Anna": [1, 2], "Bruno": [3, 4], "Zoe": [5, 6]}', "names Zoe, not playing"),
        ('{"Anna": [1, 2], "Bruno": [3, 4]}', "has no place for Carla"),
        ('{"Anna": [1, 2], "Carla": [5, 6], "Bruno": [3, 4]}', "in the order Anna, Carla, Bruno, but they play"),
        ('{"Anna": [1, 2], "Bruno": "left", "Carla": [5, 6]}', "Bruno's place must be \\[x, y\\]"),
        ('{"Anna": [1, 2], "Bruno": [3, NaN], "Carla": [5, 6]}', "Bruno's place must be"),
    ],
)
def test_a_bad_seats_file_says_why_in_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "seats.json"
    path.write_text(text)
    with pytest.raises(SeatsError, match=message) as raised:
        load_seats(path, ["Anna", "Bruno", "Carla"])
    assert "\n" not in str(raised.value)


def test_a_missing_seats_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(SeatsError, match="cannot read the seats file"):
        load_seats(tmp_path / "nowhere.json", PLAYERS)


def test_a_finder_for_a_dealer_not_playing_is_refused() -> None:
    with pytest.raises(SeatsError, match="the dealer Zoe is not one of the players"):
        SeatFinder(PLAYERS, "Zoe")


def test_the_next_deal_laid_askew_leaves_the_seats_where_they_were() -> None:
    # a stock at the new dealer's place and a card laid far off its seat are no camera move
    seats = Seats(("Anna", "Bruno", "Carla"), ((600.0, 600.0), (1000.0, 350.0), (500.0, 150.0)),
                  stock=(650.0, 350.0))
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla", seats)
    finder.update(CardDetections.empty(), 0.0)  # the table cleared after a hand
    askew = table(card("back", (600, 600), 1), card("back", (1000, 350), 2),
                  card("back", (500 + 1.2 * LENGTH, 150), 3))
    for step in range(20):
        finder.update(askew, 1.0 + step / 15)
    assert finder.seats == seats


def test_the_next_deal_seen_by_a_nudged_camera_moves_every_seat_alike() -> None:
    seats = Seats(("Anna", "Bruno", "Carla"), ((600.0, 600.0), (1000.0, 350.0), (500.0, 150.0)))
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla", seats)
    finder.update(CardDetections.empty(), 0.0)
    nudged = table(card("back", (620, 590), 1), card("back", (1020, 340), 2),
                   card("10C", (520, 140), 3))  # a Re shown at once anchors its seat too
    for step in range(20):
        finder.update(nudged, 1.0 + step / 15)
    assert finder.seats is not None
    assert np.array(finder.seats.points) == pytest.approx(
        np.array([[620.0, 590.0], [1020.0, 340.0], [520.0, 140.0]]), abs=0.5)


@pytest.mark.parametrize(("seen", "start", "misfit"), [
    ([0, 1, 2, 3, 4], 0, 0),
    ([3, 4, 0, 1, 2], 2, 0),
    ([0, 1, 3, 2, 4], 0, 2),  # the third card seen resting after the fourth
    ([1, 0, 2, 3, 4], 0, 2),  # the first seen resting after the second
    ([2, 3, 4, 0, 1], 3, 0),
    ([0, 1.5, 1.5, 3, 4], 0, 1),  # the second and third seen resting in one picture
])
def test_the_deal_order_names_the_places_even_with_a_card_seen_resting_a_card_late(
        seen: list[float], start: int, misfit: float) -> None:
    """Places counterclockwise, each given as the order its card was seen coming to rest in."""
    (best, first), (second, _) = deal_turns(seen)[:2]
    assert (first, best) == (start, misfit) and best <= LATE < second


@pytest.mark.parametrize("seen", [[0, 4, 3, 2, 1], [0, 2, 1, 4, 3], [2, 0, 1, 4, 3]])
def test_a_deal_order_going_the_other_way_or_two_cards_late_fits_no_turn_of_the_table(seen: list[int]) -> None:
    assert deal_turns([float(k) for k in seen])[0][0] > LATE


def test_the_stock_lying_by_one_place_marks_the_dealer_and_one_in_the_middle_marks_none() -> None:
    ring = np.array([[0.0, 100.0], [100.0, 0.0], [0.0, -100.0], [-100.0, 0.0]])
    assert by_the_stock(ring, np.array([0.0, 52.0])) == 0
    assert by_the_stock(ring, np.array([5.0, 0.0])) is None
    assert by_the_stock(ring, None) is None


def test_the_dealers_own_card_slid_off_the_pile_marks_his_place_not_the_stock_s() -> None:
    # the tracker follows the top card sliding off the pile under the pile's identity, and gives
    # the pile left behind a new one: the stock stays where it lay, the card marks a place
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla")
    pile = (500.0, 300.0)
    frames = [(0.0, [card("back", pile, 1)]),
              (0.2, [card("back", pile, 1), card("back", (800, 300), 2)]),
              (1.0, [card("back", pile, 1), card("back", (800, 300), 2), card("back", (500, 20), 3)])]
    dealt = [card("back", (800, 300), 2), card("back", (500, 20), 3)]
    frames += [(1.8 + step * 0.07, [card("back", (500, 300 + step * 30), 1), *dealt]
                + ([card("back", pile, 9)] if step else []))
               for step in range(6)]  # down to y = 450, more than a card length off the pile
    frames += [(2.3 + k * 0.1, [card("back", (500, 450), 1), card("back", pile, 9), *dealt])
               for k in range(round(10 * (1.0 + DEAL_PAUSE)))]
    for at, cards in frames:
        finder.update(table(*cards), at)
    assert finder.seats is not None
    assert finder.seats.stock == pile
    assert np.linalg.norm(np.subtract(finder.seats.point("Carla"), (500, 450))) < 0.2 * LENGTH


@pytest.mark.parametrize("pile_first", [True, False])
def test_the_pile_by_the_dealers_card_never_holds_his_seat_however_near(pile_first: bool) -> None:
    seats = Seats(("Anna", "Bruno"), ((600.0, 600.0), (1000.0, 350.0)), stock=(620.0, 590.0))
    pile, mine = card("back", (620, 590), 1), card("back", (560, 640), 2)
    seen = observe(table(*((pile, mine) if pile_first else (mine, pile))), seats, 1.0)
    assert seen == TableObservation.of(1.0, {"Anna": "down#2@0.75", "Bruno": "-"}, stock=True)


def test_the_pile_alone_at_the_dealers_place_leaves_his_seat_empty_until_his_card_is_dealt() -> None:
    seats = Seats(("Anna", "Bruno"), ((600.0, 600.0), (1000.0, 350.0)), stock=(640.0, 560.0))
    pile, mine = card("back", (640, 560), 1), card("back", (605, 595), 2)
    assert observe(table(pile), seats, 1.0) == TableObservation.of(1.0, {"Anna": "-", "Bruno": "-"}, stock=True)
    # his own card alone (the pile lifted to deal) holds his seat, though it lies near the pile's place
    assert observe(table(mine), seats, 2.0) == TableObservation.of(2.0, {"Anna": "down#2@0.75", "Bruno": "-"})


# --- the places of a drawn table named at the first deal, seen from above or by a leaning phone ------

ROUND = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo")
"""Players in seating order round a drawn table, counterclockwise."""
HALFWAY = 0.52
"""Share of the way out from the middle to his place at which the dealer sets the deck down."""
CLOTH_BACK = Placed(BACK, False, (5.0, -8.0), 30.0)
"""A back read where no card lies (a checked cloth's pattern), a few frames at a time before the deck is down."""


def drawn_table(count: int, tilt: float, yaw: float) -> tuple[tuple[str, ...], tuple[Seat, ...], np.ndarray]:
    """The first `count` players round an oval about 20 cm a place, and the map from the table (cm) to
    the 1280x720 frame of a phone `tilt` degrees from straight down, turned `yaw`, fitted to every
    place and every deck in front of one."""
    players = ROUND[:count]
    seats = round_table_seats(list(players), (26.0 + 1.2 * count, 16.5 + 0.75 * count))
    resting = [Placed(BACK, False, seat.position, seat.facing) for seat in seats]
    resting += [Placed(BACK, False, (HALFWAY * seat.position[0], HALFWAY * seat.position[1]), seat.facing + 25.0)
                for seat in seats]
    camera = fit_camera(tuple(resting), Camera(1280, 720, tilt, yaw, fov=PHONE_FOV), margin=0.07)
    return players, seats, camera.homography()


def in_frame(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def deal(seats: tuple[Seat, ...], h: np.ndarray, dealer: str, deck: float = HALFWAY,
         before: tuple[Placed, ...] = (), lifted: bool = False, lying: tuple[Placed, ...] = (),
         shown: tuple[str, str] | None = None, aside: bool = False,
         taken: bool = False, against: bool = False, slow: int | None = None,
         turned: tuple[str, str] | None = None, after: tuple[Placed, ...] = ()) -> Iterator[tuple[float, CardDetections]]:
    """The first deal at 15 fps as the reader sees it: the deck set down `deck` of the way out in front
    of the dealer, `before` read on and off before it is down; then a card to each player from the
    dealer's right, flown from the deck in half a second (the deck under the dealer's hand unread while
    the card slides off it) and let lie 0.6 s before the next; the table left still for five seconds.
    A `lifted` deck is taken into the dealer's hand once the first card lies. Things `lying` on the
    table are read throughout; a card `shown` (player, card) is seen face up from the moment it lands
    (a Re turned up at once, its face-down moment between two frames of a slow camera). A dealer who puts
    his card `aside` for the draw slides it, 0.6 s after it lands, a card's length off toward the middle. A
    dealer's own card `taken` up at once (a brisk first swap) lies 0.27 s, then is held still in a hand for
    four pictures halfway to his right-hand neighbour, and is gone from the next picture on. A dealer's own
    card laid `against` the pile is outlined with it as one shape and never read apart; after brisk turns (0.5 s)
    he takes it up for his draw and puts it aside past the deck, 10 cm toward the middle. The card dealt `slow` (0
    the first) is carried to its place over SLOW seconds. A card `turned` (player, card) lands face down and is
    turned up where it lies a third of a second later, its face never named (a phone past 50 degrees names none)."""
    names = [seat.name for seat in seats]
    place = {seat.name: seat for seat in seats}
    mine = place[dealer]
    pile = Placed(BACK, False, (deck * mine.position[0], deck * mine.position[1]), mine.facing + 25.0)
    dealt: list[Placed] = [*lying, *after]
    shots: list[list[Placed]] = [[*lying, *(before if k < 3 or 9 <= k < 21 else ()), *([pile] if k >= 5 else []),
                                  *(after if k >= 10 else ())] for k in range(round(1.5 * FPS))]
    on_table = [pile]
    for k in range(1, len(names) + 1):
        seat = place[names[(names.index(dealer) + k) % len(names)]]
        home = Placed(BACK, False, seat.position, seat.facing)
        steps = round(SLOW * FPS) if slow == k - 1 else 7
        for step in range(1, steps + 1):
            flown = tuple(a + (b - a) * (step / steps) ** 2 for a, b in zip(pile.centre, home.centre))
            shots.append([*(on_table if step > 3 else []), *dealt, replace(home, centre=flown)])
        if not (against and seat is mine):
            dealt.append(replace(home, label=shown[1], face_up=True) if shown and shown[0] == seat.name else home)
        on_table = [] if lifted else on_table
        if turned and turned[0] == seat.name:
            shots += [[*on_table, *dealt]] * 5
            dealt[-1] = replace(home, label=turned[1], face_up=True)
        shots += [[*on_table, *dealt]] * (4 if taken and seat is mine else 9)
    if taken:
        mine_down, right = dealt.pop(), place[names[(names.index(dealer) + 1) % len(names)]]
        held = replace(mine_down, centre=tuple(0.45 * (a + b) for a, b in zip(mine.position, right.position)))
        shots += [[*on_table, *dealt, replace(mine_down, centre=tuple(a + (b - a) * step / 3 for a, b in zip(
            mine_down.centre, held.centre)))] for step in range(1, 3)]
        shots += [[*on_table, *dealt, held]] * 4
    if aside:
        mine_down = dealt.pop()
        middle = (mine.position[0] * 0.6 + 8.0, mine.position[1] * 0.6 + 8.0)
        for step in range(1, 6):
            slid = tuple(a + (b - a) * step / 5 for a, b in zip(mine_down.centre, middle))
            shots.append([*on_table, *dealt, replace(mine_down, centre=slid)])
        dealt.append(replace(mine_down, centre=middle))
    if against:
        shots += [[*on_table, *dealt]] * round(0.5 * FPS)
        reach = math.hypot(*pile.centre)
        past = tuple(a * (1 - 10.0 / reach) for a in pile.centre)
        path = [mine.position] * 3 + [pile.centre] * 3 + [past]
        for step in range(1, 9):
            t = step / 8 * (len(path) - 1)
            a, b = path[int(t)], path[min(int(t) + 1, len(path) - 1)]
            carried = tuple(u + (v - u) * (t - int(t)) for u, v in zip(a, b))
            shots.append([*on_table, *dealt, Placed(BACK, False, carried, mine.facing)])
        dealt.append(Placed(BACK, False, past, mine.facing + 60.0))
    shots += [[*on_table, *dealt]] * (5 * FPS)
    for k, cards in enumerate(shots):
        quads = np.array([in_frame(h, card_corners_cm(c)) for c in cards], np.float32).reshape(-1, 4, 2)
        unnamed = np.array([turned is not None and c.face_up and c.label == turned[1] for c in cards], bool)
        yield k / FPS, CardDetections(quads, np.array([c.label for c in cards]), np.full(len(cards), 0.95, np.float32),
                                      unnamed)


def named(count: int, tilt: float, yaw: float, dealer: str, deck: float = HALFWAY,
          before: tuple[Placed, ...] = (), lifted: bool = False, lying: tuple[Placed, ...] = (),
          shown: tuple[str, str] | None = None, aside: bool = False, taken: bool = False,
          against: bool = False, every: int = 1, slow: int | None = None,
          turned: tuple[str, str] | None = None, after: tuple[Placed, ...] = ()) -> tuple[dict[str, str], float | None]:
    """Each seat the finder names at the first deal seen at 15 fps / `every`, given as the player whose
    place it lies nearest, and when it named them; `{"asked": why}` where it named none and asked for taps."""
    players, seats, h = drawn_table(count, tilt, yaw)
    tracker, finder = CardTracker(), SeatFinder(players, dealer)
    at = None
    for k, (at, detections) in enumerate(deal(seats, h, dealer, deck, before, lifted, lying, shown, aside, taken,
                                                 against, slow, turned, after)):
        if k % every == 0 and finder.update(tracker.update(detections, at), at, tracker.unseen(at, 0.0)) is not None:
            break
    if finder.seats is None:
        return ({} if finder.unsure is None else {"asked": finder.unsure}), None
    places = dict(zip(players, in_frame(h, np.array([seat.position for seat in seats]))))
    return {name: min(places, key=lambda other: float(np.linalg.norm(places[other] - point)))
            for name, point in zip(finder.seats.names, finder.seats.points)}, at


SLOW = 4.0
"""Seconds a slow dealer takes to carry one card to its place, in `deal`: longer than DEAL_PAUSE after the card before."""

TABLES = [
    (6, 5.0, 0.0, "Carla"),  # over the table
    (6, 40.0, 0.0, "Carla"),  # a phone leaning at the table's edge, the dealer near it
    (6, 40.0, 180.0, "Elena"),  # from the other long side
    (8, 5.0, 10.0, "Carla"),
    (8, 40.0, 10.0, "Carla"),
    (8, 45.0, 190.0, "Gina"),
    (6, 60.0, 20.0, "Dario"),  # a phone propped on a short glass, looking across the table
    (8, 65.0, 0.0, "Carla"),
    (8, 70.0, 200.0, "Bruno"),
]
"""(players, the phone's tilt from straight down, its turn, the dealer)."""


@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES)
def test_the_places_are_named_counterclockwise_from_the_dealers_right(
        count: int, tilt: float, yaw: float, dealer: str) -> None:
    seated, _ = named(count, tilt, yaw, dealer)
    assert seated == {player: player for player in ROUND[:count]}


def right_or_asked(seated: dict[str, str], count: int, tilt: float) -> bool:
    """Every place named right; or, from a phone flatter than the README's 45 degrees, none named and the
    table asked to tap them: never one named at another player's place."""
    return seated == {player: player for player in ROUND[:count]} or (tilt > 45.0 and set(seated) == {"asked"})


@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES)
def test_a_back_read_for_moments_before_the_deck_is_down_is_no_stock_and_the_deck_no_place(
        count: int, tilt: float, yaw: float, dealer: str) -> None:
    # taken for the stock, it left the deck to mark the dealer's place, every name turned by one
    seated, _ = named(count, tilt, yaw, dealer, before=(CLOTH_BACK,))
    assert right_or_asked(seated, count, tilt)


@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES)
@pytest.mark.parametrize("read_as", ["1D", "4C"])
def test_a_face_lying_up_from_before_the_deal_marks_no_place(
        count: int, tilt: float, yaw: float, dealer: str, read_as: str) -> None:
    # coins in a row between two players' places, read as a card's face: the dealer deals face
    # down and only a Re or a Cavallo is turned up at once, so it was never dealt
    _, seats, _ = drawn_table(count, tilt, yaw)
    (x1, y1), (x2, y2) = seats[1].position, seats[2].position
    coins = Placed(read_as, True, (0.6 * (x1 + x2), 0.6 * (y1 + y2)), 90.0)
    seated, _ = named(count, tilt, yaw, dealer, lying=(coins,))
    assert right_or_asked(seated, count, tilt)


@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES)
@pytest.mark.parametrize("beside", ["the dealer", "across"])
def test_a_back_read_at_rest_between_two_places_since_the_deck_was_down_names_no_place_and_asks_for_them(
        count: int, tilt: float, yaw: float, dealer: str, beside: str) -> None:
    # the cloth's checks read as a back, lying still from the moment the deck is down: it comes to rest before any
    # card dealt, and between the dealer and his right-hand neighbour it fits the deal's order as the first
    # place; once the dealer's own card lies too, the table shows one place more than players
    players, seats, _ = drawn_table(count, tilt, yaw)
    left = players.index(dealer) if beside == "the dealer" else (players.index(dealer) + count // 2) % count
    (x1, y1), (x2, y2) = seats[left].position, seats[(left + 1) % count].position
    seated, _ = named(count, tilt, yaw, dealer, after=(Placed(BACK, False, ((x1 + x2) / 2, (y1 + y2) / 2), 30.0),))
    assert seated == {"asked": "seats.more"}


def test_a_deck_beyond_the_ring_of_the_places_lies_by_none_of_them() -> None:
    # a deck lies in front of the dealer, toward the middle; a "deck" out beyond the places, by none of
    # them, is a player's card taken for it: the places are asked (seats.stock)
    places = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]])
    assert beyond_ring(places, np.array([-2.0, 1.5])) and not beyond_ring(places, np.array([1.0, 1.5]))
    assert not beyond_ring(places[:2], np.array([-2.0, 1.5])) and not beyond_ring(places, None)


@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), [(6, 40.0, 0.0, "Carla"), (8, 65.0, 0.0, "Carla")])
def test_a_deal_seen_going_clockwise_names_no_place_and_asks_for_them(
        count: int, tilt: float, yaw: float, dealer: str) -> None:
    # a mirrored picture (a phone's front camera) shows the deal going round the other way: any turn of
    # the table would name every place but one at another player's
    players, seats, h = drawn_table(count, tilt, yaw)
    tracker, finder = CardTracker(), SeatFinder(players, dealer)
    for at, seen in deal(seats, h, dealer):
        mirrored = seen.quad.copy()
        mirrored[..., 0] = 1280.0 - mirrored[..., 0]
        finder.update(tracker.update(replace(seen, quad=mirrored), at), at)
    assert finder.seats is None and finder.unsure == "seats.order"


@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES)
def test_a_re_seen_first_face_up_still_marks_its_place(count: int, tilt: float, yaw: float, dealer: str) -> None:
    seated, _ = named(count, tilt, yaw, dealer, shown=(ROUND[(ROUND.index(dealer) + 2) % count], "10S"))
    assert seated == {player: player for player in ROUND[:count]}


def test_a_deck_in_front_of_a_far_dealer_marks_him_though_the_picture_shows_it_nearer_his_neighbour() -> None:
    # at 45 degrees the far side is squeezed: the deck set down nearer the middle than halfway lies
    # nearer Dario's card than Carla's in the picture, but on the line from hers to the middle
    players, seats, h = drawn_table(8, 45.0, 10.0)
    deck = in_frame(h, np.array([0.45 * seats[2].position[0], 0.45 * seats[2].position[1]]))[0]
    places = in_frame(h, np.array([seat.position for seat in seats]))
    assert np.linalg.norm(places[3] - deck) < 0.6 * np.linalg.norm(places[2] - deck)
    assert by_the_stock(places, deck) == players.index("Carla")
    seated, _ = named(8, 45.0, 10.0, "Carla", deck=0.45)
    assert seated == {player: player for player in players}


@pytest.mark.parametrize("every", [1, 3], ids=["15 fps", "5 fps"])
@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES)
def test_a_card_still_on_its_way_when_the_deal_has_paused_long_keeps_the_places_waiting_for_it(
        count: int, tilt: float, yaw: float, dealer: str, every: int) -> None:
    # no card came to rest for longer than DEAL_PAUSE, but one was moving across the table all along: the deal
    # goes on, and the places are named once it lands (a player turning up his Re at once stirs his card so)
    seated, _ = named(count, tilt, yaw, dealer, slow=2, every=every)
    assert seated == {player: player for player in ROUND[:count]}


@pytest.mark.parametrize("every", [1, 2, 3], ids=["15 fps", "7.5 fps", "5 fps"])
@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES[:2] + TABLES[3:4])
def test_a_brisk_dealer_putting_his_card_aside_at_once_has_his_place_where_it_landed(
        count: int, tilt: float, yaw: float, dealer: str, every: int) -> None:
    # it lay 0.6 s: seen at 5 or 7.5 pictures a second, 0.4 s from the picture that first shows it
    seated, _ = named(count, tilt, yaw, dealer, aside=True, every=every)
    assert seated == {player: player for player in ROUND[:count]}


@pytest.mark.parametrize("every", [1, 2, 3], ids=["15 fps", "7.5 fps", "5 fps"])
@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES)
def test_a_dealers_card_taken_up_before_it_rests_marks_no_place_where_the_hand_last_held_it(
        count: int, tilt: float, yaw: float, dealer: str, every: int) -> None:
    # the tracker keeps the card a moment where the hand last held it still, as it keeps one under a hand;
    # kept there unread, it marked the dealer's place between him and his right-hand neighbour
    seated, _ = named(count, tilt, yaw, dealer, taken=True, every=every)
    assert seated == {"asked": "seats.unseen"}


FEW = [(count, tilt, yaw, dealer) for count in (4, 5) for tilt, yaw in ((5.0, 0.0), (45.0, 0.0), (60.0, 180.0))
       for dealer in ROUND[:count]]
"""Four and five players, every one the dealer: past the deck, a card put aside lies outside the ring of the
other places as often as not."""


@pytest.mark.parametrize("every", [1, 3], ids=["15 fps", "5 fps"])
@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES + FEW)
def test_a_card_put_aside_past_the_deck_marks_no_place_where_the_dealers_own_went_unseen(
        count: int, tilt: float, yaw: float, dealer: str, every: int) -> None:
    # his own card, laid against the pile, was never read apart from it; the card he put aside for his draw
    # came to rest a card's length past the deck toward the middle, and marked his place there (at four or
    # five players it lies beyond the line between his neighbours' places)
    seated, _ = named(count, tilt, yaw, dealer, against=True, every=every)
    assert seated == {"asked": "seats.unseen"}


@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), TABLES)
@pytest.mark.parametrize("player", ["Anna", "Dario"])
def test_a_re_turned_up_at_once_where_it_lay_marks_its_place_though_its_face_is_never_named(
        count: int, tilt: float, yaw: float, dealer: str, player: str) -> None:
    seated, _ = named(count, tilt, yaw, dealer, turned=(player, "10S"))
    assert seated == {player: player for player in ROUND[:count]}


@pytest.mark.parametrize(("count", "tilt", "yaw", "dealer"), [(6, 40.0, 0.0, "Carla"), (8, 5.0, 10.0, "Carla")])
def test_a_deck_taken_into_the_dealers_hand_leaves_the_places_named_once_no_card_more_comes(
        count: int, tilt: float, yaw: float, dealer: str) -> None:
    seated, at = named(count, tilt, yaw, dealer, lifted=True)
    assert seated == {player: player for player in ROUND[:count]}
    down = (round(1.5 * FPS) + 16 * count - 11) / FPS  # the dealer's own card lies from the picture after
    assert at is not None and at >= down + 0.5 + DEAL_PAUSE


def test_the_pile_is_the_point_deepest_inside_the_ring_of_the_others() -> None:
    ring = np.array([[0.0, 100.0], [100.0, 0.0], [0.0, -100.0], [-100.0, 0.0], [70.0, 70.0]])
    assert inside_ring(ring) is None
    assert inside_ring(np.vstack([ring, [[30.0, 10.0]]])) == 5
    assert inside_ring(np.vstack([ring, [[30.0, 10.0]], [[5.0, 0.0]]])) == 6


def test_the_next_dealer_sets_the_deck_down_in_front_of_him_and_the_stock_lies_there() -> None:
    seats = Seats(("Anna", "Bruno", "Carla"), ((600.0, 600.0), (1000.0, 350.0), (500.0, 150.0)),
                  stock=(650.0, 350.0))
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla", seats)
    finder.update(CardDetections.empty(), 0.0)  # the table cleared after Carla's hand
    deck = table(card("back", (680, 470), 9))  # Anna, who deals next, sets the gathered deck down before her
    for step in range(20):
        finder.update(deck, 1.0 + step / 15)
    assert finder.seats is not None and finder.seats.stock == (680.0, 470.0)
    assert finder.seats.points == seats.points
    assert np.array_equal(finder.pile(deck), deck.quad[0])  # the table round it is looked at there


def test_backs_lying_apart_on_a_cleared_table_are_no_one_pile_and_the_stock_stays() -> None:
    seats = Seats(("Anna", "Bruno", "Carla"), ((600.0, 600.0), (1000.0, 350.0), (500.0, 150.0)),
                  stock=(650.0, 350.0))
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla", seats)
    finder.update(CardDetections.empty(), 0.0)
    apart = table(card("back", (680, 470), 9), card("back", (800, 300), 10))
    for step in range(20):
        finder.update(apart, 1.0 + step / 15)
    assert finder.seats == seats


def test_the_deck_is_given_in_the_outline_it_had_at_rest_when_a_card_laid_against_it_joins_its_outline() -> None:
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla")
    deck = table(card("back", (700, 400), 1))
    for step in range(15):  # the shuffled deck set down
        finder.update(deck, step / 15)
    # the dealer's card laid end to end with it: the reading outlines the two as one shape, followed as the deck
    one_shape = deck.quad.copy()
    one_shape[0, 2:, 1] += LENGTH
    joined = CardDetections(one_shape, deck.label, deck.confidence, deck.abstain, deck.tracker_id)
    finder.update(joined, 1.0)
    assert np.array_equal(finder.pile(joined), deck.quad[0])


def test_a_deal_that_never_shows_every_place_asks_for_them_though_things_keep_coming_to_rest() -> None:
    # the cloth's checks read as backs now here, now there: marks keep coming, never a card at the far place
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla")
    finder.update(table(card("back", (500, 300), 1)), 0.0)
    at, ident = 0.0, 2
    while at < DEAL_PAUSE * 3 + 1.0:
        at += 0.5
        spot = (100 + 170 * (ident % 7), 100 + 170 * (ident // 7))  # somewhere new each time
        for step in range(2):
            finder.update(table(card("back", (500, 300), 1), card("back", spot, ident)), at + step * 0.5)
        at += 0.5
        ident += 1
        assert finder.seats is None
    assert finder.unsure == "seats.unseen"


def test_a_deal_whose_cards_are_never_seen_resting_asks_for_the_places_once_it_has_taken_long_enough() -> None:
    # the far places of a phone looking across the table: only the deck and a Cavallo shown are read
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla")
    finder.update(table(card("back", (500, 300), 1)), 0.0)
    steps = [k * 0.2 for k in range(1, round(DEAL_PAUSE * 3 / 0.2) + 4)]
    for at in steps:
        moving = (500 + 60 * (round(at / 0.2) % 2), 600)  # in a hand, never at rest
        finder.update(table(card("back", (500, 300), 1), card("9B", moving, 2)), at)
        assert finder.unsure is None or at > DEAL_PAUSE * 3 + 0.2
    assert finder.seats is None and finder.unsure == "seats.unseen"


def test_a_deal_short_of_a_place_asks_for_the_places_though_a_card_keeps_moving_about() -> None:
    # a place never seen while the play goes on: a card carried about keeps the deal going for no longer
    # than twice DEAL_PAUSE after the last place marked
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla")
    deck = card("back", (500, 300), 1)
    finder.update(table(deck), 0.0)
    dealt = table(deck, card("back", (200, 300), 2), card("back", (800, 300), 3))
    at, asked = 0.0, None
    while at < 3 * DEAL_PAUSE:
        at = round(at + 0.2, 1)
        moving = card("back", (400 + 200 * (round(at / 0.2) % 2), 650), 4)  # in a hand, never at rest
        finder.update(table(dealt, moving) if at > 1.0 else dealt, at)
        asked = asked if asked is not None or finder.unsure is None else at
    assert finder.seats is None and finder.unsure == "seats.unseen"
    assert asked is not None and 1.0 + DEAL_PAUSE < asked <= 0.6 + 2 * DEAL_PAUSE + 0.2


def test_a_card_turned_up_at_the_reveal_and_set_aside_for_the_draw_marks_no_place() -> None:
    # four players round the pile; the dealer lays his own card against the pile, where it marks no place:
    # the table is asked to tap the places. At the reveal he turns his 8B up and sets it aside for the draw,
    # away from every place: a face lying up that is no Re or Cavallo was not dealt so, and marks no place
    # (it would name his place where he set it aside)
    finder = SeatFinder(("Anna", "Bruno", "Carla", "Dario"), "Dario")
    pile = (640.0, 360.0)
    dealt = [card("back", (640, 640), 2), card("back", (1100, 360), 3), card("back", (640, 80), 4),
             card("back", (560, 360), 5)]
    for at in np.arange(0.0, 1.0, 0.1):
        finder.update(table(card("back", pile, 1)), at)
    for k in range(1, 5):  # one card a second, Anna's, Bruno's, Carla's, then the dealer's own by the pile
        for at in np.arange(k, k + 1, 0.1):
            finder.update(table(card("back", pile, 1), *dealt[:k]), at)
    for at in np.arange(5.0, 5.0 + 2 * DEAL_PAUSE, 0.1):
        finder.update(table(card("back", pile, 1), *dealt), at)
    assert finder.seats is None and finder.unsure == "seats.unseen"
    revealed = [card(code, c.quad.mean(axis=1)[0], int(c.tracker_id[0])) for code, c in zip(("4S", "6D", "1C"), dealt)]
    aside = card("8B", (300, 560), 5)
    for at in np.arange(5.0 + 2 * DEAL_PAUSE, 7.0 + 2 * DEAL_PAUSE, 0.1):
        finder.update(table(card("back", pile, 1), *revealed, aside), at)
    assert finder.seats is None and finder.unsure == "seats.unseen"


def test_a_check_read_as_a_back_while_a_players_card_is_taken_up_names_no_place() -> None:
    # three players; a check of the cloth near Anna's place, read as a back a third of a card's size, comes
    # to rest among the dealt cards; Anna takes her card up to look at it as the dealer's own lands. The three
    # cards lying then fit a plane of their own, but every card that came to rest tells the deck's size
    # there: the check is no card, and Anna's place is not named where it lies
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla")
    pile = (640.0, 360.0)
    anna, bruno, carla = card("back", (640, 640), 2), card("back", (1100, 360), 3), card("back", (180, 360), 4)
    check = card("back", (820, 560), 5)
    check = replace(check, quad=((check.quad - (820, 560)) * 0.35 + (820, 560)).astype(np.float32))
    shown = [(0.0, []), (1.0, [anna]), (1.5, [anna, check]), (2.0, [anna, check, bruno]),
             (3.0, [check, bruno, carla])]  # Anna's card in her hand as the dealer's own lands
    for (start, cards), (stop, _) in zip(shown, [*shown[1:], (3.0 + 2 * DEAL_PAUSE, [])]):
        for at in np.arange(start, stop, 0.1):
            finder.update(table(card("back", pile, 1), *cards), at)
    assert finder.seats is None


def test_a_deal_judged_short_of_a_place_stays_so_when_a_thing_comes_to_rest_there_during_the_play() -> None:
    # three players; the far place is never read as the deal goes round, and once no card more comes for
    # DEAL_PAUSE the table is asked to tap the places. During the play a check of the cloth is read as a
    # back where a place could be: the deal's order is over, and what comes to rest now names no place
    finder = SeatFinder(("Anna", "Bruno", "Carla"), "Carla")
    pile = (640.0, 360.0)
    anna, bruno = card("back", (640, 640), 2), card("back", (1100, 360), 3)
    for at in np.arange(0.0, 1.0, 0.1):
        finder.update(table(card("back", pile, 1)), at)
    for at in np.arange(1.0, 2.0, 0.1):
        finder.update(table(card("back", pile, 1), anna), at)
    for at in np.arange(2.0, 3.0 + DEAL_PAUSE + 0.5, 0.1):
        finder.update(table(card("back", pile, 1), anna, bruno), at)
    assert finder.seats is None and finder.unsure == "seats.unseen"
    check = card("back", (180, 360), 4)
    for at in np.arange(3.0 + DEAL_PAUSE + 0.5, 6.0 + DEAL_PAUSE, 0.1):
        finder.update(table(card("back", pile, 1), anna, bruno, check), at)
    assert finder.seats is None and finder.unsure == "seats.unseen"
