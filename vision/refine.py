"""Corner refinement at full resolution: each side of a rough quad snapped to the card's edge."""

from __future__ import annotations

import cv2
import numpy as np

SAMPLES = 14
"""Points along each side where the edge is searched."""


def _side_lines(frame: np.ndarray, quad: np.ndarray, reach: float) -> list[tuple[np.ndarray, np.ndarray] | None]:
    """For each side, a line (point, direction) through the strongest edges found across it, or None."""
    centre = quad.mean(axis=0)
    radius = int(np.ceil(reach))
    offsets = np.arange(-radius, radius + 1, dtype=np.float32)
    t = np.linspace(0.12, 0.88, SAMPLES, dtype=np.float32)[:, None]
    bases, normals = [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        u = (b - a) / max(float(np.hypot(*(b - a))), 1e-6)
        n = np.array([-u[1], u[0]], np.float32)
        if np.dot(n, (a + b) / 2 - centre) < 0:
            n = -n  # point outward
        bases.append(a + t * (b - a))
        normals.append(np.repeat(n[None], SAMPLES, axis=0))
    base = np.concatenate(bases)[:, None, :]
    normal = np.concatenate(normals)[:, None, :]
    points = base + offsets[None, :, None] * normal
    profiles = cv2.remap(
        frame, points[..., 0], points[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    if profiles.ndim == 2:
        profiles = profiles[..., None]
    step = np.abs(np.diff(profiles, axis=1)).sum(axis=2)  # colour change between neighbours
    centres = (offsets[:-1] + offsets[1:]) / 2
    # a card's outline is its outermost strong edge: inner frames (the back's pattern) lie inside it
    strong_enough = step >= 0.5 * step.max(axis=1, keepdims=True)
    k = len(centres) - 1 - np.argmax(strong_enough[:, ::-1], axis=1)
    score = step
    # sub-pixel: a parabola through the peak and its neighbours
    k0, k2 = np.clip(k - 1, 0, len(centres) - 1), np.clip(k + 1, 0, len(centres) - 1)
    rows = np.arange(len(k))
    left, mid, right = score[rows, k0], score[rows, k], score[rows, k2]
    denom = left - 2 * mid + right
    shift = np.where(np.abs(denom) > 1e-6, 0.5 * (left - right) / np.where(denom == 0, 1, denom), 0.0)
    offset = centres[k] + np.clip(shift, -0.5, 0.5)
    strong = step[rows, k] > 12.0
    edge_points = base[:, 0, :] + offset[:, None] * normal[:, 0, :]
    lines: list[tuple[np.ndarray, np.ndarray] | None] = []
    for i in range(4):
        side = slice(i * SAMPLES, (i + 1) * SAMPLES)
        off, ok = offset[side], strong[side]
        if ok.sum() < SAMPLES // 2:
            lines.append(None)
            continue
        inliers = ok & (np.abs(off - np.median(off[ok])) < max(1.5, 0.25 * reach))
        if inliers.sum() < SAMPLES // 2:
            lines.append(None)
            continue
        vx, vy, x0, y0 = cv2.fitLine(edge_points[side][inliers], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    return lines


def _crossing(first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    """Crossing point of two lines given as (point, direction), or None when nearly parallel."""
    (p, u), (q, v) = first, second
    det = u[1] * v[0] - u[0] * v[1]
    if abs(det) < 0.2:
        return None
    t = ((q - p)[1] * v[0] - (q - p)[0] * v[1]) / det
    return p + t * u


def refine_quad(frame: np.ndarray, quad: np.ndarray, reach: float) -> np.ndarray:
    """Snap the sides of a rough quad (frame pixels) to the strongest nearby edges; keep unsure sides."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    found = _side_lines(frame, quad, reach)
    lines = []
    for i, line in enumerate(found):
        a, b = quad[i], quad[(i + 1) % 4]
        lines.append(line if line is not None else (a, (b - a) / max(float(np.hypot(*(b - a))), 1e-6)))
    corners = [_crossing(lines[i - 1], lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return quad
    refined = np.array(corners, np.float32)
    if np.abs(refined - quad).max() > 2.5 * reach or not cv2.isContourConvex(refined.reshape(-1, 1, 2)):
        return quad
    return refined
