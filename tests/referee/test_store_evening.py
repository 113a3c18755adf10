"""An evening's games in one file: each kept, killed between games and reopened, migrated once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from contextlib import closing
from pathlib import Path

import pytest

from referee.events import ChooseDealer, Deal, Keep, Reveal, Settle, event_to_json
from referee.game import RuleError
from referee.store import APPLICATION_ID, VERSION, GameStore, StoreError, evening_path

ROOT = Path(__file__).resolve().parents[2]
THREE = ["Anna", "Bruno", "Carla"]
PIN = "2468"


def short_game(store: GameStore, dealer: str) -> None:
    """Two hands of one life each: the first card 2D pays, then 3D: the third player wins."""
    if store.game.dealer is None:
        store.play(ChooseDealer(dealer))
    for codes in (["2D", "5C", "6S"], ["3D", "4C"]):
        for event in _hand(store, dict(zip(store.game.alive(), codes))):
            store.play(event)


def _hand(store: GameStore, cards: dict[str, str]):
    yield Deal.of(cards)
    while store.game.phase.value == "turns":
        yield Keep(store.game.current_player)
    yield Reveal.of(cards)
    if store.game.phase.value == "dealer":
        yield Keep(store.game.current_player)
    yield Settle()


def test_the_games_of_an_evening_are_kept_in_one_file_with_their_stakes(tmp_path: Path) -> None:
    path = tmp_path / "family.db"
    with GameStore.create(path, THREE, "napoli", 1, stake=50) as store:
        short_game(store, "Carla")
        store.new_game(THREE, "napoli", 1, stake=100, events=[ChooseDealer("Carla")])
        store.play(Deal.of({"Anna": "7D", "Bruno": "5C", "Carla": "6S"}))
    with GameStore.open(path) as again:
        assert len(again.games) == 2 and again.stakes == [50, 100]
        assert again.games[0].outcome().winner == "Carla" and again.game.phase.value == "turns"
        assert [row["kind"] for row in again.events(game=2)] == ["choose_dealer", "deal"]
    copy = json.loads(evening_path(path).read_text(encoding="utf-8"))
    assert [g["stake"] for g in copy["games"]] == [0.5, 1.0]
    assert copy["games"][0]["record"]["players"] == THREE


def test_an_undo_stops_at_the_start_of_the_game_in_play(tmp_path: Path) -> None:
    with GameStore.create(tmp_path / "family.db", THREE, "napoli", 1) as store:
        short_game(store, "Carla")
        store.new_game(THREE, "napoli", 1)
        with pytest.raises(RuleError, match="nothing to undo"):
            store.undo()
        assert store.games[0].outcome().winner == "Carla"


def test_a_new_game_with_a_dealer_who_is_not_seated_stores_nothing(tmp_path: Path) -> None:
    with GameStore.create(tmp_path / "family.db", THREE) as store:
        with pytest.raises(RuleError):
            store.new_game(THREE, events=[ChooseDealer("Zoe")])
        assert len(store.games) == 1
    with GameStore.open(tmp_path / "family.db") as again:
        assert len(again.games) == 1


def test_a_second_writer_sees_the_new_game_and_its_events(tmp_path: Path) -> None:
    path = tmp_path / "family.db"
    with GameStore.create(path, THREE, "napoli", 1) as first, GameStore.open(path) as second:
        short_game(first, "Carla")
        first.new_game(["Bruno", "Carla", "Dario"], "napoli", 1, stake=20,
                       events=[ChooseDealer("Dario")])
        assert second.refresh()
        assert second.game.players == ("Bruno", "Carla", "Dario") and second.stakes == [0, 20]
        second.play(Deal.of({"Bruno": "7D", "Carla": "5C", "Dario": "6S"}))
        first.refresh()
        assert first.game.phase.value == "turns"


V2_SCHEMA = """
CREATE TABLE table_setup (id INTEGER PRIMARY KEY CHECK (id = 1), players TEXT NOT NULL,
    rules TEXT NOT NULL, lives INTEGER NOT NULL, created TEXT NOT NULL);
CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,
    data TEXT NOT NULL, at TEXT NOT NULL, evidence TEXT);
CREATE TABLE warnings (id INTEGER PRIMARY KEY AUTOINCREMENT, message TEXT NOT NULL,
    hand INTEGER, raised TEXT NOT NULL, resolved TEXT, how TEXT, code TEXT, params TEXT);
