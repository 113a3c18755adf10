"""The card locator: every card-like quadrilateral in a frame, found on a downscaled copy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from vision.crop import CARD_ASPECT, order_quad
from vision.io import as_bgr
from vision.quadfit import aspect_priors, fit_quad, fit_quads, halves, hull_quad, iou, overlap
from vision.refine import snap_sides


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
WAIST = 0.2
"""Depth of a notch, as a share of an outline's box's short side, from which the outline may be cut in two there."""
NECK = 0.6
"""Length of the cut across a waist, as a share of the outline's box's short side, beyond which it is no waist."""
WAIST_SOLIDITY = 0.9
"""Area of an outline over its hull's above which it has no waist to cut at."""
ONE_BOX = 0.9
"""Area of an outline's hull over its min-area box's above which it is one card's rectangle, not two cards'."""
CLOTH_SQUARE = 0.8
"""On a checked cloth, a quad whose short sides are this close to its long ones is taken for a check."""


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
    refine: bool = True
    """Snap each quad's sides to the card's edges in the full-resolution frame."""
    drop_lattice: bool = True
    """Drop a checked cloth's squares (quads of one size, turned alike, next to each other)."""
    cues: tuple[str, ...] = ("edges", "local", "bright", "contrast")
    """Which cue maps propose card outlines (see `_cue_masks`); adding "thin" finds more cards
    narrower than 80 px on busy cloths, at the price of more candidates and time."""
    cloth_cues: tuple[str, ...] = ("edges",)
    """The cue maps used on a checked cloth: there "local" and "contrast" outline the checks, not the cards,
    and "bright" found no card in eval_size.py that the crisp outlines and "edges" miss."""


def _canny(gray: np.ndarray, low: float, high: float) -> np.ndarray:
    """cv2.Canny on OpenCV's own code: on one thread OpenCV hands Canny to Intel IPP, whose Canny
    corrupted the heap on a blurred gingham thumbnail ("double free or corruption"; opencv-python-headless
    5.0.0 and 4.14.0). The switch is per thread, so IPP stays on for everything else."""
    if not cv2.ipp.useIPP():
        return cv2.Canny(gray, low, high)
    cv2.ipp.setUseIPP(False)
    try:
        return cv2.Canny(gray, low, high)
    finally:
        cv2.ipp.setUseIPP(True)


def _cue_masks(small: np.ndarray, cues: tuple[str, ...], busy: bool = False) -> tuple[np.ndarray, list[np.ndarray]]:
    """Edges (widened, for scoring outlines) and the binary maps whose regions may be cards.

    The edges are those of brightness and of saturation: Canny's on a quiet table; on a `busy` one (a
    checked cloth, where edges abound and Canny's hysteresis grows with them) the same thin lines
    without the hysteresis (`_thin_edges`), at about half the cost.
    """
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    saturation = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[:, :, 1]
    if busy:
        edges = _thin_edges(gray, saturation)
    else:
        edges = _canny(cv2.GaussianBlur(gray, (5, 5), 0), 20, 60)
        edges |= _canny(cv2.GaussianBlur(saturation, (5, 5), 0), 20, 60)
    masks = []
    if "edges" in cues:  # regions enclosed by edges: a card's margin inside its outline
        masks.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    if "thin" in cues:  # the same with bare edges: small cards' margins are a pixel or two wide
        masks.append(edges.copy())
    window = (max(small.shape[:2]) // 6) | 1
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    if "local" in cues or "bright" in cues:
        whiteness = cv2.min(cv2.min(small[:, :, 0], small[:, :, 1]), small[:, :, 2])
        lifted = cv2.subtract(whiteness, cv2.blur(whiteness, (window, window)))
    if "local" in cues:  # lighter than its surroundings in every channel: card stock on a table
        masks.append(_solid(cv2.threshold(lifted, 12, 255, cv2.THRESH_BINARY)[1], closing))
    if "bright" in cues:  # lighter still: white card stock beside the paler squares of a cloth
        masks.append(_solid(cv2.threshold(lifted, 40, 255, cv2.THRESH_BINARY)[1], closing))
    if "contrast" in cues:  # unlike the table's colour around it: backs as well as faces
        diff = cv2.absdiff(small, cv2.blur(small, (window, window)))
        apart = cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])
        masks.append(_solid(cv2.threshold(apart, 40, 255, cv2.THRESH_BINARY)[1], closing))
    return cv2.dilate(edges, np.ones((5, 5), np.uint8)), masks


