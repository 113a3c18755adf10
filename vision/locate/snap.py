"""Corner refinement at full resolution: each side of a rough quad snapped to the card's outline."""

from __future__ import annotations

import cv2
import numpy as np

from vision.locate.geometry import NEXT, convex, crossings

SAMPLES = 14
"""Points along each side where the edge is searched."""
MIN_STEP = 12.0
"""Smallest colour change (summed over B, G, R) between neighbouring pixels that counts as an edge."""
SPAN = (0.12, 0.88)
"""Where along each side (shares of its length) the samples lie: a card's rounded corners left out."""
STRONG = 0.5
"""Share of a sample's strongest edge from which an edge farther out may be the card's outline."""
STRAIGHT = 0.9
"""Share of a side's samples whose outermost edges must line up for that edge to be taken (a back's printed frame lies inside)."""
TOLERANCE = (1.5, 0.25)
"""Distance off a side's median edge within which a sample's edge is on it: pixels, or this share of the reach if more."""
ASTRAY_REACHES = 2.5
"""Most a corner may move, in reaches, before the snapped quad is taken for a wrong one and the rough one kept."""


def _median_of_found(votes: np.ndarray) -> np.ndarray:
    """The median over the last axis, ignoring NaN (as np.nanmedian, which is slow on small arrays)."""
    ordered = np.sort(votes, axis=-1)  # NaN sorts last
    count = np.maximum((~np.isnan(votes)).sum(axis=-1, keepdims=True), 1)
    low = np.take_along_axis(ordered, (count - 1) // 2, axis=-1)
    high = np.take_along_axis(ordered, count // 2, axis=-1)
    return (low + high) / 2


def _side_fits(
    base: np.ndarray, normal: np.ndarray, centres: np.ndarray, step: np.ndarray, pick: np.ndarray, tolerance: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fit a line to each side through the picked edge of every sample: centroid, direction, inlier count."""
    n = base.shape[0]
    found = (step[np.arange(len(pick)), pick] > MIN_STEP).reshape(n, 4, SAMPLES)
    offset = centres[pick].reshape(n, 4, SAMPLES)
    points = base + offset[..., None] * normal[:, :, None, :]
    votes = np.where(found, offset, np.nan)
    votes[~found.any(axis=2)] = 0.0  # sides with no edge at all: their inliers stay empty
    typical = _median_of_found(votes)
    inlier = found & (np.abs(offset - typical) < tolerance.reshape(n, 1, 1))
    weight = inlier.astype(np.float32)
    count = weight.sum(axis=2)
    centroid = (points * weight[..., None]).sum(axis=2) / np.maximum(count, 1)[..., None]
    rel = (points - centroid[:, :, None, :]) * weight[..., None]
    sxx, syy = (rel[..., 0] ** 2).sum(axis=2), (rel[..., 1] ** 2).sum(axis=2)
    sxy = (rel[..., 0] * rel[..., 1]).sum(axis=2)
    angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)
    return centroid, np.stack([np.cos(angle), np.sin(angle)], axis=2).astype(np.float32), count


def refine_quads(frame: np.ndarray, quads: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """Snap the sides of rough quads [N, 4, 2] (frame pixels) to the card's outline within `reach` [N]."""
    return snap_sides(frame, quads, reach)[0]


def snap_sides(frame: np.ndarray, quads: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Snapped quads, and for each side [N, 4] whether a straight edge runs along it.

    Sides without a consistent straight edge, and quads whose sides do not meet cleanly, keep
    their rough corners.
    """
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    n = len(quads)
    if n == 0:
        return quads, np.ones((0, 4), bool)
    reach = np.broadcast_to(np.asarray(reach, np.float32), (n,))
    # one pass for all the quads, the widest reach sampled; each quad's edges are looked for within its
    # own reach (`within`), so each snaps as it would alone (a pass per size costs more than the samples)
    radius = int(np.ceil(reach.max()))
    offsets = np.arange(-radius, radius + 1, dtype=np.float32)
    ends = quads[:, NEXT]
    along = ends - quads
    length = np.maximum(np.linalg.norm(along, axis=2, keepdims=True), 1e-6)
    u = along / length
    normal = np.stack([-u[..., 1], u[..., 0]], axis=2)
    outward = (((quads + ends) / 2 - quads.mean(axis=1, keepdims=True)) * normal).sum(axis=2, keepdims=True)
    normal = normal * np.where(outward < 0, -1.0, 1.0).astype(np.float32)
    t = np.linspace(*SPAN, SAMPLES, dtype=np.float32)
    base = quads[:, :, None, :] + t[None, None, :, None] * along[:, :, None, :]  # [N, 4, S, 2]
    grid = base[..., None, :] + offsets[:, None] * normal[:, :, None, None, :]  # [N, 4, S, K, 2]
    flat = grid.reshape(-1, len(offsets), 2)
    profiles = cv2.remap(frame, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    profiles = profiles.astype(np.float32).reshape(flat.shape[0], len(offsets), -1)
    change = np.abs(np.diff(profiles, axis=1))
    # summed over the channels [N*4*S, K-1]; whole numbers, so exactly as .sum(axis=2), only sooner
    step = change[..., 0] + change[..., 1] + change[..., 2] if change.shape[2] == 3 else change.sum(axis=2)
    centres = (offsets[:-1] + offsets[1:]) / 2
    within = np.abs(centres)[None, :] <= np.repeat(reach, 4 * SAMPLES)[:, None]
    step = np.where(within, step, 0.0)
    spread = np.maximum(np.repeat(reach, 4 * SAMPLES) / 2, 1.0)[:, None]
    nearest = (step * np.exp(-0.5 * (centres[None, :] / spread) ** 2)).argmax(axis=1)
    strong = (step >= STRONG * step.max(axis=1, keepdims=True)) & (step > MIN_STEP)
    outermost = len(centres) - 1 - np.argmax(strong[:, ::-1], axis=1)
    tolerance = np.maximum(TOLERANCE[0], TOLERANCE[1] * reach)[:, None]
    near_fit = _side_fits(base, normal, centres, step, nearest, tolerance)
    outer_fit = _side_fits(base, normal, centres, step, outermost, tolerance)
    # the outline is the outermost edge when it runs straight along the whole side (a back's
    # printed frame lies inside it); on lace or grain the outermost edges scatter, so the
    # nearest one is taken instead
    use_outer = outer_fit[2] >= STRAIGHT * SAMPLES
    centroid = np.where(use_outer[..., None], outer_fit[0], near_fit[0])
    direction = np.where(use_outer[..., None], outer_fit[1], near_fit[1])
    count = np.where(use_outer, outer_fit[2], near_fit[2])
    trusted = count >= SAMPLES // 2
    line_point = np.where(trusted[..., None], centroid, quads)
    line_dir = np.where(trusted[..., None], direction, u)
    refined, crossed = crossings(line_point, line_dir)
    moved = np.abs(refined - quads).max(axis=(1, 2))
    good = (crossed.all(axis=1) & (moved <= ASTRAY_REACHES * reach) & convex(refined)
            & np.isfinite(refined).all(axis=(1, 2)))
    return np.where(good[:, None, None], refined, quads).astype(np.float32), trusted | ~good[:, None]


def refine_quad(frame: np.ndarray, quad: np.ndarray, reach: float) -> np.ndarray:
    """Snap the sides of one rough quad to the card's outline (see `refine_quads`)."""
    return refine_quads(frame, np.asarray(quad, np.float32)[None], np.array([reach], np.float32))[0]
