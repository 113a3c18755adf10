"""A closer look where a card lay at rest and is read no more: a card turned face up on a checked cloth,
its white paper beside the light checks, is lost at the search's scale and found on its place enlarged;
and, while the deck lies at the stock, a look round it, against which the dealer lays his own card."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.detections import CardDetections
from vision.labels import NONE
from vision.locate.geometry import areas, intersection, long_side, on_grid
from vision.recognize import SURE_EVIDENCE, CardReader

FORGET = 5.0
"""Seconds a card's place is looked at after the card was last known there: a card lifted to be looked
at, turned over or swapped lies again within a few seconds even at a slow pace; one gone longer was
collected or put aside."""
RESTING = 0.1
"""Card lengths within which a card known at a place in two frames running lay there at rest: a dealt
card in flight moves more from frame to frame, and its path is no place to look at."""
SAME_PLACE_LENGTHS = 0.5
"""Card lengths within which a card read is at a place: a card turned over, or laid down by another
hand, lies about where the one before it did."""
CLOSE_CARDS = (160.0, 200.0)
"""Long sides (pixels) a place's card is enlarged to for the closer look, the next tried when one finds
nothing there: enlarged, the search sees the paper's edge beside a check over several pixels. On the
eval_live hands' face-up cards the whole reading missed (benchmarks/eval_closer.py), 200 finds the
most on the checked cloth and 160 every one on felt and wood, where 180 and more lose the dealer's
card against the stock."""
PLAIN_CLOSE = CLOSE_CARDS[:1]
"""Long sides a place's card is enlarged to on a table without checks (felt, wood, a plain cloth), where
the first of CLOSE_CARDS finds every card the closer looks find: a look there that finds nothing costs
one search, not two."""
PLACE_MARGIN_LENGTHS = 1.0
"""Card lengths of table taken in round a place's card: room for the card laid down turned or moved."""
SIZED = (0.5, 2.0)
"""Least and most area, over the place's card's, of the card a closer look may find there (a card
laid at a tilt, a back read as a face)."""
OVERLAP = 0.3
"""Share of the smaller of two quads lying on the other from which they outline one card: cards on a
table lie side by side, touching at most (the dealer's against the stock)."""
GIVEN_UP = 1.0
"""Seconds no card has been known at a place after which a look there that found nothing stands while
the table round it lies as it did: by then the tracker has given the card up as taken away
(track.KEEP_UNSEEN) and the loop has taken its seat as emptied, and a card comes back only with
a hand, which stirs the window. Sooner, a look that missed a card lying there is taken again."""
AGAIN = 0.08
"""Seconds a look that found nothing stands, while the window lies as it was, before it is taken again:
where a card lies, a look taken again in the next picture finds it about once in a hundred. At 15 frames
a second a place that keeps showing nothing is looked at in every other frame, a card missed there
unread for two frames (0.13 s), under the 0.2 s after which the tracker counts it covered
(referee.observation.UNSEEN_AFTER); at 10 frames a second or fewer, in every frame."""
TRIES = 3
"""Looks in a row that found nothing on a place's window lying as it was, after which the last of them
stands while it lies so, as one does once the place's card is given up (GIVEN_UP): a look taken again
on the same still picture finds a card the one before missed about once in a hundred (AGAIN), so the
tries, not the time they take, are what a missed card needs, at any camera rate. A hand or a card laid
there stirs the window, and the tries begin again."""
MOST_LOOKS = 4
"""Places looked at closely anew in one frame at most (those whose cards were known last first): after a reveal on a
checked cloth, each costs about a whole reading of a small frame."""
BY_THE_PILE = 1.5
"""Card lengths from the pile's centre within which a card read on the table round it lies against it:
the dealer lays his own card by the deck, corner to side or side to side, its centre about a card's
length from the pile's."""
OUTLINES = 3
"""Outlines of unlike size a place keeps, the latest first, for a card turned over where it lay
(`CloseLooks._as_it_lay`): a hand over part of a card outlines a piece of it, and the tracker keeps
that piece as the card's outline until the card is read whole again."""
UNLIKE = 0.2
"""Difference of two outlines' areas, as a share of the larger's, from which they are kept apart: a
card read at rest keeps its area within a few hundredths from frame to frame."""
STIRRED = 20
"""Grey levels by which a place's thumbnail (vision/still.py's) must differ from the frame before for a
hand to be moving there, which holds nothing to find yet: a hand's edge moving a few pixels changes
it by tens of levels, a camera's noise and its exposure drifting (up to 7 from frame to frame in the
eval_live films) by a few."""


