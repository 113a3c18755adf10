"""The card locator: every card-like quadrilateral in a frame, found on a downscaled copy."""

from __future__ import annotations

import cv2
import numpy as np

from vision.io import as_bgr
from vision.locate.candidates import candidates, distinct, other_halves
from vision.locate.cloth import BUSY_CLOTH, CHECK_SIZED, CHECKED_CLOTH, CLOTH_SQUARE, busy, check_area, thumbnail, without_lattice
from vision.locate.config import LocatorConfig, downscaled
from vision.locate.cues import cue_masks, sharp_mask
from vision.locate.finish import finish
from vision.locate.geometry import squareness


def locate_cards(frame: np.ndarray, config: LocatorConfig | None = None) -> np.ndarray:
    """Find card quads in a BGR frame: float32 [N, 4, 2] ordered corners in frame pixels."""
    config = config or LocatorConfig()
    frame = as_bgr(frame)
    small, scale = downscaled(frame, config)
    # on a checked cloth the checks, alone or in pairs, outline more card-sized regions than the cards do:
    # known beforehand, the search passes the checks' cues and square outlines over
    thumb = thumbnail(small)
    check = 4 * check_area(thumb) if config.drop_lattice else 0.0  # in downscaled pixels
    cloth = check > 0
    edges, masks = cue_masks(small, config.cloth_cues if cloth else config.cues, busy=cloth)
    kept = distinct(candidates(edges, masks, config, cloth))
    if config.drop_lattice:
        kept, squares = without_lattice(kept)
        if cloth or len(squares) >= CHECKED_CLOTH or busy(thumb) > BUSY_CLOTH:
            # the cloth's checks swamp the cues: crisp outlines first
            kept = [quad for quad in kept if squareness(quad) < CLOTH_SQUARE]  # checks the grid search missed
            sharp = sharp_mask(frame, small.shape)
            # a card's soft paper edge beside a white check shows no crisp edge: bridge such gaps too
            bridged = cv2.morphologyEx(sharp, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
            # on a cloth known beforehand the bridged outlines alone, which hold the crisp ones: the same
            # cards read in eval_size.py, 2-3 ms less a 1080p frame
            crisp = candidates(edges, [bridged] if cloth else [sharp, bridged], config)
            kept = distinct([(1.0 + score, quad) for score, quad in crisp] + [(0.0, quad) for quad in kept])
    if cloth:  # a check or two outlined alone
        kept = [quad for quad in kept if cv2.contourArea(quad) > CHECK_SIZED * check]
    kept = kept[: config.max_candidates]
    kept += other_halves(kept)[: config.max_candidates - len(kept)]  # the best quads first; within the cap
    if not kept:
        return np.zeros((0, 4, 2), np.float32)
    quads = np.stack([(q + 0.5) / scale - 0.5 for q in kept]).astype(np.float32)
    return finish(frame, quads, scale, config)
