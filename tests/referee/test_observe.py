"""The controller, told as stories: what the camera sees, second by second, and what it says."""

import dataclasses
import random
from typing import Any

import pytest

from referee.cards import parse_card
from referee.events import (
    ChooseDealer,
    Correct,
    Deal,
    Draw,
    Event,
    Join,
    Keep,
    Leave,
    Reveal,
    Revive,
    Settle,
    Swap,
)
from referee.game import Game, Phase
from referee.observation import TableObservation
from referee.observe import DEAL_STILL, SETTLE_STILL, Controller
from referee.observe.moment import Moment, remember
from referee.observe.showdown import SWEEP
from referee.observe.turns import ASTRAY_SECONDS, SETTLED, SHOWN_GONE
from referee.rules import find_rules
from referee.simulate import NAMES, game_events, random_game
from story import aside, filmed, kinds, observation, seats, table, tell

EMPTY4 = "Anna - Bruno - Carla - Dario -"
# The worked example: Dario deals; Bruno shows the Re di Coppe, Dario the Cavallo di Bastoni.
DEALT = "Anna down#1 Bruno 10C#2 Carla down#3 Dario 9B#4"
DEAL_STORY = [(0.0, EMPTY4), (1.0, "Anna down#1 Bruno - Carla - Dario -"),
              (1.5, "Anna down#1 Bruno down#2 Carla - Dario -"),
              (2.0, "Anna down#1 Bruno 10C#2 Carla down#3 Dario -"), (2.5, DEALT),
              (2.5 + DEAL_STILL, DEALT)]
SAID_AT_THE_DEAL = [
    {"event": "deal", "hand": 1, "dealer": "Dario"},
    {"event": "shown", "hand": 1, "player": "Bruno", "card": "10C"},
    {"event": "shown", "hand": 1, "player": "Dario", "card": "9B"},
    {"event": "target", "hand": 1, "player": "Anna", "target": None,
     "reason": "Anna cannot swap: Bruno shows the Re di Coppe (wall)"},
    {"event": "target", "hand": 1, "player": "Carla", "target": "Anna",
     "reason": "Carla may swap with Anna: Dario's Cavallo di Bastoni is jumped"},
]
CARLA_SWAPS = [(7.0, "Anna - Bruno 10C#2 Carla - Dario 9B#4"),
               (8.0, "Anna down#3 Bruno 10C#2 Carla down#1 Dario 9B#4")]
REVEALED = "Anna 5S#3 Bruno 10C#2 Carla 3D#1 Dario 9B#4"


def events_since_deal(game: Game) -> list[Event]:
    start = max(i for i, e in enumerate(game.history) if isinstance(e, Deal))
    return game.history[start + 1:]


# -- the worked example ----------------------------------------------------------------------------

