"""The outlines in the cue maps that could be a card's, cut in two where two cards' outlines run together."""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

from vision.crop import CARD_ASPECT, FORESHORTENED, LEVEL
from vision.locate.cloth import CLOTH_SQUARE
from vision.locate.geometry import level

WAIST = 0.2
"""Depth of a notch, as a share of an outline's box's short side, from which the outline may be cut in two there."""
NECK = 0.6
"""Length of the cut across a waist, as a share of the outline's box's short side, beyond which it is no waist."""
WAIST_SOLIDITY = 0.9
"""Area of an outline over its hull's above which it has no waist to cut at."""
ONE_BOX = 0.9
"""Area of an outline's hull over its min-area box's above which it is one card's rectangle, not two cards'."""
FAR_SIDE = 0.15
"""Share of an outline's points on either side of a notch that are its own walls, not the far side a waist reaches."""
HALF_AREA = 0.25
"""Least share of the outline's area each part cut off at a waist keeps (a card, not a corner of one)."""
SIDE_BY_SIDE_AREA = 0.6
"""Least area of the smaller of two cards lying side by side over the larger's: a card's length nearer
a phone leaning 45 degrees over the table, a card looks up to a quarter longer each way, half as large
again, and a cut across where they touch shares their outline out unevenly."""
SLIM = 0.3
"""Short over long side of an outline's box under which it is a strip, no card, unless it lies across the
picture (LEVEL) of a leaning camera (`LocatorConfig.leaning`), which squeezes a card so, down to FLAT."""
FLAT = 0.85 * FORESHORTENED * CARD_ASPECT
"""Short over long side of an outline's box lying across the picture under which it is a strip, no card: a
card seen from the steepest camera shows FORESHORTENED of its width, its outline a little less."""
HOLLOW = 0.2
"""Share of its box an outline must enclose (less is a squiggle of texture round nothing)."""
HULL_FILL = 0.7
"""Share of its box a card's hull fills, even tilted or with a finger over a corner."""
SHEARED_FILL = 0.5
"""Share of its box a card's hull fills under a `leaning` camera (`LocatorConfig.leaning`): a card lying
slantwise on the table, seen from STEEPEST_DEGREES, is a parallelogram filling 0.55 of its box (from 60
degrees 0.6; from 45, HULL_FILL's 0.72), its outline a little less."""
TILTED = 0.7
"""Share of a card's own proportions (short over long) a part of an outline keeps seen up to 45 degrees off."""
SQUIGGLE = 16
"""Points of an outline (one a pixel) over the square root of its area above which it is a squiggle of
texture, no card: a card's outline seen square-on has about 4 (twice its two sides over the root of their
product), one following a felt's fibres up to about three times that; the grain between the cards of a
wood table seen close encloses ragged regions of thousands of points, most of its outlines' points, whose
hulls and fits cost more than the cards'."""


class Outline(NamedTuple):
    """A contour that could outline a card."""

    fill: float
    """Its area over its min-area box's."""
    box: tuple
    """Its min-area box (cv2.minAreaRect)."""
    points: np.ndarray
    """Its points (float32)."""
    hull: np.ndarray
    """Its convex hull's points (float32)."""
    hull_area: float
    area: float
    hull_index: np.ndarray
    """Where the hull's points lie on the contour (for the notches between them)."""


def find_outlines(
    masks: list[np.ndarray], min_area: float, max_area: float, min_side: float, min_hull: float = 0.0,
    leaning: bool = False,
) -> list[Outline]:
    """The outlines in all cue maps that could be a card's, the most box-filling first.

    An outline pinched at a waist (two cards side by side, their outlines run together) gives its two parts
    too. Outlines whose hull encloses no more than `min_hull` are passed over, and so are their parts (whose
    hulls lie inside theirs).
    """
    found = []
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            if len(contour) < 4 * min_side:
                continue
            outline = _outline(contour, min_area, max_area, min_hull, leaning)
            if outline is None:
                continue
            found.append(outline)
            for part in _parts_at_waist(contour, outline):
                found += [half for half in [_outline(part, min_area, max_area, min_hull, leaning)] if half is not None]
    found.sort(key=lambda outline: -outline.fill)
    return found


