"""The reader reads a frame's quads outside in and leaves a surely named card's parts unread."""

from __future__ import annotations

import cv2
import numpy as np

import vision.recognize as recognize
from art.scene import Camera, Placed, Scene, render_scene
from benchmarks.bench_vision_speed import judged
from benchmarks.scenes import CLOSE, STYLES, table_scenes  # the speed benchmark's close table
from vision.classify import CardClassifier
from vision.detections import CardDetections
from vision.labels import NONE
from vision.locate import LocatorConfig, candidates, held_quads, locate_cards, rough_quads
from vision.locate.geometry import areas, intersection, on_grid
from vision.recognize import CardReader, _surely_named, resolve_overlaps


class CountingClassifier(CardClassifier):
    """The shipped classifier, counting the crops it is given."""

    crops = 0

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Count, then classify as the shipped classifier does."""
        self.crops += len(crops)
        return super().classify(crops)


def test_a_big_cards_pips_are_not_read_and_the_table_reads_as_when_every_quad_is() -> None:
    frame, truth = table_scenes(6, (1280, 720), CLOSE[(1280, 720)])[STYLES.index("felt")]
    classifier = CountingClassifier()
    reader = CardReader(classifier)
    found, read = reader(frame), classifier.crops
    every = reader.read_quads(frame, locate_cards(frame))
    assert read < classifier.crops - read  # fewer crops than reading every quad the locator gives
    alone = resolve_overlaps(every[every.label != NONE])
    assert sorted(found.label) == sorted(alone.label)
    assert found.quad.tobytes() == alone.quad.tobytes()  # the same quads, in the locator's order
    assert set(found.label) <= {card["label"] for card in truth["cards"]}


class RecordingReader(CardReader):
    """The reader, keeping the quads it reads together and what it reads them as."""

    def __init__(self) -> None:
        super().__init__()
        self.levels: list[CardDetections] = []

    def read_quads(self, frame: np.ndarray, quads: np.ndarray) -> CardDetections:
        """Read as the reader does, and keep the reading."""
        read = super().read_quads(frame, quads)
        self.levels.append(read)
        return read


def test_no_quad_lying_inside_a_card_named_before_it_is_read_on_the_close_tables() -> None:
    # a big card's figures and halves are a third to a half of it: once the card is surely named, they go unread
    located = read_in_all = 0
    for frame, _ in table_scenes(6, (1280, 720), CLOSE[(1280, 720)]):
        reader = RecordingReader()
        reader(frame)
        named = np.zeros((0, 4, 2), np.float32)
        for read in reader.levels:
            for quad, area in zip(read.quad, areas(read.quad)):
                inside = [intersection(on_grid(quad), on_grid(card)) > 0.9 * area for card, size in zip(named, areas(named)) if area < 0.5 * size]
                assert not any(inside)
            named = np.concatenate([named, read.quad[_surely_named(read)]])
        located += len(locate_cards(frame))
        read_in_all += sum(len(read) for read in reader.levels)
    assert read_in_all < 0.75 * located  # a quarter of the quads found go unread (a tenth when only pips went)


def test_a_quad_drawn_round_cards_lying_close_is_read_after_them_and_not_once_they_are_named() -> None:
    # on the close tables the search outlines a few cards and the table between them as one quad, loosely;
    # read first, it is read as no card, and the cards inside it still have to be read
    for frame, _ in table_scenes(6, (1280, 720), CLOSE[(1280, 720)]):
        reader = RecordingReader()
        reader(frame)
        named = np.zeros((0, 4, 2), np.float32)
        for read in reader.levels:
            for quad in on_grid(read.quad):
                held = [card for card, size in zip(on_grid(named), areas(named)) if intersection(quad, card) > 0.5 * size]
                assert not held, "a quad holding a card named before it was read"
            named = np.concatenate([named, read.quad[_surely_named(read)]])
    wood = RecordingReader()
    wood(table_scenes(6, (1280, 720), CLOSE[(1280, 720)])[STYLES.index("wood")][0])
    assert len(wood.levels) == 1  # its quads round cards lying close all waited, and all went


def test_the_outlines_inside_a_big_card_are_held_back_and_none_is_wanted_once_the_card_is_named() -> None:
    # on the close wood table every card's pips and figures are outlined inside the card's own solid outline
    frame, _ = table_scenes(6, (1280, 720), CLOSE[(1280, 720)])[STYLES.index("wood")]
    config = LocatorConfig()
    rough, everything = rough_quads(frame, config, hold=True), rough_quads(frame, config)
    assert len(rough.held.outlines) >= 6 and len(rough.quads) < len(everything.quads)
    found = CardReader()(frame)
    named = found[_surely_named(found)]
    parts = held_quads(rough, np.zeros((0, 4, 2), np.float32)).quads  # had no card been named
    assert len(parts) > 0
    cards, sizes = on_grid(named.quad), areas(named.quad)
    assert all(any(intersection(part, card) > 0.5 * cv2.contourArea(part) for card in cards) for part in on_grid(parts))
    assert all(cv2.contourArea(part) < 0.7 * sizes.max() for part in parts)
    assert len(held_quads(rough, named.quad).quads) == 0


def test_a_reader_holding_outlines_back_fits_fewer_and_reads_what_it_reads_holding_none(monkeypatch) -> None:
    fitted: list[int] = []
    fit_quads = candidates.fit_quads
    monkeypatch.setattr(candidates, "fit_quads", lambda contours: fitted.append(len(contours)) or fit_quads(contours))
    reader = CardReader()
    fits = {"holding": 0, "holding none": 0}
    for frame, truth in table_scenes(6, (1280, 720), CLOSE[(1280, 720)]):
        readings = {}
        for way in fits:
            with monkeypatch.context() as patch:
                if way == "holding none":
                    patch.setattr(recognize, "rough_quads",
                                  lambda frame, config, hold=False, whole=None: rough_quads(frame, config, whole=whole))
                fitted.clear()
                readings[way] = reader(frame)
                fits[way] += sum(fitted)
        assert sorted(readings["holding"].label) == sorted(readings["holding none"].label)
        assert judged(readings["holding"], truth["cards"]) == judged(readings["holding none"], truth["cards"])
    assert fits["holding"] < 0.8 * fits["holding none"]


def test_a_card_lying_on_a_book_is_held_back_inside_the_books_outline_and_still_read() -> None:
    # the book is a solid, card-shaped outline: the card inside it waits until the book reads as no card
    frame, truth = render_scene(Scene((), (Placed("7C", True, (0.0, 0.0), 10),), "felt"), Camera(1280, 720, tilt=0, view_cm=60), seed=1)
    card = np.array(truth["cards"][0]["corners"], np.float32)
    book = np.array([[-150, -230], [150, -230], [150, 230], [-150, 230]], np.float32) + card.mean(axis=0) + np.float32([30, 10])
    on_book = cv2.fillConvexPoly(frame.copy(), book.astype(np.int32), (200, 205, 210))
    under = cv2.fillConvexPoly(np.zeros(frame.shape[:2], np.uint8), card.astype(np.int32), 255) > 0
    on_book[under] = frame[under]
    rough = rough_quads(on_book, LocatorConfig(), hold=True)
    assert len(rough.quads) == 1 and cv2.contourArea(rough.quads[0]) > 5 * cv2.contourArea(card)  # the book alone
    assert list(CardReader()(on_book).card) == ["7C"]
