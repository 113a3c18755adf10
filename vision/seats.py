"""The players' places on the table, and what lies at each of them as plain data.

`Seats` are found automatically at the first deal (`SeatFinder`) or read from a seats file
(`load_seats`); `observe` turns the tracker's confirmed cards into a `TableObservation`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from referee.cards import DECK, parse_card
from referee.observation import EMPTY, Face, SeatView, TableObservation
from vision.detections import CardDetections
from vision.labels import BACK
from vision.plane import FEWEST, TablePlane, table_plane

_DECK = {card.code: card for card in DECK}
"""Each card by its code: a seat's card is named in every frame."""
SEAT_RADIUS = 0.9
"""Card lengths from a seat's point within which a card lies at that seat: a player puts a card
down about where the last one lay, and neighbours sit two or more card lengths apart."""
SEAT_SHARE = 0.45
"""Largest radius as a share of the distance between the two closest seats, so places never overlap."""
STOCK_CLEAR = 0.8
"""Card lengths from the stock a dealt card must lie: nearer, a resting card is the pile's own (its
top card askew, the pile seen as two; a card lifted off it is in the dealer's hand, not resting),
and the dealer lays his own card about a card length in front of the pile."""
SEPARATE = 1.0
"""Card lengths between two dealt cards for them to mark two places: neighbours' cards do not
overlap, even at a crowded table of eight."""
LIES = 0.5
"""Card lengths from where a place's card came to rest within which it still lies there when the seats
are named: turned over or peeked under, a card stays where it lay; a reading gone by then (the cloth's
pattern read as a back for a moment, half the cut deck put back on the other) marks no place."""
DEAL_PAUSE = 3.0
"""Seconds a dealer may take between two cards (a slow family, a Re turned up at once, a far card read
late): with nothing left where the pile was set down, the seats wait this long for one more card
before the cards lying are taken for every place and no pile."""
PILE_HIDDEN = 1.5
"""Seconds the pile may go unread and still lie where it was set down: the dealer's hand covers it as
he takes his own card off it, that card lies REST_SECONDS before it marks his place, and the pile
touching it is seldom read apart."""
REST_SECONDS = 0.5
"""Seconds a dealt card must lie still before it marks a seat: a card on its way, in the dealer's
hand, stops for less."""
STILL_LENGTHS = 0.15
"""Card lengths a resting card may wander between readings (its outline jitters by a few pixels)."""
REANCHOR_REACH = 1.5
"""Card lengths a seat may have moved when the camera was nudged between hands."""
RIGID = 0.35
"""Card lengths the next deal's cards may lie off a camera move that fits them all (people lay a
card about a third of a length askew): farther, and the cards were laid askew (or the stock was
taken for a card), so the seats stay where they were."""
BY_THE_STOCK = 0.5
"""The stock lies by the dealer's place when, seen from the middle of the places, its bearing is off
his place's by less than this share of its bearing off any other place's: a deck in front of the
dealer is off his by under a quarter of its bearing off his neighbours', seen from above or by a phone
leaning 45 degrees."""
OFF_MIDDLE = 0.25
"""Share of the way from the middle out to the places the stock must lie to mark the dealer: the deck
in front of him lies about halfway out; one left in the middle tells nothing."""
INSIDE = 0.5
"""Card lengths on the table's plane a mark may lie within the ring of the others and still be a place: the
places go round the table, a card laid a little in from its neighbours' line lies at one, and the deck set
down in front of the dealer lies a card length or more inside."""
APART_RADIANS = 0.3
"""Least turn (radians) between two neighbours' places seen from the middle of the places, on the table's
plane (`vision.plane`): eight players round an oval sit 0.6 or more apart, and places nearer in bearing
could be named in either order."""
LATE = 2
"""Most the deal's order may part from the places' order round the table (the sum, over the places, of
how many cards early or late each was seen resting): one card seen resting a card late, a small far card
or one under the dealer's arm; more, and the order tells no turn of the table surely."""
UNSURE = ("seats.unseen", "seats.more", "seats.close", "seats.order", "seats.stock")
"""Why the places may not be named at the first deal (`SeatFinder.unsure`): a card of the deal never seen
resting, more places lying than players, two places too near in bearing, a deal order that fits no turn of
the table, the deck lying by another place than the deal's last, or beyond the places by none of them."""
CARD_LENGTH = 130.0
"""A card's length in pixels assumed when no card is in sight (a 720p frame of a kitchen table)."""


class SeatsError(ValueError):
    """A seats file or seating that cannot be used, with the reason in words."""


Point = tuple[float, float]
Apart = Callable[[np.ndarray, np.ndarray, float], float]
"""How far apart two spots of the picture lie, in card lengths, given the length of the card at the first."""


class Mark(NamedTuple):
    """A place marked at the first deal."""

    since: float
    """When its card came to rest there."""
    spot: np.ndarray
    """Where (frame pixels)."""
    quad: np.ndarray
    """The card's outline."""
    card: int
    """The card id (the tracker's) that marked it."""


