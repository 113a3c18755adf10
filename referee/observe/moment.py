"""What every phase of the controller reads: a moment of the table, and the timings people keep.

A `Moment` is one observation with how long the table and each seat have stood as they are, so
that a phase can be shown moments again later (the deal's are replayed to the turns) and judge
them as it would have then.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card
from referee.observation import EMPTY, Face, SeatView, TableObservation

SURE_TO_ACT = 0.8
"""The least confidence in a face-up card's name the referee acts on; below, a person names it."""
LIFTED = 0.25
"""Seconds a seat must stay empty to count as lifted: a card taken for a swap is gone for half a
second or more, a card the reader misses for a frame or two is not."""
UNREAD_AFTER = 2.0
"""Seconds a face-up card may go unnamed before a person is asked: the tracker needs ~0.3 s."""
MISSING_AFTER = 8.0
"""Seconds a living seat may lack its card before it is reported: longer than a swap takes."""


def sure(view: SeatView) -> Card | None:
    """The face-up card's name when it is sure enough to act on."""
    if view.face is Face.UP and view.card is not None and view.confidence >= SURE_TO_ACT:
        return view.card
    return None


def known(view: SeatView, shown: Card | None) -> Card | None:
    """The face-up card's name to act on: sure, or the Re or Cavallo its seat showed at the deal
    still guessed. A shown card lies face up all hand and takes no turn: once named surely, a
    reading of it that fades below SURE_TO_ACT but still guesses it adds nothing new, while a guess of
    any other card is put to a person."""
    card = sure(view)
    if card is None and shown is not None and view.face is Face.UP and view.card == shown:
        return shown
    return card


def touched(seen: TableObservation, player: str) -> bool:
    """Whether a seat's card is being handled: gone, with a second card beside it, or hidden."""
    return (seen.face(player) is Face.EMPTY or player in seen.crowded
            or player in seen.hidden)


def away(seen: TableObservation) -> set[int]:
    """The identities of the cards seen lying at no seat (on their way, put aside)."""
    return {view.card_id for view in seen.elsewhere if view.card_id is not None}


def picture(seen: TableObservation) -> tuple[Any, ...]:
    """What counts as a change of the table: faces, names and identities at the seats, and the
    seats being handled (a hand over a card, a second card beside it)."""
    return (tuple((p, v.face, v.card, v.card_id) for p, v in sorted(seen.seats.items())),
            seen.hidden, seen.crowded)


@dataclass(frozen=True, slots=True)
class Moment:
    """One observation, with since when the table has looked so and each seat has been empty."""

    seen: TableObservation
    changed_at: float
    empty_from: Mapping[str, float] = field(default_factory=dict)
    """Per seat empty now, since when."""
    spell: Mapping[str, float] = field(default_factory=dict)
    """Per seat filled again in this moment, how long it stood empty."""

    @property
    def at(self) -> float:
        return self.seen.at

    @property
    def still(self) -> float:
        """Seconds the table has looked as it does now."""
        return self.seen.at - self.changed_at

    def view(self, player: str) -> SeatView:
        return self.seen.seats.get(player, EMPTY)

    def lifted(self, player: str) -> bool:
        """Whether the seat is, or was until now, empty for LIFTED seconds (its card taken, not
        misread)."""
        since = self.empty_from.get(player)
        return (since is not None and self.at - since >= LIFTED) or \
            self.spell.get(player, 0.0) >= LIFTED

    def then(self, seen: TableObservation) -> Moment:
        """The moment after this one, when the camera shows `seen`."""
        changed_at = self.changed_at if picture(seen) == picture(self.seen) else seen.at
        empty = {p for p, view in seen.seats.items() if view.face is Face.EMPTY}
        spell = {p: seen.at - since for p, since in self.empty_from.items() if p not in empty}
        empty_from = {p: self.empty_from.get(p, seen.at) for p in empty}
        return Moment(seen, changed_at, empty_from, spell)

    @classmethod
    def first(cls, seen: TableObservation) -> Moment:
        """The first moment of a stream."""
        empty = {p: seen.at for p, view in seen.seats.items() if view.face is Face.EMPTY}
        return cls(seen, seen.at, empty)


def remember(moments: list[Moment], now: Moment) -> None:
    """Add `now` to moments kept for a replay, keeping of a run that looks alike only its first
    and its latest: the pictures between add time, not evidence, and a table left as it is for
    an hour, a card on it unnamed, keeps two moments, not one per frame."""
    if len(moments) >= 2 and moments[-2].changed_at == moments[-1].changed_at == now.changed_at:
        moments[-1] = now
    else:
        moments.append(now)


def rotated(ring: tuple[str, ...], dealer: str) -> list[str]:
    """The ring from the dealer's right round to the dealer."""
    start = ring.index(dealer) + 1
    return list(ring[start:] + ring[:start])


def cards_on(seen: TableObservation) -> bool:
    """Whether any seat holds a card."""
    return any(view.face is not Face.EMPTY for view in seen.seats.values())
