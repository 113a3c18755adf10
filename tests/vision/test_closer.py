"""A card turned face up on a checked cloth, lost to the whole reading, is found by a closer look at its place."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from art.pace import PACES
from art.scene import Camera, Placed, Scene, render_scene
from art.sequences import FPS, film
from benchmarks import eval_live
from benchmarks.live_hands import random_hand
from vision.closer import FORGET, GIVEN_UP, TRIES, CloseLooks
from vision.detections import CardDetections
from vision.labels import NONE
from vision.recognize import SURE_EVIDENCE, CardReader
from vision.still import StillReader, _look
from vision.track import CardTracker

NOTHING = CardDetections.empty()
DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


@pytest.mark.skipif(not (DATA / "photos" / "labels.csv").is_file(), reason=f"no shared photo data at {DATA}")
def test_lucias_3b_turned_up_against_the_stock_on_the_gingham_is_read_at_her_place() -> None:
    # a dealer's card lying against the stock on the gingham, turned up where it lies
    reader = CardReader()
    faces = eval_live.hand_faces(eval_live.photo_faces(DATA, reader), 18)
    resting, turned = range(round(11.8 * FPS), round(12.1 * FPS)), range(round(14.4 * FPS), round(16.4 * FPS))
    frames = {}
    for i, frame, _, _ in film(random_hand(0, PACES["usual"], "above", 18).script, faces):
        if i in resting or i in turned:
            frames[i] = frame
        if i >= turned[-1]:
            break
    still, tracker, known = StillReader(reader), CardTracker(), NOTHING
    for i in resting:
        known = tracker.update(still(frames[i], i / FPS, known), i / FPS)
    assert sorted(known.label).count("back") == 4  # three players' cards and the stock
    missed, read_closer = 0, []
    for i in turned:
        read = still(frames[i], i / FPS, known)
        known = tracker.update(read, i / FPS)
        missed += "3B" not in reader(frames[i]).label
        read_closer.append("3B" in read.label)
    assert missed >= 5  # the whole reading loses it beside the light checks, frame after frame
    assert all(read_closer[2:])  # once the table round her place is still, it is read in every frame
    assert "3B" in known.label


def test_a_place_is_looked_at_only_while_a_card_lay_there_at_rest_and_for_no_longer_than_forget() -> None:
    camera = Camera(960, 540, tilt=0, view_cm=70)
    table, _ = render_scene(Scene((), (Placed("1D", True, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    empty, _ = render_scene(Scene((), (), "felt"), camera, seed=3)
    reader = CardReader()
    looks = CloseLooks(reader)
    dealt = reader(table)
    assert list(dealt.label) == ["1D"]
    assert len(looks(table, _look(table), 0.0, dealt, dealt)) == 1  # read once: not yet at rest, the reading alone
    looks(table, _look(table), 0.1, dealt, dealt)  # read again where it lay: at rest
    # the card is read no more where it lay (the whole reading shows nothing): its place is looked at
    found = looks(table, _look(table), 0.2, NOTHING, NOTHING)
    assert list(found.label) == ["1D"]
    # the card is gone: its place is looked at in vain while remembered, and forgotten FORGET after it was read
    for at in (0.3, 0.4):
        assert not len(looks(empty, _look(empty), at, NOTHING, NOTHING))
    for at in (0.2 + FORGET, 0.3 + FORGET):  # laid again where it lay, but its place is forgotten
        assert not len(looks(table, _look(table), at, NOTHING, NOTHING))
    assert looks._places == []


def test_a_card_the_whole_reading_outlined_off_its_place_is_not_found_twice() -> None:
    camera = Camera(960, 540, tilt=0, view_cm=70)
    table, _ = render_scene(Scene((), (Placed("1D", True, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    reader = CardReader()
    looks = CloseLooks(reader)
    dealt = reader(table)
    for at in (0.0, 0.1):
        looks(table, _look(table), at, dealt, dealt)
    # the reading outlines the card, or a half of it, well off where it lay (as after a swap)
    corners = dealt.quad[0]
    along = corners[3] - corners[0]
    off = CardDetections((corners + 0.55 * along)[None], dealt.label, dealt.confidence, dealt.abstain)
    assert len(looks(table, _look(table), 0.2, off, NOTHING)) == 1  # the reading alone
    assert list(looks(table, _look(table), 0.3, NOTHING, NOTHING).label) == ["1D"]


def test_a_hand_moving_over_a_place_is_not_looked_at() -> None:
    camera = Camera(960, 540, tilt=0, view_cm=70)
    card = Placed("1D", True, (-12.0, 0.0), 10.0)
    table, _ = render_scene(Scene((), (card,), "felt"), camera, seed=3)
    reader = CardReader()
    looks = CloseLooks(reader)
    for at in (0.0, 0.1):
        looks(table, _look(table), at, reader(table), reader(table))
    covered = [render_scene(Scene((), (Placed("1D", True, (-12.0, 0.0), 10.0, cover=c),), "felt"), camera, seed=3)[0]
               for c in (0.3, 0.6)]
    for k, frame in enumerate(covered):  # the hand reaches further each frame: nothing still to look at
        assert not len(looks(frame, _look(frame), 0.2 + 0.1 * k, NOTHING, NOTHING))
    looks(table, _look(table), 0.4, NOTHING, NOTHING)  # the hand just left
    assert list(looks(table, _look(table), 0.5, NOTHING, NOTHING).label) == ["1D"]


class CountingReader(CardReader):
    """The card reader, counting the windows it reads."""

    calls = 0

    def __call__(self, frame: np.ndarray) -> CardDetections:
        self.calls += 1
        return super().__call__(frame)


def test_a_place_is_looked_at_once_while_the_table_round_it_lies_as_it_did() -> None:
    camera = Camera(960, 540, tilt=0, view_cm=70)
    face_up, _ = render_scene(Scene((), (Placed("1D", True, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    face_down, _ = render_scene(Scene((), (Placed("1D", False, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    reader = CountingReader()
    looks = CloseLooks(reader)
    dealt = CardReader()(face_up)
    for at in (0.0, 0.1):
        looks(face_up, _look(face_up), at, dealt, dealt)
    # the whole reading misses the 1D frame after frame: one closer look finds it for them all
    found = [looks(face_up, _look(face_up), 0.2 + 0.1 * k, NOTHING, NOTHING) for k in range(5)]
    assert [list(f.label) for f in found] == [["1D"]] * 5
    assert reader.calls == 1
    # it is turned face down: once the table round it is still again, it is looked at anew
    assert not len(looks(face_down, _look(face_down), 0.7, NOTHING, NOTHING))
    assert list(looks(face_down, _look(face_down), 0.8, NOTHING, NOTHING).label) == ["back"]
    assert reader.calls == 2


def _taken_away(times: tuple[float, float, float]) -> tuple[CloseLooks, CountingReader, np.ndarray, np.ndarray]:
    """Close looks that saw a card lying at rest at the first two `times` and taken away at the third (the
    table round it stirs); the reader counting their searches, the table with the card and without it."""
    camera = Camera(960, 540, tilt=0, view_cm=70)
    table, _ = render_scene(Scene((), (Placed("1D", True, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    empty, _ = render_scene(Scene((), (), "felt"), camera, seed=3)
    reader = CountingReader()
    looks = CloseLooks(reader)
    dealt = CardReader()(table)
    for at in times[:2]:
        looks(table, _look(table), at, dealt, dealt)
    looks(empty, _look(empty), times[2], NOTHING, NOTHING)
    return looks, reader, table, empty


@pytest.mark.parametrize("fps", [5, 15, 30])
def test_a_place_lying_empty_and_still_is_looked_at_three_times_at_any_rate_then_the_last_look_stands(
        fps: float) -> None:
    looks, reader, table, empty = _taken_away((0 / fps, 1 / fps, 2 / fps))
    calls = reader.calls
    given_up = 3 + round(GIVEN_UP * fps) + 1  # the frame from which the card is given up, and the one after
    for k in range(3, given_up + 1):  # the place lies empty and still: TRIES looks, at both enlargements
        assert not len(looks(empty, _look(empty), k / fps, NOTHING, NOTHING))
    assert reader.calls == calls + TRIES * 2
    # a card laid there again stirs the table round it: once it is still, the place is looked at anew
    at = (given_up + 1) / fps
    looks(table, _look(table), at, NOTHING, NOTHING)
    assert list(looks(table, _look(table), at + 1 / fps, NOTHING, NOTHING).label) == ["1D"]


def test_at_15_frames_a_second_a_place_showing_nothing_is_looked_at_in_every_other_frame() -> None:
    looks, reader, _, empty = _taken_away((0 / 15, 1 / 15, 2 / 15))
    calls = reader.calls
    for k in range(3, 9):  # six frames of the place lying empty and still: three looks, at both enlargements
        assert not len(looks(empty, _look(empty), k / 15, NOTHING, NOTHING))
    assert reader.calls == calls + 3 * 2


class BlindReader(CardReader):
    """The card reader whose search finds nothing (a far card face up beside a checked cloth's white
    checks), its classifier as it is."""

    def __call__(self, frame: np.ndarray) -> CardDetections:
        return NOTHING


def test_a_card_turned_over_where_it_lay_is_named_in_its_outline_when_no_search_finds_it() -> None:
    camera = Camera(960, 540, tilt=0, view_cm=70)
    face_down, _ = render_scene(Scene((), (Placed("7B", False, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    face_up, _ = render_scene(Scene((), (Placed("7B", True, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    empty, _ = render_scene(Scene((), (), "felt"), camera, seed=3)
    dealt = CardReader()(face_down)
    assert list(dealt.label) == ["back"]
    looks = CloseLooks(BlindReader())
    for at in (0.0, 0.1):
        looks(face_down, _look(face_down), at, dealt, dealt)
    # the 7B is turned up where it lay; the whole reading and every closer look's search miss it
    looks(face_up, _look(face_up), 0.2, NOTHING, dealt)  # the table round it stirred
    assert list(looks(face_up, _look(face_up), 0.3, NOTHING, dealt).label) == ["7B"]
    # taken away, its outline shows the bare cloth: no card
    looks(empty, _look(empty), 0.4, NOTHING, dealt)
    assert not len(looks(empty, _look(empty), 0.5, NOTHING, dealt))



def test_a_card_outlined_in_part_under_a_hand_is_named_in_the_outline_it_had_at_rest() -> None:
    # a hand over the 7B: the tracker keeps a piece of it as its outline, then it is turned up there
    camera = Camera(960, 540, tilt=0, view_cm=70)
    face_down, _ = render_scene(Scene((), (Placed("7B", False, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    covered, _ = render_scene(Scene((), (Placed("7B", False, (-12.0, 0.0), 10.0, cover=0.6),), "felt"), camera, seed=3)
    face_up, _ = render_scene(Scene((), (Placed("7B", True, (-12.0, 0.0), 10.0),), "felt"), camera, seed=3)
    dealt = CardReader()(face_down)
    assert list(dealt.label) == ["back"]
    whole = dealt.quad[0]
    piece = CardDetections((whole[0] + (whole - whole[0]) * 0.55)[None].astype(np.float32),
                           dealt.label, dealt.confidence, dealt.abstain)  # the corner the hand left bare
    alone = CardReader().read_quads(face_up, piece.quad)
    assert not ((alone.label != NONE) & (alone.confidence >= SURE_EVIDENCE)).any()  # the piece names no card surely
    looks = CloseLooks(BlindReader())
    for at in (0.0, 0.1):
        looks(face_down, _look(face_down), at, dealt, dealt)
    for at in (0.2, 0.3):
        looks(covered, _look(covered), at, NOTHING, piece)
    looks(face_up, _look(face_up), 0.4, NOTHING, piece)  # the table round it stirred
    found = looks(face_up, _look(face_up), 0.5, NOTHING, piece)
    assert list(found.label) == ["7B"]
    assert np.allclose(found.quad[0], whole)

# -- round the pile while a deal is awaited ------------------------------------------------------

PILE = tuple(Placed("1C", False, (dx, -10.0 + dy), 25.0 + turn)
             for dx, dy, turn in ((0.2, -0.1, 2.0), (-0.1, 0.2, -1.0), (0.0, 0.0, 0.0)))
"""The deck, a little askew, in front of the dealer."""
OWN = Placed("2C", False, (0.0, -19.0), 0.0)
"""The dealer's own card, laid against the deck."""


