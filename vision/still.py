"""Reading a camera's frames: while the picture stays as it was when last read, the last reading stands."""

from __future__ import annotations

import cv2
import numpy as np

from vision.closer import CloseLooks
from vision.detections import CardDetections
from vision.recognize import CardReader

LOOK_SIDE = 160
"""Long side (pixels) of the grey thumbnail two frames are compared on: 8 x 8 pixels of a 720p frame each."""
STILL = 6
"""Largest difference (grey levels) at any thumbnail pixel between a frame and the one last read for
the table to count as still: a camera's noise of 2 to 4 grey levels a pixel, JPEG-compressed, stays
at 3 there, while a card nudged by half a millimetre (under a pixel at 960x540) moves 21 levels, and
a hand, a card turned up or dealt, far more (tests/vision/test_still.py)."""
LONGEST = 1.0
"""Seconds after which a frame is read again however still the table was: slow light changes, and
the tracker's confidence, never rest on one old reading for long."""
SETTLING = 1.0
"""Seconds after the picture last changed during which every frame is read, still or not: a card
just laid or turned up against another (the dealer's Cavallo against the stock) is found in about
one frame of two, and the tracker confirms it from those; a reading standing for a second as soon
as two frames agreed could be two misses."""


def _look(frame: np.ndarray) -> np.ndarray:
    """A frame's grey thumbnail, LOOK_SIDE pixels on its long side, on which stillness is judged."""
    scale = min(1.0, LOOK_SIDE / max(frame.shape[:2]))
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1.0 else frame
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small


def _names(detections: CardDetections) -> list[str]:
    """What a reading names, in a comparable order."""
    return sorted(str(label) for label in detections.label)


class StillReader:
    """A `CardReader` for the frames of one camera: a frame that shows what the last read frame showed
    (nothing moved by more than the camera's noise, within LONGEST seconds, and the picture settled
    for SETTLING seconds) gets that reading again, at the cost of a thumbnail instead of a whole
    reading. Most of a game the table is still.

    A whole reading is completed by closer looks at the places where cards lay at rest and are read
    no more (`CloseLooks`). Only a steady reading stands, one naming what the reading before it
    named: on a frame caught as a card turns or a hand leaves, a whole reading can name what the
    next frame, a few grey levels away, does not show, and it must not stand for the frames after it."""

    def __init__(self, reader: CardReader | None = None) -> None:
        self.reader = reader or CardReader()
        self._look: np.ndarray | None = None
        self._read = CardDetections.empty()
        self._at = 0.0
        self._changed_at = 0.0
        self._steady = False
        self._closer = CloseLooks(self.reader)

    def __call__(self, frame: np.ndarray, at: float, cards: CardDetections | None = None) -> CardDetections:
        """The cards in a BGR frame taken at `at` (seconds); `cards` are those known so far (the
        tracker's), whose places are looked at closely when a whole reading misses them."""
        look = _look(frame)
        same = (self._look is not None and look.shape == self._look.shape
                and 0.0 <= at - self._at and int(cv2.absdiff(look, self._look).max()) <= STILL)
        if not same:
            self._changed_at = at
        if same and self._steady and at - self._at < LONGEST and at - self._changed_at >= SETTLING:
            return self._read
        read = self.reader(frame)
        if cards is not None:
            read = CardDetections.joined([read, self._closer(frame, look, at, read, cards)])
        self._steady = self._look is not None and _names(read) == _names(self._read)
        self._look, self._read, self._at = look, read, at
        return read