"""
"""A game file as the release before the evening wrote it (store version 2)."""


def version_2_game(path: Path) -> None:
    """Today's game file: Carla dealing, one hand settled, beside it the table's stake."""
    rows = [ChooseDealer("Carla"), Deal.of({"Anna": "2D", "Bruno": "5C", "Carla": "6S"}),
            Keep("Anna"), Keep("Bruno"), Reveal.of({"Anna": "2D", "Bruno": "5C", "Carla": "6S"}),
            Keep("Carla"), Settle()]
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.executescript(V2_SCHEMA)
        db.execute("INSERT INTO table_setup VALUES (1, ?, ?, 1, '2025-01-01')",
                   (json.dumps(THREE), json.dumps({})))
        for event in rows:
            data = event_to_json(event)
            db.execute("INSERT INTO events (kind, data, at) VALUES (?, ?, '2025-01-01')",
                       (data["kind"], json.dumps(data)))
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("PRAGMA user_version = 2")
    path.with_name(f"{path.stem}-table.json").write_text('{"stake": 0.2}')


def _version(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("PRAGMA user_version").fetchone()[0]


def test_todays_game_file_becomes_the_first_game_of_an_evening_once(tmp_path: Path) -> None:
    from webui.table import TableService

    path = tmp_path / "family.db"
    version_2_game(path)
    with GameStore.open(path, readonly=True) as seen:  # looking changes nothing
        assert len(seen.games) == 1 and len(seen.game.results) == 1
    assert _version(path) == 2
    service = TableService(path)
    assert _version(path) == VERSION == 3
    assert service.store.stakes == [20] and service.stake == 0.2
    assert service.game.lives == {"Anna": 0, "Bruno": 1, "Carla": 1}
    service.play(Deal.of({"Bruno": "3D", "Carla": "4C"}))
    service.close()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT number, stake FROM games").fetchall() == [(1, 20)]
        assert {g for (g,) in db.execute("SELECT game FROM events")} == {1}
    os.utime(path)
    with GameStore.open(path, stake=999) as again:  # migrated once: a later stake is not read
        assert again.stakes == [20] and again.game.phase.value == "turns"


def test_a_file_from_a_newer_evening_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "family.db"
    GameStore.create(path, THREE).close()
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute(f"PRAGMA user_version = {VERSION + 1}")
    with pytest.raises(StoreError, match="newer Saltacavallo"):
        GameStore.open(path)


# -- the server killed between games -----------------------------------------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`saltacavallo serve` on a game file, in a process of its own, killed with SIGKILL."""

    def __init__(self, db: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.child = subprocess.Popen(
            [sys.executable, "-m", "webui.cli", "serve", "--db", str(db), "--pin", PIN,
             "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.get("/api/state")
                return
            except OSError:
                assert self.child.poll() is None, self.child.stderr.read().decode()
                time.sleep(0.2)
        raise AssertionError("the server did not start")

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"X-Table-Pin": PIN,
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def kill(self) -> None:
        self.child.send_signal(signal.SIGKILL)
        self.child.wait(10)
        self.child.stderr.close()


def _play_short_game(server: Server) -> None:
    for cards in (["2D", "5C", "6S"], ["3D", "4C"]):
        state = server.get("/api/state")
        dealt = dict(zip(state["alive"], cards))
        server.post("/api/corrections", {"kind": "deal", "cards": dealt})
        while (state := server.get("/api/state"))["phase"] == "turns":
            server.post("/api/corrections", {"kind": "keep", "player": state["current_player"]})
        server.post("/api/corrections", {"kind": "reveal", "cards": dealt})
        if server.get("/api/state")["phase"] == "dealer":
            server.post("/api/corrections", {"kind": "keep",
                                             "player": server.get("/api/state")["dealer"]})
        server.post("/api/corrections", {"kind": "settle"})


def test_a_server_killed_between_games_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "family.db"
    server = Server(db)
    server.post("/api/setup", {"players": THREE, "dealer": "Carla", "lives": 1, "stake": 0.5})
    winners = []
    for number in (1, 2, 3):
        _play_short_game(server)
        winners.append(server.get("/api/evening")["games"][-1]["winner"])
        server.kill()  # between games: right after the last hand, before the next starts
        server = Server(db)
        evening = server.get("/api/evening")
        assert [g["winner"] for g in evening["games"]] == winners
        if number == 2:
            server.post("/api/evening/stake", {"stake": 1.0})
            server.kill()  # the new stake is kept for the next game, the one in play keeps its own
            server = Server(db)
            assert server.get("/api/state")["stake"] == 0.5
        if number < 3:
            server.post("/api/evening/next", {})
            server.kill()  # the next game started, nothing played in it yet
            server = Server(db)
            assert len(server.get("/api/evening")["games"]) == number + 1
    evening = server.get("/api/evening")
    server.kill()
    assert [g["stake"] for g in evening["games"]] == [0.5, 0.5, 1.0]
    assert sum(row["cents"] for row in evening["net"]) == 0
    with GameStore.open(db, readonly=True) as store:
        assert [g.outcome().winner for g in store.games] == winners
