"""The checked cloth: whether a frame shows one, decided once a frame as a `Cloth`, and its squares told from cards."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detections import CardDetections
from vision.io import as_bgr
from vision.labels import BACK
from vision.locate.config import LocatorConfig, downscaled
from vision.locate.cues import CANNY_HIGH, CANNY_LOW, canny, greatest_channel, least_channel
from vision.locate.geometry import alike, areas, squarenesses

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
CLOTH_SQUARE = 0.8
"""On a checked cloth, a quad whose short sides are this close to its long ones is taken for a check."""
GREY = 30
"""Median saturation (0-255) of a thumbnail under which the table is grey (lace, linen, marble, paper: the
shared photos' grey tables keep under 22, the coloured ones over 35): a card's printed back stands out
of it by its colour alone, where the cloth's pattern swamps its edges and lightness."""
PATCH_LIFT = 8
"""Grey levels by which a patch of the thumbnail stands out of its surroundings to count as a check."""
CHECK_WINDOWS_PER_SIDE = 12
"""Windows across the thumbnail's long side: the surroundings' window is this fraction of it (1/12)."""
CLOSE_LOOK = (16, 8, 20)
"""Lift, window fraction and least count of light and of dark checks of the second look (where light
and dark checks must also keep one size, CLOSE_ALIKE), for a checked
cloth seen close (a phone held over the table: 20-30 checks across the frame, which a window of two
checks and a faint lift merge with the half-tone ones between them): the drawn gingham of the speed
benchmark's close 720p table shows 29 light and 24 dark checks there; no valid or train photo, and no
other sample frame or speed scene, more than 12 of both kinds."""
CLOSE_ALIKE = 2.5
"""Factor within which the light and the dark checks of a cloth seen close keep one size."""
PATCH_AREA = (12, 600)
"""Smallest and largest area (thumbnail pixels) of a patch that may be a check."""
PATCH_SQUARE = 0.6
"""Least short over long side of a check's bounding box, and least share of the box it fills."""
PACKED = 2.5
"""Median distance, in checks' sides, from a light check to the nearest other up to which they lie next to
each other: the drawn gingham's about 1.6 to 1.9 (a light check's nearest light one lies across a dark or
half-tone one, or diagonally), seen close or far; a lace cloth's light patches between its holes about 6."""
PATCH_SIZED = 2.0
"""Factor within which of the typical check's area a patch counts as one (checks shrink far off)."""
LATTICE = 4
"""Neighbours of one size and turned alike from which a quad is one square of a lattice."""
LATTICE_TURN = 5.0
"""Degrees within which a lattice's squares are turned alike (a grid drawn in perspective stays within it)."""
BACKS_TURN = 8.0
"""Degrees within which the cloth's squares read as backs are turned alike (the classifier's quads are
snapped at full resolution and scatter more than the search's)."""
SIZED_ALIKE = 1.6
"""Factor within which two squares of one cloth keep their areas."""
LATTICE_STEP = 2.5
"""Distance between neighbouring squares' centres, in square roots of the area, up to which they are next to each other."""


@dataclass(frozen=True)
class Cloth:
    """What the table of one frame is taken to be, judged once on its thumbnail and handed on."""

    check: float
    """The typical area of a checked cloth's light checks in downscaled pixels; 0 when none shows."""
    thumb: np.ndarray | None = None
    """The thumbnail it was judged on (None when not judged)."""
    saturation: float = 255.0
    """The thumbnail's median saturation (0-255; 255 when not judged), judged once with it."""
    busy: float = 0.0
    """Share of the thumbnail near an edge (0 when not judged), judged once with it: the parts of a frame
    read alone take it from the whole frame's."""

    @classmethod
    def of(cls, small: np.ndarray) -> Cloth:
        """The cloth a downscaled frame shows."""
        thumb = _thumbnail(small)
        saturation = float(np.median(cv2.cvtColor(thumb, cv2.COLOR_BGR2HSV)[:, :, 1]))
        check = 4 * check_area(thumb)  # the thumbnail is half the downscaled copy's size
        return cls(check, thumb, saturation, _edge_share(thumb))

    @property
    def checked(self) -> bool:
        """Whether a checked cloth was seen before the search: its checks' cues and square outlines are passed over."""
        return self.check > 0

    @property
    def grey(self) -> bool:
        """Whether the table is grey (GREY), so that a card's back is told by its colour too."""
        return not self.checked and self.saturation < GREY

    def swamps(self, squares: int) -> bool:
        """Whether the cloth's checks swamp the cues, so that crisp outlines go first: a checked cloth seen
        before the search, `squares` dropped as a lattice during it, or a thumbnail mostly near an edge."""
        return self.checked or squares >= CHECKED_CLOTH or self.busy > BUSY_CLOTH

    def least_card_hull(self, rectangularity: float) -> float:
        """The hull area (downscaled pixels) an outline must exceed for a quad it fills to at least
        `rectangularity` to hold a card: a smaller outline gives only a check or two (`holds_a_card`); 0
        on a plain table."""
        return CHECK_SIZED * self.check * rectangularity

    def holds_a_card(self, quad: np.ndarray) -> bool:
        """Whether a quad (downscaled pixels) is larger than a check or two of a checked cloth."""
        return not self.checked or cv2.contourArea(quad) > CHECK_SIZED * self.check


PLAIN = Cloth(0.0)
"""A table taken for plain, unjudged: the crisp outlines, and a search told not to drop a lattice."""


def _thumbnail(small: np.ndarray) -> np.ndarray:
    """The downscaled frame at half its size again, where the table's pattern is judged."""
    half = (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2))
    return cv2.resize(small, half, interpolation=cv2.INTER_AREA)


