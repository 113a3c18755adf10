"""Ten thousand random games (random presets and switches, 3 to 20 players): invariants hold."""

import itertools
import random

from referee.cards import Card, Suit
from referee.events import Deal, FaceUp, Settle, Swap
from referee.game import Game, Hand
from referee.record import replay_output
from referee.rules import Rules
from referee.simulate import game_events, random_game

GAMES = 10_000


def legal_target(hand: Hand, rules: Rules, player: str) -> str | None:
    """The swap target restated from RULES.md: skip the Cavalli, stop at a Re or the dealer."""
    at = hand.ring.index(player)
    seats = hand.ring[at + 1:] + hand.ring[:at]
    if not rules.skip_wraps:
        seats = seats[: seats.index(hand.dealer) + 1]

    def shows(seat: str, value: int) -> bool:
        card: Card | None = hand.shown.get(seat)
        return card is not None and card.value == value

    horses = 0
    while horses < len(seats) and shows(seats[horses], 9):
        horses += 1
    if (horses > 1 and not rules.horse_chain) or horses == len(seats):
        return None
    return None if shows(seats[horses], 10) else seats[horses]


def check_first_dealer(game: Game) -> None:
    """Face-up cards went round counterclockwise until the second Denari (or the Re di Denari)."""
    face_up = [e for e in game.history if isinstance(e, FaceUp)]
    if not face_up:
        return
    seats = [game.players.index(e.player) for e in face_up]
    assert all((b - a) % len(game.players) == 1 for a, b in itertools.pairwise(seats))
    cards = [e.card for e in face_up]
    if game.rules.dealer_selection == "re_di_denari":
        assert cards.index(Card(10, Suit.DENARI)) == len(cards) - 1
    else:
        assert cards[-1].suit is Suit.DENARI
        assert sum(c.suit is Suit.DENARI for c in cards) == 2
    assert game.dealer == face_up[-1].player


def check_game(game: Game, rng: random.Random) -> int:
    """Play one random game to its end, checking the invariants after every event."""
    check_first_dealer(game)
    total = sum(game.lives.values())
    hands = 0
    for event in game_events(game, rng, revive=0.2, unseen=0.15):
        assert min(game.lives.values()) >= 0
        assert sum(game.lives.values()) + game.pot == total
        hand = game.hand
        if isinstance(event, Deal):
            hands += 1
            assert hand is not None and list(hand.cards) == game.alive()
            assert all(game.lives[p] > 0 for p in hand.order)
            assert hand.dealer not in hand.order and game.lives[hand.dealer] > 0
        elif isinstance(event, Swap):
            assert hand is not None
            player, target = hand.swaps[-1]
            assert player == event.player
            assert target == legal_target(hand, game.rules, player)
        elif isinstance(event, Settle):
            assert hand is not None and hand.result is not None
            assert set(hand.result.final) <= set(hand.ring)
            assert all(game.lives[p] >= 0 for p in hand.result.losers)
    outcome = game.outcome()
    assert outcome is not None
    alive = tuple(game.alive())
    if game.rules.final_two == "split" and outcome.winner is None:
        assert len(alive) == 2 and outcome.survivors == alive
    else:
        assert outcome.winner is not None and alive == (outcome.winner,)
    assert outcome.pot == game.pot == total - sum(game.lives.values())
    return hands


def test_ten_thousand_random_games_keep_every_invariant() -> None:
    rng = random.Random(20241129)
    hands = 0
    sizes, presets = set(), set()
    for number in range(GAMES):
        game = random_game(rng)
        sizes.add(len(game.players))
        presets.add((game.rules.name, game.rules.final_two, game.rules.revival))
        hands += check_game(game, rng)
        if number % 500 == 0:  # undo the last event of some games: the game before it returns
            last = game.history[-1]
            game.undo()
            before = replay_output(game)
            game.play(last)
            game.undo()
            assert replay_output(game) == before and game.outcome() is None
    assert sizes == set(range(3, 21))
    assert (None, "split", "one_life") in presets and ("classica", "play_out", "off") in presets
    assert hands > GAMES * 5