def _outline(contour: np.ndarray, min_area: float, max_area: float, min_hull: float = 0.0,
             leaning: bool = False) -> Outline | None:
    """A contour (integer points) as an Outline, or None when it cannot outline a card: under a `leaning`
    camera, one lying across the picture may be as slim as FLAT."""
    area = cv2.contourArea(contour)  # cheap first: squiggles of texture enclose nothing
    if not min_area < area < max_area or len(contour) > SQUIGGLE * math.sqrt(area):
        return None
    index = cv2.convexHull(contour, returnPoints=False)  # sooner on the integer points
    hull = contour[index.ravel()].astype(np.float32)
    box = cv2.minAreaRect(hull)  # the hull's few points give the contour's own box, sooner
    (rw, rh) = box[1]
    if min(rw, rh) < (FLAT if leaning else SLIM) * max(rw, rh) or area < HOLLOW * rw * rh:
        return None
    if min(rw, rh) < SLIM * max(rw, rh) and not level(cv2.boxPoints(box)[None], LEVEL)[0]:
        return None
    hull_area = cv2.contourArea(hull)
    if hull_area <= max((SHEARED_FILL if leaning else HULL_FILL) * rw * rh, min_hull):
        return None
    return Outline(area / (rw * rh), box, contour.astype(np.float32), hull, hull_area, area, index)


def _parts_at_waist(contour: np.ndarray, outline: Outline) -> list[np.ndarray]:
    """The two parts of an outline pinched at a waist (two cards side by side), else none.

    The waist runs from a notch deeper than WAIST of the box's short side to the nearest point of the
    outline's far side; it is cut when shorter than NECK of that side, a quarter of the outline lies on
    either side of it and the parts may be two cards (`_two_cards`): the surest cut, then the shortest.
    """
    box, area, hull_area = outline.box, outline.area, outline.hull_area
    if area > WAIST_SOLIDITY * hull_area or hull_area > ONE_BOX * box[1][0] * box[1][1]:
        return []  # nearly convex, or a single card's rectangle with a notch (a figure reaching its edge)
    try:
        defects = cv2.convexityDefects(contour, outline.hull_index)
    except cv2.error:  # a contour that runs back over itself has no monotonous hull
        return []
    if defects is None:
        return []
    defects = defects.reshape(-1, 4)
    notches = defects[defects[:, 3] >= 256 * WAIST * min(box[1]), 2]
    if len(notches) == 0:
        return []
    points = outline.points.reshape(-1, 2)
    n = len(points)
    along = np.arange(n)
    # each notch's nearest point on the far side, for all the notches at once [notches, points]
    gap = np.abs(along - notches[:, None])  # how far apart along the outline, either way round it
    apart = np.minimum(gap, n - gap) >= FAR_SIDE * n
    step = points - points[notches][:, None]
    length = np.sqrt(step[..., 0] * step[..., 0] + step[..., 1] * step[..., 1])  # as np.linalg.norm, sooner
    distances = np.where(apart, length, np.inf)
    nearest = np.argmin(distances, axis=1)
    neck = NECK * min(box[1])
    best, best_key = [], (0, -neck)
    for i, j, distance in zip(notches, nearest, distances[np.arange(len(notches)), nearest]):
        if distance < neck:
            lo, hi = sorted((int(i), int(j)))
            parts = [contour[lo : hi + 1], np.concatenate([contour[hi:], contour[: lo + 1]])]
            if min(cv2.contourArea(part) for part in parts) >= HALF_AREA * area:
                key = (_two_cards(parts), -float(distance))
                if key[0] and key > best_key:
                    best, best_key = parts, key
    return best


def _two_cards(parts: list[np.ndarray]) -> int:
    """How surely the two parts of an outline cut at a waist are two cards: 0 when one is a strip; 2 when
    one at least is as oblong as a card seen up to 45 degrees off; 1 when both look square, as a far card
    lying lengthwise from a leaning phone does, and the deck it was laid against corner to side, and are
    alike in size (SIDE_BY_SIDE_AREA: a square-looking scrap of another outline is no card); else 0. A single card
    cut across its middle, whose halves look square too, is one rectangle, never cut (ONE_BOX)."""
    ratios = [min(w, h) / max(w, h, 1e-6) for w, h in (cv2.minAreaRect(part)[1] for part in parts)]
    if min(ratios) < TILTED * CARD_ASPECT:
        return 0
    if min(ratios) <= CLOTH_SQUARE:
        return 2
    areas = sorted(cv2.contourArea(part) for part in parts)
    return 1 if areas[0] >= SIDE_BY_SIDE_AREA * areas[1] else 0