def _edge_share(thumb: np.ndarray) -> float:
    """Share of a thumbnail near an edge: a checked cloth's grid covers most of it."""
    edges = canny(cv2.GaussianBlur(cv2.cvtColor(thumb, cv2.COLOR_BGR2GRAY), (3, 3), 0), CANNY_LOW, CANNY_HIGH)
    return float(np.count_nonzero(cv2.dilate(edges, np.ones((3, 3), np.uint8)))) / edges.size


def check_area(thumb: np.ndarray) -> float:
    """The typical area (thumbnail pixels) of a checked cloth's light checks, or 0 when the thumbnail
    shows none: a checked cloth has many light and many dark nearly square patches, each kind of about
    one size (a white cloth with red dots has the light ones only), the light ones next to each other
    (a lace cloth's light patches, as many, lie scattered between its holes). Seen close, fewer and
    larger checks show (CLOSE_LOOK): then light and dark checks must also be of one size."""
    whiteness, value = least_channel(thumb), greatest_channel(thumb)
    first = (PATCH_LIFT, CHECK_WINDOWS_PER_SIDE, CHECKS, np.inf)
    looks = (first, (*CLOSE_LOOK, CLOSE_ALIKE))  # the first, then the close one
    for lift, fraction, least, alike in looks:
        window = (max(thumb.shape[:2]) // fraction) | 1
        lifted = cv2.subtract(whiteness, cv2.blur(whiteness, (window, window)))
        light, light_area, apart = _alike_squares(cv2.threshold(lifted, lift, 255, cv2.THRESH_BINARY)[1], least)
        if light < least or apart > PACKED:  # the dark ones, as costly, are not looked for
            continue
        sunk = cv2.subtract(cv2.blur(value, (window, window)), value)
        dark, dark_area, _ = _alike_squares(cv2.threshold(sunk, lift, 255, cv2.THRESH_BINARY)[1], least)
        if dark >= least and abs(np.log(light_area / dark_area)) < np.log(alike):
            return light_area
    return 0.0


def _alike_squares(mask: np.ndarray, least: int = 0) -> tuple[int, float, float]:
    """How many of the mask's regions are small, nearly square and of about the most common such size; that
    size; and how far apart they lie: the median distance from one to the nearest other, in their sides.

    Fewer than `least` regions of a check's area (PATCH_AREA) count as none: then the regions' boxes,
    which OpenCV works out at several times the cost of the regions themselves, are not.
    """
    count, labels = cv2.connectedComponents(mask, connectivity=4)
    sized = np.bincount(labels.ravel(), minlength=count)[1:]
    if np.count_nonzero((sized >= PATCH_AREA[0]) & (sized <= PATCH_AREA[1])) < least:
        return 0, 0.0, np.inf
    _, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=4)
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    lo, hi = PATCH_AREA
    square = (area >= lo) & (area <= hi) & (np.minimum(w, h) >= PATCH_SQUARE * np.maximum(w, h)) & (area >= PATCH_SQUARE * w * h)
    if not square.any():
        return 0, 0.0, np.inf
    typical = float(np.median(area[square]))
    alike = square & (np.abs(np.log(area / typical)) < np.log(PATCH_SIZED))  # checks shrink far off
    return int(alike.sum()), typical, _spacing(centres[1:][alike].astype(np.float32)) / np.sqrt(typical)