@dataclass(frozen=True)
class _Look:
    """A closer look at a place: the thumbnail's window it was taken on, as it was, what it found, and when."""

    window: tuple[slice, slice]
    thumbnail: np.ndarray
    found: CardDetections
    at: float
    tries: int = 1
    """Looks in a row, this one the last, that found nothing on the window lying as it was."""

    def holds(self, look: np.ndarray, at: float, given_up: bool) -> bool:
        """Whether the look stands at `at`: the window lies as it was (the same look would find the same
        card again), and it found a card, or the place's card is `given_up` (GIVEN_UP), or it was taken
        under AGAIN seconds ago, or it is the last of TRIES that found nothing. Sooner, one that found
        nothing stands no longer: a look misses a card on the checked cloth about once in twenty
        (benchmarks/eval_closer.py), and a far card revealed on the gingham, its outline jittering and
        left unlooked at for half a second, counted as collected."""
        recent = at - self.at < AGAIN
        tried = bool(len(self.found)) or given_up or recent or self.tries >= TRIES
        return tried and self.still(look)

    def still(self, look: np.ndarray) -> bool:
        """Whether the window lies as it was when the look was taken (`_unstirred`)."""
        return _unstirred(self.thumbnail, look[self.window])


@dataclass
class _Place:
    """Where a card lay: its quad (frame pixels), when it was last known there, whether it lay at rest,
    the last closer look at it, and the outlines of unlike size its card had there (OUTLINES)."""

    quad: np.ndarray
    seen: float
    rested: bool = False
    looked: _Look | None = None
    outlines: tuple[np.ndarray, ...] = ()
    centre: np.ndarray = field(init=False)
    length: float = field(init=False)

    def __post_init__(self) -> None:
        self.centre, self.length = self.quad.mean(axis=0), long_side(self.quad)  # asked for often: kept
        area, *others = areas(np.stack((self.quad, *self.outlines)))
        kept = [o for o, other in zip(self.outlines, others) if abs(other - area) >= UNLIKE * max(area, other)]
        self.outlines = (self.quad, *kept)[:OUTLINES]


