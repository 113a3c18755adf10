"""Random legal games: for the random-playout test and the benchmark."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from referee.cards import DECK, Card
from referee.events import (
    ChooseDealer,
    Deal,
    Draw,
    Event,
    FaceUp,
    Join,
    Keep,
    Leave,
    Reveal,
    Revive,
    Settle,
    Swap,
)
from referee.game import Game, Phase
from referee.rules import (
    PRESETS,
    DealerDraw,
    DealerRotation,
    DealerSelection,
    FinalTwo,
    Revival,
    Rules,
    find_rules,
)
from referee.walk import Stop

NAMES = (
    "Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Lucia", "Marco",
    "Nina", "Oreste", "Paola", "Rocco", "Sara", "Tito", "Ugo", "Vera", "Zeno", "Bice",
)


def random_rules(rng: random.Random) -> Rules:
    """A preset, or random switches over one, with one to four lives."""
    rules = PRESETS[rng.choice(sorted(PRESETS))]
    if rng.random() < 0.5:
        rules = rules.replace(
            horse_chain=rng.random() < 0.5,
            skip_wraps=rng.random() < 0.5,
            dealer_draw=rng.choice(tuple(DealerDraw)),
            revival=rng.choice(tuple(Revival)),
            final_two=rng.choice(tuple(FinalTwo)),
            dealer_rotation=rng.choice(tuple(DealerRotation)),
            dealer_selection=rng.choice(tuple(DealerSelection)),
            lives=rng.randint(1, 4),
        )
    return rules


def hand_events(game: Game, rng: random.Random, unseen: float = 0.1) -> Iterator[Event]:
    """Play one random legal hand into `game`, yielding each event after it is accepted.

    The game's phase says what comes next (a turn, the dealer's move, the reveal, the
    settlement), so the blind and after-reveal orders are the game's, not restated here.
    """
    alive = game.alive()
    fresh = [c for c in DECK if c not in game.stock_seen] if game.continues_stock() else list(DECK)
    drawn, *dealt = rng.sample(fresh, len(alive) + 1)
    truth = dict(zip(alive, dealt, strict=True))
    seen = {p: c if c.shows or rng.random() >= unseen else None for p, c in truth.items()}
    yield _play(game, Deal(seen))
    hand = game.hand
    assert hand is not None
    dealer = hand.dealer
    shown: dict[str, Card] = {}
    while hand.result is None:
        phase = game.phase
        if phase is Phase.TURNS:
            player = game.current_player
            assert player is not None
            found = hand.target(player, game.rules) if rng.random() < 0.5 else None
            if found is not None and found.stop is Stop.TARGET:
                target = found.target
                assert target is not None
                truth[player], truth[target] = truth[target], truth[player]
                yield _play(game, Swap(player, target if rng.random() < 0.5 else None))
            else:
                yield _play(game, Keep(player))
        elif phase is Phase.DEALER:
            if rng.random() < 0.5:
                truth[dealer] = drawn
                yield _play(game, Draw(dealer, drawn if rng.random() >= unseen else None))
            else:
                yield _play(game, Keep(dealer))
        elif phase is Phase.REVEAL:
            shown = dict(truth)
            yield _play(game, Reveal(dict(truth)))
        elif shown[dealer] != truth[dealer]:  # the dealer drew after the reveal
            shown[dealer] = truth[dealer]
            yield _play(game, Reveal({dealer: truth[dealer]}))
        else:
            yield _play(game, Settle())


def _play(game: Game, event: Event) -> Event:
    game.play(event)
    return event


def game_events(
    game: Game, rng: random.Random, revive: float = 0.1, unseen: float = 0.1, seats: float = 0.0
) -> Iterator[Event]:
    """Play a random legal game to its end (hands, revives, and joins and leaves at the rate
    `seats`), yielding each event."""
    while game.outcome() is None:
        yield from hand_events(game, rng, unseen)
        dead = [p for p in game.players if game.lives[p] == 0]
        revival = game.rules.revival is not Revival.OFF
        if game.outcome() is None and dead and revival and rng.random() < revive:
            yield _play(game, Revive(rng.choice(dead), rng.choice(game.alive())))
        while seats and game.outcome() is None and rng.random() < seats:
            yield from _join_or_leave(game, rng)


def _join_or_leave(game: Game, rng: random.Random) -> Iterator[Event]:
    """A random player leaves, or a newcomer sits down before a random one (or last)."""
    if rng.random() < 0.5:
        event: Event = Leave(rng.choice(game.players))
    else:
        name = next(f"{n}{i or ''}" for i in range(99) for n in NAMES
                    if f"{n}{i or ''}" not in game.players)
        event = Join(name, rng.choice([*game.players, None]))
    if game.is_legal(event):
        yield _play(game, event)


def random_game(rng: random.Random, players: Sequence[str] | None = None,
                rules: Rules | str | None = None) -> Game:
    """A new game with a random table (3 to 20 players) and rules, its first dealer chosen.

    Half the games choose him by cards dealt face up from a random seat, the rest name him.
    """
    table = tuple(players) if players else NAMES[: rng.randint(3, 20)]
    game = Game(table, find_rules(rules) if rules is not None else random_rules(rng))
    if rng.random() < 0.5:
        game.play(ChooseDealer(rng.choice(table)))
        return game
    seat = rng.randrange(len(table))
    for card in rng.sample(DECK, len(DECK)):
        game.play(FaceUp(table[seat], card))
        if game.dealer is not None:
            return game
        seat = (seat + 1) % len(table)
    raise AssertionError("a shuffled deck always holds the second Denari and the Re di Denari")

