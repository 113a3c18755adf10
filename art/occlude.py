"""Perturbations of decoded frames for tests: an arm crossing the view, dropped frames, a nudged camera."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

SKIN = (120, 160, 215)
"""BGR of the arm: a light skin under warm room light."""
_SHADE = 0.55
"""How much of the light the arm's shadow on the table takes away."""


def _capsule(a: np.ndarray, b: np.ndarray, radius: float, steps: int = 12) -> np.ndarray:
    """The outline of a rounded bar from a to b."""
    along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
    across = np.array([-along[1], along[0]])
    turn = np.linspace(0, math.pi, steps)
    tip_b = [b + radius * (across * math.cos(t) + along * math.sin(t)) for t in turn]
    tip_a = [a - radius * (across * math.cos(t) + along * math.sin(t)) for t in turn]
    return np.array(tip_b + tip_a)


def _arm_mask(shape: tuple[int, int], shoulder: np.ndarray, tip: np.ndarray) -> np.ndarray:
    """A forearm from a point off the frame to a hand whose fingers end at `tip`, as a soft mask."""
    height, width = shape
    size = 0.06 * math.hypot(width, height)
    along = (tip - shoulder) / max(float(np.linalg.norm(tip - shoulder)), 1e-6)
    across = np.array([-along[1], along[0]])
    wrist = tip - along * 1.6 * size
    knuckles = wrist + along * 0.9 * size
    mask = np.zeros(shape, np.float32)
    pieces = [_capsule(shoulder, wrist, 0.45 * size), _capsule(wrist, knuckles, 0.6 * size)]
    pieces += [
        _capsule(knuckles + across * k * 0.28 * size, tip + across * k * 0.3 * size, 0.13 * size)
        for k in (-1.5, -0.5, 0.5, 1.5)
    ]
    for piece in pieces:
        cv2.fillPoly(mask, [np.round(piece * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    return cv2.GaussianBlur(mask, (0, 0), 1.2)


def _shifted(mask: np.ndarray, down: int, right: int) -> np.ndarray:
    """The mask moved down and right, nothing coming in from the far edges (a shadow falls one way)."""
    out = np.zeros_like(mask)
    out[down:, right:] = mask[: mask.shape[0] - down, : mask.shape[1] - right]
    return out


def arm_across(
    frames: Sequence[np.ndarray], start: int, length: int = 15, seed: int = 0
) -> list[np.ndarray]:
    """The frames with an arm reaching in from the bottom edge and sweeping across for `length` frames.

    The hand travels from one side of the table to the other over the middle of the frame, so it
    passes over some of the cards; the frames outside the sweep are returned unchanged (copied).
    """
    out = [frame.copy() for frame in frames]
    rng = np.random.default_rng(seed)
    if not out:
        return out
    height, width = out[0].shape[:2]
    y = rng.uniform(0.35, 0.6) * height
    left, right = 0.15 * width, 0.85 * width
    if rng.random() < 0.5:
        left, right = right, left
    shoulder_x = rng.uniform(0.3, 0.7) * width
    for k in range(length):
        i = start + k
        if not 0 <= i < len(out):
            continue
        t = k / max(length - 1, 1)
        tip = np.array([left + (right - left) * t, y + 0.05 * height * math.sin(math.pi * t)])
        shoulder = np.array([shoulder_x, height * 1.3])
        arm = _arm_mask((height, width), shoulder, tip)
        shadow = _shifted(cv2.GaussianBlur(arm, (0, 0), 8.0), int(0.03 * height), int(0.02 * width))
        frame = out[i].astype(np.float32)
        frame *= (1 - _SHADE * shadow * (1 - arm))[..., None]
        light = 0.85 + 0.25 * np.linspace(0, 1, height, dtype=np.float32)[:, None]  # lit from above
        skin = np.array(SKIN, np.float32) * light[..., None]
        frame = frame * (1 - arm[..., None]) + skin * arm[..., None]
        out[i] = np.clip(frame, 0, 255).astype(np.uint8)
    return out


def drop_frames(count: int, share: float, seed: int = 0, longest: int = 3) -> list[int]:
    """The indices of the frames that still arrive when about `share` of `count` are lost in short
    runs of at most `longest`, a frame arriving between two runs (a loop falling behind, not a
    camera dropping out)."""
    rng = np.random.default_rng(seed)
    kept = np.ones(count, bool)
    target = round(share * count)
    while (~kept).sum() < target:
        first = int(rng.integers(1, max(count - 1, 2)))
        last = min(first + int(rng.integers(1, longest + 1)), count - 1)
        if kept[first - 1 : last + 1].all():
            kept[first:last] = False
    return [int(i) for i in np.flatnonzero(kept)]


def camera_shift(width: int, height: int, dx: float, dy: float, degrees: float) -> np.ndarray:
    """The 2x3 map of a camera nudged by (dx, dy) pixels and turned `degrees` about the frame's centre."""
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    matrix[:, 2] += (dx, dy)
    return matrix


def shift_frame(frame: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """The frame as the nudged camera sees it; the edge that comes into view repeats the border."""
    height, width = frame.shape[:2]
    return cv2.warpAffine(
        frame, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def shift_points(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Frame points (N x 2) where the nudged camera sees them: for seats and ground-truth corners."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    return pts @ matrix[:, :2].T + matrix[:, 2]
