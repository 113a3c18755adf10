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

    def reason(self) -> str:
        """The walk in English: `Anna cannot swap: Bruno shows the Re di Coppe (wall)`."""
        jumped = " and ".join(f"{j.player}'s {j.card.italian} is jumped" for j in self.jumps)
        if self.stop is Stop.TARGET:
            head = f"{self.player} may swap with {self.target}"
            return f"{head}: {jumped}" if jumped else head
        head = f"{self.player} cannot swap: " + (f"{jumped}, then " if jumped else "")
        blocker = self.blocker
        if self.stop is Stop.WALL and blocker is not None:
            return f"{head}{blocker.player} shows the {blocker.card.italian} (wall)"
        if self.stop is Stop.SECOND_CAVALLO and blocker is not None:
            return (
                f"{head}{blocker.player}'s {blocker.card.italian} is a second Cavallo "
                "(horse_chain off: only one jump)"
            )
        if self.stop is Stop.PASSES_DEALER:
            return f"{head}the walk would pass the dealer {self.dealer} (skip_wraps off)"
        return f"{head}the walk comes back to {self.player}"

    def reason_it(self) -> str:
        """The walk in Italian: `Anna non può scambiare: Bruno ha il Re di Coppe (muro)`."""
        jumped = " e ".join(f"salta il {j.card.italian} di {j.player}" for j in self.jumps)
        if self.stop is Stop.TARGET:
            head = f"{self.player} può scambiare con {self.target}"
            return f"{head}: {jumped}" if jumped else head
        head = f"{self.player} non può scambiare: " + (f"{jumped}, poi " if jumped else "")
        blocker = self.blocker
        if self.stop is Stop.WALL and blocker is not None:
            return f"{head}{blocker.player} ha il {blocker.card.italian} (muro)"
        if self.stop is Stop.SECOND_CAVALLO and blocker is not None:
            return f"{head}il {blocker.card.italian} di {blocker.player} è un secondo Cavallo"
        if self.stop is Stop.PASSES_DEALER:
            return f"{head}il giro passerebbe il mazziere {self.dealer}"
        return f"{head}il giro torna a {self.player}"


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
        if card.value == 10:
            return SwapTarget(player, None, Stop.WALL, tuple(jumps), Wall(seat, card), dealer)
        if jumps and not rules.horse_chain:
            blocker = Jump(seat, card)
            return SwapTarget(player, None, Stop.SECOND_CAVALLO, tuple(jumps), blocker, dealer)
        jumps.append(Jump(seat, card))
        if seat == dealer and not rules.skip_wraps:
            return SwapTarget(player, None, Stop.PASSES_DEALER, tuple(jumps), None, dealer)
    return SwapTarget(player, None, Stop.BACK_TO_SELF, tuple(jumps), None, dealer)
