"""Quad geometry for the locator: four corners fitted to an outline, and overlaps of quads."""

from __future__ import annotations

import cv2
import numpy as np

from vision.crop import CARD_ASPECT


def fit_quad(contour: np.ndarray) -> np.ndarray | None:
    """Fit four corners to a contour from its longest straight runs, robust to bumps and bites."""
    points = contour.reshape(-1, 2).astype(np.float32)
    points = points[:: max(1, len(points) // 240)]  # enough points for a line fit, few enough to be quick
    perimeter = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(1.5, 0.012 * perimeter), True).reshape(-1, 2).astype(np.float32)
    if len(poly) < 4:
        return None
    ends = np.concatenate([poly[1:], poly[:1]])
    vectors = ends - poly
    lengths = np.hypot(vectors[:, 0], vectors[:, 1])
    angles = np.arctan2(vectors[:, 1], vectors[:, 0])
    # the two side directions of a card fold onto one angle modulo 90 degrees
    folded = np.exp(4j * angles)
    dominant = np.angle((lengths * folded).sum()) / 4
    starts, stops = [], []
    for family in (dominant, dominant + np.pi / 2):
        direction = np.array([np.cos(family), np.sin(family)], np.float32)
        normal = np.array([-direction[1], direction[0]], np.float32)
        close = np.abs(np.sin(angles - family)) < np.sin(np.radians(25))
        if close.sum() < 2:
            return None
        offsets = ((poly + ends) / 2) @ normal
        span = offsets.max() - offsets.min()
        for side in (offsets.min(), offsets.max()):
            near = close & (np.abs(offsets - side) < 0.3 * span)
            if not near.any():
                return None
            best = np.flatnonzero(near)[np.argmax(lengths[near])]
            starts.append(poly[best])
            stops.append(ends[best])
    a_lo, a_hi, b_lo, b_hi = _fit_runs(points, np.array(starts), np.array(stops))
    corners = [_intersect(a_lo, b_lo), _intersect(b_lo, a_hi), _intersect(a_hi, b_hi), _intersect(b_hi, a_lo)]
    if any(c is None for c in corners):
        return None
    quad = np.array(corners, np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return None
    return quad


def hull_quad(hull: np.ndarray) -> np.ndarray:
    """Four corners from a convex hull: its polygon approximation, else its min-area box."""
    perimeter = cv2.arcLength(hull, True)
    for fraction in (0.02, 0.04, 0.06):
        approx = cv2.approxPolyDP(hull, fraction * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _principal_lines(points: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total-least-squares line (centroid, unit direction) through the weighted points, one per row of `weight`."""
    count = np.maximum(weight.sum(axis=1), 1e-6)
    centroid = weight @ points / count[:, None]
    rel = points[None] - centroid[:, None]
    sxx = (weight * rel[..., 0] ** 2).sum(axis=1)
    syy = (weight * rel[..., 1] ** 2).sum(axis=1)
    sxy = (weight * rel[..., 0] * rel[..., 1]).sum(axis=1)
    angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    return centroid.astype(np.float32), np.stack([np.cos(angle), np.sin(angle)], axis=1).astype(np.float32)


def _fit_runs(points: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Fit a line (point, unit direction) to the contour points lying along each straight run."""
    d = ends - starts
    length = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6)
    u = d / length[:, None]
    normal = np.stack([-u[:, 1], u[:, 0]], axis=1)
    rel = points[None] - starts[:, None]
    along = (rel * u[:, None]).sum(axis=2)
    across = (rel * normal[:, None]).sum(axis=2)
    near = (np.abs(across) < np.maximum(1.5, 0.03 * length)[:, None]) & (along > -0.1 * length[:, None])
    near &= along < 1.1 * length[:, None]
    centroid, direction = _principal_lines(points, near.astype(np.float32))
    # refit without the points of rounded corners and bumps, which sit off the straight edge
    off = points[None] - centroid[:, None]
    residual = np.abs(off[..., 0] * direction[:, 1, None] - off[..., 1] * direction[:, 0, None])
    typical = (residual * near).sum(axis=1) / np.maximum(near.sum(axis=1), 1)
    inliers = near & (residual < np.maximum(0.75, 2.0 * typical)[:, None])
    use = np.where((inliers.sum(axis=1) >= 4)[:, None], inliers, near)
    centroid, direction = _principal_lines(points, use.astype(np.float32))
    enough = near.sum(axis=1) >= 4
    return [(c, v) if ok else (s, w) for c, v, ok, s, w in zip(centroid, direction, enough, starts, u)]


def _intersect(first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    """Crossing point of two lines given as (point, direction), or None when nearly parallel."""
    (p, u), (q, v) = first, second
    det = u[0] * (-v[1]) - u[1] * (-v[0])
    if abs(det) < 0.2:  # sides of a tilted card still meet at a clear angle
        return None
    t = ((q - p)[0] * (-v[1]) - (q - p)[1] * (-v[0])) / det
    return p + t * u


def aspect_prior(quad: np.ndarray) -> float:
    """How card-like a quad's proportions are: 1 for a card seen up to about 45 degrees, 0 for a sliver.

    Far cards under a steep view foreshorten toward squares, so squares keep some weight;
    the classifier settles which way is up.
    """
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return 0.0
    sides = np.hypot(*(quad[[1, 2, 3, 0]] - quad).T)  # corners run round the quad
    across, along = sides[0] + sides[2], sides[1] + sides[3]
    ratio = min(across, along) / max(across, along, 1e-6)
    if ratio < CARD_ASPECT * 0.6:
        return 0.0
    return 1.0 if ratio < 0.8 else 1.0 - 2.0 * (ratio - 0.8)


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over the smaller area of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2), b.reshape(-1, 1, 2))
    return inter / max(min(cv2.contourArea(a), cv2.contourArea(b)), 1e-6)


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2), b.reshape(-1, 1, 2))
    return inter / max(cv2.contourArea(a) + cv2.contourArea(b) - inter, 1e-6)


def offset_quad(quad: np.ndarray, distance: float) -> np.ndarray:
    """The quad with every side moved `distance` pixels outward (inward when negative), corners re-met.

    Sides that come out nearly parallel to their neighbour keep the corner moved along its bisector.
    """
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    flipped = cv2.contourArea(quad, oriented=True) < 0
    if flipped:  # work on the clockwise order (y down), hand back the caller's
        quad = quad[::-1]
    ends = np.roll(quad, -1, axis=0)
    along = ends - quad
    along /= np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-6)
    normal = np.stack([along[:, 1], -along[:, 0]], axis=1)  # outward for a clockwise quad (y down)
    moved = quad + distance * normal
    corners = []
    for i in range(4):
        crossing = _intersect((moved[i - 1], along[i - 1]), (moved[i], along[i]))
        corners.append(crossing if crossing is not None else quad[i] + distance * (normal[i - 1] + normal[i]) / 2)
    out = np.array(corners, np.float32)
    return out[::-1].copy() if flipped else out
