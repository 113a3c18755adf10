"""The contract between locator and classifier: ordered quads and upright card crops."""

from __future__ import annotations

import math

import cv2
import numpy as np

CROP_W, CROP_H = 64, 104
"""Size of the upright portrait crop the classifier reads (width, height in pixels)."""

CARD_ASPECT = 0.605
"""Width over height of a Neapolitan card (Dal Negro scan: 480 x 793)."""

STEEPEST_DEGREES = 70.0
"""The most a camera looks away from straight down at the table: a phone propped on a glass at the
table's edge looks across it from up to 70 degrees."""

FORESHORTENED = math.cos(math.radians(STEEPEST_DEGREES))
"""The least share of its length a card's side keeps seen from STEEPEST_DEGREES: the side pointing away
from the camera, squeezed along the picture's up-down."""

OBLIQUE_SHARE = 0.6
"""Share of a card's own proportions (short over long side) a card keeps seen up to about 53 degrees from
straight down, lying any way: flatter than that, only a card lying across the picture (LEVEL) is a card
seen from a camera leaning further."""

LEVEL = 30.0
"""Degrees off the picture's horizontal within which a card seen flatter than OBLIQUE_SHARE lies: a leaning
camera squeezes the table along the picture's up-down, the phone held about level (a phone turned further
from level sees its table's horizon slant)."""


def order_quad(quad: np.ndarray) -> np.ndarray:
    """Order four corners as top-left, top-right, bottom-right, bottom-left of a portrait card.

    The first edge (corner 0 to 1) is a short edge, so the warp is upright or upside down;
    the classifier is trained to read both, since a card turned 180 degrees is the same card.
    """
    return order_quads(np.asarray(quad, dtype=np.float32).reshape(1, 4, 2))[0]


def order_quads(quads: np.ndarray) -> np.ndarray:
    """`order_quad` for each of the quads [N, 4, 2] at once."""
    pts = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2)
    centre = pts.mean(axis=1, keepdims=True)
    angles = np.arctan2(pts[..., 1] - centre[..., 1], pts[..., 0] - centre[..., 0])
    pts = np.take_along_axis(pts, np.argsort(angles, axis=1)[..., None], axis=1)  # clockwise (y down)
    step = pts[:, [1, 2, 3, 0]] - pts
    sides = np.sqrt((step * step).sum(axis=2))
    start = (sides[:, 0] + sides[:, 2] > sides[:, 1] + sides[:, 3]).astype(int)  # first edge a long one
    rows = np.arange(len(pts))
    start += 2 * (pts[rows, start].sum(axis=1) > pts[rows, start + 2].sum(axis=1))
    return pts[rows[:, None], (start[:, None] + np.arange(4)) % 4]


def warp_card(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Warp one card quad (ordered, in `frame` pixels) to an upright CROP_H x CROP_W BGR crop."""
    src = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    dst = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(
        frame, matrix, (CROP_W, CROP_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
