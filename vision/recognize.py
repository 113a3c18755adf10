"""The whole reading of a frame (locate, warp, classify) and the `recognize` command."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np

from vision.annotate import CardAnnotator
from vision.classify import CardClassifier, ModelError, Remembering
from vision.crop import CARD_ASPECT, CROP_H, CROP_W, warp_card
from vision.detections import CardDetections
from vision.exposure import brightened, gain_for, well_exposed
from vision.io import ImageError, as_bgr, prepare_folder, read_image
from vision.labels import BACK, CLASS_INDEX, CLASSES, NONE
from vision.locate import LocatorConfig, RoughQuads, Whole, finish, held_quads, rough_quads, whole_of
from vision.locate.cloth import cloth_backs
from vision.locate.fitting import flat
from vision.locate.geometry import areas, intersection, on_grid
from vision.plane import TablePlane

NONE_INDEX = CLASS_INDEX[NONE]
BACK_INDEX = CLASS_INDEX[BACK]
SMALL_FACE = 52.0
"""Width (pixels, the shorter pair of sides) under which a face is named only from SURE_EVIDENCE: eval_size names
every card 52 pixels wide but a few, and loses a fifth of those 44 and 36 wide, the classifier's
reading there at its edge (a far card under a steep view, blurred and squeezed, read at 0.65 for
another)."""
SHORTER_THAN_A_CARD = 0.8
"""Longest side on the table's plane, in card lengths, under which a face read on a quad is read on a part of a
card: a far card's pale end melts into a pale cloth and the outline found stops short of it, and the pips the
part holds are fewer than the card's (a six cut across above its last row reads as a four, surely). A whole
card measures about 1 there, and one cut short by a sixth (0.86) still reads as itself."""
LONGER_THAN_A_CARD = 1.25
"""Longest side on the table's plane, in card lengths, beyond which a quad holds more than the card read on it."""
SQUARISH = 0.8
"""Short over long side beyond which a quad's upright direction is unclear from its shape."""
NARROWER_THAN_A_CARD = 0.75 * CARD_ASPECT
"""Short over long side, relative to a card's, under which a quad is narrower than a card seen from above:
on a pale cloth a face's white border melts into the cloth, and the outline found is its printed picture's."""
BORDER = 0.1
"""Share of its length a card's white borders add to its printed picture's, both ends together."""
NESTED = 0.5
"""Share of a smaller quad lying inside a larger one beyond which both read the same place."""
PART_AREA = 0.2
"""Area, relative to the larger quad, below which a quad inside it is a part of it, not a rival reading."""
CARD_SIZED = 0.7
"""Area, relative to a larger quad, below which a quad mostly inside it is no second reading of the same
card seen loose (those keep within 0.7 and 1): it is read after the larger one, and not at all when
that one is a surely named card."""
LOOSE = 0.8
"""Score (the search's, `RoughQuads.scores`) under which a quad holding a well outlined one may be drawn
round several cards and the table between them: on the hand film, the speed tables and the valid photos
about 1 in 20 of the cards read scored under it, and most quads drawn round cards did."""
TIGHT = 0.9
"""Score from which a quad is well outlined: about 9 in 10 of the cards read on those frames."""
SURE_EVIDENCE = 0.9
"""Confidence from which a named card serves as evidence about the other readings of its frame."""
HALF_OF_ONE = 0.8
"""Longest side on the table's plane, in card lengths, under which a half the search offered for its quad's
shape alone (`RoughQuads.shaped`: two cards lying side by side) is half of one card: a card halved across its
long sides is about its width long on the plane, 0.6, and each of two cards side by side is one long. Read
alone, the two halves of one far card are two backs at one place, a second card beside the one lying there."""
COARSE_SIDE = 320
"""Long side of the coarser copy searched again when a frame yields nothing: there a blurred or
steeply tilted close-up card's soft outline is a sharp one. Not on a checked cloth: shrunk that far,
its checks blur into a plain ground and the whole cloth outlines a 'card' (read as a back)."""
FAR_SMALLER = 0.125
"""Area, relative to the typical surely named card, below which a reading cannot be a card on the
same table: on the drawn round table of 15 seen at a 60-degree tilt, the farthest card still
keeps 0.57 of the median card's area (0.74 at 30 degrees)."""
TWO_CARDS = 2.0
"""Area, relative to the typical surely named card, beyond which an unsure reading is taken for a quad
round two cards lying close (2.6 times the typical card on the blurred 1080p felt speed frame, named
6B at 0.62; the frame's real cards keep within 0.7 and 1.6 times)."""


