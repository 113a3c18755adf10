"""The card locator: every card-like quadrilateral in a frame, found on a downscaled copy."""

from __future__ import annotations

import cv2
import numpy as np

from vision.io import as_bgr
from vision.locate.candidates import candidates, distinct, other_halves
from vision.locate.cloth import CLOTH_SQUARE, PLAIN, Cloth, without_lattice
from vision.locate.config import LocatorConfig, downscaled
from vision.locate.cues import cue_masks, sharp_mask
from vision.locate.finish import finish
from vision.locate.geometry import squareness

BRIDGE = 7
"""Side of the square closing that bridges a gap in a crisp outline: a card's soft paper edge beside a
white check shows none for a few pixels."""


def locate_cards(frame: np.ndarray, config: LocatorConfig | None = None) -> np.ndarray:
    """Find card quads in a BGR frame: float32 [N, 4, 2] ordered corners in frame pixels."""
    config = config or LocatorConfig()
    frame = as_bgr(frame)
    quads, scale = rough_quads(frame, config)
    return finish(frame, quads, scale, config)


def rough_quads(frame: np.ndarray, config: LocatorConfig) -> tuple[np.ndarray, float]:
    """The card quads of a BGR frame as the search on its downscaled copy outlines them, best first:
    float32 [N, 4, 2] corners in frame pixels, not yet snapped, completed or ordered (`finish` does
    that, quad by quad); and the scale of the downscaled copy."""
    small, scale = downscaled(frame, config)
    # on a checked cloth the checks, alone or in pairs, outline more card-sized regions than the cards do:
    # known beforehand, the search passes the checks' cues and square outlines over
    cloth = Cloth.of(small) if config.drop_lattice else PLAIN
    edges, masks = cue_masks(small, config.cloth_cues if cloth.checked else config.cues, checked=cloth.checked)
    # outlines too small to give a quad that holds a card (`cloth.holds_a_card`, below) are passed over at once
    least = cloth.least_card_hull(config.min_rectangularity)
    kept = distinct(candidates(edges, masks, config, cloth, least))
    if config.drop_lattice:
        kept, squares = without_lattice(kept)
        if cloth.swamps(len(squares)):
            # the cloth's checks swamp the cues: crisp outlines first
            kept = [quad for quad in kept if squareness(quad) < CLOTH_SQUARE]  # checks the grid search missed
            sharp = sharp_mask(frame, small.shape)
            bridged = cv2.morphologyEx(sharp, cv2.MORPH_CLOSE, np.ones((BRIDGE, BRIDGE), np.uint8))
            # on a cloth known beforehand the bridged outlines alone, which hold the crisp ones: the same
            # cards read in eval_size.py, 2-3 ms less a 1080p frame; the crisp outlines hold no checks
            crisp = candidates(edges, [bridged] if cloth.checked else [sharp, bridged], config, PLAIN, least)
            kept = distinct([(1.0 + score, quad) for score, quad in crisp] + [(0.0, quad) for quad in kept])
    kept = [quad for quad in kept if cloth.holds_a_card(quad)]  # not a check or two outlined alone
    kept = kept[: config.max_candidates]
    kept += other_halves(kept)[: config.max_candidates - len(kept)]  # the best quads first; within the cap
    if not kept:
        return np.zeros((0, 4, 2), np.float32), scale
    return np.stack([(q + 0.5) / scale - 0.5 for q in kept]).astype(np.float32), scale