def test_the_worked_example_as_the_camera_sees_it() -> None:
    game = table()
    saved: list[Event] = []

    def sink(event: Event) -> str | None:
        game.play(event)
        saved.append(event)
        return "evidence/hand-1.jpg" if isinstance(event, Settle) else None

    controller = Controller(game, sink)
    assert tell(controller, DEAL_STORY) == SAID_AT_THE_DEAL
    assert tell(controller, CARLA_SWAPS) == [
        {"event": "keep", "hand": 1, "player": "Anna"},
        {"event": "swap", "hand": 1, "from": "Carla", "to": "Anna", "legal": True}]
    assert tell(controller, [(10.0, REVEALED), (10.0 + SETTLE_STILL / 2, REVEALED)]) == [
        {"event": "reveal", "hand": 1,
         "cards": {"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}}]
    assert tell(controller, [(10.0 + SETTLE_STILL, REVEALED)]) == [
        {"event": "settle", "hand": 1, "losers": ["Carla"],
         "lives": {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3}, "pot": 1,
         "evidence": "evidence/hand-1.jpg"}]
    assert saved == [Deal.of({"Anna": "?", "Bruno": "10C", "Carla": "?", "Dario": "9B"}),
                     Keep("Anna"), Swap("Carla", "Anna"), saved[3], Settle()]
    assert game.lives == {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3}


def test_a_card_turned_up_at_no_player_s_place_while_a_place_shows_none_holds_the_hand() -> None:
    # Anna's card turned up a card length off any place named: the places are not where the cards lie
    controller = Controller(table())
    tell(controller, DEAL_STORY)
    tell(controller, CARLA_SWAPS)
    astray = "Anna - Bruno 10C#2 Carla 3D#1 Dario 9B#4 aside 5S#3"
    said = tell(controller, [(10.0, astray), (10.0 + ASTRAY_SECONDS / 2, astray)])
    assert said == [] and controller.held is None  # a card being turned over is laid back at once
    said = tell(controller, [(10.0 + ASTRAY_SECONDS, astray)])
    assert said[-1]["event"] == "warning" and controller.held is not None
    assert controller.held.code == "seats.off" and controller.held.params == {"players": ["Anna"]}
    assert (controller.held.message_it.startswith("mano 1: al posto di Anna non c'è nessuna carta")
            and "toccate il posto di ogni giocatore" in controller.held.message_it)
    said = tell(controller, [(14.0, REVEALED), (14.0 + SETTLE_STILL / 2, REVEALED)])  # laid at its place
    assert controller.held is None
    assert tell(controller, [(14.0 + SETTLE_STILL, REVEALED), (16.0 + SETTLE_STILL, REVEALED)])[-1]["event"] == "settle"


def test_every_line_has_english_and_italian() -> None:
    controller = Controller(table())
    said = []
    for at, line in filmed(DEAL_STORY):
        said += controller.observe(TableObservation.of(at, seats(line)))
    anna = said[3]
    assert (anna.text, anna.text_it) == ("Anna cannot swap: Bruno shows the Re di Coppe (wall)",
                                         "Anna non può scambiare: Bruno ha il Re di Coppe (muro)")
    assert said[0].text_it == "Mano 1: Dario fa le carte"
    assert said[1].text == "Bruno shows the Re di Coppe: a wall"


def test_the_deal_counts_as_soon_as_a_turn_begins() -> None:
    game = table()
    controller = Controller(game)
    said = tell(controller, DEAL_STORY[:5] + CARLA_SWAPS)
    assert kinds(said) == ["deal", "shown", "shown", "target", "target", "keep", "swap"]


# -- the dealer's draw ---------------------------------------------------------------------------

FOUR = "Anna down#1 Bruno down#2 Carla down#3 Dario down#4"
PLAIN_DEAL = [(0.0, EMPTY4), (1.0, FOUR), (1.0 + DEAL_STILL, FOUR)]


def test_after_the_reveal_the_dealer_replaces_his_face_up_card() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    shown = "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1B#4"
    drawn = "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 6C#5"
    said = tell(controller, [(6.0, shown), (7.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario -"),
                             (8.0, drawn), (13.0, drawn)])
    assert kinds(said) == ["keep", "keep", "keep", "reveal", "draw", "settle"]
    assert said[4] == {"event": "draw", "hand": 1, "player": "Dario", "card": "6C"}
    assert said[5]["losers"] == ["Anna"]


@pytest.mark.parametrize(("drawn", "said_it"), [("1C", "Dario pesca l'Asso di Coppe"),
                                               ("6C", "Dario pesca il Sei di Coppe")])
def test_the_draw_is_told_in_italian_with_the_card_s_own_article(drawn: str, said_it: str) -> None:
    controller = Controller(table())
    tell(controller, PLAIN_DEAL)
    shown = "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 2B#4"
    after = f"Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario {drawn}#5"
    story = [(6.0, shown), (7.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario -"), (8.0, after), (13.0, after)]
    said = [s for at, line in filmed(story, PLAIN_DEAL[-1]) for s in controller.observe(observation(at, line))]
    assert [s.text_it for s in said if s.kind == "draw"] == [said_it]


def test_a_dealer_quicker_than_the_camera_turns_his_card_aside_and_draws_a_cavallo() -> None:
    # at 5 pictures a second his Asso is never seen face up at his seat: it lies aside, face up,
    # when the drawn card lands; the Cavallo is his draw, not a card shown late
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL, fps=5)
    others = "Anna 3D#1 Bruno 4C#2 Carla 5S#3"
    said = tell(controller, [(6.0, f"{others} Dario down#4"), (7.0, f"{others} Dario - aside 1B#4"),
                             (7.4, f"{others} Dario down#5 aside 1B#4"), (7.8, f"{others} Dario 9C#5 aside 1B#4"),
                             (14.0, f"{others} Dario 9C#5 aside 1B#4")], fps=5)
    assert kinds(said) == ["keep", "keep", "keep", "reveal", "draw", "settle"]
    assert said[3]["cards"] == {"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "1B"}
    assert said[4] == {"event": "draw", "hand": 1, "player": "Dario", "card": "9C"}
    assert said[5]["losers"] == ["Anna"] and controller.held is None


def test_a_dealers_card_read_unsure_at_his_seat_then_put_aside_out_of_sight_is_his_at_the_reveal(
        ) -> None:
    # his Asso, against the stock, is read unsure where it lies; carried briskly aside it goes out
    # of sight and the tracker knows it anew, surely named: a deck holds one Asso di Bastoni
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    others = "Anna 3D#1 Bruno 4C#2 Carla 5S#3"
    said = tell(controller, [(6.0, f"{others} Dario 1B#4@0.7"), (6.4, f"{others} Dario 1B#4@0.7"),
                             (6.8, f"{others} Dario - aside 1B#6"), (7.2, f"{others} Dario down#5 aside 1B#6"),
                             (7.6, f"{others} Dario 9C#5 aside 1B#6"), (13.0, f"{others} Dario 9C#5 aside 1B#6")])
    assert kinds(said) == ["keep", "keep", "keep", "reveal", "draw", "settle"]
    assert said[3]["cards"] == {"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "1B"}
    assert said[4] == {"event": "draw", "hand": 1, "player": "Dario", "card": "9C"}


def test_a_dealers_card_never_seen_at_his_seat_turned_aside_as_the_table_rested_is_his() -> None:
    # he turns his card up and sets it aside under his hand: it is first seen face up aside, with
    # an identity of its own; the card he draws lands where his lay and keeps its identity
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    others = "Anna 3D#1 Bruno 4C#2 Carla 5S#3"
    said = tell(controller, [(6.0, f"{others} Dario down#4~"), (6.4, f"{others} Dario - aside 1B#7"),
                             (6.8, f"{others} Dario down#4 aside 1B#7"), (7.2, f"{others} Dario 9C#4 aside 1B#7"),
                             (13.0, f"{others} Dario 9C#4 aside 1B#7")])
    assert kinds(said) == ["keep", "keep", "keep", "reveal", "draw", "settle"]
    assert said[3]["cards"] == {"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "1B"}
    assert said[4] == {"event": "draw", "hand": 1, "player": "Dario", "card": "9C"}


def test_a_card_lying_aside_before_the_dealer_took_up_his_is_not_his() -> None:
    # a card left face up aside from before: his card, never read at his seat, is not it
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    others = "Anna 3D#1 Bruno 4C#2 Carla 5S#3"
    said = tell(controller, [(6.0, f"{others} Dario down#4 aside 6B#7"), (6.6, f"{others} Dario down#4~ aside 6B#7"),
                             (7.2, f"{others} Dario down#4 aside 6B#7")])
    assert "reveal" not in kinds(said)


def test_a_card_aside_not_the_one_read_at_the_dealers_seat_is_not_his() -> None:
    # his card read unsure as the Asso, a Sei lies aside: not his card, and nothing is revealed
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    others = "Anna 3D#1 Bruno 4C#2 Carla 5S#3"
    said = tell(controller, [(6.0, f"{others} Dario 1B#4@0.7"), (6.8, f"{others} Dario - aside 6B#6"),
                             (7.2, f"{others} Dario down#5 aside 6B#6")])
    assert "reveal" not in kinds(said)


def test_a_cavallo_at_the_dealers_seat_with_his_own_card_nowhere_aside_is_shown_late() -> None:
    controller = Controller(table())
    tell(controller, PLAIN_DEAL, fps=5)
    said = tell(controller, [(6.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario down#4"),
                             (7.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 9C#4")], fps=5)
    assert said[-1]["message"].startswith("hand 1: Dario turns up the Cavallo di Coppe after the deal")
    assert controller.held is not None


def test_the_dealers_card_read_anew_where_it_lies_is_no_draw() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    tell(controller, [(6.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1B#4")])
    reread = "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 7B#4"  # the same card, another name
    said = tell(controller, [(7.0, reread), (13.0, reread)])
    assert said == [{"event": "warning", "hand": 1, "message":
                     "hand 1: Dario's card now reads 7B, but 1B was read before: correct it if it "
                     "is so"}]
    assert game.phase is Phase.DEALER


def test_a_blind_draw_is_the_dealers_face_down_card_replaced_before_the_reveal() -> None:
    game = table(rules="classica")
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(6.0, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#4"),
                             (7.0, "Anna down#1 Bruno down#2 Carla down#3 Dario down#9 "
                                   "aside down#4"),
                             (9.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#9 aside down#4"),
                             (14.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#9 aside down#4")])
    assert kinds(said) == ["keep", "keep", "keep", "draw", "reveal", "settle"]
    assert said[3] == {"event": "draw", "hand": 1, "player": "Dario", "card": None}
    assert said[5]["losers"] == ["Dario"]


def test_a_blind_draw_whose_card_takes_the_old_identity_is_seen_by_the_card_laid_aside() -> None:
    # the card drawn lands where the old one lay and the tracker lends it the old identity; his
    # old card, carried out of sight, is seen anew lying aside: a draw, and his Re is no Re
    # turned up late
    game = table(rules="classica")
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(6.0, "Anna down#1 Bruno down#2 Carla down#3 Dario -"),
                             (6.4, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#9"),
                             (6.8, "Anna down#1 Bruno down#2 Carla down#3 Dario down#4 "
                                   "aside down#9"),
                             (9.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 10D#4 aside down#9"),
                             (14.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 10D#4 aside down#9")])
    assert kinds(said) == ["keep", "keep", "keep", "draw", "reveal", "settle"]
    assert said[5]["losers"] == ["Anna"] and controller.held is None


def test_a_look_and_a_blind_draw_before_the_deal_has_rested_count_the_deal_then_the_draw() -> None:
    # the table never rests for DEAL_STILL: Anna takes up her card and lays it back (a turn has
    # begun), then the dealer lays his aside and draws
    game = table(rules="classica")
    controller = Controller(game)
    said = tell(controller, [(0.0, EMPTY4), (1.0, "Anna down#1 Bruno - Carla - Dario -"),
                             (1.3, "Anna down#1 Bruno down#2 Carla - Dario -"),
                             (1.6, "Anna down#1 Bruno down#2 Carla down#3 Dario -"),
                             (1.9, FOUR), (2.2, "Anna - Bruno down#2 Carla down#3 Dario down#4"),
                             (2.7, FOUR), (3.0, "Anna down#1 Bruno down#2 Carla down#3 Dario -"),
                             (3.3, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#9"),
                             (3.6, "Anna down#1 Bruno down#2 Carla down#3 Dario down#4 "
                                   "aside down#9"),
                             (4.5, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 10D#4 aside down#9"),
                             (9.5, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 10D#4 aside down#9")])
    assert kinds(said) == ["deal", "target", "target", "target", "keep", "keep", "keep", "draw",
                           "reveal", "settle"]
    assert said[9]["losers"] == ["Anna"] and controller.held is None


def test_a_look_before_a_re_is_turned_up_slowly_leaves_the_re_shown_at_the_deal() -> None:
    # Anna looks under her card as soon as it lies; Bruno turns his Re up a second later: the deal
    # counts from before her look once the table rests, with the Re shown, and her look is a look
    game = table()
    controller = Controller(game)
    said = tell(controller, [(0.0, EMPTY4), (1.0, "Anna down#1 Bruno - Carla - Dario -"),
                             (1.3, "Anna down#1 Bruno down#2 Carla - Dario -"),
                             (1.6, "Anna down#1 Bruno down#2 Carla down#3 Dario -"),
                             (1.9, FOUR), (2.0, "Anna - Bruno down#2 Carla down#3 Dario down#4"),
                             (2.6, FOUR), (3.0, "Anna down#1 Bruno down#2~ Carla down#3 Dario down#4"),
                             (3.4, "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4"),
                             (3.4 + DEAL_STILL, "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4")])
    assert kinds(said)[:2] == ["deal", "shown"] and said[1]["player"] == "Bruno"
    assert "warning" not in kinds(said) and controller.held is None


def test_the_stock_passing_over_the_dealers_place_as_he_deals_is_no_turn_begun() -> None:
    # the stock, read as a face-down card, lies on his place a moment, then goes aside again
    # before his own card lands: the deal still waits for the table to rest
    game = table()
    controller = Controller(game)
    said = tell(controller, [(0.0, EMPTY4), (1.0, "Anna down#1 Bruno - Carla - Dario - aside down#9"),
                             (1.3, "Anna down#1 Bruno down#2 Carla - Dario - aside down#9"),
                             (1.6, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#9"),
                             (1.9, "Anna down#1 Bruno down#2 Carla down#3 Dario down#9"),
                             (2.2, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#9"),
                             (2.8, "Anna down#1 Bruno down#2 Carla down#3 Dario down#4 "
                                   "aside down#9")])
    assert said == []
    said = tell(controller, [(2.8 + DEAL_STILL, "Anna down#1 Bruno down#2 Carla down#3 "
                                                "Dario down#4 aside down#9")])
    assert kinds(said)[0] == "deal" and game.history[-1].cards == {p: None for p in game.players}


def test_after_the_reveal_rules_a_draw_before_it_is_held() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(6.0, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#4"),
                             (7.0, "Anna down#1 Bruno down#2 Carla down#3 Dario down#9 "
                                   "aside down#4"),
                             (9.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#9 aside down#4"),
                             (16.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#9 aside down#4")])
    assert said == [{"event": "warning", "hand": 1, "message":
                     "hand 1: Dario cannot draw before the reveal (dealer_draw after_reveal: he "
                     "draws after seeing every card) (put his card back)"}]
    assert controller.held is not None and game.phase is Phase.TURNS


@pytest.mark.parametrize("fps", [5, 15])
def test_a_re_turned_up_as_slowly_as_families_do_is_shown_at_the_deal(fps: float) -> None:
    # Dario's card lands last; 2 s after, Bruno begins to turn his Re, his hand at its edge (the
    # card read face down throughout); it shows 0.6 s later and is named 0.3 s after that
    controller = Controller(table())
    dealt = "Anna down#1 Bruno down#2 Carla down#3 Dario down#4"
    shown = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, "Anna down#1 Bruno down#2 Carla down#3 Dario -"),
                             (1.3, dealt), (1.3 + 2.0 + 0.6 + 0.3, shown), (4.2 + DEAL_STILL, shown)], fps=fps)
    assert said[:2] == [{"event": "deal", "hand": 1, "dealer": "Dario"},
                        {"event": "shown", "hand": 1, "player": "Bruno", "card": "10C"}]
    assert controller.held is None


# -- the switches that change the walk -----------------------------------------------------------

def test_without_horse_chain_a_second_cavallo_is_no_swap_and_a_swap_past_it_is_held() -> None:
    game = table(horse_chain=False)
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 9C#2 Carla 9S#3 Dario down#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt)])
    assert said[3] == {"event": "target", "hand": 1, "player": "Anna", "target": None,
                       "reason": "Anna cannot swap: Bruno's Cavallo di Coppe is jumped, then "
                                 "Carla's Cavallo di Spade is a second Cavallo (horse_chain "
                                 "off: only one jump)"}
    said = tell(controller, [(5.0, "Anna - Bruno 9C#2 Carla 9S#3 Dario -"),
                             (6.0, "Anna down#4 Bruno 9C#2 Carla 9S#3 Dario down#1")])
    assert said[0] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Dario", "legal": False}
    assert said[1]["message"] == ("hand 1: Anna cannot swap: Bruno's Cavallo di Coppe is jumped, "
                                  "then Carla's Cavallo di Spade is a second Cavallo (horse_chain "
                                  "off: only one jump) (undo the swap on the table)")


def test_with_horse_chain_the_same_swap_is_legal() -> None:
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 9C#2 Carla 9S#3 Dario down#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt),
                             (5.0, "Anna - Bruno 9C#2 Carla 9S#3 Dario -"),
                             (6.0, "Anna down#4 Bruno 9C#2 Carla 9S#3 Dario down#1")])
    assert said[3]["target"] == "Dario"
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Dario", "legal": True}


def test_without_skip_wraps_the_walk_stops_at_the_dealer() -> None:
    game = table(skip_wraps=False)
    controller = Controller(game)
    said = tell(controller, DEAL_STORY)
    assert said[4] == {"event": "target", "hand": 1, "player": "Carla", "target": None,
                       "reason": "Carla cannot swap: Dario's Cavallo di Bastoni is jumped, then "
                                 "the walk would pass the dealer Dario (skip_wraps off)"}
    said = tell(controller, CARLA_SWAPS)
    assert said[-1]["message"].startswith("hand 1: Carla cannot swap: Dario's Cavallo di Bastoni")
    assert controller.held is not None


# -- the showdown: ties, void hands, the dead ----------------------------------------------------

def play_out(controller: Controller, faces: str, start: float = 5.0) -> list[dict[str, Any]]:
    """Deal four face-down cards, reveal `faces`, and wait for the settlement."""
    counted = start + 1 + DEAL_STILL
    return tell(controller, [(start, EMPTY4), (start + 1, FOUR), (counted, FOUR),
                             (counted + 2, faces), (counted + 7, faces)])


def test_a_tie_makes_both_pay() -> None:
    game = table()
    said = play_out(Controller(game), "Anna 2D#1 Bruno 2C#2 Carla 5S#3 Dario 7B#4")
    assert said[-1] == {"event": "settle", "hand": 1, "losers": ["Anna", "Bruno"],
                        "lives": {"Anna": 2, "Bruno": 2, "Carla": 3, "Dario": 3}, "pot": 2,
                        "evidence": None}


def test_a_void_hand_takes_no_life_and_says_so() -> None:
    game = table(players="Anna Bruno Carla", dealer="Carla", lives=1)
    controller = Controller(game)
    three = "Anna down#1 Bruno down#2 Carla down#3"
    faces = "Anna 2D#1 Bruno 2C#2 Carla 2S#3"
    said = tell(controller, [(0.0, "Anna - Bruno - Carla -"), (1.0, three),
                             (1.0 + DEAL_STILL, three), (6.0, faces), (11.0, faces)])
    settle = controller.observe(TableObservation.of(11.5, seats(faces)))
    assert said[-1] == {"event": "settle", "hand": 1, "losers": [],
                        "lives": {"Anna": 1, "Bruno": 1, "Carla": 1}, "pot": 0, "evidence": None}
    assert settle == [] and game.next_dealer == "Carla"
    assert game.results[-1].void


def test_a_dead_seat_gets_no_card_and_a_card_there_is_reported() -> None:
    game = table(players="Anna Bruno Carla Dario", dealer="Dario", lives=1)
    controller = Controller(game)
    play_out(controller, "Anna 5D#1 Bruno 1C#2 Carla 6S#3 Dario 7B#4", start=0.0)
    assert game.alive() == ["Anna", "Carla", "Dario"] and game.next_dealer == "Anna"
    three = "Anna down#5 Bruno - Carla down#6 Dario down#7"
    said = tell(controller, [(20.0, EMPTY4), (21.0, three), (21.0 + DEAL_STILL, three)])
    assert kinds(said) == ["deal", "target", "target"]
    assert said[1] == {"event": "target", "hand": 2, "player": "Carla", "target": "Dario",
                       "reason": "Carla may swap with Dario"}
    game.undo()  # the page: deal again, and this time the dealer serves Bruno too
    four = "Anna down#5 Bruno down#8 Carla down#6 Dario down#7"
    said = tell(controller, [(23.55, four), (23.55 + DEAL_STILL, four)])
    assert said[0] == {"event": "warning", "hand": 2, "message":
                       "hand 2: a card lies at Bruno's seat, but Bruno is dead and gets no card"}
    assert kinds(said) == ["warning", "deal", "target", "target"]
    assert game.hand is not None and game.hand.ring == ("Anna", "Carla", "Dario")
    # Told once a hand: the card still lying there says nothing more.
    assert tell(controller, [(29.0, four), (30.0, four)]) == []


def test_a_card_put_at_a_dead_seat_during_the_turns_is_reported() -> None:
    game = table(lives=1)
    controller = Controller(game)
    play_out(controller, "Anna 5D#1 Bruno 1C#2 Carla 6S#3 Dario 7B#4", start=0.0)
    three = "Anna down#5 Bruno - Carla down#6 Dario down#7"
    tell(controller, [(20.0, EMPTY4), (21.0, three), (21.0 + DEAL_STILL, three)])
    said = tell(controller, [(25.0, "Anna down#5 Bruno down#6 Carla - Dario down#7")])
    assert said == [{"event": "warning", "hand": 2, "message":
                     "hand 2: a card lies at Bruno's seat, but Bruno is dead and gets no card"}]


def test_a_revive_between_hands_brings_the_seat_back() -> None:
    game = table(lives=1)
    controller = Controller(game)
    play_out(controller, "Anna 5D#1 Bruno 1C#2 Carla 6S#3 Dario 7B#4", start=0.0)
    game.play(Revive("Bruno", "Carla"))  # a person records it on the page
    three = "Anna down#5 Bruno down#6 Carla - Dario down#7"
    said = tell(controller, [(20.0, EMPTY4), (21.0, three), (21.0 + DEAL_STILL, three)])
    assert said[0] == {"event": "deal", "hand": 2, "dealer": "Anna"}
    assert [line["player"] for line in said[1:]] == ["Bruno", "Dario"]
    assert game.hand is not None and game.hand.ring == ("Anna", "Bruno", "Dario")


def test_players_joining_and_leaving_between_hands_change_the_seats_dealt() -> None:
    game = table()
    controller = Controller(game)
    play_out(controller, "Anna 5D#1 Bruno 1C#2 Carla 6S#3 Dario 7B#4", start=0.0)
    game.play_all([Join("Elena", before="Bruno"), Leave("Carla")])  # recorded on the page
    four = "Anna down#5 Elena down#6 Bruno down#7 Dario down#8"
    said = tell(controller, [(20.0, "Anna - Elena - Bruno - Dario -"), (21.0, four),
                             (21.0 + DEAL_STILL, four)])
    assert said[0] == {"event": "deal", "hand": 2, "dealer": "Anna"}
    assert [line["player"] for line in said[1:]] == ["Elena", "Bruno", "Dario"]


# -- illegal swaps, held and resolved ------------------------------------------------------------

WALLED = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4"
PAST_THE_WALL = [(7.0, "Anna - Bruno 10C#2 Carla - Dario down#4"),
                 (8.0, "Anna down#3 Bruno 10C#2 Carla down#1 Dario down#4")]


def test_an_illegal_swap_is_held_settles_nothing_and_is_undone_on_the_table() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, [(0.0, EMPTY4), (1.0, WALLED), (1.0 + DEAL_STILL, WALLED)])
    said = tell(controller, PAST_THE_WALL)
    wall = ("hand 1: Anna cannot swap: Bruno shows the Re di Coppe (wall) "
            "(undo the swap on the table)")
    assert said == [{"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": False},
                    {"event": "warning", "hand": 1, "message": wall}]
    assert controller.held is not None and controller.held.message == wall
    # Everyone turns up and waits: nothing is played while the hand is held.
    faces = "Anna 5S#3 Bruno 10C#2 Carla 3D#1 Dario 6B#4"
    assert tell(controller, [(10.0, faces), (21.0, faces)]) == []
    assert game.phase is Phase.TURNS and game.pot == 0
    # The cards go back face down where they were: the hand goes on.
    said = tell(controller, [(22.0, WALLED), (22.0 + SETTLED, WALLED),
                             (23.0, "Anna 3D#1 Bruno 10C#2 Carla 5S#3 Dario 6B#4"),
                             (28.0, "Anna 3D#1 Bruno 10C#2 Carla 5S#3 Dario 6B#4")])
    assert controller.held is None
    assert kinds(said) == ["keep", "keep", "reveal", "keep", "settle"]
    assert said[-1]["losers"] == ["Anna"]


def test_an_illegal_swap_put_back_while_the_dealer_plays_on_and_draws_stays_held() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, [(0.0, EMPTY4), (1.0, WALLED), (1.0 + DEAL_STILL, WALLED)] + PAST_THE_WALL)
    assert controller.held is not None
    # Anna and Carla have their own cards back, but Dario lifted his and laid another meanwhile
    drawn = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#9"
    said = tell(controller, [(12.0, "Anna - Bruno 10C#2 Carla - Dario -"), (12.5, drawn),
                             (12.5 + SETTLED, drawn), (15.0, drawn)])
    assert said == [] and controller.held is not None


def test_a_held_swap_resumed_by_a_person_goes_on_from_the_table_as_it_is() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, [(0.0, EMPTY4), (1.0, WALLED), (1.0 + DEAL_STILL, WALLED)] + PAST_THE_WALL)
    controller.resume()
    faces = "Anna 5S#3 Bruno 10C#2 Carla 3D#1 Dario 6B#4"
    said = tell(controller, [(9.0, "Anna down#3 Bruno 10C#2 Carla down#1 Dario down#4"),
                             (10.0, faces), (16.0, faces)])
    assert kinds(said) == ["keep", "keep", "reveal", "keep", "settle"]
    assert said[-1]["losers"] == ["Carla"]


def test_cards_with_no_identity_lifted_at_two_seats_and_put_back_are_a_swap() -> None:
    game = table()
    controller = Controller(game)
    dealt = "Anna down Bruno 10C Carla down Dario 9B"
    said = tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt),
                             (5.0, "Anna - Bruno 10C Carla down Dario 9B"),
                             (5.5, "Anna - Bruno 10C Carla - Dario 9B"), (6.0, dealt),
                             (6.0 + SETTLED, dealt)])
    assert kinds(said)[-2:] == ["keep", "swap"]
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Carla", "to": "Anna", "legal": True}
    # One card lifted and put back is a player looking at his own card: nothing happens.
    assert tell(controller, [(7.0, "Anna - Bruno 10C Carla down Dario 9B"), (7.5, dealt),
                             (7.5 + SETTLED, dealt)]) == []


def test_two_cards_lifted_at_once_and_put_back_with_their_ids_unchanged_are_a_swap() -> None:
    # where two cards' paths cross a tracker may hand each one's identity to the other
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 10C#2 Carla down#3 Dario 9B#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt),
                             (5.0, "Anna - Bruno 10C#2 Carla down#3 Dario 9B#4"),
                             (5.5, "Anna - Bruno 10C#2 Carla - Dario 9B#4"),
                             (6.0, "Anna - Bruno 10C#2 Carla down#3 Dario 9B#4"), (6.5, dealt),
                             (6.5 + SETTLED, dealt)])
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Carla", "to": "Anna", "legal": True}


def test_a_card_brought_beside_the_target_and_the_target_taken_back_is_a_swap() -> None:
    # the target's seat never empties: the swapper's card lies beside it for a moment
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 10C#2 Carla down#3 Dario 9B#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt),
                             (5.0, "Anna down#1 Bruno 10C#2 Carla - Dario 9B#4"),
                             (5.5, "Anna down#1+ Bruno 10C#2 Carla - Dario 9B#4"),
                             (6.0, "Anna down#1 Bruno 10C#2 Carla - Dario 9B#4"),
                             (6.5, "Anna down#1 Bruno 10C#2 Carla down#9 Dario 9B#4"),
                             (6.5 + SETTLED, "Anna down#1 Bruno 10C#2 Carla down#9 Dario 9B#4")])
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Carla", "to": "Anna", "legal": True}


def test_the_target_under_the_hands_while_the_swapper_s_seat_empties_is_a_swap() -> None:
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 10C#2 Carla down#3 Dario 9B#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt),
                             (5.0, "Anna down#1~ Bruno 10C#2 Carla - Dario 9B#4"),
                             (5.8, "Anna down#1~ Bruno 10C#2 Carla - Dario 9B#4"),
                             (6.2, "Anna down#1 Bruno 10C#2 Carla down#9 Dario 9B#4"),
                             (6.2 + SETTLED, "Anna down#1 Bruno 10C#2 Carla down#9 Dario 9B#4")])
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Carla", "to": "Anna", "legal": True}


def test_an_arm_over_two_cards_is_no_swap() -> None:
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 10C#2 Carla down#3 Dario 9B#4"
    tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt)])
    said = tell(controller, [(5.0, "Anna down#1~ Bruno 10C#2 Carla down#3~ Dario 9B#4"),
                             (5.5, dealt), (6.0, dealt)])
    assert said == []


def test_the_dealer_never_starts_a_swap() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    game.play_all([Keep("Anna"), Keep("Bruno"), Keep("Carla")])  # the page records the keeps
    tell(controller, [(5.0, "Anna down#1 Bruno down#2 Carla down#3 Dario down#4")])
    said = tell(controller, [(6.0, "Anna - Bruno down#2 Carla down#3 Dario -"),
                             (7.0, "Anna down#4 Bruno down#2 Carla down#3 Dario down#1")])
    assert said[-1]["message"] == ("hand 1: Dario cannot swap: the dealer never swaps, drawing is "
                                   "the dealer's only move (undo the swap on the table)")
    assert controller.held is not None


# -- what a camera gets wrong ------------------------------------------------------------------

def test_a_seat_flickering_empty_and_a_hand_crossing_change_nothing() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, DEAL_STORY)
    said = tell(controller, [(6.0, "Anna - Bruno 10C#2 Carla down#3 Dario 9B#4"),
                             (6.1, DEALT), (7.0, DEALT), (7.1, "Anna down#1 Bruno 10C#2 Carla - "
                                                               "Dario 9B#4"), (7.2, DEALT)])
    assert said == [] and game.phase is Phase.TURNS and game.current_player == "Anna"
    said = tell(controller, CARLA_SWAPS)
    assert kinds(said) == ["keep", "swap"]


def test_a_face_up_card_that_cannot_be_read_is_reported_once_and_nothing_is_settled() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    unsure = "Anna 3D#1 Bruno ?#2@0.4 Carla 5S#3 Dario 6B#4"
    said = tell(controller, [(6.0, unsure), (7.0, unsure), (8.5, unsure), (21.0, unsure)])
    assert said == [{"event": "warning", "hand": 1,
                     "message": "hand 1: Bruno's face-up card cannot be read: name it by hand"}]
    assert game.phase is Phase.TURNS


def test_a_face_up_card_that_cannot_be_read_is_asked_about_while_the_dealer_takes_his_own_up() -> None:
    # Bruno's card shows from 6.0 and is never named; from 7.0 Dario's seat is empty, his card
    # taken up to put it aside and draw, and the table is not all face up: Bruno is still asked
    # UNREAD_AFTER after his card first showed, before the cards are collected
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(6.0, "Anna 3D#1 Bruno ?#2@0.4 Carla 5S#3 Dario 6B#4"),
                             (7.0, "Anna 3D#1 Bruno ?#2@0.4 Carla 5S#3 Dario -"),
                             (8.1, "Anna 3D#1 Bruno ?#2@0.4 Carla 5S#3 Dario -")])
    assert said == [{"event": "warning", "hand": 1,
                     "message": "hand 1: Bruno's face-up card cannot be read: name it by hand"}]


def test_a_face_up_card_read_unsure_with_a_wavering_confidence_is_asked_about_once() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    wavering = [(6.0 + k, f"Anna 3D#1 Bruno 9D#2@{confidence} Carla 5S#3 Dario 6B#4")
                for k, confidence in enumerate((0.75, 0.78, 0.76, 0.79, 0.75))]
    said = tell(controller, [*wavering, (21.0, wavering[-1][1])])
    assert kinds(said) == ["warning"]
    assert said[0]["message"].startswith("hand 1: Bruno's face-up card cannot be read (it reads 9D at 0.7")


def test_a_re_shown_at_the_deal_then_read_unsure_still_names_its_seat_at_the_reveal() -> None:
    # Bruno's Re, named surely when shown, reads unsure as the Re di Coppe by the reveal: it never
    # moved, and the hand is settled
    game = table()
    controller = Controller(game)
    tell(controller, DEAL_STORY + CARLA_SWAPS)
    faded = "Anna 5S#3 Bruno 10C#2@0.6 Carla 3D#1 Dario 9B#4"
    said = tell(controller, [(10.0, faded), (10.0 + SETTLE_STILL, faded)])
    assert kinds(said) == ["reveal", "settle"] and said[-1]["losers"] == ["Carla"]


def test_a_re_named_as_it_is_shown_then_read_unsure_counts_the_deal_and_asks_nothing() -> None:
    faded = "Anna down#1 Bruno 10C#2@0.6 Carla down#3 Dario 9B#4"
    said = tell(Controller(table()), [*DEAL_STORY[:5], (3.0, faded), (3.0 + DEAL_STILL, faded)])
    assert said == SAID_AT_THE_DEAL


def test_a_re_shown_at_the_deal_whose_seat_reads_another_card_unsure_is_asked_about() -> None:
    # an unsure guess of another card at Bruno's seat is no longer his Re: a person names it
    game = table()
    controller = Controller(game)
    tell(controller, DEAL_STORY + CARLA_SWAPS)
    other = "Anna 5S#3 Bruno 4C#2@0.6 Carla 3D#1 Dario 9B#4"
    said = tell(controller, [(10.0, other), (13.0, other), (21.0, other)])
    assert kinds(said) == ["warning"] and "Bruno" in said[0]["message"]
    assert game.results == []


def test_a_table_left_as_it_is_keeps_two_moments_for_a_replay_not_one_per_frame() -> None:
    # a shown card left unnamed ten minutes keeps the deal waiting: the still pictures add time,
    # and of them only the first and the latest are kept; a change is kept again
    kept: list[Moment] = []
    now = Moment.first(observation(0.0, FOUR))
    for frame in range(10 * 60 * 15):
        now = now.then(observation(frame / 15, FOUR))
        remember(kept, now)
    changed = now.then(observation(600.0, "Anna - Bruno down#2 Carla down#3 Dario down#4"))
    remember(kept, changed)
    assert [round(m.at, 2) for m in kept] == [0.0, 599.93, 600.0]


def test_the_same_card_at_two_seats_is_reported_not_guessed() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    twice = "Anna 3D#1 Bruno 3D#2 Carla 5S#3 Dario 6B#4"
    said = tell(controller, [(6.0, twice), (13.0, twice)])
    assert said == [{"event": "warning", "hand": 1,
                     "message": "hand 1: the same card 3D at two seats: Anna and Bruno"}]


def test_a_re_that_moved_holds_the_hand() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, DEAL_STORY)
    moved = "Anna 5S#3 Bruno 3D#1 Carla 10C#2 Dario 9B#4"
    assert tell(controller, [(7.0, moved), (7.0 + SHOWN_GONE / 2, moved)]) == []
    said = tell(controller, [(7.0 + SHOWN_GONE, moved), (13.0, moved)])
    assert said == [{"event": "warning", "hand": 1, "message":
                     "hand 1: Bruno's Re di Coppe shown at the deal has moved and lies at "
                     "Carla's seat (a Re that moved): put it back face up, or undo to the deal"}]
    assert controller.held is not None and game.phase is Phase.TURNS


def test_a_cavallo_turned_up_late_holds_the_hand() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(6.0, "Anna down#1 Bruno 9C#2 Carla down#3 Dario down#4")])
    assert said[0]["message"].startswith("hand 1: Bruno turns up the Cavallo di Coppe after the "
                                         "deal")
    assert controller.held is not None


def test_a_card_dealt_face_up_by_mistake_counts_the_deal_once_the_table_rests() -> None:
    game = table()
    controller = Controller(game)
    misdealt = "Anna 5S#1 Bruno down#2 Carla down#3 Dario down#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, misdealt), (1.0 + DEAL_STILL, misdealt)])
    assert kinds(said)[:1] == ["deal"] and game.hand is not None and game.hand.cards["Anna"] == parse_card("5S")


def test_a_table_first_seen_whole_with_its_cards_revealed_counts_no_deal_and_settles_nothing() -> None:
    game = table()
    controller = Controller(game)
    unread = "Anna down#1 Bruno - Carla down#3 Dario 9B#4"  # Bruno's Re never read at his place
    said = tell(controller, [(0.0, EMPTY4), (1.0, unread), (20.0, unread), (20.5, REVEALED),
                             (20.5 + 2 * DEAL_STILL, REVEALED)])
    assert "deal" not in kinds(said) and "settle" not in kinds(said)


def test_a_card_turned_over_where_it_lay_face_down_is_no_card_dealt_face_up_by_mistake() -> None:
    # Bruno's Re unread at his place all along: Anna turns her card over, Bruno's Re is read at
    # last, and the table rests; her card was face down before, so this is the reveal, and the
    # turns were never seen
    game = table()
    controller = Controller(game)
    unread = "Anna down#1 Bruno - Carla down#3 Dario 9B#4"
    turned = "Anna 5S#1 Bruno 10C#2 Carla down#3 Dario 9B#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, unread), (20.0, unread), (20.5, turned),
                             (20.5 + 2 * DEAL_STILL, turned)])
    assert "deal" not in kinds(said) and game.hand is None


def test_a_card_missing_for_long_is_reported() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    gone = "Anna down#1 Bruno - Carla down#3 Dario down#4"
    said = tell(controller, [(5.0, gone), (9.0, gone), (13.5, gone)])
    assert said == [{"event": "warning", "hand": 1,
                     "message": "hand 1: Bruno's card is missing from Bruno's seat"}]


# -- corrections -------------------------------------------------------------------------------

def test_a_misread_card_corrected_by_a_person_is_settled_as_corrected() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    misread = "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 6B#4"  # Anna's card is really the 8D
    tell(controller, [(6.0, misread)])
    game.play(Correct("Anna", parse_card("8D")))  # from the page
    said = tell(controller, [(7.0, misread), (11.0, misread)])
    assert kinds(said) == ["keep", "settle"]  # Dario kept
    assert said[-1]["losers"] == ["Bruno"]


def test_a_reading_that_changes_after_the_reveal_waits_for_a_person() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    tell(controller, [(6.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 6B#4")])
    better = "Anna 8D#1 Bruno 4C#2 Carla 5S#3 Dario 6B#4"
    said = tell(controller, [(7.0, better), (13.0, better)])
    assert said == [{"event": "warning", "hand": 1, "message":
                     "hand 1: Anna's card now reads 8D, but 3D was read before: correct it if it "
                     "is so"}]
    game.play(Correct("Anna", parse_card("8D")))
    said = tell(controller, [(14.0, better)])
    assert kinds(said) == ["keep", "settle"] and said[-1]["losers"] == ["Bruno"]


# -- the first dealer, several hands, a resumed game ---------------------------------------------

def test_the_first_dealer_is_chosen_by_cards_dealt_face_up() -> None:
    game = table(dealer=None)
    controller = Controller(game, dealer_known=False)
    said = tell(controller, [(0.0, EMPTY4), (1.0, "Anna - Bruno - Carla 4D#1 Dario -"),
                             (2.0, "Anna - Bruno - Carla 4D#1 Dario 7C#2"),
                             (3.0, "Anna 10S#3 Bruno - Carla 4D#1 Dario 7C#2"),
                             (4.0, "Anna 10S#3 Bruno 2D#4 Carla 4D#1 Dario 7C#2")])
    assert said == [
        {"event": "face_up", "hand": None, "player": "Carla", "card": "4D"},
        {"event": "face_up", "hand": None, "player": "Dario", "card": "7C"},
        {"event": "face_up", "hand": None, "player": "Anna", "card": "10S"},
        {"event": "face_up", "hand": None, "player": "Bruno", "card": "2D"},
        {"event": "dealer", "hand": None, "dealer": "Bruno"}]
    # The face-up cards must go before the first deal is read.
    assert tell(controller, [(5.0, "Anna 10S#3 Bruno 2D#4 Carla 4D#1 Dario 7C#2"),
                             (9.0, "Anna 10S#3 Bruno 2D#4 Carla 4D#1 Dario 7C#2")]) == []
    said = tell(controller, [(10.0, EMPTY4), (11.0, FOUR), (11.0 + DEAL_STILL, FOUR)])
    assert said[0] == {"event": "deal", "hand": 1, "dealer": "Bruno"}


def test_a_face_up_card_out_of_turn_is_reported() -> None:
    game = table(dealer=None)
    controller = Controller(game, dealer_known=False)
    said = tell(controller, [(0.0, EMPTY4), (1.0, "Anna 4D#1 Bruno - Carla - Dario -"),
                             (2.0, "Anna 4D#1 Bruno - Carla 5C#2 Dario -")])
    assert said[-1] == {"event": "warning", "hand": None, "message":
                        "the face-up cards go counterclockwise: this one goes to Bruno, "
                        "not Carla"}


def test_several_hands_in_a_row_wait_for_the_table_to_be_cleared() -> None:
    game = table()
    controller = Controller(game)
    said = tell(controller, DEAL_STORY + CARLA_SWAPS + [(10.0, REVEALED), (15.0, REVEALED)])
    assert said[-1]["event"] == "settle"
    # Hand 2: Anna deals; Bruno is first. The old cards stay a while: nothing is dealt.
    assert tell(controller, [(16.0, REVEALED), (20.0, REVEALED)]) == []
    second = "Anna down#5 Bruno down#6 Carla down#7 Dario down#8"
    said = tell(controller, [(21.0, EMPTY4), (22.0, second), (22.0 + DEAL_STILL, second),
                             (26.0, "Anna 6C#5 Bruno 2B#6 Carla 4S#7 Dario 1S#8"),
                             (31.0, "Anna 6C#5 Bruno 2B#6 Carla 4S#7 Dario 1S#8")])
    assert kinds(said) == ["deal", "target", "target", "target", "keep", "keep", "keep", "reveal",
                           "keep", "settle"]
    assert said[0] == {"event": "deal", "hand": 2, "dealer": "Anna"}
    assert said[-1]["losers"] == ["Dario"] and said[-1]["pot"] == 2


def test_a_controller_started_on_a_stored_game_mid_hand_takes_the_table_as_it_is() -> None:
    game = table()
    game.play(Deal.of({"Anna": "?", "Bruno": "10C", "Carla": "?", "Dario": "9B"}))
    game.play(Keep("Anna"))  # stored before a restart: Carla is to play
    controller = Controller(game)
    said = tell(controller, [(100.0, "Anna down#11 Bruno 10C#12 Carla down#13 Dario 9B#14"),
                             (101.0, "Anna - Bruno 10C#12 Carla - Dario 9B#14"),
                             (102.0, "Anna down#13 Bruno 10C#12 Carla down#11 Dario 9B#14"),
                             (104.0, REVEALED), (109.0, REVEALED)])
    assert kinds(said) == ["swap", "reveal", "settle"]
    assert said[-1]["losers"] == ["Carla"]


def test_a_new_game_whose_first_picture_already_holds_the_deal_reads_it() -> None:
    game = table()  # seats found on the first deal: the controller first sees it dealt
    controller = Controller(game)
    assert tell(controller, [(0.0, DEALT), (DEAL_STILL, DEALT)]) == SAID_AT_THE_DEAL


def test_a_game_resumed_between_hands_waits_for_the_last_hands_cards_to_go() -> None:
    game = table()
    said = tell(Controller(game), DEAL_STORY + CARLA_SWAPS + [(10.0, REVEALED), (15.0, REVEALED)])
    assert said[-1]["event"] == "settle"
    assert game.phase is Phase.DEAL
    restarted = Controller(game)
    assert tell(restarted, [(30.0, REVEALED), (40.0, REVEALED)]) == []
    second = "Anna down#5 Bruno down#6 Carla down#7 Dario down#8"
    said = tell(restarted, [(41.0, EMPTY4), (42.0, second), (42.0 + DEAL_STILL, second)])
    assert said[0] == {"event": "deal", "hand": 2, "dealer": "Anna"}


def test_a_person_undoing_the_deal_has_it_read_again() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, DEAL_STORY)
    game.undo()  # the page: the deal was read wrong
    said = tell(controller, [(7.0, DEALT), (7.0 + DEAL_STILL, DEALT)])
    assert kinds(said)[0] == "deal" and game.phase is Phase.TURNS


# -- random games told to the camera -------------------------------------------------------------

class Camera:
    """Turns a game's events into what a camera would see of them, line by line."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.at = 0.0
        self.views: dict[str, str] = {}
        self.ids: dict[str, int] = {}
        self.cards: dict[str, str] = {}
        self.next_id = 1
        self.lines: list[tuple[float, str]] = []
        self.aside = ""

    def show(self, pause: float = 0.5) -> None:
        self.at += pause
        self.lines.append((self.at, " ".join(f"{p} {self.views.get(p, '-')}"
                                             for p in self.game.players) + self.aside))

    def card(self, player: str, code: str, face_up: bool) -> None:
        self.ids[player], self.next_id = self.next_id, self.next_id + 1
        self.cards[player] = code
        self.views[player] = f"{code if face_up else 'down'}#{self.ids[player]}"

    def tell(self, event: Event) -> None:
        """The lines that show `event` happening."""
        game = self.game
        if isinstance(event, Deal):
            self.views, self.aside = {}, ""
            self.show(1.0)
            for player, card in event.cards.items():
                assert card is not None
                self.card(player, card.code, card.value >= 9)
            self.show()
            self.show(DEAL_STILL)
        elif isinstance(event, Swap):
            player, target = game.hand.swaps[-1] if game.hand else ("", "")
            self.views[player] = self.views[target] = "-"
            self.show()
            for a, b in ((player, target), (target, player)):
                self.views[a] = f"down#{self.ids[b]}"
            self.ids[player], self.ids[target] = self.ids[target], self.ids[player]
            self.cards[player], self.cards[target] = self.cards[target], self.cards[player]
            self.show()
        elif isinstance(event, Draw):
            assert event.card is not None
            hand = game.hand
            assert hand is not None
            self.aside = f" aside down#{self.ids[event.player]}"  # his old card put aside
            self.views[event.player] = "-"
            self.show()
            self.card(event.player, event.card.code, hand.revealed)
            self.show()
        elif isinstance(event, Reveal) and len(event.cards) > 1:
            self.views = {p: f"{self.cards[p]}#{self.ids[p]}" for p in self.views}
            self.show()
        elif isinstance(event, Settle):
            self.show(SETTLE_WAIT)


SETTLE_WAIT = 5.0


def test_random_games_told_to_the_camera_are_refereed_the_same() -> None:
    rng = random.Random(2026)
    hands = 0
    for _ in range(120):
        source = random_game(rng, NAMES[: rng.randint(3, 8)])
        dealer = source.dealer
        assert dealer is not None
        watched = Game(source.players, source.rules)
        watched.play(ChooseDealer(dealer))
        controller = Controller(watched)
        camera = Camera(source)
        last = None
        for event in game_events(source, rng, unseen=0.0):
            if isinstance(event, Revive):
                watched.play(event)  # a person records it between hands
                continue
            last = camera.lines[-1] if camera.lines else last
            camera.lines = []
            camera.tell(event)
            for at, line in filmed(camera.lines, last, fps=5):  # the least rate followed
                controller.observe(TableObservation.of(at, seats(line), elsewhere=aside(line)))
            assert controller.held is None, controller.held
            if isinstance(event, Settle):
                hands += 1
                seen, played = watched.results[-1], source.results[-1]
                # A keep leaves nothing to see: when two players may each swap with the other,
                # the swap is told as the first one's (the cards end the same either way).
                assert [set(pair) for pair in seen.swaps] == [set(pair) for pair in played.swaps]
                assert dataclasses.replace(seen, swaps=()) == dataclasses.replace(played, swaps=())
        assert watched.outcome() == source.outcome()
    assert hands > 500


# -- the pace people play at ---------------------------------------------------------------------

BRISK_DEAL = [(0.0, EMPTY4), (1.0, "Anna down#1 Bruno - Carla - Dario -"),
              (1.3, "Anna down#1 Bruno down#2 Carla - Dario -"),
              (1.5, "Anna down#1 Bruno 10C#2 Carla - Dario -"),
              (1.8, "Anna down#1 Bruno 10C#2 Carla down#3 Dario -"),
              (2.1, WALLED)]
"""Dario deals a card every 0.3 s; Bruno turns his Re as it lands."""
BRISK_REVEAL = [(4.0, "Anna 5S#1 Bruno 10C#2 Carla down#3 Dario down#4"),
                (4.3, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario down#4"),
                (4.6, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4")]
COLLECTED = "Anna - Bruno 10C#2 Carla 3D#3 Dario 1B#4 aside 5S#1"
DRAWING = [(5.0, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario - aside 1B#4"),
           (5.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario down#5 aside 1B#4")]
"""After the brisk reveal, Dario puts his Asso aside and draws the stock's top card, face down."""


def test_cards_collected_a_second_after_the_reveal_settle_the_hand_at_once() -> None:
    game = table()
    controller = Controller(game)
    said = tell(controller, BRISK_DEAL + BRISK_REVEAL + [(5.6, COLLECTED)])
    assert kinds(said)[-5:] == ["keep", "keep", "reveal", "keep", "settle"]  # Bruno keeps his Re
    assert said[-1] == {"event": "settle", "hand": 1, "losers": ["Dario"],
                        "lives": {"Anna": 3, "Bruno": 3, "Carla": 3, "Dario": 2}, "pot": 1,
                        "evidence": None}
    # The rest is gathered and Anna deals the next hand: nothing of it touches the settled one.
    said = tell(controller, [(6.0, "Anna - Bruno - Carla 3D#3 Dario - aside 1B#4"),
                             (6.5, EMPTY4), (8.0, "Anna - Bruno down#5 Carla - Dario -"),
                             (8.3, "Anna - Bruno down#5 Carla down#6 Dario -"),
                             (8.6, "Anna - Bruno down#5 Carla down#6 Dario down#7"),
                             (8.9, "Anna down#8 Bruno down#5 Carla down#6 Dario down#7"),
                             (8.9 + DEAL_STILL, "Anna down#8 Bruno down#5 Carla down#6 "
                                                "Dario down#7")])
    assert kinds(said) == ["deal", "target", "target", "target"]
    assert said[0] == {"event": "deal", "hand": 2, "dealer": "Anna"}
    assert game.results[0].final == {p: parse_card(c) for p, c in
                                     {"Anna": "5S", "Bruno": "10C", "Carla": "3D",
                                      "Dario": "1B"}.items()}


def test_every_revealed_card_out_of_sight_at_once_is_the_collection() -> None:
    # on a busy cloth the cards pushed to the middle are not read on their way: each is only
    # kept out of sight where it lay
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    swept = "Anna 5S#1~ Bruno 10C#2~ Carla 3D#3~ Dario 1B#4~"
    assert tell(controller, [(5.6, swept)]) == []
    said = tell(controller, [(5.6 + SWEEP, swept)])
    assert kinds(said) == ["keep", "settle"] and said[-1]["losers"] == ["Dario"]


def test_one_picture_that_reads_no_card_after_the_reveal_is_no_collection() -> None:
    # blurred or dark: the next picture reads every card again where it lay
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    assert tell(controller, [(5.6, "Anna 5S#1~ Bruno 10C#2~ Carla 3D#3~ Dario 1B#4~"),
                             (5.8, BRISK_REVEAL[-1][1])]) == []
    assert game.phase is Phase.DEALER


def test_a_hand_over_two_of_three_revealed_cards_is_no_collection() -> None:
    # Dario reaches for the stock past Anna's and Carla's cards: he may still draw
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    assert tell(controller, [(5.3, "Anna 5S#1~ Bruno 10C#2 Carla 3D#3~ Dario 1B#4"),
                             (5.6, "Anna 5S#1~ Bruno 10C#2 Carla 3D#3~ Dario 1B#4~")]) == []
    assert game.phase is Phase.DEALER


def test_a_still_table_after_the_reveal_settles_after_a_short_rest() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)  # the deal counts as the reveal begins
    faces = BRISK_REVEAL[-1][1]
    assert tell(controller, [(4.6 + SETTLE_STILL - 0.1, faces)]) == []
    assert kinds(tell(controller, [(4.6 + SETTLE_STILL, faces)])) == ["keep", "settle"]


def test_a_swap_begun_right_after_the_last_card_lands_is_seen_with_the_re_shown_before_it() -> None:
    game = table()
    controller = Controller(game)
    said = tell(controller, BRISK_DEAL + [
        (2.3, "Anna down#1 Bruno 10C#2 Carla - Dario -"),  # Carla takes hers to Dario's
        (2.6, "Anna down#1 Bruno 10C#2 Carla - Dario down#4+"),
        (3.0, "Anna down#1 Bruno 10C#2 Carla down#4 Dario down#3")])
    assert kinds(said) == ["deal", "shown", "target", "target", "keep", "swap"]
    assert said[1] == {"event": "shown", "hand": 1, "player": "Bruno", "card": "10C"}
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Carla", "to": "Dario", "legal": True}


def test_the_dealers_re_turned_as_the_first_player_starts_his_swap_is_a_wall_shown_at_the_deal(
        ) -> None:
    game = table()
    controller = Controller(game)
    four = "Anna down#1 Bruno down#2 Carla down#3 Dario down#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, "Anna down#1 Bruno down#2 Carla down#3 Dario -"),
                             (1.3, four), (1.5, "Anna down#1 Bruno down#2 Carla down#3 Dario ?#4@0.3"),
                             (1.7, "Anna - Bruno down#2 Carla down#3 Dario ?#4@0.5"),
                             (1.9, "Anna - Bruno down#2+ Carla down#3 Dario 10S#4"),
                             (2.3, "Anna down#2 Bruno down#1 Carla down#3 Dario 10S#4")])
    assert kinds(said) == ["deal", "shown", "target", "target", "target", "swap"]
    assert said[1] == {"event": "shown", "hand": 1, "player": "Dario", "card": "10S"}
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Bruno", "legal": True}
    assert controller.held is None


def test_an_illegal_swap_begun_right_after_the_deal_is_warned_and_held() -> None:
    game = table()
    controller = Controller(game)
    said = tell(controller, BRISK_DEAL + [(2.3, "Anna - Bruno 10C#2 Carla - Dario down#4"),
                                          (3.0, "Anna down#3 Bruno 10C#2 Carla down#1 "
                                                "Dario down#4")])
    assert kinds(said)[-2:] == ["swap", "warning"]
    assert said[-2] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": False}
    assert controller.held is not None
    faces = "Anna 3D#3 Bruno 10C#2 Carla 5S#1 Dario 6B#4"
    assert tell(controller, [(4.0, faces), (5.0, "Anna - Bruno 10C#2 Carla 5S#1 Dario 6B#4")]) == []
    assert game.results == []


def test_a_player_looking_at_his_own_card_is_no_swap() -> None:
    game = table()
    controller = Controller(game)
    # Anna looks at hers right after the deal, before the table has rested: the deal still counts.
    said = tell(controller, [*BRISK_DEAL, (2.4, "Anna - Bruno 10C#2 Carla down#3 Dario down#4"),
                             (2.9, "Anna down#9 Bruno 10C#2 Carla down#3 Dario down#4"),
                             (2.9 + DEAL_STILL, "Anna down#9 Bruno 10C#2 Carla down#3 "
                                                "Dario down#4")])
    assert kinds(said) == ["deal", "shown", "target", "target"]
    # Then Carla, and the dealer, each lift theirs and put it back: nobody swapped, nothing held.
    said = tell(controller, [(7.0, "Anna down#9 Bruno 10C#2 Carla - Dario down#4"),
                             (7.6, "Anna down#9 Bruno 10C#2 Carla down#10 Dario down#4"),
                             (8.0, "Anna down#9 Bruno 10C#2 Carla down#10 Dario -"),
                             (8.8, "Anna down#9 Bruno 10C#2 Carla down#10 Dario down#11")])
    assert said == [] and controller.held is None
    assert game.hand is not None and not game.hand.swaps


def test_a_film_that_ends_after_the_reveal_has_its_hand_settled() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL + [(5.6, BRISK_REVEAL[-1][1])])
    said = [line.to_json() for line in controller.finish()]
    assert kinds(said) == ["keep", "settle"] and said[-1]["losers"] == ["Dario"]
    assert controller.finish() == []  # told once


def test_a_film_that_ends_before_the_reveal_settles_nothing() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL[:2])
    assert controller.finish() == [] and game.results == []


