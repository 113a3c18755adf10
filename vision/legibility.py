"""Whether a camera's picture is too dark or too blurred for its cards to be read."""

from __future__ import annotations

import cv2
import numpy as np

from vision.exposure import brightest_level

DARKEST = 25
"""Brightest level (`brightest_level`, white card stock) below which the cards go unread: the drawn
films' tables dimmed (noise and JPEG as a phone's) to a level of 22 lost one card in seven, to 15
half of them; the dimmest of the 320 real photos reaches 176."""
BLURRED = 3.0
"""Blur (`edge_blur`, pixels of a picture 960 wide) above which the cards go unread: a drawn table
blurred to 3.0 lost one card in seven; the 320 real photos, all read, measure 2.2 at most (1.0 in
the median), and a sharp drawn film 1.0."""
BLUR_SIDE = 960
"""Long side a picture is measured at, so that a blur means the same at 720p as at 540p."""
EDGE_RANGE = 40
"""Least step of grey (levels) across an edge measured: a card's side on the cloth, not the weave."""
EDGE_REACH = 15
"""Pixels round an edge within which its step is taken: a blur of 3 px spreads an edge over 7."""
STEEPEST = 0.01
"""Share of the measured edges' pixels, the steepest, whose slope tells the blur."""
FEWEST_EDGES = 200
"""Fewest edge pixels to judge by (a bare cloth, a dark room: no word on the blur)."""


def edge_blur(frame: np.ndarray) -> float | None:
    """The blur of a BGR picture as the width (Gaussian sigma, pixels at BLUR_SIDE) of its steepest
    edges: a step of height H blurred by sigma rises at most H / (sigma * sqrt(2 pi)) a pixel. None
    where too few edges show."""
    scale = BLUR_SIDE / max(frame.shape[:2])
    if scale < 1:
        frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    slope = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3),
                          cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)) / 8  # levels a pixel
    near = np.ones((EDGE_REACH, EDGE_REACH), np.uint8)
    step = cv2.dilate(grey, near) - cv2.erode(grey, near)
    edges = step >= EDGE_RANGE
    if edges.sum() < FEWEST_EDGES:
        return None
    slopes, steps = slope[edges], step[edges]
    steepest = slopes >= np.quantile(slopes, 1 - STEEPEST)
    rise = float(np.median(slopes[steepest] / steps[steepest]))
    return 1.0 / (rise * np.sqrt(2 * np.pi)) if rise > 0 else None


def unreadable(frame: np.ndarray) -> str | None:
    """"dark" or "blurred" when a BGR picture is too dark or too blurred to read cards, else None."""
    if brightest_level(frame) < DARKEST:
        return "dark"
    blur = edge_blur(frame)
    return "blurred" if blur is not None and blur > BLURRED else None
