"""A camera's frames read at a cost that follows what moves: a still table keeps its reading, and only the
part of the picture round what changed is read again."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from art.scene import Camera, Placed, Scene, render_scene
from vision.classify import Remembering
from vision.detections import CardDetections
from vision.frames import open_source
from vision.recognize import CardReader, View
from vision.source import Frame
from vision.still import LONGEST, QUIET, SETTLING, StillReader

CAMERA = Camera(960, 540, tilt=0, view_cm=70)
READER = CardReader()


def _table(anna_at: tuple[float, float] = (-12.0, 0.0), bruno_at: tuple[float, float] = (12.0, 0.0)) -> np.ndarray:
    """Anna's 1D and Bruno's 10B face up on felt, where asked (cm)."""
    cards = (Placed("1D", True, anna_at, 10.0), Placed("10B", True, bruno_at, -20.0))
    frame, _ = render_scene(Scene((), cards, "felt"), CAMERA, seed=3)
    return frame


def _taken(table: np.ndarray, code: str) -> np.ndarray:
    """The table with one card taken away: its place painted the felt's colour round it."""
    quad = READER(table).quad[list(READER(table).label).index(code)]
    mask = np.zeros(table.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.rint(quad).astype(np.int32), 1)
    mask = cv2.dilate(mask, np.ones((9, 9), np.uint8))
    ring = cv2.dilate(mask, np.ones((15, 15), np.uint8)) & ~mask & 1
    taken = table.copy()
    taken[mask > 0] = np.median(table[ring > 0], axis=0).astype(np.uint8)
    return taken


def _reads(still: StillReader) -> int:
    """Wholes and parts read so far."""
    return sum(still.wholes.values()) + still.parts


def _settled(still: StillReader, table: np.ndarray, at: float = 0.0, fps: float = 15) -> float:
    """Show a table from `at`, `fps` frames a second, until it has settled; the time of the next frame."""
    for k in range(SETTLING + 1):
        still(table, at=at + k / fps)
    return at + (SETTLING + 1) / fps


@pytest.mark.parametrize("fps", [5, 15, 30])
def test_a_new_picture_is_read_whole_while_it_settles_then_its_steady_reading_stands_through_the_cameras_noise(
        fps: float) -> None:
    still = StillReader(READER)
    table = _table()
    assert sorted(still(table, at=0.0).label) == ["10B", "1D"]
    for k in range(1, SETTLING):  # a card just laid may be missed in a reading: SETTLING are taken, at any rate
        still(table, at=k / fps)
    assert sum(still.wholes.values()) == SETTLING and still.parts == 0
    steady = still(table, at=SETTLING / fps)
    rng = np.random.default_rng(0)
    for k in range(1, 11):
        noisy = np.clip(table + rng.normal(0, 2, table.shape), 0, 255).astype(np.uint8)
        assert still(noisy, at=(SETTLING + k) / fps) is steady
    assert _reads(still) == SETTLING


def test_a_card_nudged_by_a_few_millimetres_is_read_again_alone_and_the_other_keeps_its_reading() -> None:
    still = StillReader(READER)
    at = _settled(still, _table())
    before, wholes = still(_table(), at=at), dict(still.wholes)
    after = still(_table(anna_at=(-11.7, 0.2)), at=at + 0.07)
    assert still.wholes == wholes and still.parts == 1 and sorted(after.label) == ["10B", "1D"]
    anna, bruno = (list(after.label).index(code) for code in ("1D", "10B"))
    assert not np.array_equal(before.quad[list(before.label).index("1D")], after.quad[anna])
    assert np.array_equal(before.quad[list(before.label).index("10B")], after.quad[bruno])


def test_a_speck_of_the_streams_noise_is_no_change_and_a_card_nudged_beside_it_is_read_alone() -> None:
    still = StillReader(READER)
    at = _settled(still, _table())
    steady, reads = still(_table(), at=at), _reads(still)
    flicker = _table()
    flicker[40:56, 40:56] += 12  # a video codec's block of the felt coded the other way
    assert not still.moved(Frame(flicker, at + 0.07, 0))
    assert still(flicker, at=at + 0.07) is steady and _reads(still) == reads
    nudged = _table(anna_at=(-11.7, 0.2))
    nudged[40:56, 40:56] += 12
    assert sorted(still(nudged, at=at + 0.13).label) == ["10B", "1D"] and still.parts == 1


