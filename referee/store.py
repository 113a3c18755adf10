"""The event store: an evening's games in one SQLite file, every event checked and committed
before it counts.

Writers may be many (threads sharing one store, or processes each with their own): each write
is one `BEGIN IMMEDIATE` transaction that first brings the game up to the latest stored event,
then checks the new event against it, so a stored history always replays.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from referee.events import Event, event_from_json, event_to_json
from referee.game import Game, RuleError
from referee.record import game_record
from referee.rules import Rules, find_rules
from referee.storefile import (
    APPLICATION_ID,
    VERSION,
    StoreError,
    check_game_file,
    connect_readonly,
    os_reason,
    read_uri,
    sqlite_reason,
    write_atomically,
)
from referee.wording import plain

__all__ = ["APPLICATION_ID", "VERSION", "GameStore", "StoreError", "evening_path", "record_path"]

_GAMES = """CREATE TABLE games (
    number INTEGER PRIMARY KEY,
    players TEXT NOT NULL,
    rules TEXT NOT NULL,
    lives INTEGER NOT NULL,
    stake INTEGER NOT NULL,
    created TEXT NOT NULL
)"""
"""The evening's games, the first one also the table setup; `stake` is in cents a life."""
_SCHEMA = (
    """CREATE TABLE table_setup (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    players TEXT NOT NULL,
    rules TEXT NOT NULL,
    lives INTEGER NOT NULL,
    created TEXT NOT NULL
)""",
    """CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL,
    evidence TEXT,
    game INTEGER NOT NULL DEFAULT 1
)""",
    """CREATE TABLE warnings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message TEXT NOT NULL,
    hand INTEGER,
    raised TEXT NOT NULL,
    resolved TEXT,
    how TEXT,
    code TEXT,
    params TEXT
)""",
    _GAMES,
)
_WARNINGS_1 = """CREATE TABLE warnings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message TEXT NOT NULL,
    hand INTEGER,
    raised TEXT NOT NULL,
    resolved TEXT,
    how TEXT
)"""
"""The warnings as version 1 made them."""
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    0: ("ALTER TABLE events ADD COLUMN evidence TEXT", _WARNINGS_1),
    1: ("ALTER TABLE warnings ADD COLUMN code TEXT", "ALTER TABLE warnings ADD COLUMN params TEXT"),
    2: (_GAMES, "INSERT INTO games SELECT 1, players, rules, lives, 0, created FROM table_setup",
        "ALTER TABLE events ADD COLUMN game INTEGER NOT NULL DEFAULT 1"),
}
"""The statements that take a file of each older version to the next one."""
_UNDO = "undo"
_IN_HAND = frozenset({"keep", "swap", "draw", "reveal"})
"""Events that change only the unfinished hand, which the hand record leaves out."""
BUSY_SECONDS = 10.0
"""How long a write waits for another writer's transaction (each lasts milliseconds)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def record_path(path: str | Path) -> Path:
    """Where the hand record of a game file lies: `family.record.json` for `family.sqlite`."""
    path = Path(path)
    return path.with_name(f"{path.stem}.record.json")


def evening_path(path: str | Path) -> Path:
    """Where the evening's games are copied beside its file once it has more than one:
    `family.evening.json` for `family.sqlite`."""
    path = Path(path)
    return path.with_name(f"{path.stem}.evening.json")


class GameStore:
    """An evening's games kept in a SQLite file (WAL): `play` and `undo` are checked, appended and
    committed to the game in play (the last); `new_game` starts the next one.

    One store may be shared by threads (a web server's): each change holds a lock. After every
    change that alters the settled hands, the hand record is rewritten beside the file.
    """

    def __init__(self, connection: sqlite3.Connection, games: list[Game], stakes: list[int],
                 path: Path, seen: int, version: int, readonly: bool) -> None:
        self._db = connection
        self._lock = threading.RLock()
        self._seen = seen
        self._version = version
        self._record_text: str | None = None
        self._evening_text: str | None = None
        self.games = games
        """Every game of the evening, in the order played; the last is in play."""
        self.stakes = stakes
        """Each game's stake, in cents a life."""
        self.path = path
        self.readonly = readonly
        self.record_problem: str | None = None
        """Why the last hand record could not be written beside the file (None when it was)."""

    @property
    def game(self) -> Game:
        """The game in play: the evening's last."""
        return self.games[-1]

    @game.setter
    def game(self, game: Game) -> None:
        self.games[-1] = game

    @property
    def record_path(self) -> Path:
        """The hand record kept beside the file."""
        return record_path(self.path)

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | Path, players: Sequence[str], rules: Rules | str = "napoli",
               lives: int | None = None, stake: int = 0) -> GameStore:
        """Start a new evening in a new file with its first game, `stake` cents a life (an
        existing file is never overwritten).

        The file is built under a temporary name and linked into place whole, so a crash
        leaves either no game or a complete one.
        """
        path = Path(path)
        game = Game(players, find_rules(rules), lives)
        stake = _cents(stake)
        if os.path.lexists(path):
            raise StoreError(f"{path} already exists: open it, or choose a new file")
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.new")
        try:
            os.close(os.open(temporary, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
            db = sqlite3.connect(temporary, isolation_level=None)
            try:
                db.execute("BEGIN IMMEDIATE")
                for statement in _SCHEMA:
                    db.execute(statement)
                table = (json.dumps(list(game.players)), json.dumps(game.rules.switches()),
                         game.start_lives)
                db.execute("INSERT INTO table_setup VALUES (1, ?, ?, ?, ?)", (*table, _now()))
                db.execute("INSERT INTO games VALUES (1, ?, ?, ?, ?, ?)",
                           (*table, stake, _now()))
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {VERSION}")
                db.execute("COMMIT")
            finally:
                db.close()
            _fsync(temporary)
            _link_new(temporary, path)
        except OSError as err:
            raise StoreError(f"cannot create {path}: {os_reason(err)}") from None
        except sqlite3.Error as err:
            raise StoreError(f"cannot create {path}: {sqlite_reason(err)}") from None
        finally:
            with suppress(OSError):
                os.unlink(temporary)
        return cls.open(path)

    @classmethod
    def open(cls, path: str | Path, readonly: bool = False, stake: int = 0) -> GameStore:
        """Reopen a game file and rebuild every game event by event, undos included.

        An older file is migrated to this version in one transaction (never when `readonly`),
        its one game the evening's first at `stake` cents a life; a file that is not a
        Saltacavallo game is refused unchanged, with the reason.
        """
        stake = _cents(stake)
        path = Path(path)
        version = check_game_file(path)
        if readonly:
            db = connect_readonly(path)
        else:
            if not os.access(path, os.W_OK):
                raise StoreError(f"{path} is read-only: open it read-only to view or export it")
            db = _connect_writer(path)
        try:
            games, stakes = _games(path, db, version, stake)
            store = cls(db, games[:1], stakes[:1], path, 0, version, readonly)
            store._catch_up()  # a file that does not replay is refused before it is migrated
            if not readonly and version < VERSION:
                store._version = _migrate(db, path, stake)
        except sqlite3.Error as err:
            db.close()
            raise StoreError(f"{path}: {sqlite_reason(err)}") from None
        except BaseException:
            db.close()
            raise
        if not readonly:
            store._keep_record()
        return store

    # -- writing -------------------------------------------------------------------------------

    def play(self, event: Event, evidence: str | None = None) -> int:
        """Check the event against the latest stored game, commit it, then count it.

        Returns its sequence number in the file; `evidence` names the photo kept for it.
        """
        try:
            data = event_to_json(event)
        except (TypeError, AttributeError, KeyError) as err:  # a field of the wrong type
            raise StoreError(f"not an event the game can take: {event!r} ({err})") from None
        if evidence is not None and not isinstance(evidence, str):
            raise StoreError(f"evidence is a file name, not {evidence!r}")
        settled = len(self.game.results)
        with self._writing() as others:
            try:
                self.game.play(event)
            except RuleError as err:
                if others:
                    first, last = others
                    code, seqs = (("store.other_first", {"seq": last}) if first == last else
                                  ("store.others_first", {"first": first, "last": last}))
                    raise RuleError(code, {"why": err.message, **seqs}, err.hand,
                                    err.player) from None
                raise
            except (TypeError, AttributeError, KeyError) as err:  # a field of the wrong type
                self.game = _rebuilt(self.game)  # in case it failed halfway through a change
                raise StoreError(f"not an event the game can take: {event!r} ({err})") from None
            try:
                seq = self._insert(data, evidence, len(self.games))
                self._commit("store the event")
            except BaseException:
                self.game.undo()
                raise
            self._seen = seq
        if data["kind"] not in _IN_HAND or len(self.game.results) != settled:
            self._keep_record()
        return seq

    def undo(self) -> Event:
        """Take back the last event; the undo itself is stored, so a reopened file agrees.

        Refused when another writer changed the game since this store last looked at it.
        """
        with self._writing() as others:
            if others:
                first, last = others
                stored = (f"another writer stored event {last} first" if first == last
                          else f"another writer stored events {first}-{last} first")
                raise StoreError(f"{self.path}: nothing undone: the game changed since you "
                                 f"last looked ({stored}); look again, then undo")
            if not self.game.history:
                self.game.undo()  # raises the game's own refusal: nothing to take back
            seq = self._insert({"kind": _UNDO}, None, len(self.games))
            self._commit("store the undo")
            self._seen = seq
            undone = self.game.undo()
        self._keep_record()
        return undone

    def new_game(self, players: Sequence[str], rules: Rules | str | Mapping[str, Any] = "napoli",
                 lives: int | None = None, stake: int = 0, events: Sequence[Event] = ()) -> Game:
        """Start the evening's next game (with its first `events`, such as the dealer chosen) in
        one transaction; the games before it stay as they were. Returns it."""
        game = Game(players, find_rules(rules), lives)
        stake = _cents(stake)
        for event in events:  # a RuleError here stores nothing
            game.play(event)
        table = (json.dumps(list(game.first_players)), json.dumps(game.rules.switches()),
                 game.start_lives)
        with self._writing():
            number = len(self.games) + 1
            try:
                self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                                 (number, *table, stake, _now()))
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: no new game: {sqlite_reason(err)}") from None
            seqs = [self._insert(event_to_json(event), None, number) for event in events]
            self._commit("start the new game")
            self.games.append(game)
            self.stakes.append(stake)
            self._seen = seqs[-1] if seqs else self._seen
        self._keep_record()
        return game

    def warn(self, message: str, hand: int | None, code: str | None = None,
             params: Mapping[str, Any] | None = None) -> int:
        """Keep a warning for a person (it stays open across restarts); returns its id.

        `message` is its English sentence; `code` and `params` (JSON data) let a page word it in
        its reader's language (`referee.wording`).
        """
        if not isinstance(message, str) or not message.strip():
            raise StoreError(f"a warning needs words, not {message!r}")
        if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int)):
            raise StoreError(f"a warning's hand is a number or None, not {hand!r}")
        if code is not None and (not isinstance(code, str) or not code):
            raise StoreError(f"a warning's code is a word, not {code!r}")
        try:
            data = None if code is None else json.dumps(plain(params or {}), ensure_ascii=False,
                                                        allow_nan=False)
        except (TypeError, ValueError) as err:
            raise StoreError(f"a warning's parameters are JSON data ({err})") from None
        with self._writing():
            cursor = self._db.execute(
                "INSERT INTO warnings (message, hand, raised, code, params) VALUES (?, ?, ?, ?, ?)",
                (message, hand, _now(), code, data))
            self._commit("store the warning")
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def resolve_warning(self, id: int, how: str) -> None:
        """Mark an open warning resolved, saying how (a person's choice)."""
        if not isinstance(how, str) or not how.strip():
            raise StoreError(f"say how the warning was resolved, not {how!r}")
        with self._writing():
            row = self._db.execute("SELECT how FROM warnings WHERE id = ?", (id,)).fetchone()
            if row is None:
                raise StoreError(f"{self.path} has no warning {id!r}")
            if row[0] is not None:
                raise StoreError(f"warning {id} is already resolved ({row[0]})")
            self._db.execute("UPDATE warnings SET resolved = ?, how = ? WHERE id = ?",
                             (_now(), how, id))
            self._commit("store the resolution")

    @contextmanager
    def _writing(self) -> Iterator[tuple[int, int] | None]:
        """One write transaction: yields the first and last event other writers stored since this
        store last looked (None when none did)."""
        if self.readonly:
            raise StoreError(f"{self.path} is open read-only: nothing can be changed")
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: nothing changed: {sqlite_reason(err)}") from None
            try:
                before = self._seen
                try:
                    self._catch_up()
                except sqlite3.Error as err:
                    raise StoreError(f"{self.path}: nothing changed: "
                                     f"{sqlite_reason(err)}") from None
                yield None if self._seen == before else (before + 1, self._seen)
            except sqlite3.Error as err:  # e.g. a warning's INSERT on a full disk
                raise StoreError(f"{self.path}: nothing changed: {sqlite_reason(err)}") from None
            finally:
                if self._db.in_transaction:
                    with suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")

    def _insert(self, data: dict[str, Any], evidence: str | None, game: int) -> int:
        try:
            cursor = self._db.execute(
                "INSERT INTO events (kind, data, at, evidence, game) VALUES (?, ?, ?, ?, ?)",
                (data["kind"], json.dumps(data), _now(), evidence, game))
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: nothing stored: {sqlite_reason(err)}") from None
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def _commit(self, doing: str) -> None:
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot {doing}: {sqlite_reason(err)}; nothing "
                             "was stored") from None

    def _catch_up(self) -> None:
        """Apply the games and events stored after the last ones this store has seen (other
        writers'), both read from one snapshot of the file."""
        game = "game" if self._version >= 3 else "1"
        reading = not self._db.in_transaction
        if reading:
            self._db.execute("BEGIN")
        try:
            rows = self._db.execute(f"SELECT seq, {game}, data FROM events WHERE seq > ? "
                                    "ORDER BY seq", (self._seen,)).fetchall()
            games, stakes = (_games(self.path, self._db, self._version, 0, len(self.games))
                             if self._version >= 3 else ([], []))
        finally:
            if reading:
                self._db.execute("COMMIT")
        for seq, number, data in rows:
            while len(self.games) < number and games:
                self.games.append(games.pop(0))
                self.stakes.append(stakes.pop(0))
            if number != len(self.games):
                raise StoreError(f"{self.path}: stored event {seq} belongs to game {number}, "
                                 f"not to the game in play ({len(self.games)})")
            _replay_row(self.path, self.game, seq, data)
            self._seen = seq
        self.games.extend(games)
        self.stakes.extend(stakes)

    def refresh(self) -> bool:
        """Bring the game up to what other writers stored since; True when anything changed."""
        with self._lock:
            before = self._seen
            try:
                self._catch_up()
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: {sqlite_reason(err)}") from None
            return self._seen != before

    def _record_text_now(self) -> str:
        return json.dumps(game_record(self.game), ensure_ascii=False, indent=1) + "\n"

    def evening(self) -> dict[str, Any]:
        """The evening's games as records, each with its stake in euros a life (docs/EVENING.md)."""
        with self._lock:
            return {"games": [{"stake": stake / 100, "record": game_record(game)}
                              for game, stake in zip(self.games, self.stakes, strict=True)]}

    def _keep_evening(self) -> None:
        """Copy the evening beside the file when it has more than one game and changed."""
        if len(self.games) < 2:
            return
        text = json.dumps(self.evening(), ensure_ascii=False, indent=1) + "\n"
        if text != self._evening_text:
            write_atomically(evening_path(self.path), text)
            self._evening_text = text

    def _keep_record(self) -> None:
        """Rewrite the hand record beside the file when the settled hands changed.

        The record is written inside a write transaction of its own, from the latest stored
        game, so a slower writer can never put back an older record over a newer one.
        """
        if self.readonly or (self._record_text_now() == self._record_text
                             and len(self.games) < 2):
            return
        target = self.record_path
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as err:
                self.record_problem = f"cannot write the hand record {target}: {sqlite_reason(err)}"
                return
            try:
                self._catch_up()
                self._keep_evening()
                text = self._record_text_now()
                if not self.game.results and not target.exists():
                    self._record_text = text
                    return
                with suppress(OSError):
                    if target.read_text(encoding="utf-8") == text:
                        self._record_text = text
                        return
                write_atomically(target, text)
            except OSError as err:
                self.record_problem = f"cannot write the hand record {target}: {os_reason(err)}"
            except sqlite3.Error as err:
                self.record_problem = f"cannot write the hand record {target}: {sqlite_reason(err)}"
            else:
                self._record_text = text
                self.record_problem = None
            finally:
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")

    # -- reading -------------------------------------------------------------------------------

    def events(self, game: int | None = None) -> list[dict[str, Any]]:
        """Every stored row in order (undos included): each event's JSON, its `seq`, `evidence`;
        only game number `game`'s when given."""
        evidence = "evidence" if self._version >= 1 else "NULL"
        number = "game" if self._version >= 3 else "1"
        where = "" if game is None else f" WHERE {number} = {int(game)}"
        with self._lock:
            rows = self._db.execute(
                f"SELECT seq, data, {evidence} FROM events{where} ORDER BY seq").fetchall()
        return [{"seq": seq, **json.loads(data), "evidence": found} for seq, data, found in rows]

    def warnings(self, open_only: bool = True) -> list[dict[str, Any]]:
        """The warnings kept in the file, oldest first (only unresolved ones by default)."""
        if self._version < 1:
            return []
        where = " WHERE how IS NULL" if open_only else ""
        coded = "code, params" if self._version >= 2 else "NULL, NULL"
        with self._lock:
            rows = self._db.execute(f"SELECT id, message, hand, raised, resolved, how, {coded} "
                                    f"FROM warnings{where} ORDER BY id").fetchall()
        keys = ("id", "message", "hand", "raised", "resolved", "how", "code", "params")
        found = [dict(zip(keys, row, strict=True)) for row in rows]
        for warning in found:
            warning["params"] = _params(warning["params"])
        return found

    def export(self) -> dict[str, Any]:
        """The stored game as a hand record (RULES.md)."""
        with self._lock:
            return game_record(self.game)

    def close(self) -> None:
        """Close the file (everything is already committed)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _link_new(temporary: Path, path: Path) -> None:
    """Put the finished file at `path`, never replacing a file that appeared meanwhile."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise StoreError(f"{path} already exists: open it, or choose a new file") from None
    except OSError:  # a file system without hard links (a FAT memory stick)
        if os.path.lexists(path):
            raise StoreError(f"{path} already exists: open it, or choose a new file") from None
        os.rename(temporary, path)


