"""What the camera sees of the table, as plain data: per seat empty, face down, or face up.

The vision side makes a `TableObservation` from each frame; the controller (`referee.observe`)
reads a stream of them. Nothing here knows of images or arrays.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.cards import Card, parse_card

CLOCK = 1e-6
"""Seconds of rounding in the frames' clock (frame times are sums and ratios of floats): a timing
reached within it is reached, by the tracker and the controller alike."""
UNSEEN_AFTER = 0.2
"""Seconds a confirmed card must go unread before the tracker counts it covered (the reader misses a
card for a frame or two now and then with nothing over it); the controller knows a card under a hand
is seen covered that much late."""


class Face(enum.Enum):
    """What lies at a place: nothing, a card's back, or its face."""

    EMPTY = "empty"
    DOWN = "down"
    UP = "up"


@dataclass(frozen=True, slots=True)
class SeatView:
    """One place on the table: what lies there, how sure the reader is, and which card it is.

    `card` is the name of a face-up card (None while the reader cannot name it); `confidence` is
    of the name when face up, of the back when face down; `card_id` is the tracker's identity of
    the card lying there, the same from frame to frame while the card is followed.
    """

    face: Face = Face.EMPTY
    card: Card | None = None
    confidence: float = 0.0
    card_id: int | None = None

    def __post_init__(self) -> None:
        if self.card is not None and self.face is not Face.UP:
            raise ValueError(f"only a face-up card has a name, not a {self.face.value} one")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"a confidence lies between 0 and 1, not {self.confidence!r}")
        if self.face is Face.EMPTY and self.card_id is not None:
            raise ValueError("an empty place holds no card to identify")

    @property
    def code(self) -> str:
        """The story notation of this place (`parse_view` reads it back)."""
        if self.face is Face.EMPTY:
            return "-"
        text = "down" if self.face is Face.DOWN else self.card.code if self.card else "?"
        if self.card_id is not None:
            text += f"#{self.card_id}"
        if self.face is Face.UP and self.confidence < 1.0:
            text += f"@{self.confidence:g}"
        return text


EMPTY = SeatView()
"""A place with no card."""

_VIEW = re.compile(r"^(?P<what>-|empty|down|\?|[0-9]{1,2}[A-Za-z]|[a-z]+-[0-9]{2})"
                   r"(?:#(?P<id>[0-9]+))?(?:@(?P<conf>[0-9.]+))?$")


def parse_view(text: str) -> SeatView:
    """A place in story notation: `-` empty, `down` a back, `9S` a face, `?` a face not named.

    `#7` gives the card's tracker id, `@0.6` the reader's confidence (1 when not given):
    `down#3`, `5C#4@0.97`, `?@0.4`.
    """
    match = _VIEW.match(text.strip())
    if match is None:
        raise ValueError(f"not a place: {text!r} (use -, down, ?, or a card code like 9S, "
                         "with #id and @confidence after it)")
    what, ident, conf = match["what"], match["id"], match["conf"]
    card_id = int(ident) if ident is not None else None
    confidence = float(conf) if conf is not None else 1.0
    if what in ("-", "empty"):
        if card_id is not None or conf is not None:
            raise ValueError(f"an empty place has no id or confidence: {text!r}")
        return EMPTY
    if what == "down":
        return SeatView(Face.DOWN, None, confidence, card_id)
    if what == "?":
        return SeatView(Face.UP, None, confidence, card_id)
    return SeatView(Face.UP, parse_card(what), confidence, card_id)


@dataclass(frozen=True, slots=True)
class TableObservation:
    """The table at one moment of the source's clock (`at`, in seconds).

    `seats` holds every seat by player name; `stock` says whether a face-down pile lies at the
    stock; `elsewhere` lists the cards lying at no seat (put aside, or on their way); `crowded`
    names the seats where a second card lies beside the seat's own (one card of a swap brought
    to the other's place); `hidden` the seats whose card is kept from an earlier frame while
    nothing is read there now (a hand over it).
    Only states the tracker has confirmed appear here: a card half turned or under a passing
    hand keeps its last confirmed state.
    """

    at: float
    seats: Mapping[str, SeatView]
    stock: bool = False
    elsewhere: tuple[SeatView, ...] = field(default=())
    crowded: frozenset[str] = field(default=frozenset())
    hidden: frozenset[str] = field(default=frozenset())

    @classmethod
    def of(cls, at: float, seats: Mapping[str, str], stock: bool = False,
           elsewhere: tuple[str, ...] = (), crowded: tuple[str, ...] = (),
           hidden: tuple[str, ...] = ()) -> TableObservation:
        """An observation in story notation: `TableObservation.of(2.0, {"Anna": "down#1"})`."""
        return cls(at, {name: parse_view(text) for name, text in seats.items()}, stock,
                   tuple(parse_view(text) for text in elsewhere), frozenset(crowded),
                   frozenset(hidden))

    def face(self, player: str) -> Face:
        """What lies at a player's seat (EMPTY for a seat the observation does not hold)."""
        return self.seats.get(player, EMPTY).face

    def card(self, player: str) -> Card | None:
        """The named face-up card at a player's seat, or None."""
        return self.seats.get(player, EMPTY).card
