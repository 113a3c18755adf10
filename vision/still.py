"""Reading a camera's frames at a cost that follows what moves: only the parts of the picture that changed
are read, and the cards lying still elsewhere keep their last reading."""

from __future__ import annotations

import copy

import cv2
import numpy as np

from vision.classify import Remembering
from vision.closer import OVERLAP, CloseLooks
from vision.crop import CARD_ASPECT
from vision.detections import CardDetections
from vision.io import grey_thumbnail
from vision.locate.geometry import intersection, long_sides, on_grid
from vision.recognize import CardReader, View
from vision.source import Frame

LOOK_SIDE = 160
"""Long side (pixels) of the grey thumbnail two frames are compared on: 8 x 8 pixels of a 720p frame each."""
STILL_GREYS = 6
"""Largest difference (grey levels) at a thumbnail pixel between a frame and the one last read there for
that pixel to count as still: a camera's noise of 2 to 4 grey levels a pixel, JPEG-compressed, stays
at 3 there, while a card nudged by half a millimetre (under a pixel at 960x540) moves 21 levels, and
a hand, a card turned up or dealt, far more (tests/vision/test_still.py)."""
LONGEST = 1.0
"""Seconds after which the whole frame is read again once a part of it was read: a card a part's reading
missed, and the table round the parts, never rest on one old reading for long."""
QUIET = 5.0
"""Seconds after which the whole frame is read again when nothing moved since it was last read: only the
light drifts then, over minutes, and any change over the camera's noise is read where it happens."""
SETTLING = 5
"""Readings a place gets from the frame it last changed in, still or not, before its cards stand unread:
a card just laid or turned up against another (the dealer's Cavallo against the stock) is found in
about one reading of two, and the tracker confirms it from those; a reading standing as soon as two
agreed could be two misses, where five all miss once in thirty-two, and the check LONGEST later reads
the place again. A count, not a time: a reading misses by the picture's noise, anew in each frame,
whatever the camera's rate (benchmarks/eval_live.py runs the hands at 15, 7.5 and 5 frames a second)."""
SPECK = 0.05
"""Share of a card's area up to which a patch of the thumbnail that changed is the picture's noise, not
the table's: a video codec (a phone's stream, a film) codes a flat patch of cloth one of two ways from
frame to frame, a block 7 to 14 grey levels apart, a patch of one to four thumbnail pixels; whatever a
hand does to a card changes at least the card's outline, a patch of tens of pixels, and no change that
small can make or unmake a card. A speck is read with whatever changes round it, and when the whole
frame is read again."""
VIEW_MOVED = 0.5
"""Share of the thumbnail changed at once from which the view itself changed (the camera moved or was
knocked, a lamp switched on): the whole frame is read. Hands over the table change far less of it."""
MOSTLY = 0.6
"""Share of the frame the parts to read may cover before the whole frame is read instead: one search
costs less than several overlapping ones, and sees the table round them."""
MOVED_MARGIN_LENGTHS = 0.5
"""Card lengths of table taken in round what moved: a card laid, turned or slid changes the picture over
most of itself, and its margin, as light as the table round it, may change less than the camera's noise;
a card lying still that a hand half covers was read before, and is read whole with it."""
MOVED_SHARE = 0.5
"""Share of a card new to a part's reading over which the picture must have moved lately (`_where_moved`): a
card laid, slid or turned changes the picture over all of itself; a hand's edge beside an outline, a little."""
ROOM = 0.1
"""Card lengths of table kept round a card read before that a part takes in: room to snap its sides to
its edges, and to tell it from a card cut by the part's edge."""
UNKNOWN_CARD = 0.15
"""A card's length, as a share of the frame's long side, before any card is read: a card near a phone
propped at the table's edge, the largest the views the README asks for show."""
CUT = 3
"""Pixels from a part's edge within which a card read there is taken as cut by it (unless the edge is the
frame's): such a card lies mostly outside what changed, and keeps the reading it had."""


def _look(frame: np.ndarray) -> np.ndarray:
    """A frame's grey thumbnail, LOOK_SIDE pixels on its long side, on which stillness is judged."""
    return grey_thumbnail(frame, LOOK_SIDE)


