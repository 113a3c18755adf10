"""The events of a game: small frozen values, each one step of the history.

Every event checks its own values when it is made (names are text, cards are cards, a
deal's and a reveal's cards are kept in a read-only copy), so the game checks only the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeAlias

from referee.cards import Card, CardError, parse_card


class EventError(ValueError):
    """An event made of the wrong values: a name that is not text, a card that is not a card."""


def _seen_card(text: str) -> Card:
    if not isinstance(text, str):
        raise CardError(f"a card is a code like 9S, not {text!r}")
    return parse_card(text)


def _card_or_unknown(text: str) -> Card | None:
    return None if isinstance(text, str) and text.strip() == "?" else _seen_card(text)


def _code(card: Card | None) -> str:
    return "?" if card is None else card.code


def _name(name: object) -> None:
    if not isinstance(name, str):
        raise EventError(f"a player's name is text, not {name!r}")


def _card(player: str, card: object, what: str) -> None:
    """Raise unless `card` is a card; `what` says which card, as a message reads it."""
    if card.__class__ is not Card:
        raise EventError(f"{player}'s {what} {card!r} is not a card")


def _cards(cards: object, seen: bool, what: str) -> Mapping[str, Card | None]:
    """A read-only copy of a deal's or a reveal's cards, each checked (None only unless `seen`)."""
    if not isinstance(cards, Mapping):
        raise EventError(f"the {what}'s cards are player: card pairs, not {cards!r}")
    for player, card in cards.items():
        _name(player)
        if seen and card.__class__ is not Card:
            raise EventError(f"{player}'s card at the {what} must be seen, not {card!r}")
        if card is not None:
            _card(player, card, "card")
    return MappingProxyType(dict(cards))


@dataclass(frozen=True, slots=True)
class FaceUp:
    """A card dealt face up to `player` while choosing the first dealer."""

    player: str
    card: Card

    def __post_init__(self) -> None:
        _name(self.player)
        if self.card is None:
            raise EventError(f"{self.player}'s face-up card must be seen")
        _card(self.player, self.card, "face-up card")


@dataclass(frozen=True, slots=True)
class ChooseDealer:
    """The first dealer, named directly (a record's `dealer`)."""

    player: str

    def __post_init__(self) -> None:
        _name(self.player)


@dataclass(frozen=True, slots=True)
class Deal:
    """The deal as seen: each living player's card, None for a face-down card nobody saw."""

    cards: Mapping[str, Card | None]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _cards(self.cards, False, "deal"))

    @classmethod
    def of(cls, codes: Mapping[str, str]) -> Deal:
        """A deal from card codes, `?` for an unseen card: `Deal.of({"Anna": "3D"})`."""
        if not isinstance(codes, Mapping):
            raise EventError(f"the deal's cards are player: card code pairs, not {codes!r}")
        return cls({player: _card_or_unknown(code) for player, code in codes.items()})


@dataclass(frozen=True, slots=True)
class Keep:
    """A player (or the dealer) keeps his card."""

    player: str

    def __post_init__(self) -> None:
        _name(self.player)


@dataclass(frozen=True, slots=True)
class Swap:
    """A player swaps face down with his swap target (named when it was seen)."""

    player: str
    target: str | None = None

    def __post_init__(self) -> None:
        _name(self.player)
        if self.target is not None:
            _name(self.target)


@dataclass(frozen=True, slots=True)
class Draw:
    """The dealer replaces his card with the top of the stock (None while unseen)."""

    player: str
    card: Card | None = None

    def __post_init__(self) -> None:
        _name(self.player)
        if self.card is not None:
            _card(self.player, self.card, "drawn card")


@dataclass(frozen=True, slots=True)
class Reveal:
    """Cards seen face up at the reveal (all of them, or those the camera caught)."""

    cards: Mapping[str, Card]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _cards(self.cards, True, "reveal"))

    @classmethod
    def of(cls, codes: Mapping[str, str]) -> Reveal:
        """A reveal from card codes: `Reveal.of({"Anna": "5S"})`."""
        if not isinstance(codes, Mapping):
            raise EventError(f"the reveal's cards are player: card code pairs, not {codes!r}")
        return cls({player: _seen_card(code) for player, code in codes.items()})


@dataclass(frozen=True, slots=True)
class Settle:
    """The showdown is over: the lowest card(s) pay."""


@dataclass(frozen=True, slots=True)
class Revive:
    """Between hands, the living player hands the dead one a life (Neapolitan rule)."""

    dead: str
    living: str

    def __post_init__(self) -> None:
        _name(self.dead)
        _name(self.living)


@dataclass(frozen=True, slots=True)
class Correct:
    """A person fixes a misread card after the reveal: the card at `player`'s seat is `card`."""

    player: str
    card: Card

    def __post_init__(self) -> None:
        _name(self.player)
        _card(self.player, self.card, "corrected card")


@dataclass(frozen=True, slots=True)
class Join:
    """Between hands, a new player sits down before `before` (last when None), with full lives."""

    player: str
    before: str | None = None

    def __post_init__(self) -> None:
        _name(self.player)
        if self.before is not None:
            _name(self.before)


@dataclass(frozen=True, slots=True)
class Leave:
    """Between hands, a player leaves the table and takes his lives with him."""

    player: str

    def __post_init__(self) -> None:
        _name(self.player)


Event: TypeAlias = (FaceUp | ChooseDealer | Deal | Keep | Swap | Draw | Reveal | Settle | Revive
                    | Correct | Join | Leave)

_KINDS: dict[str, type[Any]] = {
    "face_up": FaceUp,
    "choose_dealer": ChooseDealer,
    "deal": Deal,
    "keep": Keep,
    "swap": Swap,
    "draw": Draw,
    "reveal": Reveal,
    "settle": Settle,
    "revive": Revive,
    "correct": Correct,
    "join": Join,
    "leave": Leave,
}
_NAMES = {cls: name for name, cls in _KINDS.items()}


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON object: `{"kind": "swap", "player": "Carla", "target": null}`."""
    data: dict[str, Any] = {"kind": _NAMES[type(event)]}
    for name in type(event).__slots__:
        value = getattr(event, name)
        if isinstance(value, Card):
            value = value.code
        elif isinstance(value, Mapping):
            value = {player: _code(card) for player, card in value.items()}
        elif value is None and name == "card":
            value = "?"
        data[name] = value
    return data


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event written by `event_to_json`; a bad object raises ValueError."""
    kind = data.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event kind {kind!r}")
    fields = {name: data[name] for name in cls.__slots__ if name in data}
    if cls is Deal:
        return Deal.of(fields["cards"])
    if cls is Reveal:
        return Reveal.of(fields["cards"])
    if "card" in fields:
        fields["card"] = _card_or_unknown(fields["card"])
    event: Event = cls(**fields)
    return event
