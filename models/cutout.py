"""Find the one card in a data-set photo (card roughly centred) as a quad, for cutting it out."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.crop import CARD_ASPECT, order_quad, warp_card

WORK_SIDE = 320
"""Long side of the downscaled photo the search runs on (pixels)."""


@dataclass(frozen=True)
class Photo:
    """One labelled photo of the shared data set."""

    path: Path
    card: str  # data-set id such as 'denari-09'
    deck: str
    split: str


def read_photos(data_dir: Path, split: str) -> list[Photo]:
    """List the photos of one split ('train' or 'valid') from `photos/labels.csv`."""
    labels = data_dir / "photos" / "labels.csv"
    if not labels.is_file():
        raise FileNotFoundError(f"no photo labels at {labels}")
    with labels.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [
        Photo(data_dir / row["file"], row["card"], row["deck"], row["split"])
        for row in rows
        if row["split"] == split
    ]


def _quad_from_mask(mask: np.ndarray) -> np.ndarray | None:
    """Fit four corners to the largest blob of a binary mask, or None when there is none."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    perimeter = cv2.arcLength(hull, True)
    for fraction in np.linspace(0.01, 0.1, 19):
        approx = cv2.approxPolyDP(hull, fraction * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _paper_rim(image: np.ndarray, quad: np.ndarray) -> float:
    """Fraction of a thin band just inside the quad that is plain card paper (bright, one colour)."""
    lab = cv2.cvtColor(warp_card(image, order_quad(quad)), cv2.COLOR_BGR2LAB).astype(np.float32)
    band = np.ones(lab.shape[:2], bool)
    band[4:-4, 4:-4] = False
    band[:1], band[-1:], band[:, :1], band[:, -1:] = False, False, False, False
    rim = lab[band]
    paper = np.median(rim, axis=0)
    if paper[0] < 110:  # card paper is never this dark, even under a dim lamp
        return 0.0
    return float((np.linalg.norm(rim - paper, axis=1) < 30).mean())


def _plausible(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Tell whether a quad looks like one portrait card filling a fair part of the photo."""
    area = cv2.contourArea(quad)
    h, w = shape[:2]
    if not 0.04 * h * w < area < 0.7 * h * w:
        return False
    pts = order_quad(quad)
    width = (np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[3])) / 2
    height = (np.linalg.norm(pts[3] - pts[0]) + np.linalg.norm(pts[2] - pts[1])) / 2
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    parallel = max(sides[0] / sides[2], sides[2] / sides[0], sides[1] / sides[3], sides[3] / sides[1])
    return abs(width / height - CARD_ASPECT) < 0.12 and parallel < 1.12


def _grabcut_mask(small: np.ndarray) -> np.ndarray:
    """Segment the centred object from the photo's border with GrabCut."""
    h, w = small.shape[:2]
    mask = np.full((h, w), cv2.GC_BGD, np.uint8)
    mask[int(0.04 * h) : int(0.96 * h), int(0.04 * w) : int(0.96 * w)] = cv2.GC_PR_BGD
    mask[int(0.3 * h) : int(0.7 * h), int(0.3 * w) : int(0.7 * w)] = cv2.GC_PR_FGD
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    cv2.grabCut(small, mask, None, bgd, fgd, 4, cv2.GC_INIT_WITH_MASK)
    return np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)


def _threshold_masks(small: np.ndarray) -> list[np.ndarray]:
    """Otsu-threshold each Lab and saturation channel, both ways round, as candidate masks."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    sat = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[:, :, 1]
    masks = []
    for channel in (*cv2.split(lab), sat):
        blurred = cv2.GaussianBlur(channel, (5, 5), 0)
        _, high = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        masks += [high, 255 - high]
    return masks


def _centre_blob(mask: np.ndarray, opening: int) -> np.ndarray:
    """Keep the filled connected blob under the photo's centre, after opening it (cuts thin links)."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((opening, opening), np.uint8))
    h, w = mask.shape
    count, labels = cv2.connectedComponents(mask)
    centre = labels[int(0.4 * h) : int(0.6 * h), int(0.4 * w) : int(0.6 * w)]
    ids, votes = np.unique(centre[centre > 0], return_counts=True)
    if count < 2 or ids.size == 0:
        return np.zeros_like(mask)
    blob = np.where(labels == ids[np.argmax(votes)], 255, 0).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.drawContours(np.zeros_like(mask), contours, -1, 255, cv2.FILLED)


def _outline_gradient(quad: np.ndarray, gradient: np.ndarray) -> float:
    """Mean image gradient along the four sides of a quad."""
    outline = cv2.polylines(np.zeros(gradient.shape, np.uint8), [np.round(quad).astype(np.int32)], True, 255, 1)
    return float(gradient[outline > 0].mean())


def _refine(quad: np.ndarray, gradient: np.ndarray) -> np.ndarray:
    """Hill-climb each corner so the sides lie on the strongest edges (snaps off stray blobs)."""
    quad = quad.copy()
    score = _outline_gradient(quad, gradient)
    moves = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    for step in (8, 4, 2, 1):
        improved = True
        while improved:
            improved = False
            for corner in range(4):
                for dx, dy in moves:
                    trial = quad.copy()
                    trial[corner] += (dx * step, dy * step)
                    trial_score = _outline_gradient(trial, gradient)
                    if trial_score > score:
                        quad, score, improved = trial, trial_score, True
    return quad


def find_card_quad(photo: np.ndarray) -> np.ndarray | None:
    """Return the ordered quad of the centred card in a BGR photo (full-size pixels), or None."""
    scale = WORK_SIDE / max(photo.shape[:2])
    small = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2GRAY).astype(np.float32)
    gradient = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    candidates = []
    for mask in [_grabcut_mask(small), *_threshold_masks(small)]:
        for opening in (3, 9, 17):
            quad = _quad_from_mask(_centre_blob(mask, opening))
            if quad is not None:
                candidates.append(quad)
    candidates += [quad * scale for quad in _located(photo)]
    h, w = small.shape[:2]
    centre = (w / 2, h / 2)
    plausible = [
        q
        for q in candidates
        if _plausible(q, small.shape)
        and cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) > 0
        and _paper_rim(small, q) > 0.7
    ]
    if not plausible:
        return None
    strength = {i: _outline_gradient(q, gradient) for i, q in enumerate(plausible)}
    best = plausible[max(strength, key=strength.__getitem__)]
    best_area = cv2.contourArea(best)
    enclosing = [  # a card's own art can frame a rectangle: prefer a clear outline around it
        i
        for i, q in enumerate(plausible)
        if cv2.contourArea(q) > 1.15 * best_area
        and strength[i] > 0.5 * max(strength.values())
        and all(cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(x), float(y)), False) >= 0 for x, y in best)
    ]
    if enclosing:
        best = plausible[max(enclosing, key=lambda i: cv2.contourArea(plausible[i]))]
    refined = _refine(best, gradient)
    keep = _plausible(refined, small.shape) and _paper_rim(small, refined) > 0.7
    return order_quad((refined if keep else best) / scale)


def _located(photo: np.ndarray) -> list[np.ndarray]:
    """Ask the pipeline's locator for its quads too, when it is installed."""
    try:
        from vision.locate import locate_cards
    except ImportError:
        return []
    return list(locate_cards(photo))
