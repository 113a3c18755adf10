"""`saltacavallo watch SOURCE`: the live loop on a camera, a video or a folder, narrated as it goes."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from referee.events import ChooseDealer
from referee.game import Game, RuleError
from referee.observe import Said
from referee.rules import RulesError, find_rules
from referee.store import GameStore, StoreError
from referee.wording import LANGUAGES, plain, word


def add_commands(subparsers: Any) -> None:
    """Register `watch SOURCE` on the top-level parser's subcommands."""
    command = subparsers.add_parser(
        "watch", help="referee a table seen by a camera, a video or a folder of photos",
        description="Watch a table: recognise the cards, follow them to the players' seats, "
        "referee the hand and narrate every event (in Italian, or English with --lang en). With "
        "--db every event is stored at once and a stopped watch resumes where it stopped.")
    command.add_argument("source", metavar="SOURCE",
                         help="a webcam number (0), a video file, an image or a folder of "
                         "images, an http:// MJPEG or rtsp:// address (a phone's IP camera app)")
    command.add_argument("--players", metavar="NAMES",
                         help="the players in seating order, counterclockwise: Anna,Bruno,Carla "
                         "(taken from --db when it holds a game)")
    command.add_argument("--dealer", metavar="NAME",
                         help="the first dealer (default: chosen by the camera from cards dealt "
                         "face up until the second Denari)")
    command.add_argument("--seats", type=Path, metavar="FILE",
                         help='the seats in frame pixels, {"Anna": [x, y], ...} in seating order '
                         "(default: found at the first deal)")
    command.add_argument("--rules", default="napoli",
                         help="a preset (napoli, classica) or a JSON object of switches")
    command.add_argument("--lives", type=int, default=None, help="lives each (default 3)")
    command.add_argument("--fps", type=float, default=15.0,
                         help="frames per second of an image folder (default 15)")
    command.add_argument("--db", type=Path, metavar="FILE",
                         help="the game file: created, or resumed where it stopped")
    command.add_argument("--evidence", type=Path, metavar="DIR",
                         help="where the photos of each event go (default: beside --db)")
    command.add_argument("--json", action="store_true", help="one JSON object per event")
    command.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0],
                         help="narrate in Italian (it, the default) or English (en)")
    command.set_defaults(run=run_watch)


class WatchError(ValueError):
    """An argument `watch` cannot use, in one line."""