EDGE_STEP = 45
"""Least gradient (|dx| + |dy| of a 3x3 Sobel over the blurred brightness or saturation) of an edge pixel
on a checked cloth (Canny's thresholds elsewhere are 20 and 60). Of eval_size.py's 480 cards on the
cloth, 45 missed 3, as Canny does, and 30 missed 4 (30 read one more of eval_pairs.py's close pairs,
and fewer cards in a blurred frame)."""


def _thin_edges(gray: np.ndarray, saturation: np.ndarray) -> np.ndarray:
    """Canny's thin edges of brightness and saturation without its hysteresis: the pixels whose gradient
    reaches EDGE_STEP and is the largest across the edge (left and right of it, or above and below).

    Thin lines keep the narrow margin of a card enclosed even in a soft frame, where a band of steep
    gradient, taken whole, grows wide and closes it.
    """
    h, w = gray.shape
    blurred = cv2.GaussianBlur(cv2.merge([gray, saturation]), (5, 5), 0)
    dx = cv2.Sobel(blurred, cv2.CV_16S, 1, 0).reshape(h, 2 * w)  # each row holds both channels, interleaved
    dy = cv2.Sobel(blurred, cv2.CV_16S, 0, 1).reshape(h, 2 * w)
    zero = np.zeros_like(dx)
    ax, ay = cv2.absdiff(dx, zero), cv2.absdiff(dy, zero)
    step = cv2.add(ax, ay)  # 16 bits: a strong edge's top is a ridge, not a plateau cut off at 255
    beside = cv2.dilate(step, np.array([[1, 0, 1, 0, 1]], np.uint8))  # the same channel's left and right
    above_below = cv2.dilate(step, np.ones((3, 1), np.uint8))
    across_x = cv2.compare(ax, ay, cv2.CMP_GE)  # the edge runs up and down: look left and right
    ridge = cv2.bitwise_or(
        cv2.bitwise_and(across_x, cv2.compare(step, beside, cv2.CMP_GE)),
        cv2.bitwise_and(cv2.bitwise_not(across_x), cv2.compare(step, above_below, cv2.CMP_GE)),
    )
    edges = cv2.bitwise_and(ridge, cv2.compare(step, EDGE_STEP, cv2.CMP_GE)).reshape(h, w, 2)
    return cv2.max(edges[:, :, 0], edges[:, :, 1])


def _solid(mask: np.ndarray, closing: np.ndarray) -> np.ndarray:
    """Close small gaps (a card's drawings) and drop specks."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, closing)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


NEXT = [1, 2, 3, 0]
"""Index of each quad corner's successor (cheaper than np.roll on four corners)."""
_ALONG = np.linspace(0.1, 0.9, 24, dtype=np.float32)[None, :, None]