@pytest.mark.parametrize("fps", [5, 15, 30])
def test_a_card_taken_away_is_read_no_more_and_its_place_is_read_alone_while_it_settles(fps: float) -> None:
    still = StillReader(READER)
    at = _settled(still, _table(), fps=fps)
    gone, reads = _taken(_table(), "10B"), _reads(still)
    for k in range(SETTLING):  # the frame it went in, and the readings its place settles in
        assert list(still(gone, at=at + k / fps).label) == ["1D"]
    assert _reads(still) - reads == SETTLING and still.parts >= SETTLING - 1  # at 5 a second, a check among them
    for k in range(SETTLING, 2 * SETTLING):
        still(gone, at=at + k / fps)
    assert _reads(still) - reads == SETTLING


class _MissingInParts(CardReader):
    """The real reader, whose readings of parts of a frame miss one card (a part's edge cutting it, an
    outline read a little short): a whole reading still finds it."""

    def __init__(self, missed: str) -> None:
        super().__init__(READER.classifier)
        self.missed = missed

    def part(self, frame: np.ndarray, box: tuple[int, int, int, int], view: View) -> CardDetections:
        read = super().part(frame, box, view)
        return read[read.label != self.missed]


def test_a_card_lying_still_that_a_parts_reading_misses_keeps_its_reading() -> None:
    still = StillReader(_MissingInParts("10B"))
    close = {"bruno_at": (1.0, 0.0)}  # Bruno's card near enough for the part round Anna's to take it in
    at = _settled(still, _table(**close))
    nudged = still(_table(anna_at=(-11.7, 0.2), **close), at=at)
    assert still.parts == 1 and sorted(nudged.label) == ["10B", "1D"]


class _SeenOnce(CardReader):
    """The real reader, whose first whole reading once armed also names a back where only the table lies (the
    cloth beside a passing arm outlined as a card, for one frame): no reading after it does."""

    def __init__(self, at: tuple[float, float]) -> None:
        super().__init__(READER.classifier)
        x, y = at
        self.phantom = np.array([[x - 20, y - 30], [x + 20, y - 30], [x + 20, y + 30], [x - 20, y + 30]], np.float32)
        self.armed: list[bool] = []  # shared with the still reader's own copy

    def whole(self, frame: np.ndarray, view: View) -> CardDetections:
        read = super().whole(frame, view)
        if not self.armed:
            return read
        self.armed.clear()
        back = CardDetections(self.phantom[None], np.array(["back"]), np.array([0.93], np.float32), np.zeros(1, bool))
        return CardDetections.joined([read, back])


def test_a_card_read_once_and_missed_where_its_place_is_read_again_is_read_no_more() -> None:
    # a whole reading names a back on the bare felt beside Anna's card; Anna then nudges her card, and the
    # part round it, read again, names no card there: none lies there (a card lying still, read steadily,
    # is kept where a part's reading misses it: the test above)
    reader = _SeenOnce(at=(230.0, 380.0))
    still = StillReader(reader)
    at = _settled(still, _table())
    reader.armed.append(True)
    assert sorted(still(_table(), at=at + QUIET).label) == ["10B", "1D", "back"]  # the check, read whole
    nudged = still(_table(anna_at=(-11.7, 0.2)), at=at + QUIET + 0.07)
    assert still.parts == 1 and sorted(nudged.label) == ["10B", "1D"]


