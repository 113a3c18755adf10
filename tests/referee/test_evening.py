"""The evening's money: each game's nets, the fewest payments, the next dealer, an evening read back."""

from __future__ import annotations

import itertools
import random

import pytest

from referee.evening import (EveningError, Payment, evening_net, game_money, next_dealer,
                             payments, read_evening)
from referee.events import ChooseDealer, Deal, Keep, Leave, Reveal, Settle
from referee.game import Game
from referee.record import game_record

THREE = ["Anna", "Bruno", "Carla"]


def hand(game: Game, cards: dict[str, str]) -> None:
    """A hand where everyone keeps: the lowest card pays."""
    game.play(Deal.of(cards))
    while game.phase.value == "turns":
        game.play(Keep(game.current_player))
    game.play(Reveal.of(cards))
    if game.phase.value == "dealer":
        game.play(Keep(game.current_player))
    game.play(Settle())


def short_game(loser_first: str, loser_then: str, dealer: str = "Carla") -> Game:
    """Three players, one life each: two hands and the last one standing takes the pot of 2."""
    game = Game(THREE, "napoli", 1)
    game.play(ChooseDealer(dealer))
    others = iter(["5C", "6S"])
    hand(game, {p: "2D" if p == loser_first else next(others) for p in THREE})
    left = [p for p in THREE if p != loser_first]
    hand(game, {p: ("3D" if p == loser_then else "4C") for p in left})
    return game


def test_the_winner_takes_the_pot_and_the_others_pay_their_lives() -> None:
    money = game_money(short_game("Anna", "Bruno"), 50, 1)
    assert money.over and money.winner == "Carla" and money.pot == 2
    assert money.net == {"Anna": -50, "Bruno": -50, "Carla": 100}
    assert money.deciding == 2


def test_a_game_not_over_moves_no_money_yet() -> None:
    game = Game(THREE, "napoli", 1)
    game.play(ChooseDealer("Carla"))
    hand(game, {"Anna": "2D", "Bruno": "5C", "Carla": "6S"})
    money = game_money(game, 50, 1)
    assert not money.over and money.net == {"Anna": 0, "Bruno": 0, "Carla": 0}


def test_a_player_who_leaves_takes_his_coins_and_keeps_his_sums() -> None:
    game = Game(["Anna", "Bruno", "Carla", "Dario"], "napoli", 2)
    game.play(ChooseDealer("Dario"))
    hand(game, {"Anna": "2D", "Bruno": "5C", "Carla": "6S", "Dario": "7B"})  # Anna pays 1
    game.play(Leave("Anna"))  # she goes home with her last coin
    hand(game, {"Bruno": "2C", "Carla": "6C", "Dario": "7C"})
    hand(game, {"Bruno": "2S", "Carla": "3C", "Dario": "7S"})  # Bruno is out
    hand(game, {"Carla": "2B", "Dario": "7D"})
    hand(game, {"Carla": "3B", "Dario": "6D"})
    money = game_money(game, 100, 1)
    assert money.winner == "Dario" and money.pot == 5
    assert money.net == {"Anna": -100, "Bruno": -200, "Carla": -200, "Dario": 500}
    assert sum(money.net.values()) == 0


def test_a_split_pot_gives_the_odd_cent_to_the_first_survivor() -> None:
    game = Game(["Anna", "Bruno", "Carla"], {"final_two": "split"}, 1)
    game.play(ChooseDealer("Carla"))
    hand(game, {"Anna": "5D", "Bruno": "2C", "Carla": "6S"})
    money = game_money(game, 25, 1)
    assert money.survivors == ("Anna", "Carla") and money.winner is None
    assert money.net == {"Anna": 13, "Bruno": -25, "Carla": 12}


@pytest.mark.parametrize(("net", "fewest"), [
    ({"Anna": 150, "Bruno": -150}, [Payment("Bruno", "Anna", 150)]),
    ({"Anna": 150, "Bruno": -150, "Carla": 50, "Dario": -50},
     [Payment("Bruno", "Anna", 150), Payment("Dario", "Carla", 50)]),
    ({"Anna": 300, "Bruno": -100, "Carla": -100, "Dario": -100}, None),
    ({"Anna": 0, "Bruno": 0}, []),
    ({"A": 5, "B": -3, "C": -2, "D": 7, "E": -7}, None),  # two groups: 2 + 1 payments
])
def test_the_fewest_payments_settle_the_evening(net: dict[str, int],
                                                fewest: list[Payment] | None) -> None:
    found = payments(net)
    if fewest is not None:
        assert found == fewest
    assert len(found) == _fewest_by_trying(net)
    _settles(net, found)


