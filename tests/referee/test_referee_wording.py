"""A refusal is a code with parameters: the game says it in Italian or English from the code, and
the code travels as JSON and is worded the same at the other end."""

import json

import pytest

from referee.cards import parse_card
from referee.events import ChooseDealer, Deal, Draw, Event, FaceUp, Keep, Leave, Revive, Settle, Swap
from referee.game import Game
from referee.cards import DECK
from referee.wording import Message, the_card, word


def worked_example() -> Game:
    """RULES.md's worked example, dealt: Bruno shows the Re di Coppe, Dario the Cavallo."""
    game = Game(["Anna", "Bruno", "Carla", "Dario"])
    game.play(ChooseDealer("Dario"))
    game.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}))
    return game


@pytest.mark.parametrize(("event", "code", "italian"), [
    (Swap("Anna"), "walk.wall", "mano 1: Anna non può scambiare: Bruno ha il Re di Coppe (muro)"),
    (Swap("Dario"), "swap.dealer", "mano 1: Dario non può scambiare: il mazziere non scambia mai, "
                                   "può solo pescare"),
    (Keep("Carla"), "turn.other", "mano 1: Carla non può tenere la carta: tocca ad Anna"),
    (Draw("Dario"), "turn.shown", "mano 1: Dario non può pescare: Dario ha il Cavallo di Bastoni "
                                  "e non gioca"),
    (Settle(), "settle.turn", "mano 1: la mano non si chiude: tocca ad Anna"),
    (FaceUp("Anna", parse_card("2D")), "first_dealer.chosen",
     "mano 1: il primo mazziere è già scelto: Dario"),
    (Revive("Anna", "Bruno"), "revive.not_now", "mano 1: Anna non può tornare in gioco ora: una "
                                                "vita si ridà tra una mano e l'altra"),
    (Leave("Anna"), "between.hands", "mano 1: Anna non può alzarsi ora: ci si siede e ci si alza "
                                     "solo tra una mano e l'altra"),
])
def test_each_refusal_of_the_worked_example_is_said_in_italian(event: Event, code: str,
                                                                italian: str) -> None:
    refused = worked_example().refusal(event)
    assert refused is not None
    assert (refused.code, refused.words("it")) == (code, italian)
    assert refused.words("en") == str(refused)


def test_a_refusal_travels_as_json_and_reads_the_same_at_the_other_end() -> None:
    game = worked_example()
    game.play(Keep("Anna"))  # Carla's turn: a swap goes past Dario's Cavallo to Anna
    refused = game.refusal(Swap("Carla", "Bruno"))
    assert refused is not None and refused.code == "swap.not_target"
    carried = json.loads(json.dumps(refused.message.to_json()))
    assert carried == {"code": "swap.not_target", "params": {
        "player": "Carla", "other": "Bruno", "why": {"code": "walk.target", "params": {
            "player": "Carla", "jumps": [["Dario", "9B"]], "target": "Anna"}}}}
    assert word(carried["code"], carried["params"], "it") == (
        "Carla non può scambiare con Bruno: Carla può scambiare con Anna: salta il Cavallo di "
        "Bastoni di Dario")
    assert Message(**carried).words("en") == refused.rule


def test_a_legal_event_has_no_refusal() -> None:
    assert worked_example().refusal(Keep("Anna")) is None


@pytest.mark.parametrize("card", DECK, ids=lambda card: card.code)
def test_every_card_takes_its_own_italian_article(card) -> None:
    named = the_card(card.code, "it")
    article = "l'" if card.italian[0] in "AEIOU" else "il "
    assert named == article + card.italian
    assert the_card(card.code, "en") == f"the {card.italian}"
