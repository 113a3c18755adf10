"""What the face-down cards did since the table last rested: named rules over the evidence.

`classify(evidence)` walks `RULES` in order; the first that applies answers a swap, the dealer's
blind draw, a look (nothing moved that matters), cards covered together (whether each pair may
have been exchanged is asked of the game), or unclear (the hand is held and the table is asked).
Each rule is a small function with a one-line reason. Whether a swap or a draw was allowed is
asked of the game afterwards, never decided here.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from referee.observe.evidence import Evidence


class Kind(enum.Enum):
    """What the cards did, which says what the turns do next."""

    SWAP = "swap"
    DRAW = "draw"
    LOOK = "look"
    COVERED = "covered"
    """Cards covered together, nothing seen moving: whether each pair may have been exchanged
    unseen is asked of the game."""
    UNCLEAR = "unclear"
    """Cards moved otherwise than one swap: the hand is held."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the evidence shows: its kind, the seats it concerns, and the rule that said so."""

    kind: Kind
    seats: tuple[str, ...]
    rule: str
    crossed: bool = False
    """For a swap: the cards' identities were seen exchanged (so going back undoes it)."""


Rule = Callable[[Evidence], "Judgement | None"]


def identities_crossed(e: Evidence) -> Judgement | None:
    """Two seats hold each other's card, as followed: a swap."""
    crossed = e.crossed
    if len(crossed) == 1 and len(e.changed) == 2:
        return Judgement(Kind.SWAP, crossed[0], "identities_crossed", crossed=True)
    return None


def two_cards_taken(e: Evidence) -> Judgement | None:
    """Two seats handled at once, a card taken or seen on its way, settled again: a swap, whatever ids
    came back (a tracker can exchange them where paths cross); an arm over two cards takes neither and
    carries none, nor does the dealer's reaching past his neighbour's for the stock (`_drew_past`)."""
    movers = e.movers
    if (len(movers) == 2 and set(e.changed) <= set(movers) and not e.revealing
            and (e.emptied & set(movers) or e.strays) and not _drew_past(e, movers)):
        return Judgement(Kind.SWAP, movers, "two_cards_taken")
    return None


def _drew_past(e: Evidence, movers: tuple[str, ...]) -> bool:
    """Whether the dealer's card was taken and a card lies aside, while the other seat handled kept its card,
    neither taken, nor seen on its way, nor changed: he put his card aside and drew, his arm passing over
    his neighbour's (a swap leaves no card aside, and takes the other seat's card too)."""
    others = [p for p in movers if p != e.dealer]
    return (e.dealer in movers and e.put_aside and e.taken(e.dealer) and len(others) == 1
            and not e.taken(others[0]) and others[0] not in e.flown and others[0] not in e.changed)


def dealers_card_replaced(e: Evidence) -> Judgement | None:
    """A new card at the dealer's seat alone, his old one put aside (or drawing blind): a draw."""
    changed = e.changed
    if (changed == (e.dealer,) and e.now[e.dealer] not in e.was.values()
            and (e.blind or e.put_aside)):
        return Judgement(Kind.DRAW, changed, "dealers_card_replaced")
    return None


def dealers_card_put_aside(e: Evidence) -> Judgement | None:
    """The dealer's card alone taken up and a card laid aside meanwhile, his seat holding one again:
    a draw, though the tracker lent the new card the identity of the old where it lay."""
    taken = tuple(p for p in e.lifted if e.taken(p))
    if taken == (e.dealer,) and e.put_aside and not e.changed and e.now[e.dealer] is not None:
        return Judgement(Kind.DRAW, taken, "dealers_card_put_aside")
    return None


def cards_moved_otherwise(e: Evidence) -> Judgement | None:
    """Cards changed at several seats, or one seat holds another's card, or cards seen on their way
    while more than two seats were taken up: not one swap."""
    changed = e.changed
    if len(changed) > 1 or (changed and e.now[changed[0]] in e.was.values()):
        return Judgement(Kind.UNCLEAR, changed, "cards_moved_otherwise")
    taken = tuple(p for p in e.movers if e.taken(p))
    if len(taken) > 2 and e.flown & set(taken):
        return Judgement(Kind.UNCLEAR, taken, "cards_moved_otherwise")
    return None


def covered_together(e: Evidence) -> Judgement | None:
    """Two seats covered at once long enough to exchange their cards, nothing seen moving: a
    swap made wholly under the hands looks just so, and so does its put-back."""
    pairs = e.covered_with()
    if pairs:
        seats = tuple(p for p in e.was if any(p in pair for pair in pairs))
        return Judgement(Kind.COVERED, seats, "covered_together")
    return None


def nothing_moved(e: Evidence) -> Judgement | None:
    """Otherwise one player looked at his own card (it may come back a new identity)."""
    return Judgement(Kind.LOOK, e.lifted, "nothing_moved")


RULES: tuple[Rule, ...] = (identities_crossed, two_cards_taken, dealers_card_replaced,
                           dealers_card_put_aside, cards_moved_otherwise, covered_together,
                           nothing_moved)
"""In order: the first rule that applies answers."""


def classify(evidence: Evidence) -> Judgement:
    """What the evidence shows, by the first rule of RULES that applies."""
    for rule in RULES:
        judgement = rule(evidence)
        if judgement is not None:
            return judgement
    raise AssertionError("nothing_moved always applies")