@dataclass(frozen=True)
class View:
    """What a whole frame shows that a part of it read alone takes from it (`CardReader.part`), so the part
    is read as the whole frame would be read there: the exposure's gain, and the locator's `Whole`."""

    gain: float
    whole: Whole


class CardReader:
    """Locate, warp and classify every card in a frame; the model is loaded once."""

    def __init__(self, classifier: CardClassifier | Remembering | None = None,
                 locator: LocatorConfig | None = None) -> None:
        self.classifier = classifier or CardClassifier()
        self.locator = locator or LocatorConfig()
        self.steep = False
        """Whether the camera leans past what the classifier is measured for (the live loop's `STEEP`): no
        face is then named (`_unreadable`)."""
        self.plane: TablePlane | None = None
        """The table's plane as the cards lying on it show it (the live loop's, `vision.plane.seen_plane`), on
        which a quad nearly square in the picture is read upright (`_upright`); None where none is known."""

    def read_quads(self, frame: np.ndarray, quads: np.ndarray) -> CardDetections:
        """Classify the given card quads of a frame, keeping every candidate (not-a-card included).

        A quad is read upright as its shape says (its short sides across the crop), on the table's plane
        (`plane`) where the picture's shape is nearly square (a card lying along a leaning phone's view) and
        the plane's is a card's. Where neither says which way is up, or the two disagree (a card's part
        beside a hand over it), the quad is read both ways round and the surer reading kept; but where the
        plane is known, no face is named where the two ways name two different faces: a card read sideways,
        which the classifier was never shown, can read as another card surely (the drawn sixes of Coppe and
        Denari on their side as the six of Bastoni). Without the plane (a photo of a card or two) the surer
        reading stands: a single card's photo tilted 45 degrees (eval_views) reads right that way, and its
        sideways reading often names another face. A quad far narrower than a card
        (`NARROWER_THAN_A_CARD`) is read as well grown about its middle to a whole card's proportions
        (`_bordered`), kept where the quad itself is no card and the grown one names a face (a back's
        printed frame is stepped over when its sides are snapped; grown, a strip of cloth can read as a
        back). All in the same single classifier call. A face on a quad read unsurely where a sure reading is asked for (a face seen flat or small), or read from a steep
        phone, is an unsure one (`_unreadable`). A face on a quad shorter than a card on the table's plane is
        not named on it (`_part_of_one`), and a face not surely named on a quad whose length there is not a
        card's is read again a card long (`_a_card_long`), in a second call for those alone.
        """
        if len(quads) == 0:
            return CardDetections.empty()
        quads, unclear = _upright(np.array(quads, np.float32).reshape(-1, 4, 2), self.plane)
        short, long = _pairs(quads)
        narrow = np.flatnonzero(short < NARROWER_THAN_A_CARD * long)
        tried = np.concatenate([quads, np.roll(quads[unclear], -1, axis=1), _bordered(quads[narrow])])
        crops = np.stack([warp_card(frame, quad) for quad in tried]).reshape(-1, CROP_H, CROP_W, 3)
        index, confidence, abstain = self.classifier.classify(crops)
        n = len(quads)

        def take(i: int, j: int) -> None:  # quad i is read as its other try j
            quads[i], index[i], confidence[i], abstain[i] = tried[j], index[j], confidence[j], abstain[j]

        for i, j in zip(unclear, n + np.arange(len(unclear))):
            two_faces = (self.plane is not None and index[i] != index[j] and not (abstain[i] or abstain[j])
                         and max(index[i], index[j]) < BACK_INDEX)
            if (confidence[j] > confidence[i] and index[j] != NONE_INDEX) or index[i] == NONE_INDEX:
                take(i, j)
            abstain[i] |= two_faces
        for i, j in zip(narrow, n + len(unclear) + np.arange(len(narrow))):
            if index[i] == NONE_INDEX and index[j] not in (NONE_INDEX, BACK_INDEX) and not abstain[j]:
                take(i, j)
        labels = np.array([CLASSES[i] for i in index[:n]], "<U4")
        faces = (index[:n] != NONE_INDEX) & (index[:n] != BACK_INDEX)
        lengths = None if self.plane is None else self.plane.lengths(quads)
        unreadable = _unreadable(quads, confidence[:n], self.steep) | _part_of_one(quads, lengths)
        read = CardDetections(quads, labels, confidence[:n], abstain[:n] | (faces & unreadable))
        return read if lengths is None else self._a_card_long(frame, read, lengths)

    def _a_card_long(self, frame: np.ndarray, read: CardDetections, lengths: np.ndarray) -> CardDetections:
        """The readings, those of a face not surely named on a quad whose length on the table's plane is not a
        card's (SHORTER_THAN_A_CARD, LONGER_THAN_A_CARD) read again a card long from either of its short ends
        (`_card_long`): the outline of a far card whose pale end melted into the cloth stops short of it, and one
        drawn round a card and a coin beside its end runs past it. A try is taken where it names a face surely
        (SURE_EVIDENCE) and the other end's try names no other face. `lengths`: each quad's on the plane, which
        is known."""
        plane = self.plane
        assert plane is not None
        if self.steep:  # no face is named from a steep phone, tried again or not
            return read
        off = np.flatnonzero((read.face == "up") & (read.abstain | (read.confidence < SURE_EVIDENCE))
                             & ((lengths < SHORTER_THAN_A_CARD) | (lengths > LONGER_THAN_A_CARD)))
        if not len(off):
            return read
        tries = _card_long(read.quad[off], plane)
        crops = np.stack([warp_card(frame, quad) for quad in tries]).reshape(-1, CROP_H, CROP_W, 3)
        index, confidence, abstain = self.classifier.classify(crops)
        names = (index < BACK_INDEX) & ~abstain
        sure = names & (confidence >= SURE_EVIDENCE)
        quads, labels = read.quad.copy(), read.label.copy()
        confidences, abstains = read.confidence.copy(), read.abstain.copy()
        for k, i in enumerate(off):
            for j, other in ((k, k + len(off)), (k + len(off), k)):
                if sure[j] and not (names[other] and index[other] != index[j]):
                    quads[i], labels[i], confidences[i], abstains[i] = tries[j], CLASSES[index[j]], confidence[j], False
                    break
        return CardDetections(quads, labels, confidences, abstains)

    def __call__(self, frame: np.ndarray) -> CardDetections:
        """The cards in a BGR (or grayscale) frame, not-a-card candidates and parts of cards removed.

        A frame too dark to read (a dim room, a webcam without auto-exposure) is brightened first;
        a frame in which nothing is found is searched again on a coarser copy, unless it shows a checked cloth.
        """
        frame = well_exposed(as_bgr(frame))
        return self._whole(frame, None)

    def view(self, frame: np.ndarray) -> View:
        """What a BGR frame's parts take from it when read alone (`part`), judged on the whole frame."""
        gain = gain_for(frame)
        return View(gain, whole_of(brightened(frame, gain), self.locator))

    def whole(self, frame: np.ndarray, view: View) -> CardDetections:
        """The cards in a whole BGR frame as `__call__` reads them, its `view` already judged."""
        return self._whole(brightened(frame, view.gain), view.whole)

    def part(self, frame: np.ndarray, box: tuple[int, int, int, int], view: View) -> CardDetections:
        """The cards read in a part (x0, y0, x1, y1) of a BGR frame as a reading of the whole frame, whose
        `view` is given, would read them there; quads in the frame's pixels. A part where nothing is found
        is not searched again on a coarser copy: a hand moving over the bare table is nothing to find."""
        x0, y0, x1, y1 = box
        found = self._read(brightened(frame[y0:y1, x0:x1], view.gain), self.locator, view.whole)
        if not len(found):
            return found
        return replace(found, quad=(found.quad + np.array([x0, y0], np.float32)).astype(np.float32))

    def _whole(self, frame: np.ndarray, whole: Whole | None) -> CardDetections:
        """The cards in a whole frame already exposed well, searched again on a coarser copy when none shows;
        the cloth judged once (`whole`, or judged here), for the search and for whether to search again."""
        whole = whole or whole_of(frame, self.locator)
        found = self._read(frame, self.locator, whole)
        if len(found) or self.locator.work_side <= COARSE_SIDE or whole.cloth.checked:
            return found
        return self._read(frame, replace(self.locator, work_side=COARSE_SIDE))

    def _read(self, frame: np.ndarray, locator: LocatorConfig, whole: Whole | None = None) -> CardDetections:
        """Locate with `locator` (a part of a frame as its `whole` frame would be), classify, and keep one
        reading per card.

        The quads are finished (snapped, made whole) and read outside in: those lying inside no larger
        quad first (`_within`), then those inside them, and so on. A quad lying inside a surely named
        card, smaller than it, is neither finished nor read: it would go as a part of that card (a pip,
        a figure, a half of it). On a big card such parts are most of the candidates.

        A loosely outlined quad holding a well outlined one (`_loose_round_tight`: most often a quad drawn
        round cards lying close, and the table between them) waits until the others are read, and is
        not read at all once it holds most of a surely named card (`_round_a_named_card`).
        """
        rough = _no_halves_of_one(rough_quads(frame, locator, hold=True, whole=whole), self.plane)
        quads, sizes = rough.quads, areas(rough.quads)
        waits = _loose_round_tight(quads, sizes, rough.scores)
        pending = np.arange(len(quads))
        readings: list[tuple[np.ndarray, CardDetections]] = []
        named: list[CardDetections] = []
        held = bool(rough.held.outlines)
        guessed = len(quads) + len(rough.held.outlines)  # the keys of quads guessed by `finish`, after the located ones
        while len(pending) or held:
            sure = CardDetections.empty()
            if len(pending):
                first = pending[~waits[pending]]
                outer = first if len(first) else pending
                level = outer[~_within(quads[outer], sizes[outer], quads[outer], sizes[outer])]
                read = self.read_quads(frame, finish(frame, quads[level], rough.scale, locator))
                guesses = np.arange(guessed, guessed + len(read) - len(level))
                readings.append((np.concatenate([level, guesses]), read))
                guessed += len(guesses)
                pending = pending[~np.isin(pending, level)]
                sure = read[_surely_named(read)]
            if held:  # after the first round, the outlines held back but for those inside a surely named card
                more = held_quads(rough, sure.quad)
                pending = np.concatenate([pending, np.arange(len(quads), len(quads) + len(more.quads))])
                quads, sizes = np.concatenate([quads, more.quads]), np.concatenate([sizes, areas(more.quads)])
                waits = np.concatenate([waits, np.zeros(len(more.quads), bool)])
                held = False
            if len(pending) and len(sure):
                pending = pending[~_within(quads[pending], sizes[pending], sure.quad, areas(sure.quad))]
                named.append(sure)
                waiting = pending[waits[pending]]
                done = waiting[_round_a_named_card(quads[waiting], CardDetections.joined(named))]
                pending = np.setdiff1d(pending, done)
        if not readings:
            return CardDetections.empty()
        candidates, keys = _joined(readings)
        located = keys < len(rough.shaped)
        shaped = np.zeros(len(keys), bool)
        shaped[located] = rough.shaped[keys[located]]
        real = candidates.label != NONE
        return resolve_overlaps(candidates[real], shaped[real])


