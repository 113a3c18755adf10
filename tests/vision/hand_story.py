"""The sample hand (`sample_images/hand`) read with the real card reader, played to the tracker as a video.

The hand's 33 frames are its key moments; a camera at 15 fps sees each for a while, so each is
held for HOLD frames (a third of a second). The reader is run once per key frame: it gives the
same reading for the same picture. Shared by the tracker's and the seats' tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.detections import CardDetections
from vision.io import read_image
from vision.recognize import CardReader

HAND = Path(__file__).resolve().parents[2] / "sample_images" / "hand"
FPS = 15
HOLD = 5
"""Frames each key moment of the hand is held for: 1/3 s at 15 fps, a card dealt in about a second."""


@lru_cache(maxsize=1)
def truth() -> dict:
    """hand.json: players, dealer, seats and each key frame's cards."""
    return json.loads((HAND / "hand.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def readings() -> tuple[CardDetections, ...]:
    """The real reader's detections of each key frame."""
    reader = CardReader()
    return tuple(reader(read_image(HAND / frame["file"]).pixels) for frame in truth()["frames"])


def played(drop: float = 0.0, seed: int = 0, every: int = 0) -> Iterator[tuple[int, int, float, CardDetections]]:
    """(key frame, frame number, time, detections) of the hand at 15 fps, with frames lost: `drop` of
    them at random, or every `every`-th (a loop that keeps up with 10 of the camera's 15 frames)."""
    rng = np.random.default_rng(seed)
    for key, detections in enumerate(readings()):
        for held in range(HOLD):
            index = key * HOLD + held
            if (drop and rng.random() < drop) or (every and index % every == every - 1):
                continue
            yield key, index, index / FPS, detections