def _pile_and_own() -> tuple[np.ndarray, np.ndarray, CardDetections]:
    """The deck with the dealer's own card against it, the deck alone, and the reading of the deck
    (its quad) that a whole reading gives."""
    camera = Camera(1280, 720, tilt=5)
    both, _ = render_scene(Scene((), (*PILE, OWN), "wood"), camera, seed=4)
    alone, _ = render_scene(Scene((), PILE, "wood"), camera, seed=4)
    pile = CardReader()(alone)
    assert list(pile.label) == ["back"]
    return both, alone, pile


def test_a_card_lying_against_the_pile_that_the_reading_missed_is_read_round_the_pile() -> None:
    # the whole reading names the deck alone, the dealer's card outlined with it as one shape
    both, _, pile = _pile_and_own()
    reader = CountingReader()
    looks = CloseLooks(reader)
    looks(both, _look(both), 0.0, pile, pile, False, pile.quad[0])  # the first picture: nothing to compare with
    found = [looks(both, _look(both), 0.1 * k, pile, pile, False, pile.quad[0]) for k in range(1, 5)]
    assert [list(f.label) for f in found] == [["back", "back"]] * 4  # the deck as read, and the card by it
    assert np.allclose(found[0].quad[0], pile.quad[0])
    own = found[0].quad[1].mean(axis=0)
    assert np.linalg.norm(own - pile.quad[0].mean(axis=0)) > 0.5 * np.ptp(pile.quad[0][:, 1])  # not the deck
    assert reader.calls == 1  # one look stands while the table round the deck lies as it was