def _connect_writer(path: Path) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(read_uri(path, "rw"), uri=True, isolation_level=None,
                             check_same_thread=False, timeout=BUSY_SECONDS)
        db.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk before play() returns, so an accepted event survives a crash.
        db.execute("PRAGMA synchronous=FULL")
    except sqlite3.Error as err:
        raise StoreError(f"cannot open {path} for writing: {sqlite_reason(err)}") from None
    return db


def _migrate(db: sqlite3.Connection, path: Path, stake: int) -> int:
    """Bring an older file to this version in one transaction, its game played at `stake` cents
    a life; returns the version reached."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]  # another may have migrated
        while version < VERSION:
            for statement in _MIGRATIONS[version]:
                db.execute(statement)
            if version == 2:
                db.execute("UPDATE games SET stake = ? WHERE number = 1", (stake,))
            version += 1
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {version}")
        db.execute("COMMIT")
    except sqlite3.Error as err:
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise StoreError(f"cannot update {path} to store version {VERSION} (left as it was): "
                         f"{sqlite_reason(err)}") from None
    return version


def _params(text: str | None) -> dict[str, Any] | None:
    """A warning's stored parameters (None for a warning stored without a code, or damaged)."""
    if text is None:
        return None
    try:
        found = json.loads(text)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _cents(stake: object) -> int:
    """A stake in cents a life, checked: a whole number from 0 on."""
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 0:
        raise StoreError(f"a stake is a whole number of cents from 0 on, not {stake!r}")
    return stake