def test_the_dealers_draw_after_the_reveal_then_a_quick_collection() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [
        *DRAWING,  # his Asso put aside, and his draw
        (5.9, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 6C#5 aside 1B#4"),
        (6.9, "Anna - Bruno 10C#2 Carla 3D#3 Dario 6C#5 aside 1B#4 aside 5S#1"),
        (7.2, "Anna - Bruno - Carla - Dario 5S#1 aside 1B#4 aside 10C#2 aside 3D#3")])
    assert kinds(said) == ["draw", "settle"]
    assert said[0] == {"event": "draw", "hand": 1, "player": "Dario", "card": "6C"}
    assert said[1]["losers"] == ["Carla"]


def test_a_drawn_card_read_otherwise_as_the_cards_are_gathered_is_settled_with_neither_reading() -> None:
    # Dario's draw is named the 2C, then reads the Asso di Coppe, the lowest card, until the cards
    # are gathered: which reading is right decides who pays, so the table is asked
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [
        *DRAWING,
        (5.9, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 2C#5 aside 1B#4"),
        (6.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1C#5 aside 1B#4"),
        (6.9, "Anna - Bruno 10C#2 Carla 3D#3 Dario 1C#5 aside 1B#4 aside 5S#1"),
        (7.2, "Anna - Bruno - Carla - Dario 1C#5 aside 1B#4 aside 10C#2 aside 3D#3")])
    assert kinds(said) == ["draw", "warning"]
    assert said[1]["message"] == "hand 1: Dario's card now reads 1C, but 2C was read before: correct it if it is so"
    assert controller.held is not None
    assert tell(controller, [(8.0, "Anna - Bruno - Carla - Dario - aside 1B#4 aside 10C#2 aside 3D#3 "
                                   "aside 1C#5")]) == []
    assert game.results == []  # the page has the table write the hand (tests/webui/test_webui_held.py)


def test_a_collected_card_passing_over_the_dealers_seat_is_no_draw() -> None:
    # Dario's Asso put aside first looks like his draw: what follows is asked, never guessed
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [(5.2, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario - aside 1B#4"),
                             (5.5, "Anna 5S#1 Bruno 10C#2 Carla - Dario 3D#3 aside 1B#4"),
                             (5.8, "Anna 5S#1 Bruno 10C#2 Carla - Dario 3D#3 aside 1B#4")])
    assert said == [] and game.phase is Phase.DEALER
    said = tell(controller, [(6.2, "Anna - Bruno - Carla - Dario - aside 1B#4 aside 3D#3"),
                             (6.2 + SWEEP, "Anna - Bruno - Carla - Dario - aside 1B#4")])
    assert kinds(said) == ["warning"] and controller.held.code == "draw.unseen"
    assert not game.results


def test_the_dealers_arm_reaching_for_the_stock_over_a_neighbours_card_is_no_collection() -> None:
    # on a busy cloth the card under his arm reads as no card; his draw is read once he lays it
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [(5.0, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario - aside 1B#4"),
                             (5.3, "Anna 5S#1 Bruno 10C#2 Carla - Dario - aside 1B#4"),
                             (5.8, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario - aside 1B#4"),
                             (6.3, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario down#5 aside 1B#4"),
                             (6.8, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 2C#5 aside 1B#4")])
    assert kinds(said) == ["draw"] and said[0]["card"] == "2C"


def test_the_dealers_arm_reaching_for_his_own_card_over_both_neighbours_is_no_collection() -> None:
    # his hand on his Asso, his arm cuts the outlines of Carla's and Anna's cards either side of him:
    # looking moved, they are dropped, and both seats show empty at once for a moment
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [(4.9, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4~"),
                             (5.0, "Anna - Bruno 10C#2 Carla - Dario 1B#4~"),
                             (5.2, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4~"),
                             *DRAWING,
                             (5.9, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 6C#5 aside 1B#4")])
    assert kinds(said) == ["draw"] and said[0]["card"] == "6C"
    said = tell(controller, [(5.9 + SETTLE_STILL, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 6C#5 aside 1B#4")])
    assert kinds(said) == ["settle"] and said[0]["losers"] == ["Carla"]


def test_a_dealer_who_drew_a_card_never_read_before_the_gathering_is_asked_not_kept() -> None:
    # Dario puts his Asso aside and draws; the hands gather the cards before his is named
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [
        *DRAWING,
        (6.5, "Anna - Bruno - Carla 3D#3 Dario down#5 aside 1B#4 aside 5S#1 aside 10C#2")])
    assert kinds(said) == ["warning"]
    assert said[0]["message"] == ("hand 1: Dario drew a card the camera did not read: "
                                  "say what Dario holds")
    assert controller.held is not None and game.phase is Phase.DEALER and not game.results


def test_a_card_never_named_at_the_dealers_emptied_seat_is_asked_about_not_kept() -> None:
    # Anna's Cinque taken up unseen; Dario's seat empty, then a card face down there: his draw,
    # or hers gathered? Neither is guessed; once everything is gathered, the table is asked
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [(5.2, "Anna - Bruno 10C#2 Carla 3D#3 Dario 1B#4"),
                             (5.25, "Anna - Bruno 10C#2 Carla 3D#3 Dario -"),
                             (5.3, "Anna - Bruno 10C#2 Carla 3D#3 Dario down#9"),
                             (5.6, "Anna - Bruno 10C#2 Carla 3D#3 Dario down#9")])
    assert said == []
    said = tell(controller, [(6.0, EMPTY4), (6.0 + SWEEP, EMPTY4)])
    assert kinds(said) == ["warning"] and controller.held.code == "draw.unseen"


def test_the_stock_laid_over_the_dealers_card_as_the_cards_are_gathered_is_no_draw() -> None:
    # Dario's Asso never leaves his seat: the face-down stock pushed over it is not his draw
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [(5.2, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4 aside down#9"),
                             (5.3, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario down#9"),
                             (5.6, EMPTY4), (5.6 + SWEEP, EMPTY4)])
    assert kinds(said) == ["keep", "settle"] and said[-1]["losers"] == ["Dario"]


def test_a_card_gathered_on_its_way_over_the_dealers_seat_is_no_draw() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [(5.2, "Anna - Bruno 10C#2 Carla 3D#3 Dario 1B#4 aside 5S#1"),
                             (5.3, "Anna - Bruno 10C#2 Carla 3D#3 Dario down#1")])
    assert kinds(said) == ["keep", "settle"] and said[-1]["losers"] == ["Dario"]


def test_a_film_that_ends_on_the_dealers_drawn_card_unread_settles_nothing() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    tell(controller, DRAWING)
    assert [said.kind for said in controller.finish()] == ["warning"]
    assert controller.held is not None and controller.held.code == "draw.unseen"
    assert not game.results


def test_a_dealer_who_lifted_his_own_card_and_laid_it_back_keeps_when_the_film_ends() -> None:
    # tilted in his hand, his Asso is read by its back for a moment: still his own card
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    tell(controller, [(5.0, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario down#4"),
                      (5.5, "Anna 5S#1 Bruno 10C#2 Carla 3D#3 Dario 1B#4")])
    assert [said.kind for said in controller.finish()] == ["keep", "settle"]
    assert game.results[-1].losers == ("Dario",)


def uneven(controller: Controller, story: list[tuple[float, str]], until: float,
           gaps: tuple[float, ...] = (0.3, 1 / 15, 0.2, 2 / 15)) -> list[dict[str, Any]]:
    """Show the controller the story as a phone's page over Wi-Fi delivers it: a picture after each
    of `gaps` in turn (up to 0.3 s), each line holding until the next, up to `until` seconds."""
    last = controller.seen.at if controller.seen is not None else story[0][0]
    said: list[dict[str, Any]] = []
    k = 0
    while last < until:
        last = round(last + gaps[k % len(gaps)], 4)
        k += 1
        line = [text for at, text in story if at <= last + 1e-9][-1]
        said += [item.to_json() for item in controller.observe(observation(last, line))]
    return said


BUT_DARIO = "Anna 5S#1 Bruno 10C#2 Carla 3D#3"
"""The brisk reveal's cards but the dealer's."""


def test_at_a_phones_uneven_rate_the_stocks_top_card_where_the_dealers_lay_is_his_draw() -> None:
    # pictures 0.07 to 0.3 s apart: his Asso is seen aside in one picture only, his hand over his
    # place meanwhile; the tracker lends the card drawn his Asso's identity where it lands
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = uneven(controller, [(4.6, f"{BUT_DARIO} Dario 1B#4"), (5.0, f"{BUT_DARIO} Dario 1B#4~"),
                               (5.25, f"{BUT_DARIO} Dario 1B#4~ aside 1B#7"), (5.4, f"{BUT_DARIO} Dario 1B#4~"),
                               (5.8, f"{BUT_DARIO} Dario 6C#4")], until=9.0)
    assert kinds(said) == ["draw", "settle"]
    assert said[0] == {"event": "draw", "hand": 1, "player": "Dario", "card": "6C"}
    assert said[1]["losers"] == ["Carla"] and controller.held is None


def test_the_dealers_card_put_aside_and_never_seen_again_then_the_stocks_top_is_his_draw() -> None:
    # his Asso goes into his hand, out of sight: his place is seen empty in one picture only
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = uneven(controller, [(4.6, f"{BUT_DARIO} Dario 1B#4"), (5.0, f"{BUT_DARIO} Dario -"),
                               (5.3, f"{BUT_DARIO} Dario down#5"), (5.7, f"{BUT_DARIO} Dario 6C#5")], until=9.0)
    assert kinds(said) == ["draw", "settle"] and said[0]["card"] == "6C"


def test_the_dealers_old_card_seen_elsewhere_makes_the_new_name_at_his_place_a_draw() -> None:
    # at a steady 15 pictures a second: his Asso lies aside under a new identity, and the card
    # drawn, laid where the Asso lay, keeps the Asso's identity
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = tell(controller, [(5.0, f"{BUT_DARIO} Dario 1B#4~ aside 1B#7"), (5.5, f"{BUT_DARIO} Dario 6C#4 aside 1B#7"),
                             (8.5, f"{BUT_DARIO} Dario 6C#4 aside 1B#7")])
    assert kinds(said) == ["draw", "settle"] and said[0]["card"] == "6C"


def test_the_dealers_card_read_anew_under_his_hand_nothing_aside_is_no_draw() -> None:
    # no card left his place and nothing lies aside: which reading is right, a person says
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = uneven(controller, [(4.6, f"{BUT_DARIO} Dario 1B#4"), (5.0, f"{BUT_DARIO} Dario 1B#4~"),
                               (5.6, f"{BUT_DARIO} Dario 7B#4")], until=9.0)
    assert kinds(said) == ["warning"]
    assert said[0]["message"] == "hand 1: Dario's card now reads 7B, but 1B was read before: correct it if it is so"
    assert game.phase is Phase.DEALER
    controller.finish()  # the film ends: the hand is held, not settled (the warning told once)
    assert controller.held is not None and controller.held.code == "card.reads_otherwise"
    assert not game.results


def test_a_dealer_who_drew_already_whose_card_reads_otherwise_is_asked_not_drawn_again() -> None:
    # his draw, the Sei, is played: a new name at his place then is a misreading, whatever lies aside
    game = table()
    controller = Controller(game)
    tell(controller, BRISK_DEAL + BRISK_REVEAL)
    said = uneven(controller, [(4.6, f"{BUT_DARIO} Dario 1B#4"), (5.0, f"{BUT_DARIO} Dario - aside 1B#4"),
                               (5.3, f"{BUT_DARIO} Dario down#5 aside 1B#4"), (5.6, f"{BUT_DARIO} Dario 6C#5 aside 1B#4"),
                               (6.2, f"{BUT_DARIO} Dario 7C#5 aside 1B#4")], until=7.0)
    assert kinds(said) == ["draw", "warning"] and said[0]["card"] == "6C"
    assert said[1]["message"] == "hand 1: Dario's card now reads 7C, but 6C was read before: correct it if it is so"


def test_a_card_slid_past_a_re_hides_it_for_a_moment_and_the_swap_is_still_judged() -> None:
    # Anna takes hers past Bruno's Re to Carla: for a moment the reader sees her card's back where
    # the Re lies, and the tracker lends the Re her card's identity once it is read again
    game = table()
    controller = Controller(game)
    tell(controller, [(0.0, EMPTY4), (1.0, WALLED), (1.0 + DEAL_STILL, WALLED)])
    said = tell(controller, [(5.0, "Anna - Bruno 10C#2 Carla down#3~ Dario down#4"),
                             (5.3, "Anna - Bruno down#1 Carla down#3~ Dario down#4"),
                             (5.6, "Anna - Bruno down#1 Carla - Dario down#4"),
                             (6.0, "Anna down#7 Bruno down#1 Carla down#8 Dario down#4"),
                             (6.4, "Anna down#7 Bruno ?#1@0.4 Carla down#8 Dario down#4"),
                             (6.8, "Anna down#7 Bruno 10C#1 Carla down#8 Dario down#4")])
    assert said == [{"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": False},
                    {"event": "warning", "hand": 1, "message": "hand 1: Anna cannot swap: Bruno "
                     "shows the Re di Coppe (wall) (undo the swap on the table)"}]


def test_a_brisk_swap_whose_cards_are_seen_on_their_way_is_a_swap_whatever_ids_come_back() -> None:
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 10C#2 Carla down#3 Dario 9B#4"
    tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt)])
    said = tell(controller, [(5.0, "Anna - Bruno 10C#2 Carla - Dario 9B#4 aside down#3 "
                                   "aside down#1"),
                             (5.13, "Anna - Bruno 10C#2 Carla - Dario 9B#4 aside down#1"),
                             (5.2, dealt), (5.2 + SETTLED, dealt)])
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Carla", "to": "Anna", "legal": True}


def test_the_stock_lying_by_the_dealers_card_from_the_deal_on_hides_no_swap() -> None:
    # at a close table the deck lies within the dealer's place: his seat looks crowded throughout
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 9C#2 Carla down#3 Dario down#4+"
    said = tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt),
                             (5.0, "Anna - Bruno 9C#2 Carla - Dario down#4+"),
                             (5.6, "Anna down#3 Bruno 9C#2 Carla down#1 Dario down#4+")])
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": True}


def test_of_three_seats_emptied_the_two_whose_cards_were_seen_on_their_way_swapped_where_the_third_was_never_covered_with_them() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(5.0, "Anna - Bruno - Carla down#3 Dario down#4 aside down#1"),
                             (5.3, "Anna - Bruno - Carla down#3 Dario down#4 aside down#2"),
                             (5.5, "Anna down#1 Bruno down#2 Carla - Dario down#4"),
                             (5.8, "Anna down#1 Bruno down#2 Carla - Dario down#4"),
                             (6.0, FOUR), (6.0 + SETTLED, FOUR)])  # the arm going back hid Carla's
    assert said == [{"event": "swap", "hand": 1, "from": "Anna", "to": "Bruno", "legal": True}]


def test_of_three_seats_emptied_at_once_with_two_cards_seen_on_their_way_the_hand_is_held() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(5.0, "Anna - Bruno - Carla - Dario down#4 aside down#1"),
                             (5.3, "Anna - Bruno - Carla - Dario down#4 aside down#2"),
                             (5.6, FOUR), (5.6 + SETTLED, FOUR)])  # Carla's card may have gone too
    assert [event["event"] for event in said] == ["warning"] and controller.held is not None
    assert (controller.held.code == "moves.not_followed"  # which card went where was never seen: a person says
            and controller.held.params == {"players": ["Anna", "Bruno", "Carla"]})
    tell(controller, [(7.0, FOUR), (8.0, FOUR)])  # the ids lie as before: they never told the moves either
    assert controller.held is not None


def test_cards_moved_round_three_seats_are_held_until_each_lies_back_at_its_own() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(5.0, "Anna - Bruno - Carla - Dario down#4"),
                             (5.6, "Anna down#3 Bruno down#1 Carla down#2 Dario down#4"),
                             (5.6 + SETTLED, "Anna down#3 Bruno down#1 Carla down#2 Dario down#4")])
    assert [event["event"] for event in said] == ["warning"] and controller.held is not None
    assert (controller.held.code == "moves.not_one_swap"
            and controller.held.params == {"players": ["Anna", "Bruno", "Carla"]})
    tell(controller, [(7.0, "Anna - Bruno - Carla - Dario down#4"), (7.6, FOUR), (7.6 + SETTLED, FOUR)])
    assert controller.held is None