def _edge_support(edges: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """For each quad [K, 4, 2], the fraction of points along its sides that lie on an edge of the frame."""
    points = quads[:, :, None] + _ALONG[None] * (quads[:, NEXT] - quads)[:, :, None]  # [K, 4, S, 2]
    xs = np.clip(np.rint(points[..., 0]).astype(int), 0, edges.shape[1] - 1)
    ys = np.clip(np.rint(points[..., 1]).astype(int), 0, edges.shape[0] - 1)
    return (edges[ys, xs] > 0).reshape(len(quads), -1).mean(axis=1)


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


def _contours(masks: list[np.ndarray], min_area: float, max_area: float, min_side: float) -> list[Outline]:
    """The outlines in all cue maps that could be a card's, the most box-filling first.

    An outline pinched at a waist (two cards side by side, their outlines run together) gives its two parts too.
    """
    found = []
    for mask in masks:
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            if len(contour) < 4 * min_side:
                continue
            outline = _outline(contour, min_area, max_area)
            if outline is None:
                continue
            found.append(outline)
            for part in _parts_at_waist(contour, outline):
                found += [half for half in [_outline(part, min_area, max_area)] if half is not None]
    found.sort(key=lambda outline: -outline.fill)
    return found


def _outline(contour: np.ndarray, min_area: float, max_area: float) -> Outline | None:
    """A contour (integer points) as an Outline, or None when it cannot outline a card."""
    area = cv2.contourArea(contour)  # cheap first: squiggles of texture enclose nothing
    if not min_area < area < max_area:
        return None
    index = cv2.convexHull(contour, returnPoints=False)  # sooner on the integer points
    hull = contour[index.ravel()].astype(np.float32)
    box = cv2.minAreaRect(hull)  # the hull's few points give the contour's own box, sooner
    (rw, rh) = box[1]
    if min(rw, rh) < 0.3 * max(rw, rh) or area < 0.2 * rw * rh:
        return None
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0.7 * rw * rh:  # a card's hull fills its box, even tilted
        return None
    return Outline(area / (rw * rh), box, contour.astype(np.float32), hull, hull_area, area, index)


def _parts_at_waist(contour: np.ndarray, outline: Outline) -> list[np.ndarray]:
    """The two parts of an outline pinched at a waist (two cards side by side), else none.

    The waist runs from a notch deeper than WAIST of the box's short side to the nearest point of the
    outline's far side; it is cut when shorter than NECK of that side and a quarter of the outline
    lies on either side of it.
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
    points = outline.points.reshape(-1, 2)
    n = len(points)
    along = np.arange(n)
    best, cut = [], NECK * min(box[1])
    for i in defects[defects[:, 3] >= 256 * WAIST * min(box[1]), 2]:
        apart = np.minimum((along - i) % n, (i - along) % n) >= 0.15 * n  # the far side, not the notch's own walls
        distance = np.where(apart, np.linalg.norm(points - points[i], axis=1), np.inf)
        j = int(np.argmin(distance))
        if distance[j] < cut:
            lo, hi = sorted((int(i), j))
            parts = [contour[lo : hi + 1], np.concatenate([contour[hi:], contour[: lo + 1]])]
            if min(cv2.contourArea(part) for part in parts) >= 0.25 * area and all(map(_card_shaped, parts)):
                best, cut = parts, float(distance[j])
    return best


def _card_shaped(part: np.ndarray) -> bool:
    """Whether a part of an outline is as oblong as a card seen up to 45 degrees off, not a squarish
    piece or a strip of one."""
    (w, h) = cv2.minAreaRect(part)[1]
    return 0.7 * CARD_ASPECT * max(w, h) <= min(w, h) <= CLOTH_SQUARE * max(w, h)


def _seen_before(box: tuple, seen: np.ndarray) -> bool:
    """Tell whether a rotated box outlines what an earlier one did (one cue repeating another).

    `seen` holds one row (centre x, centre y, area, longest side) per earlier box.
    """
    (x, y), (w, h), _ = box
    if len(seen) == 0:
        return False
    size = np.maximum(seen[:, 3], max(w, h))
    near = np.hypot(seen[:, 0] - x, seen[:, 1] - y) < 0.06 * size
    return bool((near & (np.abs(seen[:, 2] - w * h) < 0.15 * w * h)).any())


def _quads_for(hull: np.ndarray, hull_area: float, box: tuple, around: bool) -> tuple[list[np.ndarray], bool]:
    """The quads an outline may stand for short of the side fit, and whether the side fit is wanted too.

    A rectangle seen square-on takes its min-area box. Any other outline offers that box (a rough quad
    that keeps all of a steeply tilted card; the side snapping then fits it), the quad on its hull's own
    points and the costlier fit to its longest straight runs (so that a snowflake or a finger over a
    corner does not bend it); the caller keeps the best supported.
    Without `around` (on a checked cloth, where an outline often takes in a check beside the card and the
    box round it then covers the check too) the box is not offered, and a clean convex outline takes
    the quad on its hull's points without the side fit.
    """
    (rw, rh) = box[1]
    if hull_area > 0.95 * rw * rh:
        return [cv2.boxPoints(box).astype(np.float32)], False
    simple = hull_quad(hull)
    if around:  # the box round the hull keeps all of a steeply tilted card, where the hull's points cut a corner
        return [cv2.boxPoints(box).astype(np.float32), simple], True
    return [simple], abs(hull_area / max(cv2.contourArea(simple), 1e-6) - 1) >= 0.03  # not clean


def _box_row(box: tuple) -> list[float]:
    """A rotated box as (centre x, centre y, area, longest side), the row `_seen_before` compares."""
    return [box[0][0], box[0][1], box[1][0] * box[1][1], max(box[1])]


def _first_sightings(boxes: list[tuple]) -> list[int]:
    """Indices of the boxes that outline something no earlier box did."""
    seen, first = np.zeros((0, 4)), []
    for k, box in enumerate(boxes):
        if not _seen_before(box, seen):
            first.append(k)
            seen = np.vstack([seen, _box_row(box)])
    return first


def _sharp_mask(frame: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Crisp outlines found at full resolution, filled where they enclose: a card's cut edge and
    printed back stay sharp where a cloth's woven checks blur into each other."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    detail = cv2.absdiff(gray, cv2.GaussianBlur(gray, (9, 9), 1.5))
    crisp = cv2.threshold(detail, 20, 255, cv2.THRESH_BINARY)[1]  # a cloth's weave stays under 20 grey levels
    small = cv2.resize(crisp, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
    outline = cv2.threshold(small, 40, 255, cv2.THRESH_BINARY)[1]  # a one-pixel outline survives the shrink
    return cv2.morphologyEx(outline, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


def _candidates(
    edges: np.ndarray, masks: list[np.ndarray], config: LocatorConfig, cloth: bool = False
) -> list[tuple[float, np.ndarray]]:
    """Score every plausible card quad outlined in the cue maps against the frame's edges, in downscaled pixels.

    On a checked `cloth`, outlines whose box is nearly square are passed over unfitted, and quads are
    taken on the hulls' own points (see `_quads_for`).
    """
    h, w = edges.shape[:2]
    min_area = config.min_card_side**2 / CARD_ASPECT * 0.7
    outlines = _contours(masks, min_area, config.max_area_fraction * h * w, config.min_card_side)
    if cloth:
        outlines = [outline for outline in outlines if min(outline.box[1]) < CLOTH_SQUARE * max(outline.box[1])]
    # the side fits in one go, for the outlines that repeat no earlier one; should an earlier one give no
    # quad after all, the loop below fits the outline it would have hidden on its own
    first = _first_sightings([outline.box for outline in outlines])
    plans = {k: _quads_for(outlines[k].hull, outlines[k].hull_area, outlines[k].box, not cloth) for k in first}
    wanted = [k for k in first if plans[k][1]][: config.max_side_fits]
    fits = dict(zip(wanted, fit_quads([outlines[k].points for k in wanted])))
    offers = [(plans[k][0] + ([fits[k]] if k in fits else []), outlines[k].hull_area) for k in first]
    ranked = dict(zip(first, _best_quads(edges, offers, config)))
    found: list[tuple[float, np.ndarray]] = []
    fitted = np.zeros((0, 4))
    side_fits = 0
    for k, (_, box, contour, hull, hull_area, _, _) in enumerate(outlines):
        if _seen_before(box, fitted):
            continue
        quads, wants = plans[k] if k in plans else _quads_for(hull, hull_area, box, not cloth)
        fit = wants and side_fits < config.max_side_fits
        side_fits += fit
        if k in ranked and fit == (k in fits):
            best = ranked[k]
        else:  # an earlier outline gave no quad after all, so this one is looked at, or fitted, unforeseen
            best = _best_quads(edges, [(quads + ([fit_quad(contour)] if fit else []), hull_area)], config)[0]
        if best is not None:
            fitted = np.vstack([fitted, _box_row(box)])
            found.append(best)
    return found


def _best_quads(
    edges: np.ndarray, offers: list[tuple[list[np.ndarray | None], float]], config: LocatorConfig
) -> list[tuple[float, np.ndarray] | None]:
    """For each outline's offer (the quads it may stand for, its hull's area) the best scoring quad with
    its score, or None: how well the hull fills the quad, times the share of its sides lying on edges,
    times how card-like its proportions are (`aspect_priors`). All offers are scored in one go."""
    owners, quads, ratios = [], [], []
    for k, (options, hull_area) in enumerate(offers):
        for quad in options:
            # the hull forgives drawings that reach the outline and bite into the enclosed region
            ratio = hull_area / max(cv2.contourArea(quad), 1e-6) if quad is not None else 0.0
            if config.min_rectangularity < ratio < 1.3:
                owners.append(k)
                quads.append(quad)
                ratios.append(ratio)
    picks: list[tuple[float, np.ndarray] | None] = [None] * len(offers)
    if not quads:
        return picks
    stacked = np.stack(quads)
    support = _edge_support(edges, stacked)
    ratio = np.array(ratios)
    scores = np.minimum(ratio, 1 / ratio) * support * aspect_priors(stacked)
    for k, quad, score, supported in zip(owners, quads, scores, support >= config.min_edge_support):
        if supported and score > (picks[k] or (0.0,))[0]:
            picks[k] = (float(score), quad)
    return picks


PAIR_SHAPE = (0.78, 0.95)
"""Short over long sides of a quad whose halves are both offered: two cards lying side by side, long
sides together, make 0.83 seen square-on; a single card seen at a 30-degree tilt makes up to about 0.77."""


def _other_halves(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Halves of near-square quads, which two cards lying side by side make: the other one beside a card
    also found alone, else both when the quad has a pair's shape (the classifier tells a card from half of one)."""
    found = []
    areas = [cv2.contourArea(q) for q in quads]
    for pair, pair_area in zip(quads, areas):
        ratio = _squareness(pair)
        if ratio < 0.7:
            continue
        both = halves(pair)
        for one, one_area in zip(quads, areas):
            if 0.3 < one_area / pair_area < 0.7 and overlap(one, pair) > 0.85:
                near = np.argmin([np.linalg.norm(h.mean(axis=0) - one.mean(axis=0)) for h in both])
                found.append(both[1 - near])
                break
        else:
            found += both if PAIR_SHAPE[0] <= ratio <= PAIR_SHAPE[1] else []
    return found


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