def _players(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise WatchError(f"--players {text!r}: a name is empty (give names separated by commas)")
    return names


def _rules(text: str) -> Any:
    spec: Any = text
    if text.strip().startswith("{"):
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as err:
            raise WatchError(f"--rules is not a JSON object: {err.msg}") from None
    try:
        return find_rules(spec)
    except RulesError as err:
        raise WatchError(f"--rules: {err}") from None


def open_game(args: argparse.Namespace) -> tuple[Game, GameStore | None]:
    """The game to watch: resumed from --db, or new from --players (stored when --db is new)."""
    players = _players(args.players)
    db: Path | None = args.db
    if db is not None and db.exists():
        store = GameStore.open(db)
        game = store.game
        if players is not None and list(game.players) != players:
            store.close()
            raise WatchError(f"{db} holds the game of {', '.join(game.players)}, not of "
                             f"{', '.join(players)}")
        if args.dealer is not None and game.dealer not in (None, args.dealer) \
                and not game.history[1:]:
            store.close()
            raise WatchError(f"{db}'s first dealer is {game.dealer}, not {args.dealer}")
        return game, store
    if players is None:
        raise WatchError("--players is needed for a new game: --players Anna,Bruno,Carla,Dario")
    rules = _rules(args.rules)
    if args.dealer is not None and args.dealer not in players:
        raise WatchError(f"--dealer {args.dealer} is not one of the players "
                         f"({', '.join(players)})")
    try:
        game = Game(players, rules, args.lives)  # checks the table before a file is made
    except RuleError as err:
        raise WatchError(str(err)) from None
    events = [ChooseDealer(args.dealer)] if args.dealer else []
    if db is None:
        game.play_all(events)
        return game, None
    store = GameStore.create(db, players, rules, args.lives)
    for event in events:
        store.play(event)
    return store.game, store


def narrate(said: Said, at: float, out: TextIO, as_json: bool, evidence: Path | None,
            language: str = LANGUAGES[0]) -> None:
    """One line for one happening: JSON (with `at`, the source's clock in seconds, and a
    warning's code and parameters), or the sentence in `language`."""
    data = {**said.to_json(), "at": round(at, 2)}
    if said.kind == "warning" and said.code:
        data.update(code=said.code, params=plain(said.params))
    if said.custody is not None:
        data["custody"] = said.custody.to_json()
    if data.get("evidence") and evidence is not None:
        data["evidence"] = str(evidence / data["evidence"])
    if as_json:
        print(json.dumps(data, ensure_ascii=False), file=out, flush=True)
    else:
        line = said.words(language)
        print(f"[{at:7.1f} s] {line[:1].upper()}{line[1:]}", file=out, flush=True)


def _status(status: Any, language: str) -> str:
    """A frame source's status in `language` (its code worded; its English without one)."""
    return word(status.code, status.params, language) if status.code else status.message


@contextmanager
def _stopped_by_signals(caught: list[int]) -> Iterator[None]:
    """Within the block, Ctrl+C (SIGINT) and SIGTERM raise KeyboardInterrupt in the main thread, the
    signal's number put in `caught`, whatever the process inherited: a program started in the
    background by a shell inherits SIGINT ignored, and `kill -INT` then did not stop it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: Any) -> None:
        caught.append(signum)
        raise KeyboardInterrupt

    before = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def run_watch(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Watch the source to its end, or until Ctrl+C or SIGTERM: 0 when it ended, 130 or 143 when
    stopped (the game saved), 2 on a bad argument or source."""
    out = out or sys.stdout
    from vision.frames import SourceError, open_source
    from vision.seats import SeatsError, load_seats
    from live.loop import Evidence, TableWatcher, read_seats_file, write_seats_file
    from live.table import seats_file

    def fail(message: str) -> int:
        print(f"saltacavallo watch: {message}", file=sys.stderr)
        return 2

    if args.fps <= 0:
        return fail(f"--fps must be above 0, not {args.fps:g}")
    try:
        game, store = open_game(args)
    except (WatchError, StoreError) as err:
        return fail(str(err))
    try:
        seats = None
        kept = seats_file(args.db) if args.db is not None else None
        if args.seats is not None:
            seats = load_seats(args.seats, game.players)
        elif kept is not None:
            seats = read_seats_file(kept, tuple(game.players))
        evidence_dir = args.evidence or (args.db.with_name(args.db.stem + "-evidence")
                                         if args.db is not None else None)
        evidence = Evidence(evidence_dir) if evidence_dir is not None else None
        source = open_source(args.source, fps=args.fps,
                             on_status=lambda s: print(f"saltacavallo watch: "
                                                       f"{_status(s, args.lang)}",
                                                       file=sys.stderr, flush=True))
    except (SeatsError, SourceError, OSError) as err:
        if store is not None:
            store.close()
        return fail(str(err))
    play = (lambda event, photo: store.play(event, photo)) if store is not None else None
    watcher = TableWatcher(game, play, seats=seats, evidence=evidence,
                           dealer_known=game.dealer is not None,
                           on_seats=(lambda found, size: write_seats_file(kept, found, size))
                           if kept is not None else None)
    status, caught, at = 0, list[int](), 0.0
    try:
        with _stopped_by_signals(caught), source:
            for frame in source.frames():
                at = frame.at
                for said in watcher.step(frame):
                    narrate(said, at, out, args.json, evidence_dir, args.lang)
            for said in watcher.finish():  # a film or a folder ended: its last hand is settled
                narrate(said, at, out, args.json, evidence_dir, args.lang)
    except KeyboardInterrupt:
        print("saltacavallo watch: stopped; the game is saved" if store is not None
              else "saltacavallo watch: stopped", file=sys.stderr)
        status = 128 + (caught[0] if caught else signal.SIGINT)
    except SourceError as err:
        status = fail(str(err))
    finally:
        if store is not None:
            store.close()
    return status