def test_a_put_back_whose_cards_cross_near_their_seats_is_the_undoing_only_once_let_go() -> None:
    game = table()
    controller = Controller(game)
    tell(controller, [(0.0, EMPTY4), (1.0, WALLED), (1.0 + DEAL_STILL, WALLED)])
    tell(controller, [(5.0, "Anna - Bruno 10C#2 Carla - Dario down#4"),
                      (5.6, "Anna down#7 Bruno 10C#2 Carla down#8 Dario down#4"),
                      (5.6 + SETTLED, "Anna down#7 Bruno 10C#2 Carla down#8 Dario down#4")])
    assert controller.held is not None
    said = tell(controller, [(8.0, "Anna - Bruno 10C#2 Carla - Dario down#4"),
                             (8.1, "Anna down#7 Bruno 10C#2 Carla down#8 Dario down#4"),
                             (8.2, "Anna - Bruno 10C#2 Carla - Dario down#4"),
                             (8.6, "Anna down#7 Bruno 10C#2 Carla down#8 Dario down#4")])
    assert said == [] and controller.held is not None
    tell(controller, [(8.6 + SETTLED, "Anna down#7 Bruno 10C#2 Carla down#8 Dario down#4")])
    assert controller.held is None and game.hand is not None and not game.hand.swaps