def _without_lattice(found: list[np.ndarray], least: int = 4) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Split off the squares of a checked cloth: quads with `least` neighbours of their size, turned alike.

    A cloth's squares sit next to each other in a grid; cards, even laid close together, are
    turned every which way, and a card is far larger than the squares it might lie square with.
    Returns the quads kept and the squares dropped.
    """
    if len(found) <= least:
        return found, []
    lattice = _lattice_neighbours(found, found) >= least
    return [q for q, drop in zip(found, lattice) if not drop], [q for q, drop in zip(found, lattice) if drop]


def _thumbnail(small: np.ndarray) -> np.ndarray:
    """The downscaled frame at half its size again, where the table's pattern is judged."""
    half = (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2))
    return cv2.resize(small, half, interpolation=cv2.INTER_AREA)


def _busy(thumb: np.ndarray) -> float:
    """Share of a thumbnail near an edge: a checked cloth's grid covers most of it."""
    edges = _canny(cv2.GaussianBlur(cv2.cvtColor(thumb, cv2.COLOR_BGR2GRAY), (3, 3), 0), 20, 60)
    return float(np.count_nonzero(cv2.dilate(edges, np.ones((3, 3), np.uint8)))) / edges.size


def _check_area(thumb: np.ndarray) -> float:
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


