"""The contract between locator and classifier: ordered quads and upright card crops."""

from __future__ import annotations

import cv2
import numpy as np

CROP_W, CROP_H = 64, 104
"""Size of the upright portrait crop the classifier reads (width, height in pixels)."""

CARD_ASPECT = 0.605
"""Width over height of a Neapolitan card (Dal Negro scan: 480 x 793)."""


def order_quad(quad: np.ndarray) -> np.ndarray:
    """Order four corners as top-left, top-right, bottom-right, bottom-left of a portrait card.

    The first edge (corner 0 to 1) is a short edge, so the warp is upright or upside down;
    the classifier is trained to read both, since a card turned 180 degrees is the same card.
    """
    pts = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise in image coordinates (y down)
    edge01 = np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[3] - pts[2])
    edge12 = np.linalg.norm(pts[2] - pts[1]) + np.linalg.norm(pts[0] - pts[3])
    if edge01 > edge12:  # first edge is a long one: start one corner later
        pts = np.roll(pts, -1, axis=0)
    # start from the corner nearest the image's top-left among the two short-edge choices
    if pts[0].sum() > pts[2].sum():
        pts = np.roll(pts, 2, axis=0)
    return pts


def warp_card(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Warp one card quad (ordered, in `frame` pixels) to an upright CROP_H x CROP_W BGR crop."""
    src = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    dst = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(
        frame, matrix, (CROP_W, CROP_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