def test_an_illegal_swap_with_the_dealer_whose_stock_lies_by_his_card_is_released_once_put_back(
        ) -> None:
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4+"
    tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt)])
    swapped = "Anna down#7 Bruno 10C#2 Carla down#3 Dario down#8+"
    said = tell(controller, [(5.0, "Anna - Bruno 10C#2 Carla down#3 Dario -"),
                             (5.6, swapped), (5.6 + SETTLED, swapped)])
    assert said[0] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Dario", "legal": False}
    tell(controller, [(8.0, "Anna - Bruno 10C#2 Carla down#3 Dario -"),
                      (8.6, dealt), (8.6 + SETTLED, dealt)])
    assert controller.held is None


def test_an_illegal_swap_put_back_beside_the_dealer_whose_stock_lies_by_his_card_is_released() -> None:
    # the cards' identities seen exchanged; the dealer's card, a third seat, has the stock beside it all along
    game = table()
    controller = Controller(game)
    walled = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4+"
    swapped = "Anna down#3 Bruno 10C#2 Carla down#1 Dario down#4+"
    tell(controller, [(0.0, EMPTY4), (1.0, walled), (1.0 + DEAL_STILL, walled),
                      (7.0, "Anna - Bruno 10C#2 Carla - Dario down#4+"), (8.0, swapped), (8.0 + SETTLED, swapped)])
    assert controller.held is not None
    tell(controller, [(12.0, "Anna - Bruno 10C#2 Carla - Dario down#4+"), (12.5, walled),
                      (12.5 + SETTLED, walled)])
    assert controller.held is None