def _no_halves_of_one(rough: RoughQuads, plane: TablePlane | None) -> RoughQuads:
    """The search's quads but the halves offered for a pair's shape that the table's plane shows to be halves of
    one card (HALF_OF_ONE): under a leaning phone one card has a pair's shape in the picture, not on the plane."""
    if plane is None or not rough.shaped.any():
        return rough
    keep = np.ones(len(rough.quads), bool)
    keep[rough.shaped] = ~(plane.lengths(rough.quads[rough.shaped]) < HALF_OF_ONE)
    return rough._replace(quads=rough.quads[keep], scores=rough.scores[keep], shaped=rough.shaped[keep])


def _upright(quads: np.ndarray, plane: TablePlane | None) -> tuple[np.ndarray, np.ndarray]:
    """The quads turned upright as their shape says (`_long_way`), and the indices of those whose upright
    direction stays unclear. Without the table's plane, the picture's shape says it where the quad's first
    sides are clearly its short ones. With it, the plane's says it where the picture's agrees or is nearly
    square (a card lying along a leaning phone's view is squeezed square in the picture)."""
    picture = _long_way(quads)
    if plane is None:
        return quads, np.flatnonzero(picture != 0)
    table = _long_way(plane(quads))
    clear = (table >= 0) & ((picture == table) | (picture < 0))
    turned = clear & (table == 1)
    quads[turned] = np.roll(quads[turned], -1, axis=1)
    return quads, np.flatnonzero(~clear)