def _games(path: Path, db: sqlite3.Connection, version: int, stake: int,
           after: int = 0) -> tuple[list[Game], list[int]]:
    """The games numbered after `after`, each before any event, with their stakes in cents (a
    file before version 3: its one game at `stake`); a damaged row is a StoreError.

    The first game's table is the file's table setup, as in every version.
    """
    rows: list[tuple[Any, ...]] = []
    if not after:
        first = db.execute("SELECT players, rules, lives FROM table_setup WHERE id = 1").fetchone()
        if first is None:
            raise StoreError(f"{path} is damaged: its table setup (players, rules, lives) is "
                             "missing")
        if version >= 3:
            found = db.execute("SELECT stake FROM games WHERE number = 1").fetchone()
            stake = found[0] if found else 0
        rows.append((*first, stake))
    if version >= 3:
        rows += db.execute("SELECT players, rules, lives, stake FROM games WHERE number > ? "
                           "ORDER BY number", (max(after, 1),)).fetchall()
    games = [_table(path, row, after + n + 1) for n, row in enumerate(rows)]
    stakes = [row[3] if isinstance(row[3], int) and row[3] >= 0 else 0 for row in rows]
    return games, stakes


def _table(path: Path, row: tuple[Any, ...], number: int) -> Game:
    """A game from its stored row (players, rules, lives), before any event; a damaged row is a
    StoreError."""
    damaged = (f"{path} is damaged: its table setup" if number == 1 else
               f"{path} is damaged: the table setup of game {number}")
    try:
        players = json.loads(row[0])
        rules = json.loads(row[1])
    except (TypeError, ValueError, RecursionError):
        raise StoreError(f"{damaged} is not readable JSON") from None
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise StoreError(f"{damaged} does not list the players by name")
    try:
        return Game(players, find_rules(rules), row[2])
    except (ValueError, TypeError) as err:
        raise StoreError(f"{damaged} is not a table: {err}") from None


def _rebuilt(game: Game) -> Game:
    """The same game replayed from its history, free of anything a failed event left behind."""
    fresh = Game(game.first_players, game.rules, game.start_lives)
    fresh.play_all(game.history)
    return fresh


def _replay_row(path: Path, game: Game, seq: int, text: Any) -> None:
    """Apply one stored row (an event or an undo); a row that does not replay is a StoreError."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if data.get("kind") == _UNDO:
            game.undo()
        else:
            game.play(event_from_json(data))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
        raise StoreError(f"{path}: stored event {seq} does not replay: {err}") from None