def test_an_arm_reaching_across_a_third_card_for_an_illegal_swap_leaves_it_out_of_the_swap() -> None:
    # Anna takes Carla's card past Bruno's Re: her own card under her hand all along, her arm
    # brushing Dario's card (seen off its seat for a frame) on the way there and back
    game = table()
    controller = Controller(game)
    tell(controller, [(0.0, EMPTY4), (1.0, WALLED), (1.0 + DEAL_STILL, WALLED)])
    reach = [(7.0, "Anna down#1~ Bruno 10C#2 Carla - Dario down#4"),
             (7.27, "Anna down#1~ Bruno 10C#2 Carla - Dario - aside down#4"),
             (7.4, "Anna down#1~ Bruno 10C#2 Carla - Dario down#4"),
             (7.67, "Anna down#1~ Bruno 10C#2 Carla down#3 Dario down#4"),
             (7.8, WALLED), (7.8 + SETTLED, WALLED)]
    said = tell(controller, reach)
    assert said[0] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": False}
    assert kinds(said) == ["swap", "warning"]
    # the same reach puts the cards back: the hand goes on
    assert tell(controller, [(at + 3.0, line) for at, line in reach]) == []
    assert controller.held is None


def test_a_family_playing_on_after_an_illegal_swap_under_the_hands_is_not_its_undoing() -> None:
    # Anna swaps past Bruno's Re under both hands; warned, the family plays on: Carla swaps with
    # Dario while Anna's hand rests on her card. Both seats of the illegal swap were handled at once,
    # one emptied, and let go, but Dario's seat was handled with them and holds another card now.
    game = table("Anna Bruno Carla Dario Elena", dealer="Elena")
    controller = Controller(game)
    walled = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4 Elena down#5"
    under = "Anna down#1~ Bruno 10C#2 Carla down#3~ Dario down#4 Elena down#5"
    said = tell(controller, [(0.0, "Anna - Bruno - Carla - Dario - Elena -"), (1.0, walled), (1.5, under),
                             (1.8, under + " aside down#10 aside down#11"), (2.0, under + " aside down#10"),
                             (2.1, under), (2.2, walled), (2.2 + SETTLED, walled)])
    assert said[-2] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": False}
    played_on = "Anna down#1 Bruno 10C#2 Carla down#12 Dario down#13 Elena down#5"
    said = tell(controller, [(5.0, "Anna down#1~ Bruno 10C#2 Carla - Dario - Elena down#5"),
                             (5.5, "Anna down#1~ Bruno 10C#2 Carla down#12 Dario down#13 Elena down#5"),
                             (6.0, played_on), (6.0 + SETTLED, played_on), (8.0, played_on)])
    assert said == [] and controller.held is not None
    # every card turned up: the hand stays held, nothing settled
    faces = "Anna 5S#1 Bruno 10C#2 Carla 3D#12 Dario 6B#13 Elena 7C#5"
    assert tell(controller, [(10.0, faces), (21.0, faces)]) == []
    assert controller.held is not None and game.pot == 0