def _long_way(quads: np.ndarray) -> np.ndarray:
    """Per quad: 0 where its first and third sides are clearly its short ones, 1 where they are clearly its
    long ones, -1 where its short sides are over SQUARISH of its long ones (or it lies past the plane's horizon)."""
    first, second = _pairs(quads)
    way = (first > second).astype(np.int64)
    way[~(np.minimum(first, second) <= SQUARISH * np.maximum(first, second))] = -1
    return way


def _unreadable(quads: np.ndarray, confidence: np.ndarray, steep: bool = False) -> np.ndarray:
    """Whether a face read on each quad may not be named: seen flat (`flat`) or too small (`small`) and not
    read surely (SURE_EVIDENCE), or seen from a steep phone (`steep`) at all. The quads as read (a try may
    have replaced one).

    The classifier's abstention is tuned on the valid photos, taken from above, and measured on them tilted
    45 degrees (eval_views). From a phone leaning 55 to 66 degrees (the 60-degree rows of
    benchmarks.eval_steep) faces were read as another card frame after frame, under SURE_EVIDENCE and
    above it, on the drawn faces and the valid photos' alike."""
    return ((flat(quads) | small(quads)) & (confidence < SURE_EVIDENCE)) | steep


def _part_of_one(quads: np.ndarray, lengths: np.ndarray | None) -> np.ndarray:
    """Whether each quad is shorter on the table's plane than a card (SHORTER_THAN_A_CARD), given its `lengths`
    there: a part of one, whose face may not be named however surely it reads. Where no plane is known (None:
    a photo of a card or two), none is."""
    if lengths is None:
        return np.zeros(len(quads), bool)
    return lengths < SHORTER_THAN_A_CARD


