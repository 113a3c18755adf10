"""The turns' rules, one story each: what the camera saw between two rests, and what it means.

Seats are written in seating order with the identity of the card each held before and after;
the evidence adds what was seen meanwhile. Anna, Bruno, Carla and Dario (the dealer) hold cards
1 to 4 face down.
"""

from typing import Any

import pytest

from referee.observe.classify import RULES, Kind, classify
from referee.observe.evidence import Evidence

WAS = {"Anna": 1, "Bruno": 2, "Carla": 3, "Dario": 4}


def evidence(now: dict[str, int | None] | None = None, **seen: Any) -> Evidence:
    """The cards as dealt and, after, as `now` changes them; `seen`: the rest of the evidence."""
    together = {frozenset(pair): s for pair, s in seen.pop("together", {}).items()}
    return Evidence(was=WAS, now={**WAS, **(now or {})}, dealer="Dario", together=together,
                    **seen)


STORIES = [
    # rule, what the camera saw, the answer
    ("identities_crossed", "Anna's and Carla's cards followed to each other's seat",
     evidence({"Anna": 3, "Carla": 1}, handled={"Anna": 0.8, "Carla": 0.8}),
     (Kind.SWAP, ("Anna", "Carla"))),
    ("two_cards_taken", "both seats handled, Anna's emptied, the same identities came back",
     evidence(handled={"Anna": 0.8, "Bruno": 0.8}, emptied=frozenset({"Anna"})),
     (Kind.SWAP, ("Anna", "Bruno"))),
    ("two_cards_taken", "both under the hands while a card of no seat's went by",
     evidence(handled={"Anna": 0.8, "Bruno": 0.8}, strays=True),
     (Kind.SWAP, ("Anna", "Bruno"))),
    ("two_cards_taken", "a brisk swap: one card seen on its way, the other seat handled two frames",
     evidence(handled={"Anna": 0.13, "Bruno": 0.13}, emptied=frozenset({"Anna"}), flown=frozenset({"Anna"})),
     (Kind.SWAP, ("Anna", "Bruno"))),
    ("two_cards_taken", "a swap with the dealer, a card of no seat's seen on its way meanwhile",
     evidence(handled={"Carla": 0.6, "Dario": 0.6}, emptied=frozenset({"Carla", "Dario"}), strays=True,
              blind=True),
     (Kind.SWAP, ("Carla", "Dario"))),
    ("two_cards_taken", "three emptied, two seen on their way, the third never covered with "
     "theirs at once: it went unread",
     evidence(handled={"Anna": 0.6, "Bruno": 0.6, "Carla": 0.3},
              emptied=frozenset({"Anna", "Bruno", "Carla"}), flown=frozenset({"Anna", "Bruno"}),
              together={("Anna", "Bruno"): 0.6}),
     (Kind.SWAP, ("Anna", "Bruno"))),
    ("dealers_card_replaced", "a new card at the dealer's seat, his old one aside",
     evidence({"Dario": 9}, handled={"Dario": 1.2}, emptied=frozenset({"Dario"}),
              put_aside=True),
     (Kind.DRAW, ("Dario",))),
    ("dealers_card_replaced", "a new card at the dealer's seat, the neighbour brushed, blind rules",
     evidence({"Dario": 9}, handled={"Dario": 1.2, "Carla": 0.1},
              emptied=frozenset({"Dario"}), blind=True),
     (Kind.DRAW, ("Dario",))),
    ("dealers_card_put_aside", "the dealer's seat taken up, a card laid aside, the old identity lent "
     "to the new card where it lay",
     evidence(handled={"Dario": 0.7}, emptied=frozenset({"Dario"}), put_aside=True, blind=True),
     (Kind.DRAW, ("Dario",))),
    ("dealers_card_put_aside", "the dealer's seat taken up, his old card seen on its way aside, the "
     "neighbour's card under his arm for a frame",
     evidence(handled={"Dario": 0.7, "Carla": 0.07}, emptied=frozenset({"Dario"}), strays=True,
              put_aside=True, blind=True),
     (Kind.DRAW, ("Dario",))),
    ("dealers_card_put_aside", "the same under the rules where he draws after the reveal: the game "
     "refuses it",
     evidence(handled={"Dario": 0.7}, emptied=frozenset({"Dario"}), put_aside=True),
     (Kind.DRAW, ("Dario",))),
    ("nothing_moved", "the dealer looked at his card, nothing laid aside",
     evidence(handled={"Dario": 0.7}, emptied=frozenset({"Dario"}), blind=True),
     (Kind.LOOK, ("Dario",))),
    ("nothing_moved", "a card laid aside while a player who is not the dealer looked at his",
     evidence(handled={"Bruno": 0.7}, emptied=frozenset({"Bruno"}), put_aside=True, blind=True),
     (Kind.LOOK, ("Bruno",))),
    ("cards_moved_otherwise", "three cards in a ring: not one swap",
     evidence({"Anna": 2, "Bruno": 3, "Carla": 1}, handled={"Anna": 1, "Bruno": 1, "Carla": 1}),
     (Kind.UNCLEAR, ("Anna", "Bruno", "Carla"))),
    ("cards_moved_otherwise", "three emptied, two seen on their way, the third covered with one of "
     "them long enough to exchange: a quick next move before the table rested",
     evidence({"Bruno": 9}, handled={"Anna": 2.5, "Bruno": 2.4, "Carla": 0.6},
              emptied=frozenset({"Anna", "Bruno", "Carla"}), flown=frozenset({"Bruno", "Carla"}),
              together={("Anna", "Carla"): 0.5, ("Anna", "Bruno"): 0.9, ("Bruno", "Carla"): 0.1}),
     (Kind.UNCLEAR, ("Anna", "Bruno", "Carla"))),
    ("cards_moved_otherwise", "Anna's card at Carla's seat, Anna's seat holding its own",
     evidence({"Carla": 1}, handled={"Carla": 1.0}),
     (Kind.UNCLEAR, ("Carla",))),
    ("covered_together", "two cards under the hands at once for a move's time, nothing seen",
     evidence(handled={"Anna": 1.0, "Carla": 1.0}, together={("Anna", "Carla"): 0.9}),
     (Kind.COVERED, ("Anna", "Carla"))),
    ("nothing_moved", "two cards under an arm for less than a move takes",
     evidence(handled={"Anna": 0.3, "Carla": 0.3},
              together={("Anna", "Carla"): 1 / 15}),
     (Kind.LOOK, ("Anna", "Carla"))),
    ("nothing_moved", "one player lifted his own card and put it back, a new identity",
     evidence({"Bruno": 7}, handled={"Bruno": 0.9}, emptied=frozenset({"Bruno"})),
     (Kind.LOOK, ("Bruno",))),
    ("nothing_moved", "two cards lifted as the reveal goes on: turned over where they lie",
     evidence(handled={"Anna": 0.5, "Bruno": 0.5}, emptied=frozenset({"Anna"}), revealing=True),
     (Kind.LOOK, ("Anna", "Bruno"))),
]


@pytest.mark.parametrize(("rule", "story", "seen", "answer"), STORIES,
                         ids=[f"{rule}: {story}" for rule, story, _, _ in STORIES])
def test_each_rule_answers_its_story(rule: str, story: str, seen: Evidence,
                                     answer: tuple[Kind, tuple[str, ...]]) -> None:
    judgement = classify(seen)
    assert (judgement.rule, judgement.kind, judgement.seats) == (rule, *answer)


def test_every_rule_has_a_story_and_a_reason() -> None:
    told = {rule for rule, *_ in STORIES}
    assert told == {rule.__name__ for rule in RULES}
    assert all(rule.__doc__ and len(rule.__doc__.splitlines()) <= 3 for rule in RULES)


def test_a_seen_swap_explains_its_own_seats_but_not_two_others_covered_meanwhile() -> None:
    seen = evidence({"Anna": 2, "Bruno": 1}, handled={s: 1.0 for s in WAS},
                    together={("Anna", "Bruno"): 0.9, ("Anna", "Carla"): 0.9,
                              ("Carla", "Dario"): 0.9})
    assert classify(seen).kind is Kind.SWAP
    assert seen.covered_with(("Anna", "Bruno")) == [("Carla", "Dario")]
