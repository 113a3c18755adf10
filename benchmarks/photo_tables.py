"""Tables photographed, not drawn: the shared photos' tables with their card painted out, to film hands on.

Each shared photo shows one card roughly in the middle of a real table (paper, cloth, wood, marble,
lace). The card is found by the pipeline's own reader; the photo is halved (a frame never shows the
table finer) and its uneven light evened out, judged round the card; the card's quad, grown by GROW
of its length (its shadow, the locator's slack), is filled from the table round it by quilting
(Efros and Freeman): square patches of the table, each chosen among those whose edge best matches
what is already there, laid row by row over the hole. Its scale is taken from the card's length (a
Neapolitan card is scene.CARD_H_CM long). What is left is a `art.table.Surface` laid under a
generated hand, mirrored beyond its edges as far as the table reaches. A photo whose card covers
most of it, or on which the reader still finds a card once painted out, is passed over.

The photos are read from the shared data folder (never copied into the repository): only the
benchmarks use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from art.scene import CARD_H_CM
from art.table import Surface
from benchmarks import harness
from vision.io import read_image
from vision.recognize import CardReader

GROW = 0.05
"""Share of the card's length its quad is grown by all round before it is painted out: its shadow and
the few pixels of its edge a locator's quad may leave outside."""
SHRINK = 2
"""The photo is shrunk this many times before it is painted out: about 0.03 cm a pixel, finer than
the 0.05-0.15 cm a pixel of the table a 1280x720 frame shows."""
PATCH = 32
"""Side in pixels (of the shrunk photo, about 1 cm) of the patches the hole is quilted with: even."""
OVERLAP_PIXELS = 8
"""Pixels each patch shares with those laid before it, by which it is chosen."""
CLOSE = 0.1
"""A patch is drawn at random among those whose overlap differs from the best one's by at most this share."""
SOFT = 1.5
"""Blur (pixels of the half-size grey picture) before patches are compared."""
MOST_PAINTED = 0.65
"""Largest share of a photo its grown card may cover: past it the table would be mostly made up (the
quilt's patches repeated, mirrored into motifs the table never had), and the photo is passed over."""
EVEN = 0.2
"""Blur (as a share of the photo's short side) of the light evened out: the lamp's pool and the
vignetting of one photo, which mirrored tiles would repeat as bright and dark patches."""


def photo_tables(data: Path) -> list[tuple[Path, str]]:
    """Every shared photo (both splits) as (path, deck): each deck was photographed on its own table."""
    return [(path, deck) for split in ("train", "valid") for path, _, deck in harness.photos(data, split)]


