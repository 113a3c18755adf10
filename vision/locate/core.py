"""The card locator: every card-like quadrilateral in a frame, found on a downscaled copy."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.io import as_bgr
from vision.locate.candidates import candidates, distinct, inside_hulls, other_halves, scored
from vision.locate.cloth import CLOTH_SQUARE, PLAIN, Cloth, on_lattice
from vision.locate.config import LocatorConfig, downscaled
from vision.locate.cues import colour_mask, cue_masks, sharp_mask
from vision.locate.finish import finish
from vision.locate.geometry import areas, squareness
from vision.locate.outlines import Outline

BRIDGE = 7
"""Side of the square closing that bridges a gap in a crisp outline: a card's soft paper edge beside a
white check shows none for a few pixels."""


class Held(NamedTuple):
    """The outlines a search held back (`rough_quads` with `hold`), with what scoring their quads takes."""

    outlines: list[Outline]
    """Outlines lying inside a solid card-shaped one (`candidates.held`), in downscaled pixels."""
    edges: np.ndarray
    config: LocatorConfig
    cloth: Cloth
    found: list[tuple[float, np.ndarray]]
    """The scored quads found first (downscaled pixels, halves left out), which the held ones must not repeat."""


class Whole(NamedTuple):
    """What a part of a frame searched alone takes from its whole frame, so that it is searched as the whole
    frame would be there: the scale, the surroundings of the local cues, and the cloth (a part shows too few
    checks to be judged a checked cloth)."""

    side: int
    """The whole frame's long side (pixels)."""
    cloth: Cloth
    """The cloth the whole frame shows (`Cloth.of` its downscaled copy)."""


def whole_of(frame: np.ndarray, config: LocatorConfig) -> Whole:
    """What a frame's parts take from it when searched alone."""
    return Whole(max(frame.shape[:2]), Cloth.of(downscaled(frame, config)[0]) if config.drop_lattice else PLAIN)


NOTHING_HELD = Held([], np.zeros((0, 0), np.uint8), LocatorConfig(), PLAIN, [])


class RoughQuads(NamedTuple):
    """The quads of a frame as the search on its downscaled copy outlines them (see `rough_quads`)."""

    quads: np.ndarray
    """float32 [N, 4, 2] corners in frame pixels, best first; not yet snapped, completed or ordered."""
    scores: np.ndarray
    """[N] how well each quad's outline fills it and lies on the frame's edges, times how card-like its
    proportions are (candidates._best_quads); a half of a pair has the pair's."""
    scale: float
    """The scale of the downscaled copy searched."""
    held: Held = NOTHING_HELD
    """What the search held back: `held_quads` scores it."""
    shaped: np.ndarray = np.zeros(0, bool)
    """[N] whether each quad is a half offered for its pair's shape alone (`candidates.other_halves`):
    under a steep view a single far card has a pair's shape, and half a card back reads as a back."""


def locate_cards(frame: np.ndarray, config: LocatorConfig | None = None) -> np.ndarray:
    """Find card quads in a BGR frame: float32 [N, 4, 2] ordered corners in frame pixels."""
    config = config or LocatorConfig()
    frame = as_bgr(frame)
    rough = rough_quads(frame, config)
    return finish(frame, rough.quads, rough.scale, config)