def _card_long(quads: np.ndarray, plane: TablePlane) -> np.ndarray:
    """Ordered quads (short side first) made a card long on the table's `plane` along their long sides, from
    their first short side, then the same from their last: [2N, 4, 2] picture pixels."""
    corners = plane(quads)
    along = _unit((corners[:, 3] - corners[:, 0] + corners[:, 2] - corners[:, 1]) / 2)
    first, last = corners.copy(), corners.copy()
    first[:, 3], first[:, 2] = corners[:, 0] + along, corners[:, 1] + along
    last[:, 0], last[:, 1] = corners[:, 3] - along, corners[:, 2] - along
    return plane.pixels(np.concatenate([first, last])).astype(np.float32)


def small(quads: np.ndarray) -> np.ndarray:
    """Whether each quad [N, 4, 2] is under SMALL_FACE across: its shorter pair of opposite sides, averaged."""
    return np.minimum(*_pairs(quads)) / 2 < SMALL_FACE


def _pairs(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each quad's [N, 4, 2] first and third sides' lengths together, and its second and fourth sides'."""
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    return sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]


def _bordered(quads: np.ndarray) -> np.ndarray:
    """Ordered quads (short side first) grown about their middles to a whole card's proportions: longer by
    BORDER, and across to CARD_ASPECT of that."""
    middle = quads.mean(axis=1, keepdims=True)
    across = quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]  # along the short sides
    along = quads[:, 3] - quads[:, 0] + quads[:, 2] - quads[:, 1]
    length = (1.0 + BORDER) * np.linalg.norm(along, axis=1, keepdims=True)[:, None] / 2
    across = _unit(across)[:, None] * CARD_ASPECT * length
    along = _unit(along)[:, None] * length
    signs = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)  # corners in the order of the quad's
    return (middle + (signs[None, :, :1] * across + signs[None, :, 1:] * along) / 2).astype(np.float32)


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Each of the vectors [N, 2] scaled to length 1."""
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-6)


def _loose_round_tight(quads: np.ndarray, sizes: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Mask of the quads scoring under LOOSE that hold a quad (as `_within` takes it) scoring TIGHT or more."""
    loose, tight = scores < LOOSE, scores >= TIGHT
    holding = np.zeros(len(quads), bool)
    if loose.any() and tight.any():
        holding[loose] = _inside(quads[tight], sizes[tight], quads[loose], sizes[loose]).any(axis=0)
    return holding