def _unlike(read: CardDetections, before: CardDetections) -> np.ndarray:
    """The quads of the cards of two readings that the other does not name where they lie (OVERLAP)."""
    return np.array([quad for one, other in ((read, before), (before, read)) for quad, label in zip(one.quad, one.label)
                     if not _overlaps(quad, other.quad[other.label == label])], np.float32).reshape(-1, 4, 2)


def _grown(quad: np.ndarray, margin: float, shape: tuple[int, ...]) -> Box:
    """The box round a quad and `margin` pixels round it, inside a frame of `shape`."""
    height, width = shape[:2]
    x0, y0 = np.floor(quad.min(axis=0) - margin).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + margin).astype(int)
    return max(0, int(x0)), max(0, int(y0)), min(width, int(x1)), min(height, int(y1))


Box = tuple[int, int, int, int]
"""A part of a frame: x0, y0, x1, y1 in frame pixels."""


class StillReader:
    """A `CardReader` for the frames of one camera, at a cost that follows what moves.

    Each frame's grey thumbnail is compared, pixel by pixel, with the thumbnail as it was when that place
    was last read. Where nothing changed (by more than the camera's noise) in the SETTLING readings since
    it last did, the cards keep their last reading; the places that changed, with table round them and
    every card read before that they touch whole, are read alone (`CardReader.part`: each as the whole
    frame would be there). The whole frame is read when the view itself changed (VIEW_MOVED), when the
    parts would cover most of it (MOSTLY), and as a check LONGEST seconds after the last whole reading
    once a part was read since, QUIET seconds after it when nothing moved. A still table costs a
    thumbnail a frame.

    A reading is completed by closer looks at the places where cards lay at rest and are read no more
    (`CloseLooks`). Only a steady reading stands, one naming what the reading before it named: on a frame
    caught as a card turns or a hand leaves, a reading can name what the next frame, a few grey levels
    away, does not show, and it must not stand for the frames after it: where it differs, it is read
    again.

    The cards lying still in a part or a whole frame read again are outlined again, but their crops are
    not classified again: the reader's classifier remembers the crops it read lately (`Remembering`)."""

    def __init__(self, reader: CardReader | None = None) -> None:
        self.reader = copy.copy(reader or CardReader())  # a reader of its own, to remember what it read
        self.reader.classifier = Remembering(self.reader.classifier)
        self._closer = CloseLooks(self.reader)
        self._read = CardDetections.empty()
        self._steady = np.zeros(0, bool)
        """Per card of the last reading, whether the reading before it named a card there too (`_steadied`)."""
        self._reference: np.ndarray | None = None
        """The thumbnail as it was when each of its pixels was last read."""
        self._moved_at = np.zeros(0, np.float64)
        """When each thumbnail pixel last differed from the reference."""
        self._reads = np.zeros(0, np.int64)
        """Readings of each thumbnail pixel's place since it last differed from the reference (SETTLING)."""
        self._view: View | None = None
        self._view_at = 0.0
        """When the view (exposure, cloth) was last judged: a whole frame read because its parts would cover
        most of it is read as they would have been, with the view judged within LONGEST seconds."""
        self._whole_at = 0.0
        self._parted = False
        """Whether a part was read since the whole frame was last read."""
        self._again: list[Box] = []
        """Parts whose reading differed from the one before: read again in the next frame."""
        self.wholes: dict[str, int] = {}
        """Whole frames read so far, by why: a new picture, a check, the view moved, parts covering most of
        it, a reading not yet steady (a benchmark's and a test's count)."""
        self.parts = 0
        """Parts of frames read so far."""

    def moved(self, frame: Frame) -> bool:
        """Whether anything in the frame's picture differs from the picture last read there by more than
        the camera's noise (a new picture, before any was read, has moved)."""
        width, height = frame.size
        changed = self._changed(frame.thumbnail(LOOK_SIDE), (height, width))
        return changed is None or bool(changed.any())

    def _changed(self, look: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
        """Mask of the thumbnail's pixels that differ from the picture last read there by more than STILL_GREYS,
        in patches over SPECK of a card (that of a frame of `shape`); None for a new picture (none read
        yet, or another size)."""
        reference = self._reference
        if reference is None or look.shape != reference.shape:
            return None
        changed = cv2.absdiff(look, reference) > STILL_GREYS
        if not changed.any():
            return changed
        _, patches, stats, _ = cv2.connectedComponentsWithStats(changed.view(np.uint8), connectivity=8)
        length = self._card_length(shape) * look.shape[1] / shape[1]
        speck = stats[:, cv2.CC_STAT_AREA] <= SPECK * CARD_ASPECT * length * length
        speck[0] = True  # the unchanged rest
        return ~speck[patches]

    def at_rest(self, at: float, after: float) -> bool:
        """Whether no part of the picture moved for `after` seconds up to `at`, and no reading waits to be
        read again."""
        return bool(self._moved_at.size) and not self._again and at - float(self._moved_at.max()) >= after

    def __call__(self, frame: np.ndarray, at: float, cards: CardDetections | None = None,
                 pile: np.ndarray | None = None) -> CardDetections:
        """The cards in a BGR frame taken at `at` (seconds); `cards` are those known so far (the
        tracker's), whose places are looked at closely when a reading misses them, and `pile` the quad
        of the deck a deal is dealt from, round which the table is looked at closely
        (`CloseLooks`)."""
        return self.read(Frame(frame, at, 0), cards, pile)

    def read(self, frame: Frame, cards: CardDetections | None = None,
             pile: np.ndarray | None = None) -> CardDetections:
        """The cards in a camera's frame, as `__call__` reads them: decoded whole only when read."""
        at, look = frame.at, frame.thumbnail(LOOK_SIDE)
        width, height = frame.size
        shape = (height, width)
        reference, changed = self._reference, self._changed(look, shape)
        if reference is None or changed is None or at < self._whole_at:
            self._moved_at = np.full(look.shape, at)  # all of a new picture is new: read whole while it settles
            self._reads = np.zeros(look.shape, np.int64)
            return self._whole(frame, look, cards, "new", steady=False, pile=pile)
        self._moved_at[changed] = at
        self._reads[changed] = 0
        if at - self._whole_at >= (LONGEST if self._parted else QUIET):
            return self._whole(frame, look, cards, "check", pile=pile)
        if changed.mean() >= VIEW_MOVED:
            return self._whole(frame, look, cards, "view", pile=pile)
        parts = self._parts(changed, self._reads < SETTLING, shape)
        if not parts:
            return self._read
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in parts) >= MOSTLY * width * height:
            return self._whole(frame, look, cards, "unsteady" if self._again == [(0, 0, width, height)] else "mostly",
                               pile=pile)
        assert self._view is not None
        pixels = frame.pixels
        scale = look.shape[1] / width
        moving = self._reads < SETTLING
        read = [(box, self._where_moved(self.reader.part(pixels, box, self._view), moving, scale)) for box in parts]
        self.parts += len(parts)
        self._parted = True
        merged = _merged(self._read, read, shape, self._resting(scale) & self._steady)
        for x0, y0, x1, y1 in parts:
            rows, cols = _thumbnail_span(y0, y1, scale), _thumbnail_span(x0, x1, scale)
            reference[rows, cols] = look[rows, cols]
            self._reads[rows, cols] += 1
        merged = self._looked_closer(pixels, look, at, merged, cards, pile)
        self._again = [] if not len(_unlike(merged, self._read)) else parts
        self._read, self._steady = merged, self._steadied(merged)
        return merged

    def _whole(self, frame: Frame, look: np.ndarray, cards: CardDetections | None, why: str,
               steady: bool = True, pile: np.ndarray | None = None) -> CardDetections:
        """The whole frame read for a reason (`wholes` counts them), its view judged anew unless it is read
        for its parts ("mostly") and the view was judged under LONGEST seconds ago; where its reading
        differs from the one before, that part is read again in the next frame (all of it unless `steady`)."""
        pixels = frame.pixels
        if self._view is None or why != "mostly" or frame.at - self._view_at >= LONGEST:
            self._view, self._view_at = self.reader.view(pixels), frame.at
        read = self._looked_closer(pixels, look, frame.at, self.reader.whole(pixels, self._view), cards, pile)
        self.wholes[why] = self.wholes.get(why, 0) + 1
        width, height = frame.size
        if not steady:
            self._again = [(0, 0, width, height)]
        else:  # the cards read unlike before, read again with the table round them
            length = MOVED_MARGIN_LENGTHS * self._card_length((height, width))
            self._again = [_grown(quad, length, (height, width)) for quad in _unlike(read, self._read)]
        self._steady = self._steadied(read)
        self._reference, self._read, self._whole_at, self._parted = look.copy(), read, frame.at, False
        self._reads += 1
        return read

    def _where_moved(self, read: CardDetections, moving: np.ndarray, scale: float) -> CardDetections:
        """The cards of a part's reading that lie where a card was read before, or where the picture moved: over
        MOVED_SHARE of a new card's place the thumbnail changed lately (`moving`: read fewer than SETTLING
        times since). A card laid changes the picture where it lies; where nothing moved, a card new to the
        reading is an outline the part's edge closed round the table it took in (a check of the cloth cut off
        from its neighbours), and a card there missed before is found by the next whole reading."""
        if not len(read):
            return read
        keep = np.zeros(len(read), bool)
        for k, quad in enumerate(read.quad):
            if len(self._read) and _overlaps(quad, self._read.quad):
                keep[k] = True
                continue
            place = np.zeros(moving.shape, np.uint8)
            cv2.fillConvexPoly(place, np.rint(quad * scale).astype(np.int32), 1)
            inside = place.astype(bool)
            keep[k] = not inside.any() or float(moving[inside].mean()) >= MOVED_SHARE
        return read[keep]

    def _steadied(self, read: CardDetections) -> np.ndarray:
        """Per card of a new reading, whether the last reading had a card there too: only such a card, read
        steadily, is kept where a part read again misses it (`_merged`). A card read once, and missed where
        its place is read again, was a reading of a moment (the cloth beside a passing arm outlined as a card)."""
        if not len(self._read):
            return np.zeros(len(read), bool)
        return np.array([_overlaps(quad, self._read.quad) for quad in read.quad], bool)

    def _resting(self, scale: float) -> np.ndarray:
        """Mask of the cards read before over whose box every thumbnail pixel was read SETTLING times since
        it last changed."""
        resting = np.zeros(len(self._read), bool)
        for k, quad in enumerate(self._read.quad):
            x0, y0 = np.floor(quad.min(axis=0) * scale).astype(int)
            x1, y1 = np.ceil(quad.max(axis=0) * scale).astype(int)
            under = self._reads[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
            resting[k] = under.size > 0 and int(under.min()) >= SETTLING
        return resting

    def _looked_closer(self, frame: np.ndarray, look: np.ndarray, at: float, read: CardDetections,
                       cards: CardDetections | None, pile: np.ndarray | None = None) -> CardDetections:
        """A reading completed by closer looks at the places of known cards it misses, and round the pile."""
        if cards is None:
            return read
        assert self._view is not None
        return self._closer(frame, look, at, read, cards, self._view.whole.cloth.checked, pile)

    def _parts(self, changed: np.ndarray, settling: np.ndarray, shape: tuple[int, ...]) -> list[Box]:
        """The parts of the frame to read, as boxes in frame pixels that do not overlap: round the thumbnail's
        pixels that changed, MOVED_MARGIN_LENGTHS a card's length of table; round those settling, and round every card
        read before that either touches, ROOM; and the parts to read again."""
        if not self._again and not settling.any():  # a still table: all of it read SETTLING times since it changed
            return []
        length = self._card_length(shape)
        boxes = list(self._again)
        boxes += _grown_boxes(changed, MOVED_MARGIN_LENGTHS * length, shape)
        boxes += _grown_boxes(settling & ~changed, ROOM * length, shape)
        return _apart(boxes, self._read.quad, ROOM * length, shape)

    def _card_length(self, shape: tuple[int, ...]) -> float:
        """A card's length in frame pixels: the longest read so far, or UNKNOWN_CARD of the frame."""
        if len(self._read):
            return float(long_sides(self._read.quad).max())
        return UNKNOWN_CARD * max(shape[:2])


def _grown_boxes(mask: np.ndarray, reach: float, shape: tuple[int, ...]) -> list[Box]:
    """The boxes, in the pixels of a frame of `shape`, round each patch of a thumbnail's mask grown by
    `reach` frame pixels."""
    if not mask.any():
        return []
    scale = mask.shape[1] / shape[1]
    side = 2 * (int(np.ceil(reach * scale)) + 1) + 1
    grown = cv2.dilate(mask.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)))
    count, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    return [_frame_box(x, y, x + w, y + h, scale, shape) for x, y, w, h, _ in stats[1:count]]


