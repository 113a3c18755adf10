"""The table's plane as a camera sees it: the picture's perspective undone from the cards lying on it.

Every card of a deck is one size, so how a card's size varies across the picture is the perspective: a
card's area in the picture grows with the cube of its projective depth, which is linear in the pixel, so
the cube root of each card's area is a plane over the picture that is zero along the horizon. Dividing
the pixels by it undoes the leaning phone's perspective (the far side squeezed); the squeeze left along
one direction is undone by the cards' right angles. What remains is the table as seen from straight
above, turned and scaled: counterclockwise stays counterclockwise, and a card is about one long.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

SIZE_OFF = 1.6
"""Most a card's length in the picture may differ from what the plane gives at its place (either way):
cards of one deck lying on one table differ by their outline's few pixels, and the cloth's checks or a
coin read as a card differ by more."""
MARGIN = 0.5
"""Share of one card's worth of miss (SIZE_OFF's, squared) within which two planes holding other cards fit
the cards as well, and which of those cards are of the deck's size is not known: where the deck's cards fit
the plane closely (the drawn tables' within a few hundredths), leaving one of them out costs nearly a whole
card's worth, so a plane left as good holds other cards only where the sizes cannot tell which."""
MOST_TRIOS = 4000
"""Planes through three cards tried at most (those of the first cards): 30 cards and things read as cards give
as many."""
MOST_REFITS = 24
"""Planes, the best fitting first, fitted again on the cards they hold: the best of them fit the deck's
cards within their outlines' jitter, and the hundreds of planes through a thing read as a card fit worse."""
FEWEST = 3
"""Cards needed to see the perspective: a plane through three places."""
SPREAD = 0.2
"""Least spread of the cards across the picture's narrower direction, as a share of the wider one, for
the perspective to be read from them: cards in one row tell nothing across it."""
TURNED = 0.3
"""Least second spread of the cards' right angles, as a share of the first, for them to tell a stretch:
cards along two square directions only (four places round a table) fit any stretch along those."""
SQUEEZE = 6.0
"""Most the cards' right angles may stretch the plane along one direction: a phone flatter than 80
degrees from straight down squeezes the table by more, and such a stretch is the outlines' noise."""


@dataclass(frozen=True)
class TablePlane:
    """A map from picture pixels to the table seen from above, in card lengths."""

    matrix: np.ndarray
    """3x3: pixels (x, y, 1) to the plane's homogeneous point."""

    def __call__(self, points: np.ndarray) -> np.ndarray:
        """Points [..., 2] of the picture on the table's plane."""
        return _mapped(self.matrix, points)

    def pixels(self, points: np.ndarray) -> np.ndarray:
        """Points [..., 2] of the table's plane in the picture."""
        return _mapped(np.linalg.inv(self.matrix), points)

    def lengths(self, quads: np.ndarray) -> np.ndarray:
        """Each quad's longest side on the plane, in card lengths."""
        corners = self(quads)
        return np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2).max(axis=1)