def _round_a_named_card(quads: np.ndarray, named: CardDetections) -> np.ndarray:
    """Mask of the quads holding more than NESTED of a surely named card's area.

    A waiting quad (`_loose_round_tight`: scored loose, over 1/CARD_SIZED times the size of a well
    outlined quad it holds) that holds a surely named card is no card of its own: cards on one table
    are of a size, and no card lies inside a larger one. Were it a card outlined loosely after all,
    what it holds named surely would be a part of it (its figure, its printed frame), which names it.
    """
    held = np.zeros(len(quads), bool)
    if len(quads) == 0 or len(named) == 0:
        return held
    grid, cards, card_areas = on_grid(quads), on_grid(named.quad), areas(named.quad)
    for k in range(len(quads)):
        held[k] = any(intersection(card, grid[k]) > NESTED * area for card, area in zip(cards, card_areas))
    return held


def _within(quads: np.ndarray, sizes: np.ndarray, holders: np.ndarray, holder_sizes: np.ndarray) -> np.ndarray:
    """Mask of the `quads` [N, 4, 2] (whose areas are `sizes`) lying inside one of the `holders` [M, 4, 2]
    (whose areas are `holder_sizes`), as `_inside` takes it."""
    return _inside(quads, sizes, holders, holder_sizes).any(axis=1)


def _inside(quads: np.ndarray, sizes: np.ndarray, holders: np.ndarray, holder_sizes: np.ndarray) -> np.ndarray:
    """[N, M]: whether quad n lies inside holder m: more than NESTED of its area inside a holder over
    1/CARD_SIZED times as large."""
    inside = np.zeros((len(quads), len(holders)), bool)
    if len(quads) == 0 or len(holders) == 0:
        return inside
    lo, hi, holder_lo, holder_hi = quads.min(axis=1), quads.max(axis=1), holders.min(axis=1), holders.max(axis=1)
    pairs = (
        (holder_sizes[None, :] * CARD_SIZED > sizes[:, None])
        & (holder_lo[None] <= hi[:, None]).all(axis=2)
        & (holder_hi[None] >= lo[:, None]).all(axis=2)
    )
    if pairs.any():
        quads, holders = on_grid(quads), on_grid(holders)
    for k, h in zip(*np.nonzero(pairs)):
        inside[k, h] = intersection(quads[k], holders[h]) > NESTED * sizes[k]
    return inside


