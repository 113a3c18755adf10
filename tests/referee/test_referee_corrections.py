"""Corrections are events: a misread card, a player joining or leaving; stored and replayed."""

import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.cards import parse_card
from referee.events import (
    ChooseDealer,
    Correct,
    Deal,
    Draw,
    Event,
    FaceUp,
    Join,
    Keep,
    Leave,
    Reveal,
    Settle,
    Swap,
    event_from_json,
    event_to_json,
)
from referee.game import Game, Phase, RuleError
from referee.record import RecordError, game_record, replay, replay_output
from referee.rules import find_rules
from referee.simulate import game_events, random_game
from referee.store import GameStore

TABLE = ["Anna", "Bruno", "Carla", "Dario"]


def keep_all(game: Game) -> None:
    """Every player whose turn comes keeps his card."""
    while game.phase is Phase.TURNS:
        game.play(Keep(game.current_player or ""))


def revealed(deal: str, showdown: str, rules: str = "napoli", lives: int | None = None) -> Game:
    """Dario deals `deal`; everyone keeps; the reveal shows `showdown` (codes, `?` unseen)."""
    game = Game(TABLE, rules, lives)
    game.play(ChooseDealer("Dario"))
    game.play(Deal.of(dict(zip(TABLE, deal.split(), strict=True))))
    keep_all(game)
    game.play(Reveal.of(dict(zip(TABLE, showdown.split(), strict=True))))
    return game


def says(game: Game, event: Event) -> str:
    with pytest.raises(RuleError) as caught:
        game.play(event)
    return str(caught.value)


# -- a misread card ------------------------------------------------------------------------------

def test_a_corrected_card_is_the_one_settled_and_the_record_replays_it() -> None:
    game = revealed("? ? ? ?", "3D 4C 5S 6B")  # Anna's card is really the Fante di Denari
    game.play(Correct("Anna", parse_card("8D")))
    game.play_all([Keep("Dario"), Settle()])
    assert game.results[0].losers == ("Bruno",)
    record = game_record(game)
    assert record["hands"][0]["showdown"]["Anna"] == "8D"
    assert replay_output(replay(json.loads(json.dumps(record)))) == replay_output(game)