def test_round_a_pile_alone_no_card_is_read_and_none_is_looked_for_without_a_pile() -> None:
    both, alone, pile = _pile_and_own()
    looks = CloseLooks(CardReader())
    for at in (0.0, 0.1):
        assert len(looks(alone, _look(alone), at, pile, pile, False, pile.quad[0])) == 1  # the deck as read
    reader = CountingReader()
    looks = CloseLooks(reader)
    for at in (0.0, 0.1):
        assert len(looks(both, _look(both), at, pile, pile, False)) == 1  # no deal awaited: no pile given
    assert reader.calls == 0


def test_an_outline_the_deck_and_the_card_against_it_share_stands_as_the_two_read_round_the_deck() -> None:
    # on a busy cloth the whole reading outlines the deck and the dealer's card against it as one shape
    both, _, pile = _pile_and_own()
    looks = CloseLooks(CardReader())
    for at in (0.0, 0.1):
        own = looks(both, _look(both), at, pile, pile, False, pile.quad[0]).quad[-1]
    shape = cv2.boxPoints(cv2.minAreaRect(np.concatenate([pile.quad[0], own]))).astype(np.float32)
    one = CardDetections(shape[None], np.array(["back"], "<U4"), np.array([0.9], np.float32), np.array([False]))
    looks = CloseLooks(CardReader())
    for at in (0.0, 0.1):
        found = looks(both, _look(both), at, one, one, False, pile.quad[0])
    assert list(found.label) == ["back", "back"]
    centres = found.quad.mean(axis=1)
    assert np.linalg.norm(centres - pile.quad[0].mean(axis=0), axis=1).min() < 5  # the deck
    assert np.linalg.norm(centres - own.mean(axis=0), axis=1).min() < 5  # the dealer's card