def _joined(readings: list[tuple[np.ndarray, CardDetections]]) -> tuple[CardDetections, np.ndarray]:
    """The readings of several sets of the locator's quads (their indices, their readings) as one, in
    the locator's order, with the index of each."""
    if len(readings) == 1:
        return readings[0][1], readings[0][0]
    index = np.concatenate([where for where, _ in readings])
    order = np.argsort(index, kind="stable")
    return CardDetections.joined([read for _, read in readings])[order], index[order]


def _surely_named(detections: CardDetections) -> np.ndarray:
    """Mask of face-up readings named with a confidence of at least SURE_EVIDENCE."""
    return ~detections.abstain & (detections.face == "up") & (detections.confidence >= SURE_EVIDENCE)


def _beside_named_cards(detections: CardDetections, areas: np.ndarray, named: np.ndarray) -> np.ndarray:
    """Mask of readings of a card's size beside the frame's surely named cards: not far smaller (a
    square of grid paper or a pip read as a card) and, when an unsure face, not twice as large (a quad
    drawn round two cards lying close, named as a third; a face-down card held up near the camera
    can be read as a back at under SURE_EVIDENCE, and stays). `named` masks the surely named readings."""
    if not named.any():
        return np.ones(len(detections), bool)
    typical = float(np.median(areas[named]))
    unsure_pair = (detections.face == "up") & (detections.confidence < SURE_EVIDENCE) & (areas > TWO_CARDS * typical)
    return (areas >= FAR_SMALLER * typical) & ~unsure_pair


def _groups(detections: CardDetections, areas: np.ndarray, named: np.ndarray) -> np.ndarray:
    """Mask of quads drawn round several cards: they hold named faces a single card could not hold.

    A face-down card holds no surely named face; a named card holds no two other, different
    sure names (its own pips, read alone, all look alike; a part of it read as a card is seldom sure).
    `named` masks the surely named readings.
    """
    group = np.zeros(len(detections), bool)
    grid = on_grid(detections.quad)
    for j in range(len(detections)):
        inner = set()
        for i in np.flatnonzero(named & (areas < areas[j])):
            if intersection(grid[i], grid[j]) > 0.9 * areas[i] and detections.label[i] != detections.label[j]:
                inner.add(str(detections.label[i]))
        group[j] = len(inner) >= (1 if detections.label[j] == BACK else 2)
    return group


def resolve_overlaps(detections: CardDetections, shaped: np.ndarray | None = None) -> CardDetections:
    """Keep one reading per card.

    A checked cloth's squares read as backs, quads drawn round several cards, readings far
    smaller than the frame's surely named cards and unsure faces twice their size are dropped first. A much smaller quad inside
    another is a part of it (a pip, a figure) and goes. Two quads of comparable size on one
    place are two readings (a card and a loose quad round it, or two cards side by side read as
    one and one of them alone): the surer one stands. But a half that only its quad's shape
    offered (`shaped`, see `RoughQuads.shaped`) never takes the place of a surely read back: half a
    back reads as a back, and under a steep view a single far card has a pair's shape.
    """
    shaped = np.zeros(len(detections), bool) if shaped is None else shaped
    cloth = cloth_backs(detections)
    detections, shaped = detections[~cloth], shaped[~cloth]
    if len(detections) < 2:
        return detections
    areas = np.array([cv2.contourArea(q) for q in detections.quad])
    named = _surely_named(detections)
    keep = ~_groups(detections, areas, named) & _beside_named_cards(detections, areas, named)
    detections, areas, shaped = detections[keep], areas[keep], shaped[keep]
    sure_back = (detections.label == BACK) & (detections.confidence >= SURE_EVIDENCE) & ~detections.abstain
    kept: list[int] = []
    grid = on_grid(detections.quad)
    for i in np.argsort(-areas, kind="stable"):
        inside = False
        for k, j in enumerate(kept):
            if intersection(grid[i], grid[j]) <= NESTED * areas[i]:
                continue
            inside = True
            if areas[i] >= PART_AREA * areas[j] and _surer(detections, i, j) and not (shaped[i] and sure_back[j]):
                kept[k] = int(i)  # two readings of one place: the surer one stands
            break  # else a pip or a figure of the card read as a card, or the weaker reading
        if not inside:
            kept.append(int(i))
    return detections[np.sort(np.array(kept, int))]


