"""The cue maps: the frame's edges, and the binary maps whose regions may be cards."""

from __future__ import annotations

import cv2
import numpy as np

CANNY_LOW, CANNY_HIGH = 20, 60
"""Canny's hysteresis thresholds on the blurred brightness and saturation of a plain table (those the
locator's figures in docs/BENCHMARKS.md were measured with)."""
LOCAL_LIFT = 12
"""Grey levels by which card stock is lighter than its surroundings in every channel ("local" cue)."""
BRIGHT_LIFT = 40
"""Grey levels by which white card stock is lighter still, beside a cloth's paler squares ("bright" cue)."""
CONTRAST_LEVELS = 40
"""Largest channel difference from the surroundings' colour of a card, face or back ("contrast" cue)."""
CUE_WINDOWS_PER_SIDE = 6
"""Windows across the downscaled frame's long side: the surroundings' window is this fraction of it (1/6),
several cards wide."""
COLOUR_LIFT = 60
"""Saturation (0-255) by which a card's printed back stands out of a grey table round it (`colour_mask`):
a lace or linen cloth, marble or paper keeps within 20 of its own, a printed back lies 100 or more
above it."""
CRISP = 20
"""Grey levels a pixel differs from its blurred surroundings at a crisp edge (a cloth's weave stays under it)."""
CRISP_KEPT = 40
"""Grey level of the shrunk crisp map from which a pixel lies on an outline (a one-pixel outline survives the shrink)."""
EDGE_STEP = 45
"""Least gradient (|dx| + |dy| of a 3x3 Sobel over the blurred brightness or saturation) of an edge pixel
on a checked cloth (Canny's thresholds elsewhere are 20 and 60). Of eval_size.py's 480 cards on the
cloth, 45 missed 3, as Canny does, and 30 missed 4 (30 read one more of eval_pairs.py's close pairs,
and fewer cards in a blurred frame)."""


def canny(gray: np.ndarray, low: float, high: float) -> np.ndarray:
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


def cue_masks(small: np.ndarray, cues: tuple[str, ...], checked: bool = False,
              side: int | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """Edges (widened, for scoring outlines) and the binary maps whose regions may be cards; `side` is the
    long side of the whole downscaled frame when `small` is a part of it (the surroundings are its).

    The edges are those of brightness and of saturation: Canny's on a quiet table; on a `checked` cloth
    (where edges abound and Canny's hysteresis grows with them) the same thin lines without the
    hysteresis (`thin_edges`), at about half the cost.
    """
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    saturation = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[:, :, 1]
    if checked:
        edges = thin_edges(gray, saturation)
    else:
        edges = canny(cv2.GaussianBlur(gray, (5, 5), 0), CANNY_LOW, CANNY_HIGH)
        edges |= canny(cv2.GaussianBlur(saturation, (5, 5), 0), CANNY_LOW, CANNY_HIGH)
    masks = []
    if "edges" in cues:  # regions enclosed by edges: a card's margin inside its outline
        masks.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    if "thin" in cues:  # the same with bare edges: small cards' margins are a pixel or two wide
        masks.append(edges.copy())
    window = ((side or max(small.shape[:2])) // CUE_WINDOWS_PER_SIDE) | 1
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    if "local" in cues or "bright" in cues:
        whiteness = least_channel(small)
        lifted = cv2.subtract(whiteness, cv2.blur(whiteness, (window, window)))
    if "local" in cues:  # lighter than its surroundings in every channel: card stock on a table
        masks.append(_solid(cv2.threshold(lifted, LOCAL_LIFT, 255, cv2.THRESH_BINARY)[1], closing))
    if "bright" in cues:  # lighter still: white card stock beside the paler squares of a cloth
        masks.append(_solid(cv2.threshold(lifted, BRIGHT_LIFT, 255, cv2.THRESH_BINARY)[1], closing))
    if "contrast" in cues:  # unlike the table's colour around it: backs as well as faces
        diff = cv2.absdiff(small, cv2.blur(small, (window, window)))
        apart = greatest_channel(diff)
        masks.append(_solid(cv2.threshold(apart, CONTRAST_LEVELS, 255, cv2.THRESH_BINARY)[1], closing))
    return cv2.dilate(edges, np.ones((5, 5), np.uint8)), masks


def colour_mask(small: np.ndarray, side: int | None = None) -> np.ndarray:
    """The regions more coloured than the table round them by COLOUR_LIFT: on a grey table (`Cloth.grey`),
    a card's printed back, whose white margin a lace cloth's pattern swamps; `side` as in `cue_masks`."""
    saturation = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[:, :, 1]
    window = ((side or max(small.shape[:2])) // CUE_WINDOWS_PER_SIDE) | 1
    lifted = cv2.subtract(saturation, cv2.blur(saturation, (window, window)))
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return _solid(cv2.threshold(lifted, COLOUR_LIFT, 255, cv2.THRESH_BINARY)[1], closing)


def thin_edges(gray: np.ndarray, saturation: np.ndarray) -> np.ndarray:
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
    return greatest_channel(edges)


def least_channel(image: np.ndarray) -> np.ndarray:
    """Each pixel's least channel (of B, G, R): the channels split first, which OpenCV takes sooner than views."""
    first, *others = cv2.split(image)
    for channel in others:
        first = cv2.min(first, channel)
    return first


def greatest_channel(image: np.ndarray) -> np.ndarray:
    """Each pixel's greatest channel, as `least_channel`."""
    first, *others = cv2.split(image)
    for channel in others:
        first = cv2.max(first, channel)
    return first


def _solid(mask: np.ndarray, closing: np.ndarray) -> np.ndarray:
    """Close small gaps (a card's drawings) and drop specks."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, closing)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def sharp_mask(frame: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Crisp outlines found at full resolution, filled where they enclose: a card's cut edge and
    printed back stay sharp where a cloth's woven checks blur into each other."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    detail = cv2.absdiff(gray, cv2.GaussianBlur(gray, (9, 9), 1.5))
    crisp = cv2.threshold(detail, CRISP, 255, cv2.THRESH_BINARY)[1]
    small = cv2.resize(crisp, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
    outline = cv2.threshold(small, CRISP_KEPT, 255, cv2.THRESH_BINARY)[1]
    return cv2.morphologyEx(outline, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
