"""The table's only writer: the game in its store, the live picture, and word of every change."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from referee.evening import next_dealer
from referee.events import ChooseDealer, Event
from referee.game import Game, RuleError
from referee.record import replay
from referee.rules import Rules, find_rules
from referee.store import GameStore, evening_path, record_path
from referee.wording import Message

from live.table import Desk, seats_file
from live.way import Way
from live.words import Coded
from webui import inputs
from webui.phone import PACE_WAIT, PhoneWatch
from webui.state import build_state
from webui.words import LANGUAGES


class TableError(Coded, ValueError):
    """A request the table cannot carry out now (no game yet, a camera it does not read), as a
    code of webui.words."""


class FrameSink(Protocol):
    """Where the phone's frames go (vision.frames.PushedFrames)."""

    def push(self, jpeg: bytes) -> None: ...

    def away(self, why: str) -> None: ...

    def taken(self, timeout: float) -> bool: ...


_NO_CAMERA: dict[str, Any] = {"state": "off", "message": "no camera is connected",
                              "code": "camera.none", "params": {}}


WATCHED = 3.0
"""Seconds after a page last asked for the live picture (`frame()`) during which it is taken as watched:
the held hand's page asks every second, and a Live page probes before it opens the picture's stream."""


class TableService:
    """One table: holds the game's store and a lock, and tells waiting pages of every change.

    Every change (setup, events, undo, warnings, the camera's status) goes through here, from
    the live loop's thread or a page's request; `version` counts the changes.
    """

    def __init__(self, db_path: str | Path, evidence_dir: str | Path | None = None) -> None:
        self.db_path = Path(db_path)
        self.evidence_dir = Path(evidence_dir) if evidence_dir else self.db_path.with_name(
            self.db_path.stem + "-evidence")
        self.evidence_dir.mkdir(parents=True, exist_ok=True)
        self.lock = threading.RLock()
        self._pictures = threading.Lock()
        self.version = 0
        self.closed = False
        self._table = self._read_table_file()
        self.store: GameStore | None = GameStore.open(
            self.db_path, stake=_cents(self._table.get("stake", 0.0))) \
            if self.db_path.exists() else None
        self._camera: dict[str, Any] = dict(_NO_CAMERA)
        self._frame: bytes | None = None
        self._frame_index = 0
        self._resolved: list[Callable[[int, str], None]] = []
        self._seats_kept: list[Callable[[], None]] = []
        self._new_game: list[Callable[[Game], None]] = []
        self._listeners: list[Callable[[], None]] = []
        self._viewers: list[Callable[[int, bytes], None]] = []
        self._streams: list[Callable[[], int]] = []
        self._asked_at = -WATCHED
        self._state_cache: dict[str, tuple[int, str]] = {}
        self._notice: dict[str, Any] | None = None
        self.phone: FrameSink | None = None
        self._phone_watch = PhoneWatch()
        self._phone: dict[str, Any] | None = None
        self._aim: dict[str, Any] | None = None
        self.desk: Desk | None = None
        """The held hand's desk (live.held.Holds), set by the live loop that raises holds."""

    # -- reading ----------------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The game in play, or None before the first setup."""
        return self.store.game if self.store else None

    @property
    def stake(self) -> float:
        """The money one life is worth in the game in play (0: not playing for money)."""
        if self.store is not None:
            return self.store.stakes[-1] / 100
        return float(self._table.get("stake", 0.0))

    @property
    def next_stake(self) -> float:
        """The money one life will be worth from the next game on (a change applies there)."""
        return float(self._table.get("stake", self.stake))

    @property
    def seats_path(self) -> Path:
        """The file holding the seats tapped on the live picture (for the live loop)."""
        return seats_file(self.db_path)

    def seats(self) -> dict[str, Any] | None:
        """The tapped seats: `{"width", "height", "players": {name: [x, y]}}`, or None."""
        try:
            data = json.loads(self.seats_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def state(self, language: str = "it") -> dict[str, Any]:
        """The page's whole view of the table in `language` (what GET /api/state answers)."""
        return json.loads(self.state_json(language))

    def state_json(self, language: str = "it") -> str:
        """The state in `language` as JSON text, built once per change however many pages ask."""
        with self.lock:
            cached = self._state_cache.get(language)
            if cached is not None and cached[0] == self.version:
                return cached[1]
            game = self.game
            desk = self.desk.state(game, language) \
                if self.desk is not None and game is not None else {}
            state = build_state(
                game, version=self.version, stake=self.stake, camera=dict(self._camera),
                warnings=self._warnings(), evidence=self.evidence_by_hand(),
                seats=self.seats(), dealer_by_camera=bool(self._table.get("dealer_by_camera")),
                notice=self._notice, held=desk.get("held"), decided=desk.get("decided"),
                decisions=desk.get("decisions"), asked=desk.get("asked"), phone=self._phone,
                language=language,
            )
            text = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
            self._state_cache[language] = (self.version, text)
            return text

    def record(self) -> dict[str, Any]:
        """The game as a hand record (RULES.md), settled hands only."""
        with self.lock:
            return self._need_store().export()

    def versioned_state(self) -> tuple[int, dict[str, str]]:
        """The version and the state JSON of that version in each language, read together."""
        with self.lock:
            return self.version, {language: self.state_json(language) for language in LANGUAGES}

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call `callback()` after every change and at closing, under the table's lock: it must
        only pass the news on (the live streams read the state in a thread of their own)."""
        self._listeners.append(callback)

    # -- changing the game -------------------------------------------------------------------

    def setup(self, players: Sequence[str], rules: Rules | str | Mapping[str, Any] = "napoli",
              lives: int | None = None, dealer: str | None = None, stake: float = 0.0) -> None:
        """Start a new game (the old file is kept beside, renamed); dealer None: by the camera."""
        found = find_rules(rules)
        game = Game(players, found, lives)  # checks the table before anything is touched
        if dealer is not None and dealer not in game.players:
            raise RuleError("table.first_dealer", {"dealer": dealer})
        stake = inputs.stake(stake)
        with self.lock:
            self._start_store(list(game.players), found, game.start_lives,
                              [ChooseDealer(dealer)] if dealer else [], _cents(stake))
            self._table = {"stake": stake, "dealer_by_camera": dealer is None}
            self._write_table_file()
            self._changed_now()
            new = self._need_store().game
        for callback in list(self._new_game):
            callback(new)

    def import_record(self, record: Mapping[str, Any]) -> None:
        """Start a new game from a hand record, every hand replayed and stored."""
        game = replay(record)  # RecordError or RuleError, before anything is touched
        with self.lock:
            stake = self.next_stake
            self._start_store(list(game.first_players), game.rules, game.start_lives,
                              game.history, _cents(stake))
            self._table = {"stake": stake, "dealer_by_camera": False}
            self._write_table_file()
            self._changed_now()
            new = self._need_store().game
        for callback in list(self._new_game):
            callback(new)

    def next_game(self, players: Sequence[str] | None = None, anyway: bool = False) -> Game:
        """The evening's next game: the same players (or `players`), rules and lives, at the
        stake set for it, dealt first by the player the deal passes to (referee.evening); a game
        not over is left unfinished, counting nothing, only `anyway`."""
        with self.lock:
            store = self._need_store()
            previous = store.game
            if previous.outcome() is None and not anyway:
                raise TableError("evening.not_over")
            names = list(previous.players if players is None else players)
            dealer = next_dealer(previous, names)
            store.new_game(names, previous.rules, previous.start_lives,
                           _cents(self.next_stake), [ChooseDealer(dealer)] if dealer else [])
            if names != list(previous.first_players):
                self.seats_path.unlink(missing_ok=True)
            self._table = {"stake": self.next_stake, "dealer_by_camera": dealer is None}
            self._write_table_file()
            self._changed_now()
            new = store.game
        for callback in list(self._new_game):
            callback(new)
        return new

    def set_stake(self, stake: float) -> None:
        """The money a life is worth from the next game on (the game in play keeps its own)."""
        stake = inputs.stake(stake)
        with self.lock:
            self._table = {**self._table, "stake": stake}
            self._write_table_file()
            self._changed_now()

    def import_evening(self, games: Sequence[tuple[Game, int]]) -> None:
        """A new evening from games read back (referee.evening.read_evening), every event stored;
        the evening before is kept beside, renamed."""
        with self.lock:
            first, stake = games[0]
            self._start_store(list(first.first_players), first.rules, first.start_lives,
                              first.history, stake)
            store = self._need_store()
            for game, stake in games[1:]:
                store.new_game(game.first_players, game.rules, game.start_lives, stake)
                for event in game.history:
                    store.play(event)
            self._table = {"stake": games[-1][1] / 100, "dealer_by_camera": False}
            self._write_table_file()
            self._changed_now()
            new = store.game
        for callback in list(self._new_game):
            callback(new)

    def play(self, event: Event, evidence: str | None = None) -> int:
        """Check, store and count one event (with the name of its evidence photo, if any)."""
        with self.lock:
            store = self._need_store()
            seq = store.play(event, evidence)
            self._changed_now()
            return seq

    def correct(self, event: Event) -> int:
        """A person's event from the page (a revive, a misread card, a join or a leave)."""
        return self.play(event)

    def undo(self) -> Event:
        """Take back the last event."""
        with self.lock:
            undone = self._need_store().undo()
            self._changed_now()
            return undone

    # -- warnings ----------------------------------------------------------------------------

    def warn(self, message: str, hand: int | None, code: str | None = None,
             params: Mapping[str, Any] | None = None) -> int:
        """Raise a warning for a person (kept in the store until resolved); its id. `message`
        is its English; `code` and `params` word it in each page's language (webui.words)."""
        with self.lock:
            ident = self._need_store().warn(message, hand, code, params)
            self._changed_now()
            return ident

    def resolve(self, ident: int, how: str) -> None:
        """A person resolved warning `ident` saying `how`; the callbacks hear of it."""
        with self.lock:
            store = self._need_store()
            if not any(w.get("id") == ident for w in store.warnings(open_only=True)):
                raise TableError("table.no_warning", id=ident)
            store.resolve_warning(ident, how)
            self._changed_now()
        for callback in list(self._resolved):
            callback(ident, how)

    def decide(self, ident: int, way: Way, by: str = "person") -> None:
        """Take a way on from the held hand `ident` (live.way: continue, a swap, the unseen
        question's answer, deal again, the hand written); every page hears of it."""
        with self.lock:
            if self.desk is None:
                raise TableError("held.none", id=ident)
            self.desk.decide(ident, way, by)

    def take_back(self, number: int) -> None:
        """Take back decision `number` on a held hand: the hand is held again as it was."""
        with self.lock:
            if self.desk is None:
                raise TableError("decision.none", id=number)
            self.desk.take_back(number)

    def changed(self) -> None:
        """Something the pages show changed outside the store (the held hand, its cards)."""
        with self.lock:
            self._changed_now()

    def on_resolve(self, callback: Callable[[int, str], None]) -> None:
        """Call `callback(id, how)` after a person resolves a warning."""
        self._resolved.append(callback)

    def on_seats(self, callback: Callable[[], None]) -> None:
        """Call `callback()` after seats are kept (tapped on the live picture, or found at the deal)."""
        self._seats_kept.append(callback)

    def on_new_game(self, callback: Callable[[Game], None]) -> None:
        """Call `callback(game)` after a setup or an import starts a new game."""
        self._new_game.append(callback)

    def announce(self, told: Message | None) -> None:
        """A line for every page about the table itself (the demo's next game); None clears it."""
        with self.lock:
            notice = None if told is None else told.to_json()
            if notice != self._notice:
                self._notice = notice
                self._changed_now()

    # -- the camera --------------------------------------------------------------------------

    def camera_status(self, status: Mapping[str, Any]) -> None:
        """The camera's status (`{"state": ..., "message": ...}`); pages hear of a change."""
        with self.lock:
            if dict(status) != self._camera:
                self._camera = dict(status)
                self._changed_now()

    def show_frame(self, jpeg: bytes) -> None:
        """The newest annotated live picture (JPEG); the Live pages get it."""
        with self._pictures:
            self._frame = jpeg
            self._frame_index += 1
            for viewer in list(self._viewers):
                viewer(self._frame_index, jpeg)

    def frame(self) -> tuple[int, bytes | None]:
        """The newest live picture and its number (0 and None before the first); the picture is
        watched for WATCHED seconds."""
        with self._pictures:
            self._asked_at = time.monotonic()
            return self._frame_index, self._frame

    def watched(self) -> bool:
        """Whether anyone looks at the live picture: a page streaming it (`count_streams`), or one
        that asked for it in the last WATCHED seconds. The live loop draws it only then."""
        with self._pictures:
            asked = time.monotonic() - self._asked_at < WATCHED
        return asked or any(count() for count in self._streams)

    def count_streams(self, count: Callable[[], int]) -> None:
        """`count()` tells how many pages stream the live picture now (the stream hub's)."""
        self._streams.append(count)

    def on_picture(self, callback: Callable[[int, bytes], None]) -> None:
        """Call `callback(number, jpeg)` for every new live picture; like `on_change`, it must
        only pass it on."""
        self._viewers.append(callback)

    def push_frame(self, jpeg: bytes) -> None:
        """A frame from the phone camera page, handed to the phone source (newest wins)."""
        sink = self.phone
        if sink is None:
            raise TableError("table.no_phone")
        sink.push(jpeg)

    def phone_taken(self) -> float:
        """Wait (at most PACE_WAIT) until the live loop has taken the phone's newest picture; the
        seconds waited."""
        sink = self.phone
        began = time.monotonic()
        if sink is not None:
            sink.taken(PACE_WAIT)
        return time.monotonic() - began

    def phone_heard(self, jpeg: bytes, size: tuple[int, int], said: Mapping[str, str]) -> None:
        """What the phone page said with a picture (its battery, a slow link) and the light measured
        on it: the Live page hears of each change."""
        report = self._phone_watch.heard(jpeg, size, said)
        with self.lock:
            if report != self._phone:
                self._phone = report
                self._changed_now()

    def show_aim(self, view: Mapping[str, Any]) -> None:
        """What the phone page draws to aim the camera (live.aim.aim_view), newest wins."""
        with self._pictures:
            self._aim = dict(view)

    def aim(self) -> dict[str, Any] | None:
        """The newest view to aim the camera by; None before the live loop has read a picture."""
        with self._pictures:
            return self._aim

    @property
    def phone_light(self) -> str | None:
        """"dark" or "blurred" while the phone's pictures are too dark or blurred to read cards."""
        return self._phone_watch.light

    def phone_away(self, why: str) -> None:
        """The phone camera page stopped sending (hidden, or its camera stopped): its source says so
        at once."""
        sink = self.phone
        if sink is None:
            raise TableError("table.no_phone")
        sink.away(why)

    def set_seats(self, width: int, height: int, points: Mapping[str, Sequence[float]]) -> None:
        """Keep the seats tapped on the live picture (pixels of a width x height frame)."""
        with self.lock:
            game = self.game
            if game is None:
                raise TableError("seats.no_game")
            if not (isinstance(width, int) and isinstance(height, int) and width > 0
                    and height > 0):
                raise TableError("seats.size")
            seats: dict[str, list[float]] = {}
            for name, point in points.items():
                if name not in game.players:
                    raise TableError("seats.stranger", name=name)
                if not (isinstance(point, (list, tuple)) and len(point) == 2
                        and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                for v in point)):
                    raise TableError("seats.point", name=name)
                x, y = float(point[0]), float(point[1])
                if not (0 <= x <= width and 0 <= y <= height):
                    raise TableError("seats.outside", name=name, width=width, height=height)
                seats[name] = [round(x, 1), round(y, 1)]
            missing = [p for p in game.players if p not in seats]
            if missing:
                raise TableError("seats.missing", players=missing)
            _write_json(self.seats_path, {"width": width, "height": height, "players": seats})
            self._changed_now()
        for callback in list(self._seats_kept):
            callback()

    def close(self) -> None:
        """Tell every listener (the open pages end), and close the store."""
        with self.lock:
            self.closed = True
            self._tell()
            if self.store is not None:
                self.store.close()

    # -- inside ------------------------------------------------------------------------------

    def _need_store(self) -> GameStore:
        if self.store is None:
            raise TableError("table.no_game")
        return self.store

    def _changed_now(self) -> None:
        self.version += 1
        self._tell()

    def _tell(self) -> None:
        for listener in list(self._listeners):
            listener()

    def _start_store(self, players: list[str], rules: Rules, lives: int,
                     events: Sequence[Event], stake: int) -> None:
        """A new store file for a new game; the old one is renamed, never deleted."""
        if self.store is not None:
            self.store.close()
            self.store = None
        if self.db_path.exists():
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            kept = self.db_path.with_name(f"{self.db_path.stem}-{stamp}{self.db_path.suffix}")
            for n in range(2, 100):
                if not kept.exists():
                    break
                kept = self.db_path.with_name(
                    f"{self.db_path.stem}-{stamp}-{n}{self.db_path.suffix}")
            self.db_path.rename(kept)
            for extra in ("-wal", "-shm"):
                side = Path(str(self.db_path) + extra)
                if side.exists():
                    side.rename(Path(str(kept) + extra))
            for beside in (record_path, evening_path):
                if beside(self.db_path).exists():
                    beside(self.db_path).rename(beside(kept))
        self.seats_path.unlink(missing_ok=True)
        store = GameStore.create(self.db_path, players, rules, lives, stake)
        for event in events:
            store.play(event)
        self.store = store

    def _warnings(self) -> list[dict[str, Any]]:
        store = self.store
        if store is None:
            return []
        return [dict(w) for w in store.warnings(open_only=True)]

    def evidence_by_hand(self, number: int | None = None) -> dict[int, str]:
        """For every settled hand of game `number` (the one in play by default), the last
        evidence photo stored with one of its events."""
        store = self.store
        if store is None:
            return {}
        number = number or len(store.games)
        alive: list[str | None] = []
        for row in store.events(game=number):
            if row.get("kind") == "undo":
                if alive:
                    alive.pop()
            else:
                alive.append(row.get("evidence"))
        found: dict[int, str] = {}
        hand, last = 0, None
        for event, evidence in zip(store.games[number - 1].history, alive):
            kind = type(event).__name__
            if kind == "Deal":
                hand, last = hand + 1, None
            if evidence:
                last = evidence
            if kind == "Settle" and last:
                found[hand] = last
        return found

    @property
    def _table_path(self) -> Path:
        return self.db_path.with_name(self.db_path.stem + "-table.json")

    def _read_table_file(self) -> dict[str, Any]:
        try:
            data = json.loads(self._table_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write_table_file(self) -> None:
        _write_json(self._table_path, self._table)


def _cents(euros: object) -> int:
    """Euros (a stake) in whole cents; anything unreadable is 0."""
    if isinstance(euros, bool) or not isinstance(euros, (int, float)):
        return 0
    return max(0, round(euros * 100))


def _write_json(path: Path, data: Any) -> None:
    """Write a small JSON file whole or not at all (a crash mid-write keeps the old one)."""
    part = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}")
    part.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(part, path)
