"""A camera's frames read while the table is still: the last reading stands until something moves."""

from __future__ import annotations

import numpy as np

from vision.art.scene import Camera, Placed, Scene, render_scene
from vision.detections import CardDetections
from vision.recognize import CardReader
from vision.still import LONGEST, SETTLING, StillReader

CAMERA = Camera(960, 540, tilt=0, view_cm=70)


class CountingReader(CardReader):
    """The real reader, counting the frames it reads whole."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def __call__(self, frame: np.ndarray) -> CardDetections:
        self.reads += 1
        return super().__call__(frame)


def _table(anna_at: tuple[float, float] = (-12.0, 0.0)) -> np.ndarray:
    """Anna's 1D and Bruno's 10B face up on felt; Anna's card where asked (cm)."""
    cards = (Placed("1D", True, anna_at, 10.0), Placed("10B", True, (12.0, 0.0), -20.0))
    frame, _ = render_scene(Scene((), cards, "felt"), CAMERA, seed=3)
    return frame


def test_a_still_table_is_read_while_it_settles_then_its_steady_reading_stands_through_the_cameras_noise(
) -> None:
    reader = CountingReader()
    still = StillReader(reader)
    table = _table()
    assert sorted(still(table, at=0.0).label) == ["10B", "1D"]
    settling = [k / 15 for k in range(1, 30) if k / 15 < SETTLING]
    for at in settling:  # a card just laid may be missed in a frame: every one is read meanwhile
        still(table, at=at)
    assert reader.reads == 1 + len(settling)
    steady = still(table, at=SETTLING)
    rng = np.random.default_rng(0)
    for k in range(1, 11):
        noisy = np.clip(table + rng.normal(0, 2, table.shape), 0, 255).astype(np.uint8)
        assert still(noisy, at=SETTLING + k / 15) is steady
    assert reader.reads == 1 + len(settling)


def test_a_reading_unlike_the_one_before_does_not_stand_for_the_next_frame() -> None:
    reader = CountingReader()
    still = StillReader(reader)
    empty = np.full_like(_table(), 90)
    still(empty, at=0.0)
    still(empty, at=0.1)  # steady: nothing, twice
    still(_table(), at=0.2)  # dealt: two cards where nothing was
    still(_table(), at=0.3)  # read again, since the last reading named what the one before did not
    assert reader.reads == 4
    settled = 0.2 + SETTLING
    assert still(_table(), at=settled) is still(_table(), at=settled + 0.05) and reader.reads == 4


def test_a_card_nudged_by_a_few_millimetres_is_read_again() -> None:
    reader = CountingReader()
    still = StillReader(reader)
    before = still(_table(), at=0.0)
    after = still(_table(anna_at=(-11.7, 0.2)), at=0.1)
    assert reader.reads == 2 and sorted(after.label) == ["10B", "1D"]
    assert not np.array_equal(before.quad, after.quad)


def test_however_still_the_table_a_frame_is_read_again_after_a_second() -> None:
    reader = CountingReader()
    still = StillReader(reader)
    table = _table()
    still(table, at=0.0)
    still(table, at=0.01)
    still(table, at=0.01 + LONGEST - 0.001)
    assert reader.reads == 2
    still(table, at=0.01 + LONGEST)
    assert reader.reads == 3


def test_a_frame_of_another_size_or_from_an_earlier_time_is_read_whole() -> None:
    reader = CountingReader()
    still = StillReader(reader)
    table = _table()
    still(table, at=5.0)
    still(table, at=5.05)
    assert reader.reads == 2
    still(table[:, :900], at=5.1)
    assert reader.reads == 3
    still(table[:, :900], at=2.0)  # a source restarted: its clock begins again
    assert reader.reads == 4
