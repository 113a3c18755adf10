"""Random hands refereed per second on one core, for a 10-player table.

Random legal games (the `napoli` preset, 10 players) are generated first; the timed part
replays their events into fresh games: every event checked, every swap walked, every hand
settled. Run it pinned to one core: `taskset -c 0 .venv/bin/python benchmarks/bench_referee.py`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from referee.events import Deal, Event
from referee.game import Game
from referee.simulate import NAMES, game_events, random_game


def main() -> None:
    """Generate the games, then time the referee over them and print hands per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="random games to referee")
    parser.add_argument("--players", type=int, default=10, help="players at the table")
    parser.add_argument("--rules", default="napoli", help="preset name")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best is kept")
    args = parser.parse_args()
    rng = random.Random(2024)
    table = NAMES[: args.players]
    games: list[list[Event]] = []
    for _ in range(args.games):
        game = random_game(rng, table, args.rules)
        list(game_events(game, rng))
        games.append(list(game.history))
    hands = sum(isinstance(e, Deal) for events in games for e in events)
    events = sum(len(g) for g in games)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for history in games:
            Game(table, args.rules).play_all(history)
        best = min(best, time.perf_counter() - start)
    print(f"{hands} hands ({events} events) of {args.players} players, rules {args.rules}, "
          f"best of {args.repeat}: {best:.3f} s")
    print(f"{hands / best:,.0f} hands refereed per second "
          f"(Python {platform.python_version()}, {platform.machine()})")


if __name__ == "__main__":
    main()