def test_a_corrected_card_that_travelled_blanks_the_deal_seat_it_came_from() -> None:
    game = Game(TABLE)
    game.play(ChooseDealer("Dario"))
    game.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}))
    game.play_all([Keep("Anna"), Swap("Carla")])  # Carla now holds Anna's 3D
    game.play(Reveal.of({"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}))
    game.play(Correct("Carla", parse_card("2D")))  # it was the 2D all along
    game.play(Settle())
    hand = game_record(game)["hands"][0]
    assert hand["deal"] == {"Anna": "?", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}
    assert hand["showdown"]["Carla"] == "2D"
    assert replay_output(replay(game_record(game))) == replay_output(game)


def test_the_dealers_drawn_card_corrected_becomes_the_records_stock() -> None:
    game = revealed("3D 4C 5S 6B", "3D 4C 5S 6B")
    game.play(Draw("Dario", parse_card("1C")))
    game.play(Correct("Dario", parse_card("7C")))
    game.play(Settle())
    assert game.results[0].losers == ("Anna",)
    assert game_record(game)["hands"][0]["stock"] == ["7C"]
    assert replay_output(replay(game_record(game))) == replay_output(game)


@pytest.mark.parametrize(
    ("event", "rule"),
    [(Correct("Bruno", parse_card("3C")),
      "Bruno's Re di Coppe was shown at the deal and cannot be corrected: undo to the deal "
      "instead"),
     (Correct("Anna", parse_card("9S")),
      "Anna's card cannot be corrected into the Cavallo di Spade: a Re or a Cavallo is shown at "
      "the deal, so undo to the deal instead"),
     (Correct("Anna", parse_card("5S")),
      "Anna's card cannot be corrected into 5S: 5S is seen elsewhere"),
     (Correct("Anna", parse_card("3D")), "nothing to correct: Anna's card is already 3D"),
     (Correct("Zeno", parse_card("3D")), "Zeno is not at the table")],
)
def test_illegal_corrections(event: Event, rule: str) -> None:
    game = revealed("? 10C ? 9B", "3D 10C 5S 9B")
    assert says(game, event) == f"hand 1: {rule}"


def test_a_card_is_corrected_only_between_the_reveal_and_the_settlement() -> None:
    game = Game(TABLE)
    game.play(ChooseDealer("Dario"))
    game.play(Deal.of({"Anna": "?", "Bruno": "?", "Carla": "?", "Dario": "?"}))
    assert says(game, Correct("Anna", parse_card("3D"))) == (
        "hand 1: Anna's card cannot be corrected before the reveal (a card is corrected after "
        "the reveal, before the settlement)")
    game = revealed("? ? ? ?", "3D 4C 5S 6B")
    game.play_all([Keep("Dario"), Settle()])
    assert says(game, Correct("Anna", parse_card("8D"))) == (
        "hand 1: Anna's card cannot be corrected: no hand is being played (a card is corrected "
        "after the reveal, before the settlement)")


def test_a_dead_player_has_no_card_to_correct() -> None:
    game = Game(TABLE, lives=1)
    game.play(ChooseDealer("Dario"))
    game.play(Deal.of({"Anna": "1D", "Bruno": "4C", "Carla": "5S", "Dario": "6B"}))
    keep_all(game)
    game.play_all([Reveal.of({}), Keep("Dario"), Settle()])
    game.play(Deal.of({"Bruno": "2C", "Carla": "3S", "Dario": "4B"}))
    keep_all(game)
    game.play(Reveal.of({}))
    assert says(game, Correct("Anna", parse_card("7D"))) == "hand 2: Anna is dead and holds no card"


# -- joining and leaving -------------------------------------------------------------------------

def settled(players: list[str] | None = None, lives: int | None = None, **rules: Any) -> Game:
    """The last player deals one hand where only Carla pays (the others show Re or Cavalli)."""
    table = players or TABLE
    game = Game(table, find_rules({"lives": lives or 3, **rules}))
    game.play(ChooseDealer(table[-1]))
    cards = dict(zip(table, ["10D", "9C", "1S", "10B", "9D", "9S"], strict=False))
    game.play(Deal.of(cards))
    keep_all(game)
    game.play(Reveal.of({}))
    if game.phase is Phase.DEALER:
        game.play(Keep(table[-1]))
    game.play(Settle())
    return game


def test_a_new_player_sits_before_the_one_named_with_full_lives_and_the_pot_unchanged() -> None:
    game = settled()
    game.play(Join("Elena", before="Bruno"))
    game.play(Join("Fabio"))
    assert game.players == ("Anna", "Elena", "Bruno", "Carla", "Dario", "Fabio")
    assert game.lives == {"Anna": 3, "Elena": 3, "Bruno": 3, "Carla": 2, "Dario": 3, "Fabio": 3}
    assert game.pot == 1 and game.next_dealer == "Fabio"  # the deal passes to Dario's right
    game.play(Deal.of({p: "?" for p in game.players}))
    assert game.hand is not None and game.hand.order[0] == "Anna"


def test_a_player_who_leaves_takes_his_lives_and_the_deal_passes_on() -> None:
    game = settled()
    assert game.next_dealer == "Anna"
    game.play(Leave("Anna"))
    assert game.players == ("Bruno", "Carla", "Dario") and game.pot == 1
    assert game.lives == {"Bruno": 3, "Carla": 2, "Dario": 3} and game.next_dealer == "Bruno"


def test_when_the_dealer_leaves_his_right_hand_neighbour_deals_even_after_a_void_hand() -> None:
    game = Game(["Anna", "Bruno", "Carla", "Dario"], lives=1)
    game.play(ChooseDealer("Dario"))
    game.play(Deal.of({"Anna": "2D", "Bruno": "2C", "Carla": "2S", "Dario": "2B"}))
    keep_all(game)
    game.play_all([Reveal.of({}), Keep("Dario"), Settle()])
    assert game.results[0].void and game.next_dealer == "Dario"
    game.play(Join("Elena", before="Anna"))  # a newcomer in Dario's right does not take his deal
    game.play(Leave("Dario"))
    assert game.next_dealer == "Anna"


def test_a_leaving_dealer_under_until_stock_short_leaves_a_fresh_shuffle() -> None:
    game = settled(dealer_rotation="until_stock_short")
    assert game.next_dealer == "Dario" and game.continues_stock()
    game.play(Leave("Dario"))
    assert game.next_dealer == "Anna" and not game.continues_stock()


@pytest.mark.parametrize(
    ("event", "rule"),
    [(Join(""), "a player needs a name, not ''"),
     (Join("?"), "a player needs a name, not '?'"),
     (Join("Anna"), "Anna cannot join: Anna is already at the table"),
     (Join("Elena", before="Zeno"), "Elena cannot sit before Zeno: Zeno is not at the table"),
     (Leave("Zeno"), "Zeno is not at the table")],
)
def test_names_are_checked(event: Event, rule: str) -> None:
    assert says(settled(), event) == f"hand 1: {rule}"


def test_nobody_joins_or_leaves_during_a_hand_or_the_face_up_choice() -> None:
    game = revealed("? ? ? ?", "3D 4C 5S 6B")
    assert says(game, Join("Elena")) == "hand 1: Elena cannot join now: players join between hands"
    assert says(game, Leave("Anna")) == "hand 1: Anna cannot leave now: players leave between hands"
    game = Game(TABLE)
    game.play(FaceUp("Anna", parse_card("4C")))
    assert says(game, Join("Elena")) == ("Elena cannot join now: the first dealer is being chosen "
                                         "by cards dealt face up")


def test_a_leave_that_would_end_the_table_is_refused_and_the_end_is_final() -> None:
    game = settled(["Anna", "Bruno", "Carla"], lives=1)
    assert game.alive() == ["Anna", "Bruno"]
    assert says(game, Leave("Anna")) == ("hand 1: Anna cannot leave: the game needs two living "
                                         "players and only Bruno would be left")
    game.play(Leave("Carla"))  # the dead may go home
    assert game.players == ("Anna", "Bruno") and game.outcome() is None
    game = settled(["Anna", "Bruno", "Carla", "Dario"], lives=1, final_two="split")
    game.play(Leave("Anna"))
    outcome = game.outcome()
    assert outcome is not None and outcome.survivors == ("Bruno", "Dario")
    assert says(game, Join("Elena")) == "hand 1: the game is over: Bruno and Dario split the pot"


def test_a_player_who_left_joins_again_only_after_a_hand() -> None:
    game = settled()
    game.play(Leave("Anna"))
    assert says(game, Join("Anna")) == ("hand 1: Anna cannot join again before a hand is played: "
                                        "Anna left the table since the last hand (undo the leave "
                                        "instead)")
    game.undo()
    assert game.players == tuple(TABLE) and game.lives["Anna"] == 3


# -- stored, exported, replayed ------------------------------------------------------------------

def test_corrections_round_trip_through_json_and_the_store(tmp_path: Path) -> None:
    events: list[Event] = [Correct("Anna", parse_card("8D")), Join("Elena", "Bruno"),
                           Join("Fabio"), Leave("Anna")]
    for event in events:
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
    assert event_to_json(Join("Fabio")) == {"kind": "join", "player": "Fabio", "before": None}
    game = revealed("? ? ? ?", "3D 4C 5S 6B")
    path = tmp_path / "game.sqlite"
    with GameStore.create(path, TABLE) as store:
        for event in game.history:
            store.play(event)
        store.play(Correct("Anna", parse_card("8D")))
        store.play(Keep("Dario"))
        store.play(Settle())
        store.play(Join("Elena", "Bruno"))
        store.play(Leave("Carla"))
    with GameStore.open(path) as again:
        assert again.game.players == ("Anna", "Elena", "Bruno", "Dario")
        assert again.game.results[0].final["Anna"] == parse_card("8D")
        assert again.export()["hands"][0]["join"] == [["Elena", "Bruno"]]
        assert again.export()["hands"][0]["leave"] == ["Carla"]


def test_a_record_with_joins_and_leaves_replays_them_after_the_settlement() -> None:
    record = {"players": TABLE, "dealer": "Dario",
              "hands": [{"deal": {"Anna": "10D", "Bruno": "9C", "Carla": "1S", "Dario": "10B"},
                         "join": [["Elena", "Bruno"]], "leave": ["Dario"]},
                        {"deal": {"Anna": "10D", "Elena": "2C", "Bruno": "9C", "Carla": "1S"}}]}
    game = replay(record)
    assert game.results[1].dealer == "Anna" and game.results[1].losers == ("Carla",)
    assert replay_output(game)["lives"] == {"Anna": 3, "Elena": 3, "Bruno": 3, "Carla": 1}


@pytest.mark.parametrize(
    ("hand", "error", "message"),
    [({"join": ["Elena"]}, RecordError,
      "hand 1: a join is a [player, before] pair (before a name or null), not 'Elena'"),
     ({"leave": [["Anna"]]}, RecordError, "hand 1: a leave names a player, not ['Anna']"),
     ({"leave": "Anna"}, RecordError, "hand 1: 'leave' has the wrong type (str)"),
     ({"join": [["Anna", None]]}, RuleError,
      "hand 1: Anna cannot join: Anna is already at the table")],
)
def test_bad_joins_and_leaves_in_a_record(hand: dict, error: type, message: str) -> None:
    record = {"players": TABLE, "dealer": "Dario",
              "hands": [{"deal": {"Anna": "10D", "Bruno": "9C", "Carla": "1S", "Dario": "10B"},
                         **hand}]}
    with pytest.raises(error) as caught:
        replay(record)
    assert str(caught.value) == message


def test_random_games_with_joins_and_leaves_export_records_that_replay_the_same() -> None:
    rng = random.Random(41)
    moved = 0
    for _ in range(300):
        game = random_game(rng)
        for event in game_events(game, rng, unseen=0.3, seats=0.4):
            moved += isinstance(event, (Join, Leave))
        record = json.loads(json.dumps(game_record(game)))
        assert replay_output(replay(record)) == replay_output(game)
    assert moved > 300
