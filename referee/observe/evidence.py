"""What the camera saw of the face-down cards between two moments of rest, as one value.

The turns gather it while cards are handled (`Gathering`, the only mutable part) and fold it,
once every card lies let go again, into an `Evidence`: which seats were handled and for how
long, which were emptied, which cards were seen on their way, which seats were covered at once,
and the cards' identities before and after. `referee.observe.classify` judges it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations

from referee.observation import CLOCK, UNSEEN_AFTER
from referee.observe.clock import QUICKEST_MOVE
from referee.observe.moment import LIFTED

CARRIED = 0.15
"""Seconds a seat whose card was seen on its way must have been handled for that card to count as
carried off: taken for a swap, however briskly, a card leaves its seat handled while one hand
takes it and the other card comes; a resting card's identity lent for a frame to a stray reading
beside it leaves its seat handled for a frame or two at most."""

Pair = frozenset[str]


def exchangeable(seconds: float) -> bool:
    """Whether two cards seen covered at once for `seconds` may have been exchanged unseen (reached
    within the frames' clock: at 5 pictures a second, one picture of both covered is just that long); each
    card's covering is seen UNSEEN_AFTER short of how long the hands lay on it."""
    return seconds + UNSEEN_AFTER >= QUICKEST_MOVE - CLOCK


def exchanged(was: Mapping[str, int | None],
              now: Mapping[str, int | None]) -> list[tuple[str, str]]:
    """The pairs of these seats whose cards' identities were exchanged between `was` and `now`."""
    seats = list(was)
    return [(a, b) for i, a in enumerate(seats) for b in seats[i + 1:]
            if None not in (was[a], was[b]) and now.get(a) == was[b] and now.get(b) == was[a]]


@dataclass(frozen=True, slots=True)
class Evidence:
    """The face-down seats' story since the table last rested, as the camera saw it."""

    was: Mapping[str, int | None]
    """Per face-down seat, the identity of the card it held when the table last rested."""
    now: Mapping[str, int | None]
    """Per the same seat, the identity of the card it holds now, let go."""
    handled: Mapping[str, float] = field(default_factory=dict)
    """Per seat handled meanwhile (gone, crowded or under a hand), seconds from first to last."""
    emptied: frozenset[str] = frozenset()
    """The handled seats seen empty for LIFTED or longer: their card was taken."""
    flown: frozenset[str] = frozenset()
    """The handled seats whose card was seen on its way, away from every seat."""
    strays: bool = False
    """Whether a card of no seat's was seen on its way meanwhile (one taken under a hand)."""
    together: Mapping[Pair, float] = field(default_factory=dict)
    """Per pair of handled seats, the seconds both were covered at once (each picture that shows
    both covered counts from the picture before it)."""
    reached: Mapping[str, float] = field(default_factory=dict)
    """Per seat handled meanwhile, when it was first seen handled."""
    parted: Mapping[Pair, float] = field(default_factory=dict)
    """Per pair in `together`, the last picture that showed both covered."""
    revealing: bool = False
    """Whether a card dealt face down already showed when the handling began (the reveal)."""
    dealer: str = ""
    blind: bool = False
    """Whether the rules let the dealer draw blind before the reveal."""
    put_aside: bool = False
    """Whether the dealer's old card lies aside, away from every seat: seen there by its identity,
    or more face-down cards lying there than when the handling began."""

    @property
    def lifted(self) -> tuple[str, ...]:
        """The seats handled, in seating order."""
        return tuple(p for p in self.was if p in self.handled)

    @property
    def changed(self) -> tuple[str, ...]:
        """The seats whose card's identity is known before and after, and differs."""
        return tuple(p for p in self.was if self.was[p] is not None and self.now[p] is not None
                     and self.was[p] != self.now[p])

    @property
    def crossed(self) -> list[tuple[str, str]]:
        """The pairs of changed seats whose cards' identities were exchanged."""
        changed = self.changed
        return exchanged({p: self.was[p] for p in changed}, self.now)

    def taken(self, player: str) -> bool:
        """Whether a seat's card was taken up: emptied, or handled for LIFTED."""
        return player in self.emptied or self.handled.get(player, 0.0) >= LIFTED

    @property
    def movers(self) -> tuple[str, ...]:
        """The handled seats whose cards moved: of more than two handled, the two whose cards
        were seen on their way, or the two handled long (a third seat went unread for a frame,
        or an arm passed over it), where no third was covered with either of them long enough to
        exchange their cards unseen (a quick next move, made before the table rested); of a new
        card at one seat, that seat alone (the arm that brought it brushed its neighbour)."""
        lifted, changed = self.lifted, set(self.changed)
        flown = tuple(p for p in lifted if p in self.flown and self.handled[p] >= CARRIED)
        if len(lifted) > 2 and len(flown) == 2 and changed <= set(flown) and self._apart(flown):
            lifted = flown
        long = tuple(p for p in lifted if self.handled[p] >= LIFTED)
        if len(lifted) > 2 and len(long) == 2 and changed <= set(long) and self._apart(long):
            lifted = long
        taken = tuple(p for p in lifted if self.taken(p))
        if (len(changed) == 1 and set(taken) == changed
                and self.now[taken[0]] not in self.was.values()):
            lifted = taken
        return lifted

    def _apart(self, pair: tuple[str, ...]) -> bool:
        """Whether no other handled seat was covered with a seat of `pair` long enough to
        exchange their cards unseen."""
        return not any(exchangeable(seconds) for two, seconds in self.together.items()
                       if len(two & set(pair)) == 1)

    def covered_with(self, moved: tuple[str, ...] = ()) -> list[tuple[str, str]]:
        """The pairs of seats covered at once long enough to exchange their cards unseen, but
        for those with a seat of the move seen (`moved`) covered still when the move reached both
        its seats: that card went where the move took it, and a player makes one move at a time.
        A pair let go before the move began was a move of its own, which a quick next move may
        follow before the table is seen at rest."""
        begun = max((self.reached.get(p, -math.inf) for p in moved), default=-math.inf)
        return sorted(tuple(sorted(pair)) for pair, seconds in self.together.items()
                      if exchangeable(seconds)
                      and (not pair & set(moved) or self.parted.get(pair, math.inf) < begun))


class Gathering:
    """The evidence piling up while cards are handled, one moment after another."""

    def __init__(self) -> None:
        self.handled: dict[str, tuple[float, float]] = {}  # per seat, first and last handled
        self.emptied: set[str] = set()
        self.flown: set[str] = set()
        self.strays = False
        self.together: dict[Pair, float] = {}
        self.parted: dict[Pair, float] = {}  # per pair, the last picture that showed both covered
        self._covered: set[str] = set()
        self._at: float | None = None

    def covered(self, seats: set[str], at: float, before: float | None = None) -> None:
        """These seats are handled at `at` (none, at a moment of rest): the time since the picture
        before (`before`; else the last moment gathered) counts for every pair covered now: they may
        have been covered since just after it."""
        since = before if before is not None else self._at
        if since is not None:
            for pair in combinations(sorted(seats), 2):
                key = frozenset(pair)
                self.together[key] = self.together.get(key, 0.0) + at - since
                self.parted[key] = at
        for player in seats | self._covered:
            first, _ = self.handled.get(player, (at, at))
            self.handled[player] = (first, at)
        self._covered, self._at = set(seats), at

    def fold(self, was: Mapping[str, int | None], now: Mapping[str, int | None], *,
             revealing: bool, dealer: str, blind: bool, put_aside: bool) -> Evidence:
        """The evidence of these seats (face down before and after), with what the table adds."""
        seats = set(was)
        return Evidence(
            was=dict(was), now=dict(now),
            handled={p: last - first for p, (first, last) in self.handled.items() if p in seats},
            emptied=frozenset(self.emptied & seats), flown=frozenset(self.flown & seats),
            strays=self.strays,
            together={pair: s for pair, s in self.together.items() if pair <= seats},
            reached={p: first for p, (first, _) in self.handled.items() if p in seats},
            parted={pair: at for pair, at in self.parted.items() if pair <= seats},
            revealing=revealing, dealer=dealer, blind=blind, put_aside=put_aside)
