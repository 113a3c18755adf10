"""Four corners fitted to an outline: from its longest straight runs, or from its hull; how card-like a quad is."""

from __future__ import annotations

import cv2
import numpy as np

from vision.crop import CARD_ASPECT, FORESHORTENED, LEVEL, OBLIQUE_SHARE
from vision.locate.geometry import crossings, level, squarenesses

SIDE_SLANT = np.sin(np.radians(25))
"""Sine of the largest angle between a straight run of an outline and the side it is taken for."""
CARDLIKE_SQUARENESS = 0.8
"""Squareness up to which a quad has a card's proportions (a card seen up to about 45 degrees off);
squarer quads weigh less, down to 0.6 for a square."""
SLIVER = 0.85 * FORESHORTENED
"""Share of a card's own squareness under which a quad is a sliver, no card however foreshortened: a card
seen from the steepest camera keeps FORESHORTENED of it, its outline's fit a little less. A quad flatter
than OBLIQUE_SHARE is a card only lying across the picture (LEVEL)."""
LINE_POINTS = 240
"""About this many of a contour's points are fitted: enough for a line fit, few enough to be quick."""
POLYGON = (1.5, 0.012)
"""Tolerance of the polygon whose runs are the straight stretches: pixels, or this share of the perimeter if more."""
SIDE_BAND = 0.3
"""Share of the outline's extent across a side's direction within which a run lies on that side, not the opposite one."""
HULL_STEPS = (0.02, 0.04, 0.06)
"""Polygon tolerances, as shares of the hull's perimeter, tried in turn for four corners."""
ALONG_RUN = (1.5, 0.03, 0.1)
"""A contour point lies along a run within this many pixels of it (or this share of its length if more),
and at most this share of its length beyond either end."""
INLIER = (0.75, 2.0)
"""In the refit, a point is kept within this many pixels of the line, or this many times the typical distance if more."""


def fit_quad(contour: np.ndarray) -> np.ndarray | None:
    """Fit four corners to a contour from its longest straight runs, robust to bumps and bites."""
    return fit_quads([contour])[0]