def test_a_card_new_to_a_parts_reading_where_the_picture_did_not_move_is_left_to_the_next_whole_reading() -> None:
    # the part round Anna's nudged card takes in the table round it; an outline there that its edge closed
    # (a check of a cloth cut off from its neighbours) lies where nothing moved: it is no card laid
    class _EdgeClosed(CardReader):
        def part(self, frame: np.ndarray, box: tuple[int, int, int, int], view: View) -> CardDetections:
            x0, y0, x1, y1 = box
            edge = np.array([[x0 + 5, y1 - 65], [x0 + 45, y1 - 65], [x0 + 45, y1 - 5], [x0 + 5, y1 - 5]], np.float32)
            back = CardDetections(edge[None], np.array(["back"]), np.array([0.93], np.float32), np.zeros(1, bool))
            return CardDetections.joined([super().part(frame, box, view), back])

    still = StillReader(_EdgeClosed(READER.classifier))
    at = _settled(still, _table())
    nudged = still(_table(anna_at=(-11.7, 0.2)), at=at)
    assert still.parts == 1 and sorted(nudged.label) == ["10B", "1D"]


def test_a_reading_unlike_the_one_before_does_not_stand_for_the_next_frame() -> None:
    still = StillReader(READER)
    empty = np.full_like(_table(), 90)
    at = _settled(still, empty)
    reads = _reads(still)
    still(_table(), at=at)  # dealt: two cards where nothing was
    still(_table(), at=at + 0.1)  # read again, since the last reading named what the one before did not
    assert _reads(still) > reads
    settled = _settled(still, _table(), at + 0.2)
    assert still(_table(), at=settled) is still(_table(), at=settled + 0.05)


def test_however_still_the_table_the_whole_frame_is_read_again_every_few_seconds_and_nothing_else_is() -> None:
    still = StillReader(READER)
    table = _table()
    at = _settled(still, table)
    reads = _reads(still)
    for k in range(round(3 * QUIET * 15)):
        still(table, at=at + k / 15)
    assert _reads(still) - reads == still.wholes["check"] == 3


def test_once_a_part_was_read_the_whole_frame_is_read_again_within_a_second() -> None:
    still = StillReader(READER)
    at = _settled(still, _table())
    still(_table(anna_at=(-11.7, 0.2)), at=at)
    assert still.parts == 1 and "check" not in still.wholes
    for k in range(1, 16):
        still(_table(anna_at=(-11.7, 0.2)), at=at + k * LONGEST / 15)
    assert still.wholes["check"] == 1


def test_a_lamp_switched_on_changes_the_whole_view_and_the_whole_frame_is_read() -> None:
    still = StillReader(READER)
    table = _table()
    at = _settled(still, table)
    lit = np.clip(table.astype(np.int16) + 40, 0, 255).astype(np.uint8)
    assert sorted(still(lit, at=at).label) == ["10B", "1D"]
    assert still.wholes.get("view") == 1


def test_a_frame_of_another_size_or_from_an_earlier_time_is_read_whole() -> None:
    still = StillReader(READER)
    table = _table()
    still(table, at=5.0)
    still(table[:, :900], at=5.1)
    assert still.wholes["new"] == 2
    still(table[:, :900], at=2.0)  # a source restarted: its clock begins again
    assert still.wholes["new"] == 3


def test_a_still_tables_jpeg_frames_are_decoded_whole_only_while_it_settles() -> None:
    still = StillReader(READER)
    data = cv2.imencode(".jpg", _table())[1].tobytes()
    frames = [Frame.encoded(data, k / 15, k) for k in range(45)]
    for frame in frames:
        assert sorted(still.read(frame).label) == ["10B", "1D"]
    assert all(frame.decoded for frame in frames[:SETTLING]) and not any(frame.decoded for frame in frames[SETTLING:])


def test_the_cards_lying_still_are_not_classified_again_and_the_reading_is_the_one_of_every_crop_classified(
) -> None:
    film = Path(__file__).resolve().parents[2] / "sample_images" / "sequences" / "hand.mp4"
    with open_source(str(film)) as source:
        frames = [frame for frame in source.frames() if 140 <= frame.index < 200]  # the deal, a swap begun
    remembering, forgetting = StillReader(READER), StillReader(READER)
    forgetting.reader.classifier = READER.classifier
    for frame in frames:
        assert sorted(remembering(frame.pixels, frame.at).label) == sorted(forgetting(frame.pixels, frame.at).label)
    memory = remembering.reader.classifier
    assert isinstance(memory, Remembering) and memory.remembered > (memory.remembered + memory.classified) / 4