def test_random_evenings_settle_with_the_fewest_payments() -> None:
    rng = random.Random(55)
    for _ in range(100):
        names = [f"P{i}" for i in range(rng.randint(2, 6))]
        net = {p: rng.choice([-150, -100, -50, 50, 100, 150, 200]) for p in names[:-1]}
        net[names[-1]] = -sum(net.values())
        found = payments(net)
        _settles(net, found)
        assert len(found) == _fewest_by_trying(net)


def test_nets_that_do_not_add_up_are_refused() -> None:
    with pytest.raises(ValueError, match="do not add up"):
        payments({"Anna": 100, "Bruno": -50})


def _settles(net: dict[str, int], found: list[Payment]) -> None:
    left = dict(net)
    for pay in found:
        assert pay.cents > 0
        left[pay.payer] += pay.cents
        left[pay.payee] -= pay.cents
    assert not any(left.values())


def _fewest_by_trying(net: dict[str, int]) -> int:
    """n minus the most zero-sum groups, by trying every assignment of players to groups."""
    owing = [c for c in net.values() if c]
    best = 0
    for labels in itertools.product(range(len(owing)), repeat=len(owing)):
        sums: dict[int, int] = {}
        for label, cents in zip(labels, owing):
            sums[label] = sums.get(label, 0) + cents
        if not any(sums.values()):
            best = max(best, len(sums))
    return len(owing) - best


@pytest.mark.parametrize(("players", "dealer"), [
    (THREE, "Carla"),  # Bruno dealt the last hand: the deal passes to his right
    (["Bruno", "Carla", "Elena"], "Carla"),
    (["Anna", "Carla", "Elena"], "Carla"),  # Bruno went home: his seat passes it on
    (["Anna", "Elena", "Franco"], "Anna"),
])
def test_the_next_game_is_dealt_by_the_player_the_deal_passes_to(players: list[str],
                                                                 dealer: str) -> None:
    game = short_game("Anna", "Bruno")
    assert game.results[-1].dealer == "Bruno"
    assert next_dealer(game, players) == dealer


def _evening(*games: tuple[Game, float]) -> dict:
    return {"games": [{"stake": stake, "record": game_record(game)} for game, stake in games]}


def test_an_evening_read_back_replays_every_game() -> None:
    data = _evening((short_game("Anna", "Bruno"), 0.5), (short_game("Carla", "Anna"), 1.0))
    data["games"][0].update(pot=2, winner="Carla", net={"Anna": -0.5, "Bruno": -0.5, "Carla": 1})
    data["net"] = {"Anna": -1.5, "Bruno": 1.5, "Carla": 0.0}
    read = read_evening(data)
    assert [(g.outcome().winner, stake) for g, stake in read] == [("Carla", 50), ("Bruno", 100)]
    assert evening_net([game_money(g, s, n) for n, (g, s) in enumerate(read, 1)]) == {
        "Anna": -150, "Bruno": 150, "Carla": 0}


@pytest.mark.parametrize(("change", "code", "game"), [
    (lambda d: d["games"][1].update(pot=3), "evening.pot", 2),
    (lambda d: d["games"][1].update(winner="Anna"), "evening.winner", 2),
    (lambda d: d["games"][0].update(net={"Anna": -0.5, "Bruno": -0.4, "Carla": 1}),
     "evening.net", 1),
    (lambda d: d["games"][1]["record"]["hands"][0]["deal"].update(Anna="2D"),
     "evening.record", 2),  # two Assi... a card twice
    (lambda d: d["games"][1].update(stake=0.333), "evening.stake", 2),
    (lambda d: d["games"][1].pop("record"), "evening.no_record", 2),
    (lambda d: d.update(net={"Anna": 1.0}), "evening.total", None),
])
def test_an_evening_that_does_not_add_up_is_refused_naming_the_game(change, code: str,
                                                                    game: int | None) -> None:
    data = _evening((short_game("Anna", "Bruno"), 0.5), (short_game("Carla", "Anna"), 1.0))
    change(data)
    with pytest.raises(EveningError) as refused:
        read_evening(data)
    assert refused.value.code == code
    assert refused.value.params.get("game") == game