def test_a_third_card_under_a_hand_long_enough_to_be_exchanged_is_not_seen_to_come_back_by_its_identity(
        ) -> None:
    # Anna swaps past Bruno's Re; warned, the family plays on: Carla swaps with Dario while Anna's
    # hand rests on her card. Dario's card lay under a hand while the other came, and the tracker
    # lent the card laid there the identity of the one it could not see go: a face-down card out of
    # sight long enough to be exchanged is not shown to come back by its identity alone.
    game = table("Anna Bruno Carla Dario Elena", dealer="Elena")
    controller = Controller(game)
    walled = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4 Elena down#5"
    swapped = "Anna down#7 Bruno 10C#2 Carla down#8 Dario down#4 Elena down#5"
    said = tell(controller, [(0.0, "Anna - Bruno - Carla - Dario - Elena -"), (1.0, walled),
                             (1.0 + DEAL_STILL, walled),
                             (5.0, "Anna - Bruno 10C#2 Carla - Dario down#4 Elena down#5"),
                             (5.6, swapped), (5.6 + SETTLED, swapped)])
    assert said[-2] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": False}
    played_on = "Anna down#7 Bruno 10C#2 Carla down#12 Dario down#4 Elena down#5"
    said = tell(controller, [(8.0, "Anna down#7~ Bruno 10C#2 Carla - Dario down#4~ Elena down#5"),
                             (8.3, "Anna down#7~ Bruno 10C#2 Carla - Dario down#4~ Elena down#5"),
                             (8.6, "Anna down#7~ Bruno 10C#2 Carla down#12 Dario down#4~ Elena down#5"),
                             (8.8, played_on), (8.8 + SETTLED, played_on), (10.0, played_on)])
    assert said == [] and controller.held is not None