def _squareness(quad: np.ndarray) -> float:
    """Mean length of the quad's shorter pair of opposite sides over that of its longer pair."""
    sides = np.linalg.norm(quad[NEXT] - quad, axis=1)
    pairs = (sides[0] + sides[2], sides[1] + sides[3])
    return float(min(pairs) / max(max(pairs), 1e-6))


def _distinct(candidates: list[tuple[float, np.ndarray]]) -> list[np.ndarray]:
    """The candidates' quads, best first, each one not lying on a better one."""
    kept: list[np.ndarray] = []
    bounds = np.zeros((0, 4), np.float32)  # x0, y0, x1, y1 of each kept quad
    for _, quad in sorted(candidates, key=lambda item: -item[0]):
        lo, hi = quad.min(axis=0), quad.max(axis=0)
        touching = np.flatnonzero(
            (bounds[:, 0] < hi[0]) & (bounds[:, 2] > lo[0]) & (bounds[:, 1] < hi[1]) & (bounds[:, 3] > lo[1])
        )
        if all(iou(quad, kept[k]) < 0.6 for k in touching):
            kept.append(quad)
            bounds = np.vstack([bounds, np.concatenate([lo, hi])[None]])
    return kept


def locate_cards(frame: np.ndarray, config: LocatorConfig | None = None) -> np.ndarray:
    """Find card quads in a BGR frame: float32 [N, 4, 2] ordered corners in frame pixels."""
    config = config or LocatorConfig()
    frame = as_bgr(frame)
    small, scale = _downscaled(frame, config)
    # on a checked cloth the checks, alone or in pairs, outline more card-sized regions than the cards do:
    # known beforehand, the search passes the checks' cues and square outlines over
    thumb = _thumbnail(small)
    check = 4 * _check_area(thumb) if config.drop_lattice else 0.0  # in downscaled pixels
    cloth = check > 0
    edges, masks = _cue_masks(small, config.cloth_cues if cloth else config.cues, busy=cloth)
    kept = _distinct(_candidates(edges, masks, config, cloth))
    if config.drop_lattice:
        kept, squares = _without_lattice(kept)
        if cloth or len(squares) >= CHECKED_CLOTH or _busy(thumb) > BUSY_CLOTH:
            # the cloth's checks swamp the cues: crisp outlines first
            kept = [quad for quad in kept if _squareness(quad) < CLOTH_SQUARE]  # checks the grid search missed
            sharp = _sharp_mask(frame, small.shape)
            # a card's soft paper edge beside a white check shows no crisp edge: bridge such gaps too
            bridged = cv2.morphologyEx(sharp, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
            # on a cloth known beforehand the bridged outlines alone, which hold the crisp ones: the same
            # cards read in eval_size.py, 2-3 ms less a 1080p frame
            crisp = _candidates(edges, [bridged] if cloth else [sharp, bridged], config)
            kept = _distinct([(1.0 + score, quad) for score, quad in crisp] + [(0.0, quad) for quad in kept])
    if cloth:  # a check or two outlined alone
        kept = [quad for quad in kept if cv2.contourArea(quad) > CHECK_SIZED * check]
    kept = kept[: config.max_candidates]
    kept += _other_halves(kept)[: config.max_candidates - len(kept)]  # the best quads first; within the cap
    if not kept:
        return np.zeros((0, 4, 2), np.float32)
    quads = np.stack([(q + 0.5) / scale - 0.5 for q in kept]).astype(np.float32)
    return _finish(frame, quads, scale, config)


def _downscaled(frame: np.ndarray, config: LocatorConfig) -> tuple[np.ndarray, float]:
    """The frame shrunk to the configured work size (never enlarged), and the scale factor."""
    scale = min(1.0, config.work_side / max(frame.shape[:2]))
    small = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return small, scale


def shows_checked_cloth(frame: np.ndarray, config: LocatorConfig | None = None) -> bool:
    """Whether a BGR frame shows a checked cloth, judged as `locate_cards` judges it."""
    config = config or LocatorConfig()
    return _check_area(_thumbnail(_downscaled(as_bgr(frame), config)[0])) > 0


def _finish(frame: np.ndarray, quads: np.ndarray, scale: float, config: LocatorConfig) -> np.ndarray:
    """Snap rough quads (frame pixels, found at `scale`) to the cards' edges, add guesses for cards under
    a hand, complete cards cut by the frame's edge, and order every quad's corners."""
    if config.refine:
        # beyond the downscaled fit's own error, reach far enough to step over a back's printed frame
        sides = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).min(axis=1)
        quads, straight = snap_sides(frame, quads, np.maximum(max(3.0, 2.5 / scale), 0.08 * sides))
        guesses = _under_a_hand(quads, straight)
        if guesses:  # proposed beside the quad on the part that shows; the classifier picks
            quads = np.concatenate([quads, np.stack(guesses)])
    height, width = frame.shape[:2]
    return np.stack([order_quad(_complete_at_border(q, width, height)) for q in quads]).astype(np.float32)


def _grown_across(quad: np.ndarray, i: int, most: float = 1.7) -> np.ndarray | None:
    """The quad with side i (corner i to i+1) pushed outward until it has a whole card's proportions.

    None when the quad already has them, or would have to grow more than `most` times its length.
    """
    a, b = quad[i], quad[(i + 1) % 4]
    before, after = quad[i - 1], quad[(i + 2) % 4]  # the corners across from side i
    along = (np.linalg.norm(a - before) + np.linalg.norm(b - after)) / 2
    across = (np.linalg.norm(b - a) + np.linalg.norm(after - before)) / 2
    targets = [t for t in (across * CARD_ASPECT, across / CARD_ASPECT) if 1.05 * along < t < most * along]
    if not targets:
        return None
    target = min(targets)
    out = quad.copy()  # each corner slides along its own side, so a slanting cut comes out square
    out[i] = before + (a - before) * (target / max(float(np.linalg.norm(a - before)), 1e-6))
    out[(i + 1) % 4] = after + (b - after) * (target / max(float(np.linalg.norm(b - after)), 1e-6))
    return out


def _complete_at_border(quad: np.ndarray, width: int, height: int, margin: float = 2.5) -> np.ndarray:
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
            grown = _grown_across(quad, i, most=3.0)
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
