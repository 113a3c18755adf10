"""The referee's subcommands: `replay RECORD`, `import RECORD --db GAME`, `export GAME`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from referee.game import Game, RuleError
from referee.record import (
    MAX_RECORD_BYTES,
    RecordError,
    read_record,
    render_output,
    replay,
    replay_output,
)
from referee.store import GameStore, StoreError, record_path
from referee.storefile import os_reason

STDIN = "-"
"""The file name that means standard input."""


class InputError(ValueError):
    """A record that cannot be read at all (missing, a folder, too large, not text)."""


def add_commands(subparsers: Any) -> None:
    """Register `replay`, `import` and `export` on the top-level parser's subcommands."""
    command = subparsers.add_parser(
        "replay", help="replay a hand record (JSON) and print the tally",
        description="Replay a hand record (RULES.md) and print every hand, the lives and the pot "
        f"as JSON; `-` reads standard input. A record is at most {MAX_RECORD_BYTES // 2**20} MB; "
        "a record that cannot be read or breaks a rule exits with status 2 and one line.")
    command.add_argument("file", metavar="RECORD", help="the hand record to replay, or -")
    command.set_defaults(run=run_replay)
    command = subparsers.add_parser(
        "import", help="start a game file from a hand record",
        description="Check a hand record (like the one kept beside every game file) and store its "
        "game in a new game file, to go on playing it; exits with status 2 and one line when "
        "the record or the file will not do.")
    command.add_argument("file", metavar="RECORD", help="the hand record to import, or -")
    command.add_argument("--db", required=True, type=Path, metavar="GAME",
                         help="the new game file (never an existing one)")
    command.set_defaults(run=run_import)
    command = subparsers.add_parser(
        "export", help="print a game file's hand record",
        description="Print the settled hands of a game file as a hand record (JSON); the file "
        "is only read, so a game being played or a read-only one can be exported.")
    command.add_argument("db", type=Path, metavar="GAME", help="the game file")
    command.set_defaults(run=run_export)


def read_input(name: str, limit: int = MAX_RECORD_BYTES) -> str:
    """The text of a file (or standard input for `-`), refused past `limit` bytes."""
    try:
        if name == STDIN:
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(name, "rb") as file:
                data = file.read(limit + 1)
    except OSError as err:
        raise InputError(f"cannot read it: {os_reason(err)}") from None
    if len(data) > limit:
        raise InputError(f"larger than {limit // 2**20} MB, the most a hand record may hold")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start} is {data[err.start]:#04x})") from None


def _shown(name: str) -> str:
    return "<stdin>" if name == STDIN else name


def _replayed(command: str, name: str) -> Game | None:
    """The game of the record in `name`, or None after saying in one line why there is none."""
    try:
        return replay(read_record(read_input(name)))
    except (InputError, RecordError, RuleError) as err:
        print(f"saltacavallo {command}: {_shown(name)}: {err}", file=sys.stderr)
        return None


def _print(text: str) -> None:
    try:
        print(text, flush=True)
    except BrokenPipeError:
        # The reader (`| head`) has gone: silence the final flush, as Python's docs advise.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run_replay(args: argparse.Namespace) -> int:
    """Replay the record in `args.file`; 0 on success, 2 on a bad record or a broken rule."""
    game = _replayed("replay", args.file)
    if game is None:
        return 2
    _print(render_output(replay_output(game)))
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Store the record's game in the new file `args.db`; 0 on success, 2 when it will not do."""
    game = _replayed("import", args.file)
    if game is None:
        return 2
    target: Path = args.db
    try:
        store = GameStore.create(target, game.first_players, game.rules, game.start_lives)
    except StoreError as err:
        print(f"saltacavallo import: {err}", file=sys.stderr)
        return 2
    try:
        with store:
            for event in game.history:
                store.play(event)
    except (StoreError, RuleError) as err:
        for leftover in (target, Path(f"{target}-wal"), Path(f"{target}-shm"),
                         record_path(target)):
            leftover.unlink(missing_ok=True)  # a half-imported game is worse than none
        print(f"saltacavallo import: {err} (nothing imported)", file=sys.stderr)
        return 2
    hands = len(game.results)
    _print(f"imported {hands} hand{'s' if hands != 1 else ''} ({len(game.history)} events) "
           f"into {target}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Print the hand record of the game file `args.db`; 2 when it holds no readable game."""
    try:
        with GameStore.open(args.db, readonly=True) as store:
            record = store.export()
    except StoreError as err:
        print(f"saltacavallo export: {err}", file=sys.stderr)
        return 2
    _print(json.dumps(record, ensure_ascii=False, indent=1))
    return 0