def _mapped(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points [..., 2] mapped by a 3x3 homography."""
    points = np.asarray(points, np.float64)
    flat = points.reshape(-1, 2)
    mapped = np.hstack([flat, np.ones((len(flat), 1))]) @ matrix.T
    return (mapped[:, :2] / mapped[:, 2:]).reshape(points.shape)


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """Each quad's area (shoelace), in square pixels."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))


def table_plane(quads: np.ndarray) -> tuple[TablePlane, np.ndarray]:
    """The table's plane from the quads of cards lying on it, and which of them are cards of the deck's size
    where they lie (within SIZE_OFF of the plane: `_deck_sized`)."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if len(quads) < FEWEST:  # too few to tell a card's size where it lies from another's
        return _plane(quads, _depth(quads.mean(axis=1), np.cbrt(quad_areas(quads)))), np.ones(len(quads), bool)
    centres = quads.mean(axis=1)
    roots = np.cbrt(np.maximum(quad_areas(quads), 1e-9))
    kept = _deck_sized(centres, roots)
    depth = _depth(centres[kept], roots[kept]) if kept.sum() >= FEWEST else _depth(centres, roots)
    return _plane(quads[kept] if kept.any() else quads, depth), kept


def seen_plane(quads: np.ndarray) -> TablePlane | None:
    """The table's plane from the cards lying on it (`table_plane`), or None where they cannot tell its
    perspective: fewer than FEWEST, or lying in a row."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if _fitted_depth(quads.mean(axis=1), np.cbrt(np.maximum(quad_areas(quads), 1e-9))) is None:
        return None
    return table_plane(quads)[0]


def _deck_sized(centres: np.ndarray, roots: np.ndarray) -> np.ndarray:
    """Which cards are of the deck's size where they lie: those within SIZE_OFF of the plane that fits them
    best, each card counting its miss up to SIZE_OFF and no more, among the planes through any three of them
    (or level with any one), each fitted again on the cards it holds. Things read as cards (the cloth's
    checks near the camera, coins) may be as many as a few cards: a plane fitted on them all leans toward
    them, and the cards it then leaves out are the deck's. Where another plane, holding other cards, fits
    within MARGIN as well, only the cards both hold are told of the deck's size: which others are is not
    known."""
    band = np.log(SIZE_OFF) * 2 / 3  # a length's ratio, as the cube root of an area's
    design = np.hstack([centres, np.ones((len(centres), 1))])
    trios = np.array(list(itertools.islice(itertools.combinations(range(len(roots)), 3), MOST_TRIOS)), np.int64)
    planes = [np.column_stack([np.zeros((len(roots), 2)), roots])]  # level with each card
    if len(trios):
        systems = design[trios]
        fits = np.abs(np.linalg.det(systems)) > 1e-6 * np.abs(systems).max(axis=(1, 2)) ** 2
        planes.append(np.linalg.solve(systems[fits], roots[trios[fits]][..., None])[..., 0])
    off = _off(design, roots, np.vstack(planes))
    held = off[np.argsort((np.minimum(off, band) ** 2).sum(axis=1))] <= band
    held = np.unique(held[:MOST_REFITS], axis=0)
    again = _off(design, roots, np.array([_depth(centres[members], roots[members]) for members in held]))
    costs = (np.minimum(again, band) ** 2).sum(axis=1)
    alike = costs <= costs.min() + MARGIN * band**2
    return (again[alike] <= band).all(axis=0)


def _off(design: np.ndarray, roots: np.ndarray, depths: np.ndarray) -> np.ndarray:
    """[plane, card]: how far each card's size lies off each plane (`depths`, rows a b c), as the log of
    the cube roots' ratio; infinite for every card of a plane putting one past the horizon (no table's)."""
    sizes = depths @ design.T
    off = np.abs(np.log(roots / np.maximum(sizes, 1e-9)))
    off[(sizes <= 0).any(axis=1)] = np.inf
    return off


def _depth(centres: np.ndarray, roots: np.ndarray) -> np.ndarray:
    """(a, b, c) with a x + b y + c the cube root of a card's area at (x, y); flat (a = b = 0) where the
    cards are too few or lie in a row, or where the plane would put one past the horizon."""
    flat = np.array([0.0, 0.0, float(np.median(roots)) if len(roots) else 1.0])
    depth = _fitted_depth(centres, roots)
    return flat if depth is None else depth


def _fitted_depth(centres: np.ndarray, roots: np.ndarray) -> np.ndarray | None:
    """(a, b, c) with a x + b y + c the cube root of a card's area at (x, y), fitted on the cards; None where
    they cannot tell it: fewer than FEWEST, lying in a row, or fitted past the horizon."""
    if len(centres) < FEWEST:
        return None
    spread = np.linalg.svd(centres - centres.mean(axis=0), compute_uv=False)
    if spread[1] < SPREAD * spread[0]:
        return None
    design = np.hstack([centres, np.ones((len(centres), 1))])
    depth = np.linalg.lstsq(design, roots, rcond=None)[0]
    return depth if (design @ depth > 0).all() else None


def across(quads: np.ndarray, width: int, height: int) -> float | None:
    """How large a card looks at the picture's far corner beside its near one (as the cube root of its area,
    about its length): the perspective the cards lying on the table show, carried over the whole picture;
    None where they cannot tell it (`_fitted_depth`). Cards lying on the far side only differ little among
    themselves from a camera leaning steeply: the perspective across their places tells it."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    depth = _fitted_depth(quads.mean(axis=1), np.cbrt(np.maximum(quad_areas(quads), 1e-9)))
    if depth is None:
        return None
    sizes = np.array([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]], np.float64) @ depth
    return float(max(sizes.min(), 0.0) / sizes.max()) if sizes.max() > 0 else None


def _plane(quads: np.ndarray, depth: np.ndarray) -> TablePlane:
    """The map undoing the perspective `depth` gives, then the squeeze the cards' right angles show, in card
    lengths."""
    tilt = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [depth[0], depth[1], depth[2]]])
    square = np.eye(3)
    if len(quads):  # as the picture is at the cards' middle: only the perspective's change across it undone
        middle = quads.reshape(-1, 2).mean(axis=0)
        f = float(middle @ depth[:2] + depth[2])
        local = np.eye(2) / f - np.outer(middle, depth[:2]) / f**2
        tilt[:2] = np.linalg.inv(local) @ tilt[:2]
        square[:2, :2] = _right_angles(TablePlane(tilt)(quads))
        square[:2] /= float(np.median(TablePlane(square @ tilt).lengths(quads)))
    return TablePlane(square @ tilt)


def _right_angles(corners: np.ndarray) -> np.ndarray:
    """The 2x2 stretch that makes the cards' sides meet at right angles (identity when the cards cannot
    tell: fewer than two turned apart, or a stretch past SQUEEZE)."""
    u = corners[:, 1] - corners[:, 0]
    v = corners[:, 3] - corners[:, 0]
    rows = np.stack([u[:, 0] * v[:, 0], u[:, 0] * v[:, 1] + u[:, 1] * v[:, 0], u[:, 1] * v[:, 1]], axis=1)
    rows /= np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
    if len(rows) < 2:
        return np.eye(2)
    _, values, vectors = np.linalg.svd(rows)
    if values[1] < TURNED * values[0]:
        return np.eye(2)  # the cards lie along two square directions at most: any stretch along them fits
    c11, c12, c22 = vectors[-1]  # the conic the sides' pairs are most nearly square in
    if c11 < 0:
        c11, c12, c22 = -c11, -c12, -c22
    conic = np.array([[c11, c12], [c12, c22]])
    eigen = np.linalg.eigvalsh(conic)
    if eigen[0] <= 0 or eigen[1] > SQUEEZE**2 * eigen[0]:
        return np.eye(2)
    return np.linalg.cholesky(conic).T