def _thumbnail_span(start: int, stop: int, scale: float) -> slice:
    """The thumbnail's pixels lying wholly inside frame pixels start to stop, at `scale`."""
    return slice(int(np.ceil(start * scale)), int(np.floor(stop * scale)))


def _frame_box(x0: int, y0: int, x1: int, y1: int, scale: float, shape: tuple[int, ...]) -> Box:
    """A box of thumbnail pixels as a box of frame pixels, inside the frame."""
    height, width = shape[:2]
    return (max(0, int(x0 / scale)), max(0, int(y0 / scale)),
            min(width, int(np.ceil(x1 / scale))), min(height, int(np.ceil(y1 / scale))))


def _apart(boxes: list[Box], cards: np.ndarray, margin: float, shape: tuple[int, ...]) -> list[Box]:
    """The boxes grown round the `cards` (quads) they touch and `margin` pixels of table round those, those
    that overlap joined into the box round them, until no box cuts a card and none overlaps another."""
    held = [_grown(card, margin, shape) for card in cards]
    boxes = list(dict.fromkeys(boxes))
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(boxes):
            for card in held:
                if _cuts(a, card):
                    boxes[i] = a = _round(a, card)
                    changed = True
            for j in range(i + 1, len(boxes)):
                if _cuts(a, boxes[j]) or _cuts(boxes[j], a):
                    boxes[i] = _round(a, boxes.pop(j))
                    changed = True
                    break
            if changed:
                break
    return boxes


