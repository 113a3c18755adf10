"""Killed mid-write, many times, or out of disk: every accepted event survives, the file replays."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import referee.store as store_module

from referee.events import Event, event_to_json
from referee.record import read_record, replay
from referee.simulate import NAMES, game_events, random_game
from referee.store import GameStore, StoreError, record_path

ROOT = Path(__file__).resolve().parents[2]
KILLS = 20
"""How many times one game is killed (each at a random moment of its writing)."""


def planned_game(seed: int) -> tuple[list[str], list[Event]]:
    """A legal game of 8 players and 6 lives, revives included (several hundred events)."""
    rng = random.Random(seed)
    table = list(NAMES[:8])
    plan = random_game(rng, table, {"lives": 6})
    for _ in game_events(plan, rng, revive=0.5):
        pass
    return table, plan.history


WRITER = """
import json, random, sys
from referee.events import event_from_json, event_to_json
from referee.store import GameStore
path, seed, plan_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(plan_file) as file:
    plan = [event_from_json(row) for row in json.load(file)]
rng = random.Random(seed)
store = GameStore.open(path)
while True:  # at the end of the plan it walks back, so only the kill stops it
    at = len(store.game.history)
    if at and (rng.random() < 0.05 or at == len(plan)):
        store.undo()
        print(json.dumps({"undone": at}), flush=True)
    elif rng.random() < 0.05:
        print(json.dumps({"warning": store.warn(f"look at event {at}", None)}), flush=True)
    else:
        seq = store.play(plan[at])
        print(json.dumps({"seq": seq, "event": event_to_json(plan[at])}), flush=True)
"""


def test_a_game_killed_twenty_times_mid_write_keeps_every_accepted_event(tmp_path: Path) -> None:
    table, plan = planned_game(5)
    path = tmp_path / "killed.sqlite"
    GameStore.create(path, table, {"lives": 6}).close()
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps([event_to_json(e) for e in plan]))
    rng = random.Random(13)
    accepted: dict[int, dict[str, object]] = {}
    warnings: set[int] = set()
    undone = unacknowledged = mid_write = 0
    for kill in range(KILLS):
        child = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(kill),
                                  str(plan_file)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert child.stdout is not None
        before: list[str] = []
        if kill % 2:  # at a random moment: while it starts, opens the file, or writes
            time.sleep(rng.uniform(0.05, 0.4))
        else:  # surely mid-write: after a random number of acknowledged writes
            wanted = rng.randint(1, 80)
            while len(before) < wanted and (line := child.stdout.readline()):
                before.append(line)
            time.sleep(rng.uniform(0, 0.005))
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate()
        out = "".join(before) + rest
        assert child.returncode == -signal.SIGKILL, f"kill {kill}: the writer stopped by itself"
        printed = [json.loads(line) for line in out.splitlines()]
        mid_write += bool(printed)
        accepted.update({line["seq"]: line["event"] for line in printed if "seq" in line})
        warnings.update(line["warning"] for line in printed if "warning" in line)
        undone += sum(1 for line in printed if "undone" in line)
        check_record_beside(path)
        with GameStore.open(path) as store:  # replays every stored event, or raises
            rows = {row["seq"]: row for row in store.events()}
            for seq, event in accepted.items():
                assert {k: v for k, v in rows[seq].items() if k not in ("seq", "evidence")} \
                    == event, f"kill {kill}: event {seq} lost or changed"
            # at most one row per kill committed but not yet printed when the kill came
            unprinted = len(rows) - len(accepted) - undone
            assert unacknowledged <= unprinted <= unacknowledged + 1
            unacknowledged = unprinted
            assert warnings <= {w["id"] for w in store.warnings()}
    assert mid_write >= KILLS // 2  # most kills came while events were being written


def check_record_beside(path: Path) -> None:
    """The hand record beside a killed game is whole and replays; it may be one change behind
    (a hand settled or undone just before the kill), and the next opening brings it up to date."""
    with GameStore.open(path, readonly=True) as store:
        stored = store.export()["hands"]
    beside = record_path(path)
    if beside.exists():
        record = read_record(beside.read_text(encoding="utf-8"))
        replay(record)
        kept = record["hands"]
        assert abs(len(kept) - len(stored)) <= 1
        common = min(len(kept), len(stored)) - 1
        assert kept[:common] == stored[:common]
    with GameStore.open(path) as store:
        if store.game.results:
            assert read_record(beside.read_text(encoding="utf-8")) == store.export()


FULL_DISK = """
import json, resource, sys
from referee.events import event_from_json, event_to_json
from referee.store import GameStore, StoreError
path, limit, plan_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(plan_file) as file:
    plan = [event_from_json(row) for row in json.load(file)]
store = GameStore.open(path)
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # no file may grow past this
refusals = 0
while refusals < 3:
    before = list(store.game.history)
    event = plan[len(before)]
    try:
        seq = store.play(event)
    except StoreError as err:
        assert store.game.history == before, "a refused event changed the game"
        print(json.dumps({"refused": str(err)}), flush=True)
        refusals += 1
        continue
    print(json.dumps({"seq": seq, "event": event_to_json(event),
                      "record": store.record_problem}), flush=True)
try:
    store.warn("the disk is full", None)
except StoreError as err:
    print(json.dumps({"refused": str(err)}), flush=True)
store.close()
"""


def test_a_full_disk_keeps_every_accepted_event_and_refuses_the_next_cleanly(
        tmp_path: Path) -> None:
    table, plan = planned_game(8)
    path = tmp_path / "full.sqlite"
    with GameStore.create(path, table, {"lives": 6}) as store:
        for event in plan[:20]:
            store.play(event)
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps([event_to_json(e) for e in plan]))
    limit = path.stat().st_size + 48 * 1024  # room for a few dozen commits in the log
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(path), str(limit),
                           str(plan_file)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    accepted = [line for line in printed if "seq" in line]
    refused = [line["refused"] for line in printed if "refused" in line]
    assert len(accepted) >= 5 and len(refused) == 4
    for why in refused:
        assert "the disk is full or failing" in why and "nothing" in why
    with GameStore.open(path) as store:
        rows = store.events()
        assert [r["seq"] for r in rows] == list(range(1, 21)) + [a["seq"] for a in accepted]
        assert store.game.history == plan[: 20 + len(accepted)]
        store.play(plan[20 + len(accepted)])  # with room again, the game goes on


def test_a_writer_kept_waiting_by_another_program_says_so_and_stores_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.sqlite"
    table, plan = planned_game(2)
    GameStore.create(path, table).close()
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.1)
    other = sqlite3.connect(path, isolation_level=None)
    with GameStore.open(path) as store:
        other.execute("BEGIN IMMEDIATE")  # another program holding the write lock
        with pytest.raises(StoreError, match="nothing changed: another program kept it busy"):
            store.play(plan[0])
        assert store.game.history == []
        other.execute("ROLLBACK")
        assert store.play(plan[0]) == 1
    other.close()
