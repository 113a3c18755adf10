"""The checked cloth: whether a frame shows one, and its squares told from cards."""

from __future__ import annotations

import cv2
import numpy as np

from vision.io import as_bgr
from vision.locate.config import LocatorConfig, downscaled
from vision.locate.cues import canny


CHECKED_CLOTH = 4
"""Squares dropped as a lattice from which on a frame is taken to show a checked cloth."""


CHECKS = 60
"""Light patches of one size, each nearly square, and as many dark ones, from which a thumbnail is taken
to show a checked cloth: the drawn gingham shows 110 or more of each, the green one of
sample_images/re-cavallo.jpg 79 and 97; the polka dots under half the valid photos up to 236 light ones
but no more than 7 dark ones; the other sample frames at most 24 of either kind."""


BUSY_CLOTH = 0.7
"""Share of the downscaled frame near an edge above which it is taken to show a checked cloth."""


CHECK_SIZED = 1.8
"""On a checked cloth, a quad under this many times the typical light check's area is a check or two
(a drawn green gingham's checks were read as backs at 1.4 and 1.6; a card 60 px wide at 1080p on the
drawn cloth with the largest checks has 1.9)."""


CLOTH_SQUARE = 0.8
"""On a checked cloth, a quad whose short sides are this close to its long ones is taken for a check."""


def thumbnail(small: np.ndarray) -> np.ndarray:
    """The downscaled frame at half its size again, where the table's pattern is judged."""
    half = (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2))
    return cv2.resize(small, half, interpolation=cv2.INTER_AREA)


def busy(thumb: np.ndarray) -> float:
    """Share of a thumbnail near an edge: a checked cloth's grid covers most of it."""
    edges = canny(cv2.GaussianBlur(cv2.cvtColor(thumb, cv2.COLOR_BGR2GRAY), (3, 3), 0), 20, 60)
    return float(np.count_nonzero(cv2.dilate(edges, np.ones((3, 3), np.uint8)))) / edges.size


def check_area(thumb: np.ndarray) -> float:
    """The typical area (thumbnail pixels) of a checked cloth's light checks, or 0 when the thumbnail
    shows none: a checked cloth has many light and many dark nearly square patches, each kind of about
    one size (a white cloth with red dots has the light ones only)."""
    window = (max(thumb.shape[:2]) // 12) | 1
    whiteness = cv2.min(cv2.min(thumb[:, :, 0], thumb[:, :, 1]), thumb[:, :, 2])
    value = cv2.max(cv2.max(thumb[:, :, 0], thumb[:, :, 1]), thumb[:, :, 2])
    lifted = cv2.subtract(whiteness, cv2.blur(whiteness, (window, window)))
    sunk = cv2.subtract(cv2.blur(value, (window, window)), value)
    light, light_area = _alike_squares(cv2.threshold(lifted, 8, 255, cv2.THRESH_BINARY)[1])
    if light < CHECKS or _alike_squares(cv2.threshold(sunk, 8, 255, cv2.THRESH_BINARY)[1])[0] < CHECKS:
        return 0.0
    return light_area


def _alike_squares(mask: np.ndarray) -> tuple[int, float]:
    """How many of the mask's regions are small, nearly square and of about the most common such size; that size."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    square = (area >= 12) & (area <= 600) & (np.minimum(w, h) >= 0.6 * np.maximum(w, h)) & (area >= 0.6 * w * h)
    if not square.any():
        return 0, 0.0
    typical = float(np.median(area[square]))
    return int((square & (np.abs(np.log(area / typical)) < np.log(2.0))).sum()), typical  # checks shrink far off


def _lattice_neighbours(quads: list[np.ndarray], others: list[np.ndarray]) -> np.ndarray:
    """For each quad, how many of `others` are of its size, turned alike and next to it."""
    if not quads or not others:
        return np.zeros(len(quads), int)
    a, b = np.stack(quads), np.stack(others)
    turn = [np.degrees(np.arctan2(*(q[:, 1] - q[:, 0]).T[::-1])) % 90 for q in (a, b)]
    area = [np.maximum(np.abs(np.array([cv2.contourArea(q) for q in qs])), 1e-6) for qs in (a, b)]
    turned_alike = np.abs((turn[0][:, None] - turn[1][None, :] + 45) % 90 - 45) < 5
    sized_alike = np.abs(np.log(area[0][:, None] / area[1][None, :])) < np.log(1.6)
    distance = np.linalg.norm(a.mean(axis=1)[:, None] - b.mean(axis=1)[None], axis=2)
    near = (distance > 0) & (distance < 2.5 * np.sqrt(area[0])[:, None])
    return (turned_alike & sized_alike & near).sum(axis=1)


def without_lattice(found: list[np.ndarray], least: int = 4) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Split off the squares of a checked cloth: quads with `least` neighbours of their size, turned alike.

    A cloth's squares sit next to each other in a grid; cards, even laid close together, are
    turned every which way, and a card is far larger than the squares it might lie square with.
    Returns the quads kept and the squares dropped.
    """
    if len(found) <= least:
        return found, []
    lattice = _lattice_neighbours(found, found) >= least
    return [q for q, drop in zip(found, lattice) if not drop], [q for q, drop in zip(found, lattice) if drop]


def shows_checked_cloth(frame: np.ndarray, config: LocatorConfig | None = None) -> bool:
    """Whether a BGR frame shows a checked cloth, judged as `locate_cards` judges it."""
    config = config or LocatorConfig()
    return check_area(thumbnail(downscaled(as_bgr(frame), config)[0])) > 0