@dataclass(frozen=True)
class Seats:
    """The players in seating order, each one's place in frame pixels, and the stock's place if known.

    `radius` is how far from its point a card still lies at a seat; None takes it from the
    size of the cards in sight.
    """

    names: tuple[str, ...]
    points: tuple[Point, ...]
    radius: float | None = None
    stock: Point | None = None

    def __post_init__(self) -> None:
        if len(self.names) != len(self.points) or len(set(self.names)) != len(self.names):
            raise SeatsError("seats need one point for each of distinct players")

    def point(self, name: str) -> Point:
        """A player's place."""
        return self.points[self.names.index(name)]

    def zone(self, card_length: float) -> float:
        """How far from its point a card lies at a seat, for cards of `card_length` pixels."""
        radius = self.radius if self.radius is not None else SEAT_RADIUS * card_length
        return radius if self._closest is None else min(radius, SEAT_SHARE * self._closest)

    @cached_property
    def _closest(self) -> float | None:
        """The least distance between two seats' points (None for one seat): asked in every frame."""
        if len(self.points) < 2:
            return None
        p = np.array(self.points)
        return float(np.linalg.norm(p[:, None] - p[None, :], axis=2)[np.triu_indices(len(p), 1)].min())

    def moved(self, matrix: np.ndarray) -> Seats:
        """These seats after the camera moved by a 2x3 similarity `matrix` (old pixels to new)."""
        def move(point: Point) -> Point:
            x, y = matrix @ np.array([point[0], point[1], 1.0])
            return (round(float(x), 2), round(float(y), 2))

        scale = math.sqrt(abs(float(np.linalg.det(matrix[:, :2]))))
        return replace(
            self,
            points=tuple(move(p) for p in self.points),
            radius=None if self.radius is None else self.radius * scale,
            stock=None if self.stock is None else move(self.stock),
        )

    def to_json(self) -> dict[str, list[float]]:
        """The seats-file form: {"Anna": [x, y], ...} in seating order, the stock last when known."""
        data = {name: [round(x, 1), round(y, 1)] for name, (x, y) in zip(self.names, self.points)}
        if self.stock is not None and "stock" not in data:
            data["stock"] = [round(self.stock[0], 1), round(self.stock[1], 1)]
        return data


def load_seats(path: str | Path, players: Sequence[str]) -> Seats:
    """Read a seats file `{"Anna": [x, y], ...}` (frame pixels, seating order; "stock" optional).

    Raises SeatsError in one line when the file cannot be read, does not parse, or names other
    players than `players` or puts them in another order round the table.
    """
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        raise SeatsError(f"{file}: cannot read the seats file ({error.strerror or error})") from error
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SeatsError(f"{file}: not a seats file in JSON ({error})") from error
    if not isinstance(data, dict):
        raise SeatsError(f'{file}: a seats file is an object such as {{"Anna": [640, 610], ...}}')
    stock = data.pop("stock", None) if "stock" not in players else None
    points: dict[str, Point] = {name: _point(file, name, value) for name, value in data.items()}
    strangers = [name for name in points if name not in players]
    if strangers:
        raise SeatsError(f"{file} names {', '.join(strangers)}, not playing "
                         f"(the players are {', '.join(players)})")
    missing = [name for name in players if name not in points]
    if missing:
        raise SeatsError(f"{file} has no place for {', '.join(missing)}")
    names = list(points)
    start = names.index(players[0])
    if names[start:] + names[:start] != list(players):
        raise SeatsError(f"{file} seats the players in the order {', '.join(names)}, "
                         f"but they play in the order {', '.join(players)}")
    return Seats(tuple(players), tuple(points[name] for name in players), None,
                 None if stock is None else _point(file, "stock", stock))


def _point(file: Path, name: str, value: object) -> Point:
    """A place [x, y] in frame pixels."""
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value)):
        raise SeatsError(f"{file}: {name}'s place must be [x, y] in frame pixels, not {json.dumps(value)}")
    return (float(value[0]), float(value[1]))


def card_lengths(cards: CardDetections) -> np.ndarray:
    """Each card's longer side in pixels."""
    sides = np.linalg.norm(cards.quad - np.roll(cards.quad, -1, axis=1), axis=2)
    return sides.max(axis=1) if len(cards) else np.zeros(0)


def typical_length(cards: CardDetections) -> float:
    """The median card's length in pixels, or CARD_LENGTH when none is in sight."""
    return float(np.median(card_lengths(cards))) if len(cards) else CARD_LENGTH


