"""The event store: one game per SQLite file, every event committed before it counts."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from referee.events import Event, event_from_json, event_to_json
from referee.game import Game, RuleError
from referee.record import game_record
from referee.rules import Rules, find_rules

_SCHEMA = """
CREATE TABLE table_setup (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    players TEXT NOT NULL,
    rules TEXT NOT NULL,
    lives INTEGER NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL
);
"""
_UNDO = "undo"


class StoreError(RuntimeError):
    """A file that holds no game, or a game that cannot be created there."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class GameStore:
    """A game kept in a SQLite file (WAL): `play` and `undo` are appended and committed.

    One store may be shared by threads (a web server's): each change holds a lock.
    """

    def __init__(self, connection: sqlite3.Connection, game: Game, path: Path) -> None:
        self._db = connection
        self._lock = threading.RLock()
        self.game = game
        self.path = path

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk before play() returns, so an accepted event survives a crash.
        db.execute("PRAGMA synchronous=FULL")
        return db

    @classmethod
    def create(cls, path: str | Path, players: Sequence[str], rules: Rules | str = "napoli",
               lives: int | None = None) -> GameStore:
        """Start a new game in a new file (an existing file is never overwritten)."""
        path = Path(path)
        game = Game(players, find_rules(rules), lives)
        if path.exists():
            raise StoreError(f"{path} already exists: open it, or choose a new file")
        db = cls._connect(path)
        with db:
            db.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(
                "INSERT INTO table_setup VALUES (1, ?, ?, ?, ?)",
                (json.dumps(list(game.players)), json.dumps(game.rules.switches()),
                 game.start_lives, _now()),
            )
        return cls(db, game, path)

    @classmethod
    def open(cls, path: str | Path) -> GameStore:
        """Reopen a game file and rebuild the game event by event, undos included."""
        path = Path(path)
        if not path.is_file():
            raise StoreError(f"{path} does not exist")
        try:
            db = cls._connect(path)
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{path} holds no Saltacavallo game ({err})") from None
        try:
            players, rules, lives = db.execute(
                "SELECT players, rules, lives FROM table_setup WHERE id = 1").fetchone()
            rows = db.execute("SELECT seq, kind, data FROM events ORDER BY seq").fetchall()
        except (sqlite3.DatabaseError, TypeError) as err:
            db.close()
            raise StoreError(f"{path} holds no Saltacavallo game ({err})") from None
        game = Game(json.loads(players), find_rules(json.loads(rules)), lives)
        for seq, kind, data in rows:
            try:
                if kind == _UNDO:
                    game.undo()
                else:
                    game.play(event_from_json(json.loads(data)))
            except (ValueError, KeyError, TypeError) as err:
                db.close()
                raise StoreError(f"{path}: stored event {seq} does not replay: {err}") from None
        return cls(db, game, path)

    def play(self, event: Event) -> int:
        """Check the event, commit it, then count it; returns its sequence number in the file."""
        with self._lock:
            self.game.play(event)
            try:
                return self._append(event_to_json(event))
            except BaseException:
                self.game.undo()
                raise

    def undo(self) -> Event:
        """Take back the last event; the undo itself is stored, so a reopened file agrees."""
        with self._lock:
            if not self.game.history:
                raise RuleError("nothing to undo")
            self._append({"kind": _UNDO})
            return self.game.undo()

    def _append(self, data: dict[str, Any]) -> int:
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            cursor = self._db.execute(
                "INSERT INTO events (kind, data, at) VALUES (?, ?, ?)",
                (data["kind"], json.dumps(data), _now()),
            )
        seq = cursor.lastrowid
        assert seq is not None
        return seq

    def events(self) -> list[dict[str, Any]]:
        """Every stored row in order (undos included), as JSON objects with `seq`."""
        with self._lock:
            rows = self._db.execute("SELECT seq, data FROM events ORDER BY seq").fetchall()
        return [{"seq": seq, **json.loads(data)} for seq, data in rows]

    def export(self) -> dict[str, Any]:
        """The stored game as a hand record (RULES.md)."""
        return game_record(self.game)

    def close(self) -> None:
        """Close the file (everything is already committed)."""
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
