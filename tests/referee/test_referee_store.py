"""The store: every event committed before it counts; reopening rebuilds the exact game."""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from referee.events import ChooseDealer, Deal, Keep, Swap, event_from_json, event_to_json
from referee.game import RuleError
from referee.record import replay, replay_output
from referee.simulate import NAMES, game_events, random_game
from referee.store import GameStore, StoreError

TABLE = ["Anna", "Bruno", "Carla", "Dario"]


def test_a_stored_game_reopens_exactly_with_its_undos(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    with GameStore.create(path, TABLE, "classica") as store:
        store.play(ChooseDealer("Dario"))
        store.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "2B"}))
        store.play(Keep("Anna"))
        store.play(Swap("Carla"))
        assert store.undo() == Swap("Carla")
        store.play(Keep("Carla"))
        with pytest.raises(RuleError, match="Carla cannot keep: the turns are over"):
            store.play(Keep("Carla"))
        kinds = [row["kind"] for row in store.events()]
    assert kinds == ["choose_dealer", "deal", "keep", "swap", "undo", "keep"]
    with GameStore.open(path) as again:
        assert again.game.history == [
            ChooseDealer("Dario"),
            Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "2B"}),
            Keep("Anna"), Keep("Carla")]
        assert again.game.current_player == "Dario" and again.game.rules.name == "classica"
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_whole_random_game_round_trips_and_exports_as_a_record(tmp_path: Path) -> None:
    rng = random.Random(11)
    source = random_game(rng, NAMES[:7], {"final_two": "split", "dealer_draw": "blind"})
    for _ in game_events(source, rng, unseen=0.2):
        pass
    path = tmp_path / "game.sqlite"
    with GameStore.create(path, source.players, source.rules) as store:
        for event in source.history:
            store.play(event)
    with GameStore.open(path) as again:
        assert again.game.history == source.history
        assert replay_output(replay(again.export())) == replay_output(source)


def test_events_round_trip_through_json() -> None:
    rng = random.Random(3)
    game = random_game(rng)
    for event in game_events(game, rng, unseen=0.5):
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event


def test_the_store_never_overwrites_and_rejects_foreign_files(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    GameStore.create(path, TABLE).close()
    with pytest.raises(StoreError, match="already exists"):
        GameStore.create(path, TABLE)
    other = tmp_path / "other.sqlite"
    other.write_text("not a database")
    with pytest.raises(StoreError, match="holds no Saltacavallo game"):
        GameStore.open(other)
    with pytest.raises(StoreError, match="does not exist"):
        GameStore.open(tmp_path / "missing.sqlite")


CHILD = """
import json, random, sys
from referee.simulate import NAMES, game_events, random_game
from referee.store import GameStore
from referee.events import event_to_json
rng = random.Random(5)
table = NAMES[:20]
store = GameStore.create(sys.argv[1], table, {"lives": 4})
plan = random_game(rng, table, {"lives": 4})
for event in plan.history:
    store.play(event)
    print(json.dumps(event_to_json(event)), flush=True)
for event in game_events(plan, rng, revive=0.5):
    store.play(event)
    print(json.dumps(event_to_json(event)), flush=True)
    if rng.random() < 0.02:
        store.undo()
        print(json.dumps({"kind": "undo"}), flush=True)
        store.play(event)
        print(json.dumps(event_to_json(event)), flush=True)
print("END", flush=True)
"""


def test_the_store_survives_sigkill_mid_game_without_losing_an_accepted_event(
        tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True, cwd=Path(__file__).resolve().parents[2])
    assert child.stdout is not None
    printed = []
    for line in child.stdout:
        printed.append(json.loads(line))
        if len(printed) == 300:
            os.kill(child.pid, signal.SIGKILL)
            break
    printed += [json.loads(line) for line in child.stdout if line.strip() != "END"]
    child.wait()
    assert child.returncode == -signal.SIGKILL, "the game ended before it could be killed"
    with GameStore.open(path) as store:
        stored = [{k: v for k, v in row.items() if k not in ("seq", "evidence")}
                  for row in store.events()]
        assert stored[: len(printed)] == printed
        assert len(stored) - len(printed) in (0, 1)  # at most one committed but not yet printed
        assert store.game.outcome() is None and store.game.history
        current = store.game.current_player or store.game.players[0]
        assert current in store.game.players


def test_a_warning_stays_open_across_a_restart_until_a_person_resolves_it(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    with GameStore.create(path, TABLE) as store:
        store.play(ChooseDealer("Dario"))
        first = store.warn("Bruno's card was seen as 10C and as 10B", 1)
        second = store.warn("the camera lost the table", None)
    with GameStore.open(path) as restarted:  # the page's server came back after a crash
        assert [(w["id"], w["message"], w["hand"], w["how"]) for w in restarted.warnings()] == [
            (first, "Bruno's card was seen as 10C and as 10B", 1, None),
            (second, "the camera lost the table", None, None)]
        restarted.resolve_warning(first, "Bruno holds the 10C")
        with pytest.raises(StoreError, match=r"warning \d+ is already resolved \(Bruno holds"):
            restarted.resolve_warning(first, "again")
        with pytest.raises(StoreError, match="has no warning 99"):
            restarted.resolve_warning(99, "seen")
        with pytest.raises(StoreError, match="a warning needs words"):
            restarted.warn("  ", 1)
    with GameStore.open(path, readonly=True) as viewer:
        assert [w["id"] for w in viewer.warnings()] == [second]
        resolved = viewer.warnings(open_only=False)[0]
        assert resolved["how"] == "Bruno holds the 10C" and resolved["resolved"] is not None