def fit_quads(contours: list[np.ndarray]) -> list[np.ndarray | None]:
    """`fit_quad` for many contours at once: the same fit, one set of array operations for them all.

    Each contour's points and its polygon's runs are padded to the longest; padding weighs nothing.
    """
    if not contours:
        return []
    points, polys = [], []
    for contour in contours:
        flat = contour.reshape(-1, 2).astype(np.float32)
        points.append(flat[:: max(1, len(flat) // LINE_POINTS)])
        perimeter = cv2.arcLength(contour, True)
        polys.append(cv2.approxPolyDP(contour, max(POLYGON[0], POLYGON[1] * perimeter), True).reshape(-1, 2).astype(np.float32))
    runs = np.array([len(poly) for poly in polys])
    poly, valid = _padded(polys)  # [K, P, 2], [K, P]
    ends = np.take_along_axis(poly, ((np.arange(poly.shape[1]) + 1) % runs[:, None])[..., None], axis=1)
    vectors = ends - poly
    lengths = np.where(valid, np.hypot(vectors[..., 0], vectors[..., 1]), 0.0)
    angles = np.arctan2(vectors[..., 1], vectors[..., 0])
    # the two side directions of a card fold onto one angle modulo 90 degrees
    dominant = np.angle((lengths * np.exp(4j * angles)).sum(axis=1)) / 4
    families = np.stack([dominant, dominant + np.pi / 2], axis=1)  # [K, 2]
    close = (np.abs(np.sin(angles[..., None] - families[:, None])) < SIDE_SLANT) & valid[..., None]  # [K, P, 2]
    normals = np.stack([-np.sin(families), np.cos(families)], axis=2).astype(np.float32)  # [K, 2, 2]
    offsets = ((poly + ends) / 2) @ normals.transpose(0, 2, 1)  # how far across each family every run lies
    low = np.where(valid[..., None], offsets, np.inf).min(axis=1, keepdims=True)
    high = np.where(valid[..., None], offsets, -np.inf).max(axis=1, keepdims=True)
    reach = SIDE_BAND * (high - low)
    # the longest run on each of the four sides: family a low and high, then family b low and high
    near = np.concatenate([close & (np.abs(offsets - low) < reach), close & (np.abs(offsets - high) < reach)], axis=2)
    fits = (close.sum(axis=1).min(axis=1) >= 2) & (runs >= 4) & near.any(axis=1).all(axis=1)
    best = np.where(near, lengths[..., None], -1.0).argmax(axis=1)[:, [0, 2, 1, 3]]  # [K, 4]
    starts = np.take_along_axis(poly, best[..., None], axis=1)
    stops = np.take_along_axis(ends, best[..., None], axis=1)
    centres, directions = _fit_runs(*_padded(points), starts, stops)
    around = [0, 2, 1, 3]  # the sides in turn round the quad: a_lo, b_lo, a_hi, b_hi
    corners, crossed = crossings(centres[:, around], directions[:, around])
    quads = [quad.copy() for quad in corners.astype(np.float32)]  # OpenCV takes no row views of a stack
    return [
        quad if fit and cross and cv2.isContourConvex(quad.reshape(-1, 1, 2)) else None
        for quad, fit, cross in zip(quads, fits, crossed.all(axis=1))
    ]


def _padded(arrays: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Point arrays [n_i, 2] stacked into [K, N, 2] (zeros beyond each one's end) and the mask of real points."""
    longest = max(len(a) for a in arrays)
    out = np.zeros((len(arrays), longest, 2), np.float32)
    valid = np.zeros((len(arrays), longest), bool)
    for k, a in enumerate(arrays):
        out[k, : len(a)] = a
        valid[k, : len(a)] = True
    return out, valid


def hull_quad(hull: np.ndarray) -> np.ndarray:
    """Four corners from a convex hull: its polygon approximation, else its min-area box."""
    perimeter = cv2.arcLength(hull, True)
    for fraction in HULL_STEPS:
        approx = cv2.approxPolyDP(hull, fraction * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _principal_lines(moments: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total-least-squares lines (centroid, unit direction; [K, L, 2] each) through weighted points.

    `moments` [K, N, 6] holds each point's 1, x, y, x*x, y*y and x*y (float64); `weight` [K, N, L] one weight
    per point and line.
    """
    sums = weight.transpose(0, 2, 1) @ moments
    count = np.maximum(sums[..., 0], 1e-6)
    means = sums[..., 1:] / count[..., None]
    x, y, xx, yy, xy = np.moveaxis(means, -1, 0)  # weighted means
    angle = 0.5 * np.arctan2(2 * (xy - x * y), (xx - x * x) - (yy - y * y))
    return np.stack([x, y], axis=-1), np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def _fit_runs(
    points: np.ndarray, valid: np.ndarray, starts: np.ndarray, ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Fit a line (point, unit direction; [K, 4, 2] each) to the contour points [K, N, 2] (`valid` where real)
    lying along each of the four straight runs from `starts` to `ends` [K, 4, 2]."""
    d = ends - starts
    length = np.maximum(np.hypot(d[..., 0], d[..., 1]), 1e-6)  # [K, 4]
    u = d / length[..., None]
    axes = np.concatenate([u, np.stack([-u[..., 1], u[..., 0]], axis=-1)], axis=1)  # [K, 8, 2]: along, then across
    origin = (np.concatenate([starts, starts], axis=1) * axes).sum(axis=-1)  # [K, 8]
    projected = points @ axes.transpose(0, 2, 1) - origin[:, None]  # [K, N, 8]
    along, across = projected[..., :4], projected[..., 4:]
    reach = length[:, None]
    near = (np.abs(across) < np.maximum(ALONG_RUN[0], ALONG_RUN[1] * reach)) & (along > -ALONG_RUN[2] * reach)
    near &= along < (1 + ALONG_RUN[2]) * reach
    near &= valid[..., None]
    x, y = points[..., 0].astype(np.float64), points[..., 1].astype(np.float64)
    moments = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1)
    centroid, direction = _principal_lines(moments, near.astype(np.float64))
    # refit without the points of rounded corners and bumps, which sit off the straight edge
    normal = np.stack([direction[..., 1], -direction[..., 0]], axis=-1)  # [K, 4, 2]
    offset = centroid[..., 0] * direction[..., 1] - centroid[..., 1] * direction[..., 0]
    residual = np.abs(points @ normal.transpose(0, 2, 1) - offset[:, None])  # [K, N, 4]
    counts = np.count_nonzero(near, axis=1)  # [K, 4]
    typical = (residual * near).sum(axis=1) / np.maximum(counts, 1)
    inliers = near & (residual < np.maximum(INLIER[0], INLIER[1] * typical)[:, None])
    use = np.where(np.count_nonzero(inliers, axis=1)[:, None] >= 4, inliers, near)
    centroid, direction = _principal_lines(moments, use.astype(np.float64))
    enough = (counts >= 4)[..., None]  # too few points along a run: the run itself
    return np.where(enough, centroid, starts), np.where(enough, direction, u)


def aspect_priors(quads: np.ndarray, leaning: bool = False) -> np.ndarray:
    """How card-like each quad's [M, 4, 2] proportions are: 1 for a card seen up to about 45 degrees, 0 for a
    quad flatter than OBLIQUE_SHARE; under a `leaning` camera, 0 only for a sliver, or a quad flatter than OBLIQUE_SHARE
    standing up the picture (no leaning camera squeezes a card so).

    Far cards under a steep view foreshorten toward squares, so squares keep some weight;
    the classifier settles which way is up.
    """
    convex = np.array([cv2.isContourConvex(quad.reshape(-1, 1, 2)) for quad in quads], bool)
    ratio = squarenesses(quads)
    prior = np.where(ratio < CARDLIKE_SQUARENESS, 1.0, 1.0 - 2.0 * (ratio - CARDLIKE_SQUARENESS))
    card = ~flat(quads) | (leaning & (ratio >= SLIVER * CARD_ASPECT) & level(quads, LEVEL))
    return np.where(convex & card, prior, 0.0)


def flat(quads: np.ndarray) -> np.ndarray:
    """Whether each quad [M, 4, 2] is flatter than any card seen from up to about 53 degrees (OBLIQUE_SHARE): a card
    only where a camera leans further, and the outline offers no quad of a card's proportions."""
    return squarenesses(quads) < OBLIQUE_SHARE * CARD_ASPECT
