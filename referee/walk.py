"""The walk to the right that finds each player's swap target, with its reason."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import Card
from referee.rules import Rules
from referee.wording import Message


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

    def message(self) -> Message:
        """The walk as a code with parameters (`walk.wall`: who, the jumps, the blocker)."""
        params: dict[str, Any] = {"player": self.player,
                                  "jumps": [[j.player, j.card.code] for j in self.jumps]}
        if self.stop is Stop.TARGET:
            params["target"] = self.target
        if self.blocker is not None:
            params.update(blocker=self.blocker.player, card=self.blocker.card.code)
        if self.stop is Stop.PASSES_DEALER:
            params["dealer"] = self.dealer
        return Message(f"walk.{self.stop.value}", params)

    def reason(self, language: str = "en") -> str:
        """The walk in words: `Anna cannot swap: Bruno shows the Re di Coppe (wall)`."""
        return self.message().words(language)

    def reason_it(self) -> str:
        """The walk in Italian: `Anna non può scambiare: Bruno ha il Re di Coppe (muro)`."""
        return self.reason("it")


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
