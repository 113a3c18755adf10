"""A way on from a held hand as a small frozen value (like python-chess's `Move`), and its JSON.

The table page is sent the ways offered (`to_json`) and posts back the one a person took
(`from_json`); between the page and the game only these values pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.cards import Card, CardError, parse_card

from live.words import Coded

ANSWERS = ("yes", "no")
"""The answers to `Unseen`: were the two cards covered together exchanged?"""


class WayError(Coded, ValueError):
    """A way posted that is none the table page can take (`held.way`)."""


class HeldError(Coded, ValueError):
    """A way on or a decision the held desk cannot carry out now (no such hand held, a way not
    offered, a decision to take back that is none or too late), as a code of live.words."""


class _Way:
    """What every way on does: says itself as the page's JSON, and tells whether a way a person
    took is this one offered."""

    __slots__ = ()
    kind: ClassVar[str]
    """What the page calls it (its JSON's `way`)."""

    def __init_subclass__(cls, kind: str = "", **rest: Any) -> None:
        super().__init_subclass__(**rest)
        if kind:
            cls.kind = kind

    def to_json(self) -> dict[str, Any]:
        return {"way": self.kind}

    def takes(self, way: Way) -> bool:
        """Whether a person taking `way` takes this offer."""
        return way == self


@dataclass(frozen=True, slots=True)
class Continue(_Way, kind="continue"):
    """The cards lie as they should: the camera goes on."""


@dataclass(frozen=True, slots=True)
class SwapWay(_Way, kind="swap"):
    """The swap the rules allow, `player` with `target`, played as if the camera had seen it."""

    player: str
    target: str

    def to_json(self) -> dict[str, Any]:
        return {"way": self.kind, "player": self.player, "target": self.target}


@dataclass(frozen=True, slots=True)
class Unseen(_Way, kind="unseen"):
    """The question whether `a`'s and `b`'s cards, covered together, were exchanged; with its
    `answer` (`ANSWERS`) once a person gives one."""

    a: str
    b: str
    answer: str | None = None

    def __post_init__(self) -> None:
        if self.answer is not None and self.answer not in ANSWERS:
            raise WayError("held.way")

    def to_json(self) -> dict[str, Any]:
        said = {"way": self.kind, "a": self.a, "b": self.b}
        return said if self.answer is None else {**said, "answer": self.answer}

    def takes(self, way: Way) -> bool:
        """Whether a person taking `way` takes this offer: either answer to the question."""
        return isinstance(way, Unseen) and way.answer is not None


@dataclass(frozen=True, slots=True)
class _CardRead(_Way):
    """A way on from a card read anew at `player`'s seat as `card`."""

    player: str
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"way": self.kind, "player": self.player, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class DrawWay(_CardRead, kind="draw"):
    """The card read anew at the dealer's seat is the one he drew."""


@dataclass(frozen=True, slots=True)
class CorrectWay(_CardRead, kind="correct"):
    """The card read anew is the player's card, misread before: it is corrected."""


@dataclass(frozen=True, slots=True)
class Redeal(_Way, kind="redeal"):
    """The hand is void: its events are undone and the same dealer deals again."""


@dataclass(frozen=True, slots=True)
class Written:
    """One seat of the form to write the hand: its card as far as it is known (`fixed`: a Re or
    Cavallo shown, which cannot be written otherwise)."""

    player: str
    card: Card | None
    fixed: bool

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card.code if self.card else None,
                "fixed": self.fixed}


@dataclass(frozen=True, slots=True)
class WriteForm(_Way, kind="write"):
    """The offer to write the hand's cards by hand, each seat's card as far as it is known."""

    seats: tuple[Written, ...]

    def to_json(self) -> dict[str, Any]:
        return {"way": self.kind, "cards": [seat.to_json() for seat in self.seats]}

    def takes(self, way: Way) -> bool:
        """Whether a person taking `way` takes this offer: any hand written."""
        return isinstance(way, Write)


@dataclass(frozen=True, slots=True)
class Write(_Way, kind="write"):
    """The hand's cards as a person wrote them, by player (a code, or None where left blank);
    the game is asked of them when they are played."""

    cards: tuple[tuple[str, str | None], ...]

    @classmethod
    def of(cls, cards: Mapping[str, str | None]) -> Write:
        """The hand written as `{player: code}`."""
        return cls(tuple(cards.items()))

    def to_json(self) -> dict[str, Any]:
        return {"way": self.kind, "cards": dict(self.cards)}


@dataclass(frozen=True, slots=True)
class Noted(_Way, kind="noted"):
    """A warning that does not hold the hand was seen: nothing changes."""


@dataclass(frozen=True, slots=True)
class TapSeats(_Way, kind="seats"):
    """The places are tapped on the Setup page's picture (a link, never taken on the table page)."""

    def takes(self, way: Way) -> bool:
        """Never: the places are tapped on the Setup page."""
        return False


@dataclass(frozen=True, slots=True)
class Resolved(_Way, kind="resolved"):
    """A held hand let go on the Storico page, `how` in a person's words."""

    how: str

    def to_json(self) -> dict[str, Any]:
        return {"way": self.kind, "how": self.how}


Way = Continue | SwapWay | Unseen | DrawWay | CorrectWay | Redeal | Write | Noted
"""A way on a person takes on the table page."""
Offer = Continue | SwapWay | Unseen | DrawWay | CorrectWay | Redeal | WriteForm | Noted | TapSeats
"""A way on the table page offers."""
Taken = Way | Resolved
"""What a decision on a held hand did."""


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise WayError("held.way")
    return value


def _card(data: Mapping[str, Any]) -> Card:
    """The card a way names by its code, written as the page was sent it."""
    code = _text(data, "card")
    try:
        card = parse_card(code)
    except CardError:
        raise WayError("held.way") from None
    if card.code != code:
        raise WayError("held.way")
    return card


_BARE = {way.kind: way for way in (Continue, Redeal, Noted)}
"""The ways a page posts by their kind alone."""


def from_json(data: Mapping[str, Any]) -> Way:
    """The way a page posted (`{"way": "swap", "player": ..., "target": ...}`, as `to_json`
    writes it); a WayError when it is none the page can take."""
    kind = data.get("way")
    if not isinstance(kind, str):
        raise WayError("held.way")
    if kind in _BARE:
        return _BARE[kind]()
    if kind == SwapWay.kind:
        return SwapWay(_text(data, "player"), _text(data, "target"))
    if kind == Unseen.kind:
        return Unseen(_text(data, "a"), _text(data, "b"), _text(data, "answer"))
    if kind == DrawWay.kind:
        return DrawWay(_text(data, "player"), _card(data))
    if kind == CorrectWay.kind:
        return CorrectWay(_text(data, "player"), _card(data))
    if kind == Write.kind:
        cards = data.get("cards")
        given = cards if isinstance(cards, Mapping) else {}
        return Write(tuple((str(player), code if isinstance(code, str) else None)
                           for player, code in given.items()))
    raise WayError("held.way")