class CloseLooks:
    """The places of one camera's cards, looked at closely while their cards are read no more."""

    def __init__(self, reader: CardReader, enlarge: tuple[float, ...] = CLOSE_CARDS) -> None:
        self.reader = reader
        self.enlarge = enlarge
        """Long sides (pixels) a place's card is enlarged to, in the order tried (CLOSE_CARDS)."""
        self._places: list[_Place] = []
        self._look: np.ndarray | None = None
        self._pile: tuple[_Place, _Look] | None = None  # the last look round the pile, and where it lay

    def __call__(self, frame: np.ndarray, look: np.ndarray, at: float, read: CardDetections,
                 cards: CardDetections, checked: bool = True, pile: np.ndarray | None = None) -> CardDetections:
        """A reading `read` of a frame completed by the cards it missed at the places where cards lay at
        rest, read on those places enlarged. `cards` are the cards known so far (the tracker's, confirmed:
        a card outlined in a frame or two, a half of one, has no place), `look` the frame's grey thumbnail
        (for which places are still); unless the table shows a `checked` cloth, a card is enlarged only
        to PLAIN_CLOSE's sides. With a `pile` (the quad of the deck a deal is dealt from) the cards
        lying against it are read on the table round it enlarged too (`_by_the_pile`): an outline of the
        reading that the pile and such a card both lie on is the two outlined as one shape, and they
        stand for it."""
        self._remember(cards, at)
        named = read[read.label != NONE]
        missed = [place for place in self._places if place.rested and not _at(place, named)]
        missed.sort(key=lambda place: -place.seen)
        found, looks = [], 0
        for place in missed:
            if place.looked is None or not place.looked.holds(look, at, at - place.seen >= GIVEN_UP):
                before, place.looked = place.looked, None
                window = _thumbnail_window(place, frame.shape, look.shape)
                if looks == MOST_LOOKS or self._look is None or not _unstirred(self._look[window], look[window]):
                    continue  # a hand moving there holds nothing to find yet
                seen = self._closer(frame, place, self.enlarge if checked else PLAIN_CLOSE)
                tries = 1  # one more of those in a row that found nothing on the window lying as it was
                if before is not None and not len(before.found) and not len(seen) and before.still(look):
                    tries += before.tries
                place.looked = _Look(window, look[window].copy(), seen, at, tries)
                looks += 1
            found.append(place.looked.found)
        if pile is not None:
            by_the_pile = self._by_the_pile(frame, look, at, pile)
            found.append(by_the_pile)
            if len(by_the_pile):  # an outline two of its cards lie on is the two as one shape
                read = read[[label == NONE or _lying_on(quad, by_the_pile.quad) < 2
                             for quad, label in zip(read.quad, read.label)]]
                named = read[read.label != NONE]
        self._look = look
        more = CardDetections.joined(found)
        if len(more):  # a card the reading outlined already, or another look found first (the one by the pile at its place)
            more = more[[not _on_any(quad, np.concatenate([named.quad, more.quad[:k]])) for k, quad in enumerate(more.quad)]]
        return CardDetections.joined([read, more])

    def _closer(self, frame: np.ndarray, place: _Place, sides: tuple[float, ...] | None = None) -> CardDetections:
        """The card searched for at a place enlarged (`_searched`); else the card surely named in the
        outline the place's card had (`_as_it_lay`); none when neither is."""
        found = self._searched(frame, place, sides)
        return found if len(found) else self._as_it_lay(frame, place)

    def _searched(self, frame: np.ndarray, place: _Place, sides: tuple[float, ...] | None = None) -> CardDetections:
        """The card read at a place, enlarged to each of `sides` (`enlarge`) in turn until one is; none when
        none is."""
        for side in self.enlarge if sides is None else sides:
            found = self._enlarged(frame, place, side)
            if len(found):
                return found
        return CardDetections.empty()

    def _as_it_lay(self, frame: np.ndarray, place: _Place) -> CardDetections:
        """The card named SURE_EVIDENCE or more in an outline the place's card had (the surest of them): a card
        turned over where it lay keeps its outline, where a search may not find it (a far card face
        up, its white paper beside a checked cloth's white checks, or white on a lace); the bare table,
        a hand or half a card there is named no card."""
        read = self.reader.read_quads(frame, np.stack(place.outlines))
        named = np.flatnonzero((read.label != NONE) & (read.confidence >= SURE_EVIDENCE))
        return read[[named[np.argmax(read.confidence[named])]]] if len(named) else CardDetections.empty()

    def _enlarged(self, frame: np.ndarray, place: _Place, side: float) -> CardDetections:
        """The card read at a place on the frame's window round it, enlarged so the place's card is
        `side` pixels long; none when none is read there."""
        read = self._round(frame, place, side, SAME_PLACE_LENGTHS)
        return read[[int(np.argmax(read.confidence))]] if len(read) else read

    def _round(self, frame: np.ndarray, place: _Place, side: float, reach: float) -> CardDetections:
        """The cards read on the frame's window round a place, enlarged so the place's card is `side`
        pixels long, that lie within `reach` card lengths of the place and of SIZED its card's area
        (frame pixels)."""
        x0, y0, x1, y1 = _window(place, frame.shape)
        scale = side / place.length
        read = self.reader(cv2.resize(frame[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR))
        if not len(read):
            return read
        quads = ((read.quad + 0.5) / scale - 0.5 + np.array([x0, y0], np.float32)).astype(np.float32)
        read = CardDetections(quads, read.label, read.confidence, read.abstain)
        share = areas(read.quad) / max(float(areas(place.quad[None])[0]), 1.0)
        near = np.linalg.norm(read.quad.mean(axis=1) - place.centre, axis=1) < reach * place.length
        return read[near & (share >= SIZED[0]) & (share <= SIZED[1])]

    def _by_the_pile(self, frame: np.ndarray, look: np.ndarray, at: float, pile: np.ndarray) -> CardDetections:
        """The pile and the cards lying against it, read on the table round it enlarged to PLAIN_CLOSE
        (none when no card lies against it): the dealer lays his own card by the deck, and at the whole
        reading's scale two cards touching outline one shape, neither a card's. A look stands while the
        pile lies where it did and the table round it as it was; none is taken while a hand moves there."""
        place = _Place(pile, at)
        if self._pile is not None:
            was, looked = self._pile
            if _near(was, place.centre, RESTING) and looked.still(look):
                return looked.found
        window = _thumbnail_window(place, frame.shape, look.shape)
        if self._look is None or not _unstirred(self._look[window], look[window]):
            self._pile = None
            return CardDetections.empty()
        read = self._round(frame, place, PLAIN_CLOSE[0], BY_THE_PILE)
        read = read[read.label != NONE]
        against = [not _on_any(quad, pile[None]) for quad in read.quad]
        found = read if any(against) else CardDetections.empty()
        self._pile = (place, _Look(window, look[window].copy(), found, at))
        return found

    def _remember(self, cards: CardDetections, at: float) -> None:
        """The places of the cards known now, and those where no card has been known for under FORGET seconds."""
        kept = []
        for quad in cards.quad:
            before = [place for place in self._places if _near(place, quad.mean(axis=0), SAME_PLACE_LENGTHS)]
            # the outlines its card had there, whole and under a hand
            now = _Place(quad, at, outlines=before[0].outlines if before else ())
            # a card known where one lay at rest, or twice running at one spot, lies at rest
            now.rested = any(place.rested or _near(place, now.centre, RESTING) for place in before)
            same = [place for place in before if _near(place, now.centre, RESTING)]
            now.looked = same[0].looked if same else None  # the card lies where it was looked at
            kept.append(now)
        for place in self._places:
            if at - place.seen < FORGET and not any(_near(place, now.centre, SAME_PLACE_LENGTHS) for now in kept):
                kept.append(place)
        self._places = kept


def _near(place: _Place, point: np.ndarray, lengths: float) -> bool:
    """Whether a point lies within so many of a place's card lengths of its centre."""
    return math.hypot(float(place.centre[0] - point[0]), float(place.centre[1] - point[1])) < lengths * place.length


def _at(place: _Place, cards: CardDetections) -> bool:
    """Whether one of the cards lies at a place."""
    return any(_near(place, centre, SAME_PLACE_LENGTHS) for centre in cards.quad.mean(axis=1))


def _lying_on(quad: np.ndarray, quads: np.ndarray) -> int:
    """How many of `quads` lie OVERLAP or more of their own area on a quad: the cards a larger outline
    takes in."""
    grid = on_grid(quad)
    return sum(intersection(grid, other) > OVERLAP * float(area) for other, area in zip(on_grid(quads), areas(quads)))


def _on_any(quad: np.ndarray, quads: np.ndarray) -> bool:
    """Whether a quad lies OVERLAP or more on one of `quads` (or one of them on it): a card the whole
    reading outlined already, outlined anew (a half of it) where another card lay before a swap."""
    grid, others = on_grid(quad), on_grid(quads)
    area = float(areas(quad[None])[0])
    return any(intersection(grid, other) > OVERLAP * min(area, float(other_area))
               for other, other_area in zip(others, areas(quads)))


def _unstirred(before: np.ndarray, now: np.ndarray) -> bool:
    """Whether a window of the thumbnail is as it was: no thumbnail pixel there changed by STIRRED."""
    return before.shape == now.shape and int(cv2.absdiff(before, now).max(initial=0)) < STIRRED


def _thumbnail_window(place: _Place, shape: tuple[int, ...], thumbnail: tuple[int, ...]) -> tuple[slice, slice]:
    """The thumbnail's rows and columns over a place's window in a frame of `shape`."""
    x0, y0, x1, y1 = _window(place, shape)
    scale = thumbnail[1] / shape[1]
    return slice(int(y0 * scale), int(np.ceil(y1 * scale))), slice(int(x0 * scale), int(np.ceil(x1 * scale)))


def _window(place: _Place, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The frame's window (x0, y0, x1, y1) round a place's card and PLACE_MARGIN_LENGTHS card lengths of table."""
    height, width = shape[:2]
    margin = PLACE_MARGIN_LENGTHS * place.length
    x0, y0 = np.floor(place.quad.min(axis=0) - margin).astype(int)
    x1, y1 = np.ceil(place.quad.max(axis=0) + margin).astype(int)
    return max(0, x0), max(0, y0), min(width, x1), min(height, y1)
