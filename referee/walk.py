"""The walk to the right that finds each player's swap target, with its reason."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.cards import Card
from referee.rules import Rules


class Stop(enum.Enum):
    """Why a walk ended."""

    TARGET = "target"
    WALL = "wall"
    SECOND_CAVALLO = "second_cavallo"
    PASSES_DEALER = "passes_dealer"
    BACK_TO_SELF = "back_to_self"


@dataclass(frozen=True, slots=True)
class Wall:
    """A neighbour showing a Re: the walk stops there."""

    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class Jump:
    """A neighbour showing a Cavallo: the walk goes past him."""

    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class SwapTarget:
    """Where a player's swap goes (`target`), or why there is none."""

    player: str
    target: str | None
    stop: Stop
    jumps: tuple[Jump, ...] = ()
    blocker: Wall | Jump | None = None
    dealer: str = ""

    def reason(self, language: str = "en") -> str:
        """The walk in words: `Anna cannot swap: Bruno shows the Re di Coppe (wall)`."""
        words = _WORDS[language]
        jumped = words["and"].join(
            words["jump"].format(player=j.player, card=j.card.italian) for j in self.jumps)
        if self.stop is Stop.TARGET:
            head = words["may"].format(player=self.player, target=self.target)
            return f"{head}: {jumped}" if jumped else head
        head = words["cannot"].format(player=self.player) + (
            jumped + words["then"] if jumped else "")
        blocker = self.blocker
        card = blocker.card.italian if blocker else ""
        name = blocker.player if blocker else ""
        return head + words[self.stop.value].format(
            player=name, card=card, dealer=self.dealer, me=self.player)

    def reason_it(self) -> str:
        """The walk in Italian: `Anna non può scambiare: Bruno ha il Re di Coppe (muro)`."""
        return self.reason("it")


_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "jump": "{player}'s {card} is jumped", "and": " and ", "then": ", then ",
        "may": "{player} may swap with {target}", "cannot": "{player} cannot swap: ",
        "wall": "{player} shows the {card} (wall)",
        "second_cavallo": "{player}'s {card} is a second Cavallo (horse_chain off: only one jump)",
        "passes_dealer": "the walk would pass the dealer {dealer} (skip_wraps off)",
        "back_to_self": "the walk comes back to {me}",
    },
    "it": {
        "jump": "salta il {card} di {player}", "and": " e ", "then": ", poi ",
        "may": "{player} può scambiare con {target}", "cannot": "{player} non può scambiare: ",
        "wall": "{player} ha il {card} (muro)",
        "second_cavallo": "il {card} di {player} è un secondo Cavallo",
        "passes_dealer": "il giro passerebbe il mazziere {dealer}",
        "back_to_self": "il giro torna a {me}",
    },
}
"""The phrases of a walk's reason, by language."""


def swap_target(
    player: str, ring: Sequence[str], shown: Mapping[str, Card], dealer: str, rules: Rules
) -> SwapTarget:
    """Walk right from `player` round the living `ring` (seating order) over the cards shown.

    The dealer can be a target (he never starts a swap, but cannot refuse one). With
    `skip_wraps` off, a walk that jumps a dealer showing a Cavallo would pass him: no swap.
    """
    size = len(ring)
    at = ring.index(player)
    jumps: list[Jump] = []
    for _ in range(size - 1):
        at = (at + 1) % size
        seat = ring[at]
        card = shown.get(seat)
        if card is None:
            return SwapTarget(player, seat, Stop.TARGET, tuple(jumps), None, dealer)
        if card.is_wall:
            return SwapTarget(player, None, Stop.WALL, tuple(jumps), Wall(seat, card), dealer)
        if jumps and not rules.horse_chain:
            blocker = Jump(seat, card)
            return SwapTarget(player, None, Stop.SECOND_CAVALLO, tuple(jumps), blocker, dealer)
        jumps.append(Jump(seat, card))
        if seat == dealer and not rules.skip_wraps:
            return SwapTarget(player, None, Stop.PASSES_DEALER, tuple(jumps), None, dealer)
    return SwapTarget(player, None, Stop.BACK_TO_SELF, tuple(jumps), None, dealer)
