"""The locator's quad geometry: sides, squareness, turns, quads alike, halves, crossings and overlaps.

A quad is float32 [4, 2] (corners in turn round it); several are [N, 4, 2].
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.crop import order_quad

NEXT = [1, 2, 3, 0]
"""Index of each quad corner's successor (cheaper than np.roll on four corners)."""
BEFORE = [3, 0, 1, 2]
"""Index of each quad corner's predecessor."""
MEETING = 0.2
"""Least sine of the angle at which two sides of a card, even seen tilted, meet at a corner."""


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """The lengths of one quad's four sides, side i running from corner i to corner i+1."""
    return np.linalg.norm(quad[NEXT] - quad, axis=1)


def long_side(quad: np.ndarray) -> float:
    """One quad's longest side in pixels (a card's length), at least one pixel."""
    return max(float(side_lengths(quad).max()), 1.0)


def long_sides(quads: np.ndarray) -> np.ndarray:
    """`long_side` of each of the quads [N, 4, 2], measured at once."""
    return np.maximum(np.linalg.norm(quads[:, NEXT] - quads, axis=2).max(axis=1, initial=0.0), 1.0)


def squareness(quad: np.ndarray) -> float:
    """Mean length of the quad's shorter pair of opposite sides over that of its longer pair."""
    sides = side_lengths(quad)
    pairs = (sides[0] + sides[2], sides[1] + sides[3])
    return float(min(pairs) / max(max(pairs), 1e-6))


def squarenesses(quads: np.ndarray) -> np.ndarray:
    """`squareness` of each of the quads [N, 4, 2] (its sides measured with np.hypot)."""
    step = quads[:, NEXT] - quads
    sides = np.hypot(step[..., 0], step[..., 1])
    across, along = sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]
    return np.minimum(across, along) / np.maximum(np.maximum(across, along), 1e-6)


def level(quads: np.ndarray, degrees: float) -> np.ndarray:
    """Whether each quad's [N, 4, 2] longer pair of sides lies within `degrees` of the picture's horizontal."""
    step = quads[:, NEXT] - quads
    sides = np.hypot(step[..., 0], step[..., 1])
    longer = np.where((sides[:, 0] + sides[:, 2] >= sides[:, 1] + sides[:, 3])[:, None], [0, 2], [1, 3])
    run = np.take_along_axis(step, longer[..., None], axis=1)
    run = run[:, 0] - run[:, 1]  # the two long sides run opposite ways round the quad
    return np.abs(run[:, 1]) <= np.tan(np.radians(degrees)) * np.abs(run[:, 0])


def turns(quads: np.ndarray) -> np.ndarray:
    """The direction of each quad's first side, in degrees modulo 90 (a card's four sides alike)."""
    first = quads[:, 1] - quads[:, 0]
    return np.degrees(np.arctan2(first[:, 1], first[:, 0])) % 90


def areas(quads: np.ndarray | list[np.ndarray]) -> np.ndarray:
    """Each quad's area, never under 1e-6 (so that areas divide)."""
    return np.maximum(np.abs(np.array([cv2.contourArea(q) for q in quads])), 1e-6)


def alike(a: np.ndarray, b: np.ndarray, degrees: float, size: float) -> np.ndarray:
    """For each pair of quads from `a` [N, 4, 2] and `b` [M, 4, 2], whether they are turned within
    `degrees` of each other (modulo 90) and their areas within a factor `size` [N, M]."""
    turned = np.abs((turns(a)[:, None] - turns(b)[None, :] + 45) % 90 - 45) < degrees
    sized = np.abs(np.log(areas(a)[:, None] / areas(b)[None, :])) < np.log(size)
    return turned & sized


def halves(quad: np.ndarray) -> list[np.ndarray]:
    """The two halves of a quad cut across its longer pair of sides: the two cards lying side by side it may hold."""
    p = order_quad(quad)  # the first side is a short one
    m12, m30 = (p[1] + p[2]) / 2, (p[3] + p[0]) / 2
    return [np.array([p[0], p[1], m12, m30], np.float32), np.array([m30, m12, p[2], p[3]], np.float32)]


GRID = 256
"""Corners are put on a grid of 1/GRID of a pixel before two quads are intersected (see `on_grid`)."""


def on_grid(quads: np.ndarray) -> np.ndarray:
    """Quads [..., 4, 2] with their corners rounded to 1/GRID of a pixel, as `intersection` takes them.

    OpenCV's intersectConvexConvex gives the whole of one quad when a side of each lies on one line up
    to rounding (corners at x = -2e-15 and 2e-15 beside a side at x = 0, as the search makes at a frame's
    edge); on the grid such sides coincide exactly and it is right.
    """
    return (np.round(np.asarray(quads, np.float32) * GRID) / GRID).astype(np.float32)


def intersection(a: np.ndarray, b: np.ndarray) -> float:
    """Area of the intersection of two convex quads [4, 2] put `on_grid`."""
    return float(cv2.intersectConvexConvex(a, b)[0])


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    return union_share(intersection(on_grid(a), on_grid(b)), cv2.contourArea(a), cv2.contourArea(b))


def union_share(inter: float, area_a: float, area_b: float) -> float:
    """Intersection over union of two quads, from their intersection's area and their own."""
    return inter / max(area_a + area_b - inter, 1e-6)


def crossings(points: np.ndarray, directions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Corner i of each quad where side i-1 meets side i; also whether those two sides really cross [N, 4]."""
    p, u = points[:, BEFORE], directions[:, BEFORE]
    q, v = points, directions
    det = u[..., 1] * v[..., 0] - u[..., 0] * v[..., 1]
    ok = np.abs(det) > MEETING
    d = q - p
    t = (d[..., 1] * v[..., 0] - d[..., 0] * v[..., 1]) / np.where(ok, det, 1.0)
    return p + t[..., None] * u, ok


def convex(quads: np.ndarray) -> np.ndarray:
    """Whether each quad [N, 4, 2] is convex (all turns the same way)."""
    edges = quads[:, NEXT] - quads
    following = edges[:, NEXT]
    turning = edges[..., 0] * following[..., 1] - edges[..., 1] * following[..., 0]
    return (turning > 0).all(axis=1) | (turning < 0).all(axis=1)
