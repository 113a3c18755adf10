"""Neapolitan cards: values, suits, codes (`9S`, `spade-09`) and names."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field


class CardError(ValueError):
    """A card code that names no card of the Neapolitan deck."""


class Suit(enum.Enum):
    """The four suits; the value is the letter of the card code."""

    DENARI = "D"
    COPPE = "C"
    SPADE = "S"
    BASTONI = "B"

    @property
    def italian(self) -> str:
        return self.name.capitalize()

    @property
    def english(self) -> str:
        return _SUIT_EN[self]

    @property
    def slug(self) -> str:
        """The data sets' spelling: `denari`, `coppe`, `spade`, `bastoni`."""
        return self.name.lower()


HORSE, WALL = 9, 10
"""The Cavallo's and the Re's values (RULES.md): the cards that show at the deal."""

_SUIT_EN = {Suit.DENARI: "Coins", Suit.COPPE: "Cups", Suit.SPADE: "Swords", Suit.BASTONI: "Clubs"}
_VALUE_IT = {1: "Asso", 8: "Fante", 9: "Cavallo", 10: "Re"}
_VALUE_EN = {1: "Ace", 8: "Knave", 9: "Knight", 10: "King"}
_NUMBER_IT = {2: "Due", 3: "Tre", 4: "Quattro", 5: "Cinque", 6: "Sei", 7: "Sette"}
_CODE = re.compile(r"^(10|[1-9])([DCSB])$")
_SLUG = re.compile(r"^(denari|coppe|spade|bastoni)-(0[1-9]|10)$")


@dataclass(frozen=True, order=True)
class Card:
    """One card: value 1 (Asso) to 10 (Re) and a suit."""

    value: int
    suit: Suit
    # What the rules ask of a card is kept when it is made, not computed on each read: the
    # referee reads it for every card of every deal and settlement (a property cost 3-4 %).
    is_wall: bool = field(init=False, repr=False, compare=False)
    """A Re stops a swap."""
    is_horse: bool = field(init=False, repr=False, compare=False)
    """A Cavallo is jumped."""
    shows: bool = field(init=False, repr=False, compare=False)
    """A Re or a Cavallo (`is_wall or is_horse`): turned up at the deal, it never pays."""

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 10:
            raise CardError(f"no card has value {self.value}: values run from 1 (Asso) to 10 (Re)")
        object.__setattr__(self, "is_wall", self.value == WALL)
        object.__setattr__(self, "is_horse", self.value == HORSE)
        object.__setattr__(self, "shows", self.value >= HORSE)

    @property
    def code(self) -> str:
        """The text code: `9S` is the Cavallo di Spade."""
        return f"{self.value}{self.suit.value}"

    @property
    def slug(self) -> str:
        """The data sets' id: `spade-09`."""
        return f"{self.suit.slug}-{self.value:02d}"

    @property
    def italian(self) -> str:
        """`Cavallo di Spade`, `Sette di Denari`."""
        return f"{_VALUE_IT.get(self.value) or _NUMBER_IT[self.value]} di {self.suit.italian}"

    @property
    def english(self) -> str:
        """`Knight of Swords`, `Seven of Coins`."""
        number = _VALUE_EN.get(self.value) or str(self.value)
        return f"{number} of {self.suit.english}"

    def __hash__(self) -> int:
        # Equal cards share the suit singleton; this avoids hashing a tuple holding an Enum,
        # which dominated the referee's hot path.
        return self.value ^ id(self.suit)

    def __str__(self) -> str:
        return self.code


_SLUG_SUITS = {suit.slug: suit for suit in Suit}


def parse_card(text: str) -> Card:
    """Parse `9S` or `spade-09`; anything else raises CardError naming the text."""
    cleaned = text.strip()
    if match := _CODE.match(cleaned.upper()):
        return Card(int(match[1]), Suit(match[2]))
    if match := _SLUG.match(cleaned.lower()):
        return Card(int(match[2]), _SLUG_SUITS[match[1]])
    if not cleaned:
        raise CardError("empty card code: expected a code like 9S or spade-09")
    if cleaned == "?":
        raise CardError("'?' is not a card: a seen card is required here")
    raise CardError(
        f"unknown card code {text!r}: expected value 1-10 then suit D/C/S/B (9S, 10D) "
        "or suit-value (spade-09)"
    )


DECK: tuple[Card, ...] = tuple(Card(v, s) for s in Suit for v in range(1, 11))
"""The 40 cards, suit by suit (Denari, Coppe, Spade, Bastoni), Asso to Re."""
