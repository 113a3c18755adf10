"""The table the live loop feeds, and the held hand's desk as the table asks it: two Protocols, so that
the loop knows its table (webui.table.TableService) by what it asks of it, not by its module; and
where a game's seats are kept beside its store."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from referee.events import Event
from referee.game import Game
from referee.store import GameStore

from live.way import Way


def seats_file(db: Path) -> Path:
    """Where the seats of the game in `db` are kept: tapped on the page or found at the deal."""
    return db.with_name(db.stem + "-seats.json")


class Desk(Protocol):
    """The held hand's desk (live.held.Holds), as the table asks it."""

    def state(self, game: Game, language: str = "it") -> dict[str, Any]: ...

    def decide(self, ident: int, way: Way, by: str = "person") -> object: ...

    def take_back(self, number: int) -> None: ...


class Table(Protocol):
    """The table a live loop feeds (webui.table.TableService): the game's only writer, under its lock."""

    lock: threading.RLock
    evidence_dir: Path
    desk: Desk | None
    store: GameStore | None

    @property
    def game(self) -> Game | None: ...

    def seats(self) -> dict[str, Any] | None: ...

    def set_seats(self, width: int, height: int, points: Mapping[str, Sequence[float]]) -> None: ...

    def play(self, event: Event, evidence: str | None = None) -> int: ...

    def undo(self) -> Event: ...

    def warn(self, message: str, hand: int | None, code: str | None = None,
             params: Mapping[str, Any] | None = None) -> int: ...

    def resolve(self, ident: int, how: str) -> None: ...

    def decide(self, ident: int, way: Way, by: str = "person") -> None: ...

    def changed(self) -> None: ...

    def on_resolve(self, callback: Callable[[int, str], None]) -> None: ...

    def on_seats(self, callback: Callable[[], None]) -> None: ...

    def on_new_game(self, callback: Callable[[Game], None]) -> None: ...

    def camera_status(self, status: Mapping[str, Any]) -> None: ...

    def show_frame(self, jpeg: bytes) -> None: ...

    def show_aim(self, view: Mapping[str, Any]) -> None: ...

    def watched(self) -> bool: ...
