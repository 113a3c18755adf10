"""The locator's settings, and the downscaled copy of a frame its search runs on."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class LocatorConfig:
    """Settings of the locator; the defaults suit phone photos and 720p/1080p table views."""

    work_side: int = 640
    """Long side of the downscaled copy the search runs on (pixels)."""
    min_card_side: float = 18.0
    """Shortest card width worth a look, in downscaled pixels."""
    max_area_fraction: float = 0.85
    """Largest card area as a fraction of the frame."""
    min_rectangularity: float = 0.78
    """Least area of an outline's hull over its fitted quad's area: a hand over a corner still passes."""
    min_edge_support: float = 0.6
    """Fraction of a quad's outline that must lie on image edges."""
    max_side_fits: int = 48
    """Cap on the costlier side fits per frame (a busy cloth offers hundreds of outlines)."""
    max_candidates: int = 64
    """Cap on quads handed to the classifier, best first."""
    leaning: bool = False
    """Whether the camera may lean across the table up to `vision.crop.STEEPEST_DEGREES`: cards lying
    across the picture are then found seen as flat as FORESHORTENED, not only as OBLIQUE_SHARE. Off by default;
    the live loop turns it on unless the cards it follows show the table seen from above (`live.loop.LEANS`):
    it finds the far places from 45 to 66 degrees. For a photo of a card it stays off: there a quad that
    flat is a card's printed detail (a blurred sword's blade), no card."""
    refine: bool = True
    """Snap each quad's sides to the card's edges in the full-resolution frame."""
    drop_lattice: bool = True
    """Drop a checked cloth's squares (quads of one size, turned alike, next to each other)."""
    cues: tuple[str, ...] = ("edges", "local", "bright", "contrast")
    """Which cue maps propose card outlines (see `cue_masks`); adding "thin" finds more cards
    narrower than 80 px on busy cloths, at the price of more candidates and time."""
    cloth_cues: tuple[str, ...] = ("edges",)
    """The cue maps used on a checked cloth: there "local" and "contrast" outline the checks, not the cards,
    and "bright" found no card in eval_size.py that the crisp outlines and "edges" miss."""


def downscaled(frame: np.ndarray, config: LocatorConfig, side: int | None = None) -> tuple[np.ndarray, float]:
    """The frame shrunk to the configured work size (never enlarged), and the scale factor; a part of a
    frame is shrunk as its whole frame, `side` pixels long, would be."""
    scale = min(1.0, config.work_side / (side or max(frame.shape[:2])))
    small = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return small, scale