def _spacing(points: np.ndarray) -> float:
    """The median distance from each point to the nearest other (inf with fewer than two): OpenCV's
    brute-force matcher, the points matched against themselves (each first to itself, then to the
    nearest other), takes a far gingham's 800 checks in a few milliseconds where a distance matrix
    took 40."""
    if len(points) < 2:
        return np.inf
    pairs = cv2.BFMatcher(cv2.NORM_L2).knnMatch(points, points, k=2)
    return float(np.median([nearest.distance for _, nearest in pairs]))


def _lattice_neighbours(quads: list[np.ndarray], others: list[np.ndarray]) -> np.ndarray:
    """For each quad, how many of `others` are of its size, turned alike and next to it."""
    if not quads or not others:
        return np.zeros(len(quads), int)
    a, b = np.stack(quads), np.stack(others)
    distance = np.linalg.norm(a.mean(axis=1)[:, None] - b.mean(axis=1)[None], axis=2)
    near = (distance > 0) & (distance < LATTICE_STEP * np.sqrt(areas(a))[:, None])
    return (alike(a, b, LATTICE_TURN, SIZED_ALIKE) & near).sum(axis=1)


def on_lattice(found: list[np.ndarray], least: int = LATTICE) -> np.ndarray:
    """Mask of the quads that are squares of a checked cloth: quads with `least` neighbours of their size, turned alike.

    A cloth's squares sit next to each other in a grid; cards, even laid close together, are
    turned every which way, and a card is far larger than the squares it might lie square with.
    """
    if len(found) <= least:
        return np.zeros(len(found), bool)
    return _lattice_neighbours(found, found) >= least


def shows_checked_cloth(frame: np.ndarray, config: LocatorConfig | None = None) -> bool:
    """Whether a BGR frame shows a checked cloth, judged as `locate_cards` judges it."""
    config = config or LocatorConfig()
    return Cloth.of(downscaled(as_bgr(frame), config)[0]).checked


def cloth_backs(detections: CardDetections, least: int = LATTICE) -> np.ndarray:
    """Mask of the 'backs' that are the squares of a checked cloth: near-square, equal, turned alike.

    Face-down cards lie at different seats and so are turned differently; `least` equal
    near-squares turned the same way are the cloth's pattern, however back-like it looks.
    """
    quads = detections.quad
    square = (detections.label == BACK) & (squarenesses(quads) > CLOTH_SQUARE)
    if square.sum() < least:
        return np.zeros(len(detections), bool)
    return square & ((alike(quads, quads, BACKS_TURN, SIZED_ALIKE) & square[None, :]).sum(axis=1) >= least)
