"""The last touches to rough quads: sides snapped at full resolution, cards under a hand or cut by the frame's edge made whole."""

from __future__ import annotations

import numpy as np

from vision.crop import CARD_ASPECT, order_quads
from vision.locate.config import LocatorConfig
from vision.locate.geometry import BEFORE
from vision.locate.snap import snap_sides

LEAST_REACH = 3.0
"""Least distance (frame pixels) a side is searched either way when snapped."""
FIT_ERROR = 2.5
"""The downscaled fit's own error, in downscaled pixels: the snapping reaches that far at full resolution."""
PRINTED_FRAME = 0.08
"""Reach, as a share of the quad's shortest side, that steps over a back's printed frame to the card's edge."""
UNDER_A_HAND = 1.7
"""Most a card's visible part is grown across its unseen end (a hand over it) to a whole card's proportions."""
CUT_BY_EDGE = 3.0
"""Most a card cut by the frame's edge is grown past it (more of it may lie outside than under a hand)."""
WHOLE = 1.05
"""A quad within this factor of a whole card's length is whole already."""
ON_EDGE = 2.5
"""Distance (frame pixels) from the frame's edge within which a side lies along it."""


def finish(frame: np.ndarray, quads: np.ndarray, scale: float, config: LocatorConfig) -> np.ndarray:
    """Snap rough quads (frame pixels, found at `scale`) to the cards' edges, add guesses for cards under
    a hand, complete cards cut by the frame's edge, and order every quad's corners.

    Each quad is finished on its own: finishing some of a frame's quads gives what finishing all of them
    gives those, their guesses after them."""
    if config.refine:
        # beyond the downscaled fit's own error, reach far enough to step over a back's printed frame
        sides = np.linalg.norm(quads - quads[:, BEFORE], axis=2).min(axis=1)
        quads, straight = snap_sides(frame, quads, np.maximum(max(LEAST_REACH, FIT_ERROR / scale), PRINTED_FRAME * sides))
        guesses = _under_a_hand(quads, straight)
        if guesses:  # proposed beside the quad on the part that shows; the classifier picks
            quads = np.concatenate([quads, np.stack(guesses)])
    height, width = frame.shape[:2]
    low, high = quads.min(axis=1), quads.max(axis=1)  # only a quad reaching the frame's edge can lie along it
    cut = (low[:, 0] < ON_EDGE) | (low[:, 1] < ON_EDGE) | (high[:, 0] > width - 1 - ON_EDGE) | (high[:, 1] > height - 1 - ON_EDGE)
    quads = quads.copy()
    for k in np.flatnonzero(cut):
        quads[k] = _complete_at_border(quads[k], width, height)
    return order_quads(quads).astype(np.float32)


def _grown_across(quad: np.ndarray, i: int, most: float = UNDER_A_HAND) -> np.ndarray | None:
    """The quad with side i (corner i to i+1) pushed outward until it has a whole card's proportions.

    None when the quad already has them, or would have to grow more than `most` times its length.
    """
    a, b = quad[i], quad[(i + 1) % 4]
    before, after = quad[i - 1], quad[(i + 2) % 4]  # the corners across from side i
    along = (np.linalg.norm(a - before) + np.linalg.norm(b - after)) / 2
    across = (np.linalg.norm(b - a) + np.linalg.norm(after - before)) / 2
    targets = [t for t in (across * CARD_ASPECT, across / CARD_ASPECT) if WHOLE * along < t < most * along]
    if not targets:
        return None
    target = min(targets)
    out = quad.copy()  # each corner slides along its own side, so a slanting cut comes out square
    out[i] = before + (a - before) * (target / max(float(np.linalg.norm(a - before)), 1e-6))
    out[(i + 1) % 4] = after + (b - after) * (target / max(float(np.linalg.norm(b - after)), 1e-6))
    return out


def _complete_at_border(quad: np.ndarray, width: int, height: int, margin: float = ON_EDGE) -> np.ndarray:
    """Extend a quad cut off by the frame's edge to a whole card's proportions (as seen from above).

    The side lying along the edge moves outward, past the frame, until the quad has a card's
    aspect; the warp then repeats the border pixels there, which reads better than a squashed crop.
    """
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        on_edge = (
            max(a[0], b[0]) < margin
            or min(a[0], b[0]) > width - 1 - margin
            or max(a[1], b[1]) < margin
            or min(a[1], b[1]) > height - 1 - margin
        )
        if on_edge:
            grown = _grown_across(quad, i, most=CUT_BY_EDGE)
            return quad if grown is None else grown
    return quad


def _under_a_hand(quads: np.ndarray, straight: np.ndarray) -> list[np.ndarray]:
    """Whole-card guesses for quads with one side that is no straight edge (a hand over that end)."""
    guesses = []
    for quad, sides in zip(quads, straight):
        if sides.sum() == 3:
            grown = _grown_across(quad, int(np.flatnonzero(~sides)[0]))
            if grown is not None:
                guesses.append(grown)
    return guesses