def _surer(detections: CardDetections, i: int, j: int) -> bool:
    """Whether reading i is surer than reading j: a named card beats an unsure one, then confidence."""
    if detections.abstain[i] != detections.abstain[j]:
        return bool(detections.abstain[j])
    return bool(detections.confidence[i] > detections.confidence[j])


def _listing(path: str, detections: CardDetections) -> str:
    """A readable account of the cards in one image."""
    lines = [f"{path}: {len(detections)} card{'s' if len(detections) != 1 else ''}"]
    for record in detections.records():
        centre = np.mean(record["quad"], axis=0)
        code = record["card"] or ("--" if record["face"] == "down" else "?")
        name = record["name"] or "unsure: not named"
        lines.append(
            f"  {code:>3}  {name:<22} {record['confidence']:.2f}  face {record['face']:<4}"
            f"  at ({centre[0]:.0f}, {centre[1]:.0f})"
        )
    return "\n".join(lines)


def _write_image(target: Path, image: np.ndarray) -> bool:
    """Write an image, telling whether it was written (OpenCV may return False or raise)."""
    try:
        return bool(cv2.imwrite(str(target), image))
    except cv2.error:
        return False


def run_recognize(
    images: list[str],
    as_json: bool = False,
    annotate_dir: Path | None = None,
    out: TextIO | None = None,
    reader: CardReader | None = None,
) -> int:
    """Read every image with one loaded model; 0 when all were read, 1 when any could not be."""
    out = out or sys.stdout
    if reader is None:
        try:
            reader = CardReader()
        except ModelError as error:
            print(f"saltacavallo recognize: {error}", file=sys.stderr)
            return 2
    annotator = CardAnnotator()
    if annotate_dir is not None:
        problem = prepare_folder(annotate_dir)
        if problem is not None:
            print(f"saltacavallo recognize: --annotate {annotate_dir}: {problem}", file=sys.stderr)
            return 2
    status = 0
    written: set[Path] = set()
    for path in images:
        try:
            image = read_image(path)
        except ImageError as error:
            status = 1
            if as_json:
                print(json.dumps({"image": path, "error": str(error)}), file=out, flush=True)
            else:
                print(f"{path}: error: {error}", file=out, flush=True)
            continue
        detections = reader(image.pixels)
        if annotate_dir is not None:
            drawn = annotator.annotate(image.pixels, detections)
            target = annotate_dir / f"{Path(path).stem}.annotated.jpg"
            if target in written:  # two images of one name from different folders
                target = annotate_dir / f"{Path(path).stem}-{len(written)}.annotated.jpg"
            written.add(target)
            if not _write_image(target, drawn):
                print(f"saltacavallo recognize: cannot write {target}", file=sys.stderr)
                return 2
        # quads are reported in the file's own pixels even when a huge JPEG was decoded reduced
        detections = CardDetections(
            detections.quad * np.float32(image.scale), detections.label, detections.confidence, detections.abstain
        )
        if as_json:
            print(json.dumps({"image": path, "cards": detections.records()}), file=out, flush=True)
        else:
            print(_listing(path, detections), file=out, flush=True)
    return status