def _cuts(box: Box, other: Box) -> bool:
    """Whether two boxes overlap without the second lying wholly inside the first."""
    overlap = box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]
    inside = box[0] <= other[0] and box[1] <= other[1] and other[2] <= box[2] and other[3] <= box[3]
    return overlap and not inside


def _round(a: Box, b: Box) -> Box:
    """The box round two boxes."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _inside(quads: np.ndarray, box: Box, margin: float = 0.0) -> np.ndarray:
    """Mask of the quads [N, 4, 2] lying wholly inside a box, `margin` pixels from its sides."""
    x0, y0, x1, y1 = box
    xs, ys = quads[..., 0], quads[..., 1]
    return ((xs >= x0 + margin) & (xs <= x1 - margin) & (ys >= y0 + margin) & (ys <= y1 - margin)).all(axis=1)


def _uncut(detections: CardDetections, box: Box, shape: tuple[int, ...]) -> np.ndarray:
    """Mask of the cards read in a part lying inside it, CUT pixels from every side that is not the frame's."""
    height, width = shape[:2]
    x0, y0, x1, y1 = box
    inner = (x0 - CUT if x0 > 0 else -np.inf, y0 - CUT if y0 > 0 else -np.inf,
             x1 + CUT if x1 < width else np.inf, y1 + CUT if y1 < height else np.inf)
    return _inside(detections.quad, inner, 2 * CUT)  # type: ignore[arg-type]