def rough_quads(frame: np.ndarray, config: LocatorConfig, hold: bool = False, whole: Whole | None = None) -> RoughQuads:
    """The card quads of a BGR frame as the search on its downscaled copy outlines them, best first, with
    their scores; `finish` snaps, completes and orders them, quad by quad. A part of a frame is searched
    as its `whole` frame would be there.

    With `hold` (not on a checked cloth) the outlines lying inside a solid card-shaped one are held back
    unscored: a reader that names that one surely has no use for them, and `held_quads` scores the others.
    """
    small, scale = downscaled(frame, config, whole and whole.side)
    # on a checked cloth the checks, alone or in pairs, outline more card-sized regions than the cards do:
    # known beforehand, the search passes the checks' cues and square outlines over
    if whole is not None:
        cloth, side = whole.cloth, round(whole.side * scale)
    else:
        cloth, side = (Cloth.of(small) if config.drop_lattice else PLAIN), None
    cues = config.cloth_cues if cloth.checked else config.cues
    edges, masks = cue_masks(small, cues, checked=cloth.checked, side=side)
    # outlines too small to give a quad that holds a card (`cloth.holds_a_card`, below) are passed over at once
    least = cloth.least_card_hull(config.min_rectangularity)
    found, held = candidates(edges, masks, config, cloth, least, hold=hold and not cloth.checked)
    kept = distinct(_best_first(found))
    if config.drop_lattice:
        lattice = on_lattice([quad for _, quad in kept])
        kept = [item for item, square in zip(kept, lattice) if not square]
        if cloth.swamps(int(lattice.sum())):
            # the cloth's checks swamp the cues: crisp outlines first, and no near-square the grid search missed
            kept = [(score, quad) for score, quad in kept if squareness(quad) < CLOTH_SQUARE]
            sharp = sharp_mask(frame, small.shape)
            bridged = cv2.morphologyEx(sharp, cv2.MORPH_CLOSE, np.ones((BRIDGE, BRIDGE), np.uint8))
            # the crisp outlines and the bridged ones: bridged, a card back's printed margin beside the
            # cloth's light checks merges with them, where the crisp outline alone holds the card (the
            # face-down cards of the eval_live hands on the gingham); the crisp outlines hold no checks
            crisp, _ = candidates(edges, [sharp, bridged], config, PLAIN, least)
            kept = distinct(_best_first(crisp) + kept)
    if cloth.grey:  # a printed back told by its colour first: a lace's pattern outlines more than the cards
        coloured, _ = candidates(edges, [colour_mask(small, side)], config, cloth, least)
        kept = distinct(_best_first(coloured) + kept)
    kept = [(score, quad) for score, quad in kept if cloth.holds_a_card(quad)]  # not a check or two outlined alone
    kept = kept[: config.max_candidates]
    later = Held(held, edges, config, cloth, kept) if held else NOTHING_HELD
    halves = other_halves([quad for _, quad in kept])[: config.max_candidates - len(kept)]  # the best quads first
    shaped = np.array([False] * len(kept) + [by_shape for _, _, by_shape in halves], bool)
    kept = kept + [(kept[pair][0], half) for pair, half, _ in halves]
    return _in_frame(kept, scale, later)._replace(shaped=shaped)


def held_quads(rough: RoughQuads, named: np.ndarray) -> RoughQuads:
    """The quads of the outlines `rough` held back (`rough_quads` with `hold`) lying inside none of the
    `named` quads (frame pixels) as it holds them (`candidates.held`), best first: those lying on no better
    quad, found first or held, and no more than the search's cap allows in all."""
    held, scale = rough.held, rough.scale
    outlines = held.outlines
    if len(named) and outlines:
        cards = ((named + 0.5) * scale - 0.5).astype(np.float32)
        outlines = [o for o, inside in zip(outlines, inside_hulls(outlines, list(cards), areas(cards))) if not inside]
    if not outlines:
        return _in_frame([], scale)
    # as the search would have kept them: those lying on no better quad, found first or held
    new = scored(held.edges, outlines, held.config, held.cloth)
    fresh = {id(item) for item in new}
    ranked = _best_first(held.found + new)
    first = np.array([id(item) not in fresh for item in ranked])
    kept = [item for item in distinct(ranked, kept_already=first) if id(item) in fresh]
    return _in_frame(kept[: held.config.max_candidates - len(rough.quads)], scale)


def _in_frame(kept: list[tuple[float, np.ndarray]], scale: float, held: Held = NOTHING_HELD) -> RoughQuads:
    """Scored quads in downscaled pixels as RoughQuads in frame pixels."""
    if not kept:
        return RoughQuads(np.zeros((0, 4, 2), np.float32), np.zeros(0), scale, held)
    quads = np.stack([(quad + 0.5) / scale - 0.5 for _, quad in kept]).astype(np.float32)
    return RoughQuads(quads, np.array([score for score, _ in kept]), scale, held)


def _best_first(items: list[tuple[float, np.ndarray]]) -> list[tuple[float, np.ndarray]]:
    """Scored quads by score, best first (those of one score in their order)."""
    return sorted(items, key=lambda item: -item[0])
