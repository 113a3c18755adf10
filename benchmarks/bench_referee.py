"""Random hands refereed per second on one core, for a 10-player table.

    taskset -c 0 .venv/bin/python -m benchmarks.bench_referee

Random legal games (the `napoli` preset, 10 players) are generated first; the timed part
replays their events into fresh games: every event checked, every swap walked, every hand
settled. Run it pinned to one core, on a machine doing nothing else (the record keeps the load).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from benchmarks import harness
from referee.events import Deal, Event
from referee.game import Game
from referee.simulate import NAMES, game_events, random_game

NAME = "bench_referee"
SEED = 2024
"""Seed of the random games, so that every run referees the same hands."""


def measure(args: argparse.Namespace) -> harness.Figures:
    """Generate the games, then time the referee over them: the best of the timed runs."""
    rng = random.Random(SEED)
    table = NAMES[: args.players]
    games: list[list[Event]] = []
    for _ in range(args.games):
        game = random_game(rng, table, args.rules)
        list(game_events(game, rng))
        games.append(list(game.history))
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for history in games:
            Game(table, args.rules).play_all(history)
        best = min(best, time.perf_counter() - start)
    hands = sum(isinstance(e, Deal) for events in games for e in events)
    return {
        "hands": hands,
        "events": sum(len(g) for g in games),
        "players": args.players,
        "rules": args.rules,
        "repeat": args.repeat,
        "best_s": round(best, 4),
        "hands_per_s": round(hands / best),
    }


def render(figures: harness.Figures) -> list[str]:
    """The hands, the best time and the rate."""
    return [
        f"{figures['hands']} hands ({figures['events']} events) of {figures['players']} players, rules {figures['rules']}, "
        f"best of {figures['repeat']}: {figures['best_s']:.3f} s",
        f"{figures['hands_per_s']:,} hands refereed per second",
    ]


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__, reads=())
    cli.add_argument("--games", type=int, default=400, help="random games to referee")
    cli.add_argument("--players", type=int, default=10, help="players at the table")
    cli.add_argument("--rules", default="napoli", help="preset name")
    cli.add_argument("--repeat", type=int, default=5, help="timed runs; the best is kept")

    return cli


def main(argv: list[str] | None = None) -> int:
    """Referee the games, print the rate, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