def _merged(before: CardDetections, parts: list[tuple[Box, CardDetections]], shape: tuple[int, ...],
            resting: np.ndarray) -> CardDetections:
    """The reading of a frame whose parts were read anew: the cards read before that lie wholly inside no
    part keep their reading, and so do those `resting` (read SETTLING times since anything over them
    changed) on which no card of the parts' readings lies: a part's reading misses a card lying still now
    and then (one its edge cuts, its outline read before a little short), and nothing there moved to take
    it away. Each part's cards not cut by its edge and lying on none of those are added."""
    inside = np.zeros(len(before), bool)
    for box, _ in parts:
        inside |= _inside(before.quad, box)
    fresh = CardDetections.joined([read[_uncut(read, box, shape)] for box, read in parts])
    missed = inside & resting
    if len(fresh):
        missed &= np.array([not _overlaps(quad, fresh.quad) for quad in before.quad], bool)
    stand = before[~inside | missed]
    if len(stand) and len(fresh):
        fresh = fresh[[not _overlaps(quad, stand.quad) for quad in fresh.quad]]
    return CardDetections.joined([stand, fresh])


def _overlaps(quad: np.ndarray, quads: np.ndarray) -> bool:
    """Whether a quad lies OVERLAP or more on one of `quads`, or one of them on it."""
    grid, others = on_grid(quad), on_grid(quads)
    area = float(cv2.contourArea(quad))
    return any(intersection(grid, other) > OVERLAP * min(area, float(cv2.contourArea(q)))
               for other, q in zip(others, quads))
