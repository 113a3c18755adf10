"""Events check their own values when made; the game's state changes only through events."""

import json
from typing import Any

import pytest

from referee.cards import CardError, parse_card
from referee.events import (
    ChooseDealer,
    Correct,
    Deal,
    Draw,
    Event,
    EventError,
    FaceUp,
    Join,
    Keep,
    Reveal,
    Swap,
    event_from_json,
    event_to_json,
)
from referee.game import Game


def build(make: Any) -> Any:
    """Call `make`, returning what it made or the error it raised (to compare one line)."""
    try:
        return make()
    except (EventError, CardError) as err:
        return f"{type(err).__name__}: {err}"


@pytest.mark.parametrize(("make", "says"), [
    (lambda: FaceUp("Anna", None), "EventError: Anna's face-up card must be seen"),
    (lambda: FaceUp("Anna", "4C"), "EventError: Anna's face-up card '4C' is not a card"),
    (lambda: Deal({"Anna": "3D"}), "EventError: Anna's card '3D' is not a card"),
    (lambda: Deal(["Anna", "3D"]),
     "EventError: the deal's cards are player: card pairs, not ['Anna', '3D']"),
    (lambda: Deal({7: parse_card("3D")}), "EventError: a player's name is text, not 7"),
    (lambda: Draw("Dario", "6C"), "EventError: Dario's drawn card '6C' is not a card"),
    (lambda: Reveal({"Anna": None}),
     "EventError: Anna's card at the reveal must be seen, not None"),
    (lambda: Correct("Anna", "8D"), "EventError: Anna's corrected card '8D' is not a card"),
    (lambda: Keep(None), "EventError: a player's name is text, not None"),
    (lambda: Swap("Carla", 3), "EventError: a player's name is text, not 3"),
    (lambda: Join("Elena", before=["Anna"]), "EventError: a player's name is text, not ['Anna']"),
])
def test_an_event_of_the_wrong_values_is_refused_when_made(make: Any, says: str) -> None:
    assert build(make) == says


@pytest.mark.parametrize(("data", "says"), [
    ({"kind": "face_up", "player": "Anna", "card": "?"},
     "EventError: Anna's face-up card must be seen"),
    ({"kind": "correct", "player": "Anna", "card": 8},
     "CardError: a card is a code like 9S, not 8"),
    ({"kind": "deal", "cards": ["3D", "4C"]},
     "EventError: the deal's cards are player: card code pairs, not ['3D', '4C']"),
    ({"kind": "reveal", "cards": {"Anna": "?"}},
     "CardError: '?' is not a card: a seen card is required here"),
    ({"kind": "keep", "player": 3}, "EventError: a player's name is text, not 3"),
])
def test_event_json_of_the_wrong_values_is_a_clear_value_error(data: dict[str, Any],
                                                                says: str) -> None:
    assert build(lambda: event_from_json(data)) == says


def test_a_deal_keeps_its_own_copy_of_the_cards_and_reads_the_same() -> None:
    cards = {"Anna": parse_card("3D"), "Bruno": parse_card("10C"), "Carla": None}
    deal = Deal(cards)
    cards["Anna"] = parse_card("4C")  # the caller's dict changes; the event does not
    assert deal == Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "?"})
    with pytest.raises(TypeError):
        deal.cards["Anna"] = parse_card("5S")  # type: ignore[index]
    assert json.dumps(event_to_json(deal)) == (
        '{"kind": "deal", "cards": {"Anna": "3D", "Bruno": "10C", "Carla": "?"}}')


def worked_hand() -> Game:
    """RULES.md's worked table after one hand: Carla's 2D pays."""
    game = Game(["Anna", "Bruno", "Carla", "Dario"])
    events: list[Event] = [
        ChooseDealer("Dario"),
        Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "2D", "Dario": "7S"}),
        Keep("Anna"), Keep("Carla"), Reveal.of({"Anna": "3D", "Carla": "2D", "Dario": "7S"}),
        Keep("Dario"),
    ]
    game.play_all(events)
    game.play(event_from_json({"kind": "settle"}))
    return game


def test_lives_results_history_and_face_up_are_read_only_views_that_follow_the_game() -> None:
    game = worked_hand()
    lives, results, history = game.lives, game.results, game.history
    assert lives == {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3}
    with pytest.raises(TypeError):
        lives["Carla"] = 3  # type: ignore[index]
    for view in (results, history, game.face_up):
        assert not hasattr(view, "append") and not hasattr(view, "clear")
        with pytest.raises(TypeError):
            view[0] = None  # type: ignore[index]
    assert [r.losers for r in results] == [("Carla",)] and len(history) == 7
    assert history[:2] == [ChooseDealer("Dario"), history[1]]  # a slice is a list of its own
    assert history[0] == ChooseDealer("Dario") and history == list(history)
    assert history == tuple(history) and history != list(history)[1:]
    game.undo()
    assert len(history) == 6 and results == [] and game.lives["Carla"] == 3


@pytest.mark.parametrize(("name", "value"), [
    ("lives", {}), ("history", []), ("results", []), ("face_up", []), ("players", ("Anna",)),
    ("dealer", "Anna"), ("pot", 9), ("hand", None)])
def test_the_state_events_change_cannot_be_set_from_outside(name: str, value: object) -> None:
    game = worked_hand()
    before = getattr(game, name)
    with pytest.raises(AttributeError):
        setattr(game, name, value)
    assert getattr(game, name) == before

