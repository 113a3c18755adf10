"""Exposure: a frame too dark to read is brightened first, as a phone's camera would."""

from __future__ import annotations

import cv2
import numpy as np

DARK = 150
"""Brightest level (`brightest_level`) below which a frame is brightened."""
BRIGHTEST = 0.001
"""Share of a frame whose level is taken for white card stock: less than one far card's face covers (a
card keeps 0.25% of a 720p frame seen from a phone leaning over a table of 8), more than a glint. A frame's
brightest 1% is often the cloth round a few far cards, and brightened up to white it burns the cards out."""
TARGET = 230
"""Level that brightest part is brought up to: white card stock."""
MOST_GAIN = 4.0
"""Cap on the brightening, so that a frame of a dark table in the dark stays dark."""


def brightest_level(frame: np.ndarray) -> float:
    """The level the brightest BRIGHTEST of a frame reaches (white card stock, when a card shows)."""
    h, w = frame.shape[:2]
    step = max(1, max(h, w) // 200)  # a pixel in step*step: plenty for a percentile, and cheap
    sample = cv2.resize(frame, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_NEAREST)
    brightest = cv2.max(cv2.max(sample[:, :, 0], sample[:, :, 1]), sample[:, :, 2])
    counts = np.bincount(brightest.ravel(), minlength=256)
    return float(np.searchsorted(np.cumsum(counts), (1.0 - BRIGHTEST) * brightest.size))


def gain_for(frame: np.ndarray) -> float:
    """The gain a BGR frame is brightened by: 1 when bright enough."""
    level = brightest_level(frame)
    return 1.0 if level >= DARK else min(MOST_GAIN, TARGET / max(level, 1.0))


def well_exposed(frame: np.ndarray) -> np.ndarray:
    """The BGR frame itself when bright enough, else a brightened copy (one gain for all channels)."""
    return brightened(frame, gain_for(frame))


def brightened(frame: np.ndarray, gain: float) -> np.ndarray:
    """The frame (or a part of it) brightened by `gain`: itself when the gain is 1."""
    if gain == 1.0:
        return frame
    lut = np.clip(np.arange(256, dtype=np.float32) * gain, 0, 255).astype(np.uint8)
    return cv2.LUT(frame, lut)