def counterclockwise(points: np.ndarray) -> np.ndarray:
    """Indices of points in counterclockwise order round their centre as the picture shows them (y down)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    return np.argsort(-angles, kind="stable")  # with y pointing down, a smaller angle is further counterclockwise


def deal_turns(ranks: list[float]) -> list[tuple[float, int]]:
    """Each turn of the table (the ring position of the dealer's right) with how far the deal's order
    parts from it, best first: `ranks` gives, per place counterclockwise, when its card was seen
    resting among the others (ties shared: cards seen resting in one picture). The first card is dealt
    at the dealer's right, then round; a card the reader saw come to rest late (a small far card, one
    under the dealer's arm) parts from the best turn by LATE, not from every turn alike."""
    n = len(ranks)
    first = min(ranks)
    turns = sorted((sum(abs(ranks[(start + k) % n] - k) for k in range(n)), ranks[start] != first, start)
                   for start in range(n))
    return [(misfit, start) for misfit, _, start in turns]


def by_the_stock(points: np.ndarray, stock: np.ndarray | None) -> int | None:
    """The place the stock lies by, the dealer's: the one it lies toward, seen from the middle of the
    places (a dealer keeps the deck in front of him, toward the middle; one left in the middle tells
    nothing). A bearing, not a distance: a line on the table stays a line in a leaning phone's picture,
    while the far side is squeezed, and there a deck in front of one place can lie nearest the next."""
    if stock is None or len(points) < 2:
        return None
    middle = points.mean(axis=0)
    out = points - middle
    toward = stock - middle
    if np.linalg.norm(toward) < OFF_MIDDLE * float(np.median(np.linalg.norm(out, axis=1))):
        return None
    turns = np.arctan2(out[:, 1], out[:, 0]) - math.atan2(toward[1], toward[0])
    off = np.abs((turns + math.pi) % (2 * math.pi) - math.pi)
    first, second = np.sort(off)[:2]
    return int(np.argmin(off)) if first < BY_THE_STOCK * second else None


class SeatFinder:
    """Finds the seats at the first deal, and re-anchors them on the cards dealt at a later one.

    The face-down cards on the table before the first card is dealt are the stock. Each card then
    dealt that comes to rest away from the stock and from the others marks a place; once every
    player's card lies at one (see `_lying`), the places are named counterclockwise, the first card
    dealt at the dealer's right (with no dealer known, at the first player's place). After a hand
    the table is cleared; the cards of the next deal that rest near the seats move them with the camera.
    Seats given (from a seats file) are used from the start, and learn the stock's place from
    the pile lying on the table before the deal.
    """

    def __init__(self, players: Sequence[str], dealer: str | None = None, seats: Seats | None = None) -> None:
        if len(players) < 2 or len(set(players)) != len(players):
            raise SeatsError("seats are found for two or more distinct players")
        if dealer is not None and dealer not in players:
            raise SeatsError(f"the dealer {dealer} is not one of the players ({', '.join(players)})")
        self.players = tuple(players)
        self.first = 0 if dealer is None else (self.players.index(dealer) + 1) % len(self.players)
        self.seats = seats
        self._anchor = seats
        """The seats as they were before this deal's re-anchoring."""
        self._rest: dict[int, tuple[np.ndarray, float]] = {}
        """Per card id: where it lies and the picture that first showed it there."""
        self._began: dict[int, float] = {}
        """Per card id: when it came to rest where it lies, at the latest (the picture before that one)."""
        self._stock_ids: set[int] = set()
        self._stock_at: np.ndarray | None = None if seats is None or seats.stock is None else np.array(seats.stock)
        self._pile_quad: np.ndarray | None = None
        """The pile's own outline as it lay where the stock is (`pile`)."""
        self._dealt: list[Mark] = []
        """Each place marked at the first deal (`Mark`). A place is told from another by where it lies, not by
        its card id: a tracker may lend a card flying past a dealt one that card's identity."""
        self.unsure: str | None = None
        """Why the places cannot be named surely at the first deal (one of UNSURE, worded by webui.words: a
        person taps them on the picture); None while they can, or while the deal may still be going on."""
        self._full: set[int] = set()
        self._full_at = 0.0
        """The places (ids of `_dealt`'s marks) that lay when as many lay as players, and when (`_lying`)."""
        self._marked_at = 0.0
        """When the last place was marked at the first deal."""
        self._stirred = 0.0
        """When a card away from the stock and the places marked last came into sight or moved at the first deal:
        the deal goes on (`_unseen`)."""
        self._dealing: float | None = None
        """When a card was first seen away from the stock: the deal had begun (or a card lies from before)."""
        self._down: dict[int, tuple[np.ndarray, float]] = {}
        """Per card dealt, where it last lay face down at the first deal, and since when."""
        self._pile_seen = 0.0
        """When a face-down card last lay still where the stock was set down."""
        self._pile_at: np.ndarray | None = None
        self._pile_length = 0.0
        """Where that card lay then, and its length in the picture."""
        self._armed = False
        self._seen: float | None = None
        """When the picture before was taken."""
        self._unread: frozenset[int] = frozenset()
        """The cards kept but not read in this picture (`update`)."""

    @property
    def stock(self) -> np.ndarray | None:
        """Where the deck lies (frame pixels): as the first deal began, then where each next dealer set
        it down on the cleared table (`_find_stock`), or as the seats give it; None while unseen."""
        if self.seats is not None and self.seats.stock is not None:
            return np.array(self.seats.stock, np.float32)
        return self._stock_at

    def give(self, seats: Seats) -> None:
        """Seats a person gave (tapped on the Setup page's picture): kept from now on, re-anchored as the camera
        moves."""
        self.seats = self._anchor = seats
        self.unsure = None

    def pile(self, tracked: CardDetections) -> np.ndarray | None:
        """The deck's quad while a card is followed where the stock lies (`stock`), within STOCK_CLEAR of
        its own length: the outline the pile had as it lay there, once seen, else the followed card's (a
        card laid against the pile is outlined with it as one shape, which is not the pile's); None where
        no card lies there."""
        stock = self.stock
        if stock is None or not len(tracked):
            return None
        gaps = np.linalg.norm(tracked.quad.mean(axis=1) - stock, axis=1)
        nearest = int(np.argmin(gaps))
        length = float(card_lengths(tracked)[nearest])
        if gaps[nearest] >= STOCK_CLEAR * length:
            return None
        own = self._pile_quad
        if own is not None and np.linalg.norm(own.mean(axis=0) - stock) < STILL_LENGTHS * length:
            return own
        return tracked.quad[nearest]

    def update(self, tracked: CardDetections, at: float, unread: frozenset[int] = frozenset()) -> Seats | None:
        """Take one frame's confirmed cards; the seats once found (re-anchored as the camera moves).

        `unread` are the ids of cards kept where they were last read but not read in this picture (the
        tracker's `unseen` after no time): a card in a hand that left the picture at once is kept lying
        still where the hand last held it, and only a card the picture shows marks a place or moves a seat."""
        length = typical_length(tracked)
        self._note_rest(tracked, at, length)
        self._unread = unread
        if self.seats is None:
            if self.unsure is None:  # a deal judged unsure stays so: a second naming, from the cards of the play
                self._first_deal(tracked, at)  # (peeked, swapped, the cloth read as one now and then), is a guess
        else:
            self._reanchor(tracked, at, length)
        return self.seats

    def _note_rest(self, tracked: CardDetections, at: float, length: float) -> None:
        """Keep, per card, where it lies and since when; a card that moved starts resting anew.

        A card seen come to rest came to rest after the picture before (where it was elsewhere, or not
        yet seen): its rest counts from that picture, so a card lies REST_SECONDS as soon at 5 pictures
        a second as at 30 (counted from the picture that shows it, a slow camera's card lay a whole
        picture's time longer before it marked its place, and a brisk dealer's own card, put aside for
        the draw 0.6 s after it lands, marked none)."""
        before = at if self._seen is None else self._seen
        rest: dict[int, tuple[np.ndarray, float]] = {}
        began: dict[int, float] = {}
        for ident, centre in zip(tracked.tracker_id, tracked.quad.mean(axis=1)):
            ident = int(ident)
            old = self._rest.get(ident)
            still = old is not None and np.linalg.norm(centre - old[0]) <= STILL_LENGTHS * length
            rest[ident] = old if still else (centre, at)  # type: ignore[assignment]
            began[ident] = self._began[ident] if still else before
        self._rest, self._began = rest, began
        self._seen = at

    def _resting(self, ident: int, at: float) -> bool:
        return ident in self._began and at - self._began[ident] >= REST_SECONDS

    def _lies_seen(self, ident: int, at: float) -> bool:
        """Whether the card has rested REST_SECONDS and the picture shows it now (`update`'s `unread`)."""
        return self._resting(ident, at) and ident not in self._unread

    def _first_deal(self, tracked: CardDetections, at: float) -> None:
        """Take the stock before the deal, then the resting dealt cards, and name the seats once all are in."""
        apart = self._apart(tracked, at)
        for ident, face, code, quad, own in zip(tracked.tracker_id, tracked.face, tracked.card,
                                                tracked.quad, card_lengths(tracked)):
            ident, centre = int(ident), quad.mean(axis=0)
            own = float(own)  # the card's own length: under perspective a far card is shorter
            if self._stock_at is None and face == "down" and not self._dealt:
                self._stock_ids.add(ident)  # the pile lies there before the first card is dealt
                self._stock_at = centre
                continue
            near_stock = self._stock_at is not None and \
                np.linalg.norm(centre - self._stock_at) < STOCK_CLEAR * own
            if ident in self._stock_ids and near_stock:
                spot, since = self._rest[ident]
                if not self._dealt and since < at:  # where the pile lies still: the first card slid
                    self._stock_at = spot  # off it keeps its identity, and is carried, not set down
                if self._pile_quad is None and self._resting(ident, at):
                    self._pile_quad = quad  # its outline as it first lay at rest, before a hand takes from it
                continue  # once cards are dealt the pile stays: its top card slid off for the
                # dealer's own place keeps the pile's identity, the pile left gets a new one
            self._stock_ids.discard(ident)  # followed away from the pile: a card dealt from it
            if self._dealing is None and self._stock_at is not None:
                self._dealing = at
            spot, since = self._rest[ident]
            down = self._down.get(ident)
            if face == "down":
                self._down[ident] = spot, since
            turned = face == "up" and down is not None and apart(centre, down[0], own) < LIES
            if turned:  # turned over where it lay face down (a Re shown at once, named or not): a player's own,
                since = down[1]  # at rest there since it landed
            lies = self._lies_seen(ident, at) and (self._dealt_here(face, code) or turned)
            if not (lies or since == at):  # neither lying as dealt nor come into sight or moved in this picture
                continue
            if self._stock_at is not None and apart(centre, self._stock_at, own) < STOCK_CLEAR:
                continue
            unmarked = all(apart(spot, mark.spot, own) >= SEPARATE for mark in self._dealt)
            if since == at and unmarked:  # come into sight or moved where it lies now: spot is its centre
                self._stirred = at  # not a marked place's card, handled: the deal's next card on its way
            if lies and unmarked:
                self._dealt.append(Mark(since, spot, quad, ident))
                self._marked_at = at
        pile = self._pile_lies(tracked, at, apart)
        if pile is not None:
            self._pile_seen, (self._pile_at, self._pile_length) = at, pile
        dealt = self._lying(tracked, at)
        if dealt is None:
            return
        points = np.array([mark.spot for mark in dealt])
        around = self._round(dealt)
        if around is None:
            return
        n = len(self.players)
        named = {self.players[(self.first + k) % n]: points[i] for k, i in enumerate(around)}
        self.seats = Seats(
            self.players,
            tuple((round(float(named[p][0]), 2), round(float(named[p][1]), 2)) for p in self.players),
            None,
            None if self._stock_at is None else (round(float(self._stock_at[0]), 2),
                                                 round(float(self._stock_at[1]), 2)),
        )
        self._anchor = self.seats

    def _apart(self, tracked: CardDetections, at: float) -> Apart:
        """How far apart two spots lie, in card lengths: on the table's plane of the cards resting now (a
        leaning phone squeezes the far side's places together, its cards' lengths less), or in the picture
        by the card's `own` length while fewer than three cards rest."""
        planes: list[TablePlane | None] = []  # fitted at the first question: most frames ask none

        def apart(a: np.ndarray, b: np.ndarray, own: float) -> float:
            if not planes:
                resting = [quad for ident, quad in zip(tracked.tracker_id, tracked.quad)
                           if self._resting(int(ident), at)]
                planes.append(table_plane(np.array(resting))[0] if len(resting) >= FEWEST else None)
            plane = planes[0]
            if plane is None:
                return float(np.linalg.norm(a - b)) / own
            return float(np.linalg.norm(np.subtract(*plane(np.array([a, b])))))

        return apart

    def _round(self, dealt: list[Mark]) -> list[int] | None:
        """The places (indices of `dealt`, in the order their cards came to rest) counterclockwise from the
        dealer's right, named on the table's plane (the leaning phone's perspective undone); None, saying
        why in `unsure`, where the deal's geometry does not name them surely: two places too near in
        bearing, a deal order that fits no turn of the table within LATE or fits two alike, a deck
        lying by another place than the one the deal's order ends at, or lying beyond the ring of the
        places by none of them (a player's card taken for the deck, the deck unseen as the deal began)."""
        plane, _ = table_plane(np.array([mark.quad for mark in dealt]))
        points = plane(np.array([mark.spot for mark in dealt]))
        ring = [int(k) for k in counterclockwise(points)]
        middle = points.mean(axis=0)
        bearings = np.sort(np.arctan2(*(points - middle).T[::-1]))
        gaps = np.diff(np.append(bearings, bearings[0] + 2 * math.pi))
        if gaps.min() < APART_RADIANS:
            return self._unsure("seats.close")
        since = [mark.since for mark in dealt]
        ranks = [sum(other < since[k] for other in since) + (sum(other == since[k] for other in since) - 1) / 2
                 for k in ring]
        turns = deal_turns(ranks)
        (misfit, start), (second, _) = turns[0], turns[1]
        if misfit > LATE or second == misfit:
            return self._unsure("seats.order")
        stock = None if self._stock_at is None else plane(self._stock_at[None])[0]
        last = by_the_stock(points[ring], stock)
        if (last is not None and (last + 1) % len(ring) != start) or (last is None and beyond_ring(points, stock)):
            return self._unsure("seats.stock")
        self.unsure = None
        return ring[start:] + ring[:start]

    def _unsure(self, why: str) -> None:
        self.unsure = why
        return None

    @staticmethod
    def _dealt_here(face: str, code: str | None) -> bool:
        """Whether a card lying may be one dealt, as it lies now: the dealer deals face down, and only a Re or a
        Cavallo is turned up at once (seen first face up at a slow camera's frames). A face lying up that is
        no Re or Cavallo was not dealt so: a thing on the table read for a card (coins in a row taken for an
        Asso di Denari), a card left from before, or a card turned up at the reveal and set aside for the draw
        (where no place was marked, it would mark the dealer's place where he set it aside)."""
        return face == "down" or (code is not None and parse_card(code).shows)

    def _pile_lies(self, tracked: CardDetections, at: float, apart: Apart) -> tuple[np.ndarray, float] | None:
        """Where and how long the face-down card lying still where the stock was set down is (one carried
        past is no pile); None while none lies there."""
        if self._stock_at is None:
            return None
        for ident, face, centre, own in zip(tracked.tracker_id, tracked.face, tracked.quad.mean(axis=1),
                                            card_lengths(tracked)):
            if face == "down" and self._resting(int(ident), at) and \
                    apart(centre, self._stock_at, float(own)) < STOCK_CLEAR:
                return centre, float(own)
        return None

    def _lying(self, tracked: CardDetections, at: float) -> list[Mark] | None:
        """The places to name, one per player in the order their cards came to rest, once the table
        shows every player's card; None while it does not yet, or where more places lie than players
        (`unsure`: no rest time tells which is no player's).

        Only a place whose card still lies there counts, and only a card of the deck's size where it lies
        (`vision.plane`, fitted on every place marked: one whose card was taken up since still tells the
        size of a card there), going round the table (none INSIDE the ring of the others), and not where the
        pile lies now. Where nothing has lain where the stock was
        set down for PILE_HIDDEN (it was no pile but a reading gone, or the pile was lifted), the pile
        may be among the places marked, as it lay still before the deal: once the dealer's own card
        lies too, the place deepest inside the ring of the others is the pile, and the stock's place
        (the places go round the table, the deck lies between them); with no card more for
        DEAL_PAUSE, there is no pile.

        Once as many places lie as players, the places wait DEAL_PAUSE for the dealer's own card: a thing read
        for a card, at rest since before the deal or as a held phone sways, came to rest as early as any card
        dealt, and only the card one more than players shows it (no rest time tells which place is no
        player's). Those places count though a card was taken up since, and a player's card taken from his
        place and set down elsewhere (a brisk dealer puts his own aside for the draw) marks none.
        """
        n = len(self.players)
        if len(self._dealt) < n:
            return self._unseen(at)
        now = {id(mark) for mark in self._dealt if lies_at(tracked, mark.spot, LIES)}
        taken = {mark.card for mark in self._dealt if id(mark) in self._full - now}  # taken up from places that lay
        lying = [mark for mark in self._dealt
                 if id(mark) in self._full or (id(mark) in now and mark.card not in taken)]
        if self._stock_at is not None and at - self._pile_seen > PILE_HIDDEN:
            pile = inside_ring(np.array([mark.spot for mark in lying])) if len(lying) > n else None
            if pile is not None:
                self._stock_at, self._pile_quad = lying.pop(pile).spot, None
        if lying:  # the cloth's checks or coins read as a back are not of the deck's size where they lie: told
            # on every place marked, lying now or taken up since (each card came to rest at its size there)
            plane, cards = table_plane(np.array([mark.quad for mark in self._dealt]))
            sized = {id(mark) for mark, card in zip(self._dealt, cards) if card}
            lying = [mark for mark in lying if id(mark) in sized]
            if self._pile_at is not None:  # the pile itself, marked while the picture's lengths told it apart
                lying = [mark for mark in lying if np.linalg.norm(mark.spot - self._pile_at) > LIES * self._pile_length]
            lying = _past_the_deck(_round_the_table(lying, plane), plane, self._stock_at)
        if len(lying) < n:
            return self._unseen(at)
        if len(lying) > n:  # one lies where no player sits (a thing read for a card, at rest before the deal or
            return self._unsure("seats.more")  # as a held phone sways), and which one no rest time tells
        if not self._full:
            self._full, self._full_at = {id(mark) for mark in lying}, at
        if at - self._full_at < DEAL_PAUSE:
            return None  # the dealer's own card may be yet to come
        return sorted(lying, key=lambda mark: mark.since)

    def ended(self) -> None:
        """The source has ended (a film, a folder) during the first deal: places not named by then are asked."""
        if self.seats is None and self.unsure is None and self._dealing is not None:
            self.unsure = "seats.unseen"

    def _unseen(self, at: float) -> None:
        """Fewer places than players: once no card more has come to rest for DEAL_PAUSE, and no card away from the
        stock and from the places marked has come into sight or moved for DEAL_PAUSE either (a player turning up
        his Re at once, the dealer's next card on its way: the deal goes on, up to twice DEAL_PAUSE after the last
        place marked, as the play's cards move on), or the deal has taken longer than DEAL_PAUSE a player since a
        card was first seen off the stock (things read for cards coming and going all along, or no card seen
        resting at all), a place the camera does not see, or a card it cannot read there, and a person taps
        them."""
        quiet = max(self._marked_at, min(self._stirred, self._marked_at + DEAL_PAUSE))
        marked = bool(self._dealt) and at - quiet > DEAL_PAUSE
        if marked or (self._dealing is not None and at - self._dealing > DEAL_PAUSE * len(self.players)):
            self.unsure = "seats.unseen"
        return None

    def _reanchor(self, tracked: CardDetections, at: float, length: float) -> None:
        """After a cleared table, move the seats with the camera onto the next deal's resting cards.

        Only a whole deal counts (each seat's nearest resting card, face down or a Re shown),
        and only a move that keeps the table's shape (every card within RIGID of where the move
        puts its seat): people lay cards a little askew, a nudged camera moves them all alike.
        """
        assert self.seats is not None and self._anchor is not None
        seen = observe(tracked, self.seats, at)
        if all(view.face is Face.EMPTY for view in seen.seats.values()):
            self._find_stock(tracked, at)
            if not self._armed:
                self._armed, self._anchor = True, self.seats
            return
        if not self._armed:
            return
        old = np.array(self._anchor.points)
        nearest: dict[int, tuple[float, np.ndarray]] = {}
        for ident, centre in zip(tracked.tracker_id, tracked.quad.mean(axis=1)):
            if not self._lies_seen(int(ident), at):
                continue
            gaps = np.linalg.norm(old - centre, axis=1)
            seat = int(np.argmin(gaps))
            if gaps[seat] <= REANCHOR_REACH * length and (
                    seat not in nearest or gaps[seat] < nearest[seat][0]):
                nearest[seat] = (float(gaps[seat]), centre)
        if len(nearest) < len(self.players):
            return
        target = np.array([nearest[k][1] for k in range(len(self.players))])
        matrix = similarity(old, target)
        moved = old @ matrix[:, :2].T + matrix[:, 2]
        self._armed = False
        if float(np.linalg.norm(moved - target, axis=1).max()) <= RIGID * length:
            self.seats = self._anchor.moved(matrix)

    def _find_stock(self, tracked: CardDetections, at: float) -> None:
        """The stock where the face-down pile rests on a table with no card dealt: the next dealer sets the
        gathered deck down in front of him, so each deal's stock lies at its own dealer's place (and seats
        given without the stock learn it here). Face-down cards resting apart are no one pile, and a pile
        where the stock lies already is that stock: either way the stock stays where it was."""
        assert self.seats is not None
        down = [(self._rest[int(ident)][0], quad, float(own)) for ident, face, quad, own
                in zip(tracked.tracker_id, tracked.face, tracked.quad, card_lengths(tracked))
                if face == "down" and self._resting(int(ident), at)]
        if not down or any(np.linalg.norm(spot - down[0][0]) >= STOCK_CLEAR * own for spot, _, own in down):
            return
        spot, quad, own = down[0]
        if self.seats.stock is None or np.linalg.norm(spot - np.array(self.seats.stock)) >= STOCK_CLEAR * own:
            self.seats = replace(self.seats, stock=(round(float(spot[0]), 2), round(float(spot[1]), 2)))
            self._anchor, self._pile_quad = self.seats, quad


def lies_at(tracked: CardDetections, spot: np.ndarray, reach: float) -> bool:
    """Whether a card lies within `reach` times its own length of `spot`."""
    return bool((np.linalg.norm(tracked.quad.mean(axis=1) - spot, axis=1) <= reach * card_lengths(tracked)).any())


def _round_the_table(marks: list[Mark], plane: TablePlane) -> list[Mark]:
    """The marks that go round the table: one lying INSIDE or more within the ring of the others on the
    table's plane (the deck, or a card put aside toward the middle) is no place, the deepest left out first."""
    marks = list(marks)
    while True:
        deepest = inside_ring(plane(np.array([mark.spot for mark in marks])), INSIDE)
        if deepest is None:
            return marks
        marks.pop(deepest)


def _past_the_deck(marks: list[Mark], plane: TablePlane, stock: np.ndarray | None) -> list[Mark]:
    """The marks but one lying past the deck toward the middle: the place the deck lies by (`by_the_stock`)
    when it lies INSIDE or more nearer the middle of the places than the deck on the table's plane. The
    dealer keeps the deck in front of him, toward the middle, so his own place lies beyond it; a card
    there is one he put aside past the deck for his draw while his own place went unmarked (his card
    laid against the pile, outlined with it as one shape)."""
    if stock is None or len(marks) < 3:
        return marks
    points = plane(np.array([mark.spot for mark in marks]))
    deck = plane(np.asarray(stock, np.float64)[None])[0]
    middle = points.mean(axis=0)
    by = by_the_stock(points, deck)
    if by is None or np.linalg.norm(points[by] - middle) > np.linalg.norm(deck - middle) - INSIDE:
        return marks
    return marks[:by] + marks[by + 1:]


def beyond_ring(points: np.ndarray, spot: np.ndarray | None) -> bool:
    """Whether `spot` lies outside the ring of three or more `points` (their convex hull)."""
    if spot is None or len(points) < 3:
        return False
    hull = cv2.convexHull(points.astype(np.float32))
    return cv2.pointPolygonTest(hull, (float(spot[0]), float(spot[1])), False) < 0


def inside_ring(points: np.ndarray, depth: float = 0.0) -> int | None:
    """The point lying deepest inside the ring of the others (their convex hull), if one lies more than `depth`
    inside."""
    if len(points) < 4:
        return None
    depths = []
    for k, (x, y) in enumerate(points):
        hull = cv2.convexHull(np.delete(points, k, axis=0).astype(np.float32))
        depths.append(cv2.pointPolygonTest(hull, (float(x), float(y)), True))
    deepest = int(np.argmax(depths))
    return deepest if depths[deepest] > depth else None


def similarity(source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The 2x3 move taking `source` points nearest to `target`: a shift for one or two points, with a
    turn and a uniform scale from three on (two noisy points would turn the table too readily)."""
    mu_s, mu_t = source.mean(axis=0), target.mean(axis=0)
    rot = np.eye(2)
    if len(source) >= 3:
        s, t = source - mu_s, target - mu_t
        norm = float((s**2).sum())
        if norm > 1e-9:
            cos = float((s * t).sum()) / norm  # scale times the cosine of the turn
            sin = float((s[:, 0] * t[:, 1] - s[:, 1] * t[:, 0]).sum()) / norm
            rot = np.array([[cos, -sin], [sin, cos]])
    return np.hstack([rot, (mu_t - rot @ mu_s)[:, None]])


def observe(tracked: CardDetections, seats: Seats, at: float,
            unseen: frozenset[int] = frozenset()) -> TableObservation:
    """What lies at each seat, the stock, and the cards at no seat, from the tracker's confirmed cards.

    A card lies at the nearest seat within the seat's radius; of two cards at one seat the nearer
    holds it, the other is elsewhere and the seat is `crowded` (a swap brings one card to the
    other's place before taking that one away). A face-down card at the stock's place is the
    stock (with the stock's place unknown, any face-down card at no seat); of two cards at the
    seat by the stock the one nearer the stock's place is the pile, and the other holds the seat
    however near the pile lies to the seat's point (the seat is not crowded); alone there, a
    face-down card nearer the stock's place than the seat's is the pile, the seat empty. A seat whose card
    is among the tracker's `unseen` ids (kept, but not read this frame) is `hidden`.
    """
    length = typical_length(tracked)
    radius = seats.zone(length)
    points = np.array(seats.points)
    centres = tracked.quad.mean(axis=1)
    holder: dict[int, tuple[float, int, float]] = {}  # per seat: the gap, the card, to the stock
    loose: list[int] = []
    stock = False
    crowded: set[str] = set()
    beside: set[int] = set()  # the seats where a second card lay
    stock_at = None if seats.stock is None else np.array(seats.stock)
    down = tracked.label == BACK  # face down: the back shows
    all_gaps = np.linalg.norm(centres[:, None] - points[None], axis=2)  # [card, seat]
    for k, (centre, gaps) in enumerate(zip(centres, all_gaps)):
        seat = int(np.argmin(gaps))
        if gaps[seat] <= radius:
            to_stock = np.inf
            if down[k] and stock_at is not None:
                to_stock = float(np.linalg.norm(centre - stock_at))
                to_stock = to_stock if to_stock <= STOCK_CLEAR * length else np.inf
            if seat not in holder:
                holder[seat] = (float(gaps[seat]), k, to_stock)
                continue
            beside.add(seat)
            gap, held, held_to_stock = holder[seat]
            if min(to_stock, held_to_stock) < np.inf:
                stock = True  # the pile by the dealer's card (the one nearer the stock's place):
                if to_stock > held_to_stock:  # his card holds the seat, however near the pile
                    holder[seat] = (float(gaps[seat]), k, to_stock)
                continue
            crowded.add(seats.names[seat])
            if gaps[seat] < gap:
                loose.append(held)
                holder[seat] = (float(gaps[seat]), k, to_stock)
            else:
                loose.append(k)
            continue
        if down[k] and stock_at is not None and \
                np.linalg.norm(centre - stock_at) <= max(radius, STOCK_CLEAR * length):
            stock = True
            continue
        if down[k] and stock_at is None:
            stock = True
        loose.append(k)
    for seat, (gap, _, to_stock) in list(holder.items()):
        if seat not in beside and to_stock < gap:
            del holder[seat]  # the pile alone, nearer the stock's place than the seat's: the
            stock = True  # dealer's own card is not yet dealt, or is in his hand (out of sight)
    codes = tracked.card
    views = {name: _view(tracked, codes, holder[i][1]) if i in holder else EMPTY
             for i, name in enumerate(seats.names)}
    hidden = frozenset(name for name, view in views.items() if view.card_id in unseen)
    return TableObservation(at, views, stock, tuple(_view(tracked, codes, k) for k in sorted(loose)),
                            frozenset(crowded), hidden)


def _view(tracked: CardDetections, codes: list[str | None], k: int) -> SeatView:
    """One confirmed card as a seat's view (`codes`: the cards' codes, `CardDetections.card`)."""
    ident = int(tracked.tracker_id[k])
    confidence = float(min(max(tracked.confidence[k], 0.0), 1.0))
    if tracked.label[k] == BACK:
        return SeatView(Face.DOWN, None, confidence, ident if ident >= 0 else None)
    code = codes[k]
    card = (_DECK.get(code) or parse_card(code)) if code else None
    return SeatView(Face.UP, card, confidence, ident if ident >= 0 else None)