def test_a_swap_under_both_hands_seen_only_as_its_cards_on_their_way_is_a_swap() -> None:
    # right after the deal Anna swaps past Bruno's Re, so fast that the tracker keeps both cards
    # under the hands where they lay: only the cards in the air, new identities, show the swap
    game = table()
    controller = Controller(game)
    under = "Anna down#1~ Bruno 10C#2 Carla down#3~ Dario down#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, WALLED), (1.5, under),
                             (1.8, under + " aside down#10 aside down#11"),
                             (2.0, under + " aside down#10"), (2.1, under),
                             (2.2, WALLED), (2.2 + SETTLED, WALLED)])
    assert kinds(said)[0] == "deal"
    assert said[-2] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": False}
    assert said[-1]["event"] == "warning"
    # put back: Carla's card taken from her seat, Anna's under the hand
    putting_back = "Anna down#1~ Bruno 10C#2 Carla - Dario down#4"
    assert tell(controller, [(5.0, putting_back), (5.6, putting_back), (6.0, WALLED),
                             (6.0 + SETTLED, WALLED)]) == []
    assert controller.held is None


def test_the_blind_draw_s_card_settling_at_the_dealers_seat_is_one_draw() -> None:
    # the whole pile is pushed to Dario's seat for a moment before he takes its top card off
    game = table(rules="classica")
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(6.0, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#4"),
                             (6.5, "Anna down#1 Bruno down#2 Carla down#3 Dario down#8 "
                                   "aside down#4"),
                             (6.5 + SETTLED, "Anna down#1 Bruno down#2 Carla down#3 "
                                             "Dario down#8 aside down#4"),
                             (7.0, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#4"),
                             (7.3, "Anna down#1 Bruno down#2 Carla down#3 Dario down#9 "
                                   "aside down#4"),
                             (9.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#9 aside down#4"),
                             (14.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#9 aside down#4")])
    assert kinds(said) == ["keep", "keep", "keep", "draw", "reveal", "settle"]


def test_two_cards_turned_over_at_once_after_the_first_reveal_are_no_swap() -> None:
    # at a brisk table Bruno and Carla turn theirs together: both seats flicker empty and show
    # their own backs for a frame before the faces
    game = table()
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(5.0, "Anna 3D#1 Bruno down#2 Carla down#3 Dario down#4"),
                             (5.3, "Anna 3D#1 Bruno - Carla down#3 Dario down#4"),
                             (5.4, "Anna 3D#1 Bruno - Carla - Dario down#4"),
                             (5.7, "Anna 3D#1 Bruno down#2 Carla down#3 Dario down#4"),
                             (5.8, "Anna 3D#1 Bruno down#2 Carla 5S#3 Dario down#4"),
                             (6.0, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario down#4"),
                             (6.5, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#4"),
                             (6.5 + SETTLE_STILL, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#4")])
    assert kinds(said) == ["keep", "keep", "keep", "reveal", "keep", "settle"]
    assert said[-1]["losers"] == ["Dario"]


def test_a_blind_draw_whose_arm_brushes_the_neighbours_card_is_a_draw_not_a_swap() -> None:
    game = table(rules="classica")
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    said = tell(controller, [(6.0, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#4"),
                             (6.4, "Anna down#1 Bruno down#2 Carla down#3~ Dario - aside down#4"),
                             (6.47, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#4"),
                             (7.0, "Anna down#1 Bruno down#2 Carla down#3 Dario down#9 "
                                   "aside down#4"),
                             (7.0 + SETTLED, "Anna down#1 Bruno down#2 Carla down#3 "
                                             "Dario down#9 aside down#4")])
    assert kinds(said) == ["keep", "keep", "keep", "draw"]


def test_two_cards_turned_over_at_once_with_the_dealers_old_card_aside_are_no_swap() -> None:
    # after Dario's blind draw his old card lies aside; at a brisk reveal Anna's hand lets go of her
    # card a moment, then she turns it while Bruno lifts his, whose back shows a frame as it turns
    game = table(rules="classica")
    controller = Controller(game)
    tell(controller, PLAIN_DEAL)
    drawn = "Carla down#3 Dario down#9 aside down#4"
    said = tell(controller, [(6.0, "Anna down#1 Bruno down#2 Carla down#3 Dario - aside down#4"),
                             (7.0, f"Anna down#1 Bruno down#2 {drawn}"),
                             (7.0 + SETTLED, f"Anna down#1 Bruno down#2 {drawn}"),
                             (9.0, f"Anna down#1~ Bruno down#2 {drawn}"),
                             (9.13, f"Anna down#1 Bruno down#2 {drawn}"),
                             (9.2, f"Anna down#1~ Bruno - {drawn}"),
                             (9.27, f"Anna 3D#1 Bruno - {drawn}"),
                             (9.33, f"Anna 3D#1 Bruno down#2 {drawn}"),
                             (9.5, f"Anna 3D#1 Bruno 4C#2 {drawn}"),
                             (9.8, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario down#9 aside down#4"),
                             (10.1, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#9 aside down#4"),
                             (10.1 + SETTLE_STILL, "Anna 3D#1 Bruno 4C#2 Carla 5S#3 Dario 1C#9 aside down#4")])
    assert kinds(said) == ["keep", "keep", "keep", "draw", "reveal", "settle"]


def test_a_resting_cards_identity_lent_to_a_stray_reading_for_a_frame_makes_it_no_party_to_a_swap() -> None:
    # while Anna and Bruno swap, Dario's id jumps for one frame to a phantom back
    # beside his card; Anna's card is seen on its way too, and the cards come back with their ids
    game = table()
    controller = Controller(game)
    dealt = "Anna down#1 Bruno down#2 Carla down#3 Dario down#4"
    tell(controller, [(0.0, EMPTY4), (1.0, dealt), (1.0 + DEAL_STILL, dealt)])
    frame = 1 / 15
    said = tell(controller, [(5.0, "Anna - Bruno down#2 Carla down#3 Dario down#4"),
                             (5.0 + frame, "Anna - Bruno down#2 Carla down#3 Dario - aside down#1 aside down#4"),
                             (5.0 + 2 * frame, "Anna - Bruno - Carla down#3 Dario down#4"),
                             (5.4, "Anna - Bruno - Carla down#3 Dario down#4"),
                             (5.6, dealt), (5.6 + SETTLED, dealt), (5.6 + 2 * SETTLED, dealt)])
    assert [line for line in said if line["event"] in ("swap", "warning")] == [
        {"event": "swap", "hand": 1, "from": "Anna", "to": "Bruno", "legal": True}]


def test_two_cards_exchanged_under_the_hands_while_the_dealer_s_own_is_not_yet_read_are_asked() -> None:
    # every card but the dealer's, lying by the stock, is read; before his is, Anna and Carla
    # exchange theirs past Bruno's Re, Anna's under her hand all along, Carla's gone, and the
    # tracker lends each arriving card the identity of the one that lay there
    game = table()
    controller = Controller(game)
    served = "Anna down#1 Bruno 10C#2 Carla down#3 Dario -"
    under = "Anna down#1~ Bruno 10C#2 Carla - Dario -"
    said = tell(controller, [(0.0, EMPTY4), (1.0, served), (2.5, served), (3.0, under), (3.2, under),
                             (3.4, under), (3.6, served), (4.0, WALLED), (4.0 + DEAL_STILL, WALLED)])
    assert {"event": "deal", "hand": 1, "dealer": "Dario"} in said
    assert controller.held is not None and controller.held.code == "swap.unseen"
    assert controller.held.params == {"a": "Anna", "b": "Carla"}


def test_cards_swapped_while_a_re_shown_at_the_deal_is_still_being_named_are_judged() -> None:
    # Bruno's Re reads unsure while Anna and Carla exchange theirs past it: the deal counts from
    # the moment every card lay, and the swap made meanwhile is judged, never left unseen
    controller = Controller(table())
    unsure = "Anna down#1 Bruno 10C#2@0.6 Carla down#3 Dario down#4"
    said = tell(controller, [(0.0, EMPTY4), (1.0, "Anna down#1 Bruno - Carla - Dario -"),
                             (1.5, "Anna down#1 Bruno 10C#2@0.6 Carla down#3 Dario -"),
                             (2.0, unsure), (3.0, unsure),
                             (3.5, "Anna - Bruno 10C#2@0.6 Carla - Dario down#4 aside down#1"),
                             (4.0, "Anna down#3 Bruno 10C#2@0.6 Carla down#1 Dario down#4"),
                             (5.0, "Anna down#3 Bruno 10C#2 Carla down#1 Dario down#4"),
                             (8.0, "Anna down#3 Bruno 10C#2 Carla down#1 Dario down#4")])
    assert {"event": "deal", "hand": 1, "dealer": "Dario"} in said
    assert {"event": "swap", "hand": 1, "from": "Anna", "to": "Carla", "legal": False} in said