def choose(tables: Sequence[tuple[Path, str]], seed: int, number: int) -> list[Path]:
    """Hand `number`'s photos in the order to try: its deck's table by turns over the decks (shifted by one
    each round, so each table is seen from above and from the table's edge), a photo at random."""
    decks = sorted({deck for _, deck in tables})
    deck = decks[(number + number // len(decks)) % len(decks)]
    paths = sorted(path for path, owner in tables if owner == deck)
    start = int(np.random.default_rng([seed, number, 2]).integers(len(paths)))
    return paths[start:] + paths[:start]


def _grown(quad: np.ndarray, by: float) -> np.ndarray:
    """The quad moved outward from its centre by `by` pixels along each corner's direction."""
    centre = quad.mean(axis=0)
    out = quad - centre
    lengths = np.linalg.norm(out, axis=1, keepdims=True)
    return centre + out * (1 + by / np.maximum(lengths, 1e-6))


def _sources(hole: np.ndarray, side: int) -> np.ndarray:
    """Mask over the corners (top left) of `side`-pixel patches: True where one lies wholly outside the hole."""
    sums = cv2.integral(hole.astype(np.uint8))
    inside = sums[side:, side:] - sums[:-side, side:] - sums[side:, :-side] + sums[:-side, :-side]
    return inside == 0


def _starts(low: int, high: int, size: int) -> list[int]:
    """Even patch corners along one axis covering [low, high), each overlapping the one before, within the picture."""
    step = PATCH - OVERLAP_PIXELS
    first = max(0, low - OVERLAP_PIXELS) // 2 * 2
    starts = range(first, max(first + 1, high - OVERLAP_PIXELS), step)
    return sorted({min(start, (size - PATCH) // 2 * 2) for start in starts})


def _grey(picture: np.ndarray) -> np.ndarray:
    """The picture's grey levels at half its size, softened: where patches are compared (a quarter of the
    work), by their shapes rather than their grain (grain matches a smooth patch best)."""
    grey = cv2.cvtColor(np.clip(picture, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
    small = cv2.resize(grey, (picture.shape[1] // 2, picture.shape[0] // 2), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), SOFT)


def quilt(picture: np.ndarray, hole: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The picture with its hole filled by patches of the picture outside it, row by row, each drawn among
    those whose overlap with what is already there differs least (within CLOSE of the best); patches
    are compared in grey at half size."""
    height, width = (hole.shape[0] // 2 * 2, hole.shape[1] // 2 * 2)
    image = picture[:height, :width].astype(np.float32)
    hole = hole[:height, :width]
    image[hole] = image[~hole].mean(axis=0)  # nothing of the card may leak into the softened comparisons
    grey, side = _grey(image), PATCH // 2
    known = ~hole
    sources = _sources(hole.reshape(height // 2, 2, width // 2, 2).any(axis=(1, 3)), side)
    if not sources.any():
        raise ValueError(f"no {PATCH}-pixel patch of the table lies clear of the card")
    ys, xs = np.nonzero(hole)
    for y in _starts(int(ys.min()), int(ys.max()) + 1, height):
        for x in _starts(int(xs.min()), int(xs.max()) + 1, width):
            window = known[y:y + PATCH, x:x + PATCH]
            if window.all():
                continue
            seen = window.reshape(side, 2, side, 2).all(axis=(1, 3))
            if seen.any():
                template = grey[y // 2:y // 2 + side, x // 2:x // 2 + side]
                cost = cv2.matchTemplate(grey, template, cv2.TM_SQDIFF, mask=seen.astype(np.float32))
                cost = np.where(sources, np.maximum(cost, 0), np.inf)  # the sums' rounding can dip below 0
                near = np.flatnonzero(cost <= cost.min() * (1 + CLOSE) + 1e-3)
            else:
                near = np.flatnonzero(sources)
            sy, sx = (2 * int(k) for k in np.unravel_index(near[int(rng.integers(len(near)))], sources.shape))
            patch = image[sy:sy + PATCH, sx:sx + PATCH]
            # the patch fades in over the known pixels nearest the gap: no step where they meet
            near_gap = cv2.distanceTransform(window.astype(np.uint8), cv2.DIST_L2, 3)
            alpha = np.where(window, np.clip(0.5 - near_gap / OVERLAP_PIXELS, 0, 1), 1.0)[..., None]
            region = image[y:y + PATCH, x:x + PATCH]
            region[:] = region * (1 - alpha) + patch * alpha
            window[:] = True
            grey = _grey(image)
    return np.clip(image, 0, 255).astype(np.uint8)


def even_light(picture: np.ndarray, hole: np.ndarray) -> np.ndarray:
    """The picture with its slow changes of light divided out, its mean colour kept; the light is judged
    from the pixels outside the hole alone (a card would brighten it)."""
    image = picture.astype(np.float32) + 1.0
    height, width = picture.shape[:2]
    size = (max(1, width // 8), max(1, height // 8))
    seen = (~hole).astype(np.float32)
    small = cv2.resize(image * seen[..., None], size, interpolation=cv2.INTER_AREA)
    weight = cv2.resize(seen, size, interpolation=cv2.INTER_AREA)
    sigma = EVEN * min(size)
    small = cv2.GaussianBlur(small, (0, 0), sigma, borderType=cv2.BORDER_REFLECT_101)
    weight = cv2.GaussianBlur(weight, (0, 0), sigma, borderType=cv2.BORDER_REFLECT_101)
    low = cv2.resize(small / np.maximum(weight, 1e-3)[..., None], (width, height), interpolation=cv2.INTER_LINEAR)
    low = np.maximum(low, 1.0)  # deep in a wide hole nothing outside it reaches: what lies there is replaced
    evened = image / low * image[~hole].mean(axis=0)
    return np.clip(evened - 1.0, 0, 255).astype(np.uint8)


def paint_out(reader: CardReader, path: Path) -> Surface | None:
    """The photo's table with its card painted out, at the card's scale; None when no card is found in
    it, when the card covers too much of it (MOST_PAINTED), or when the reader still finds one after."""
    photo = read_image(path).pixels
    found = reader(photo)
    found = found[found.is_card]
    if not len(found):
        return None
    quad = max(found.quad, key=lambda q: cv2.contourArea(q.astype(np.float32))).astype(np.float64) / SHRINK
    sides = [float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
    length = max((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2)
    small = cv2.resize(photo, (photo.shape[1] // SHRINK, photo.shape[0] // SHRINK), interpolation=cv2.INTER_AREA)
    hole = np.zeros(small.shape[:2], np.uint8)
    cv2.fillPoly(hole, [np.round(_grown(quad, GROW * length)).astype(np.int32)], 1)
    if hole.mean() > MOST_PAINTED:
        return None
    rng = np.random.default_rng(list(path.stem.encode()))  # the same photo always paints out the same
    table = quilt(even_light(small, hole.astype(bool)), hole.astype(bool), rng)
    table = even_light(table, np.zeros(table.shape[:2], bool))  # the light of the patches laid, evened too
    if reader(table).is_card.any():
        return None
    return Surface(table, CARD_H_CM / length, path.stem)


def surface_for(reader: CardReader, tables: Sequence[tuple[Path, str]], seed: int, number: int) -> Surface:
    """The photographed table hand `number` is filmed on: the first of its photos that paints out clean."""
    for path in choose(tables, seed, number):
        surface = paint_out(reader, path)
        if surface is not None:
            return surface
    raise ValueError(f"no photo of hand {number}'s table paints out without a card left in it")
