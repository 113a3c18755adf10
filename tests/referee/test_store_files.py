"""Every bad game file is refused with its reason, unchanged; old ones migrated, newer refused."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from referee.events import ChooseDealer, Deal, Keep, Swap, event_to_json
from referee.game import RuleError
from referee.store import APPLICATION_ID, VERSION, GameStore, StoreError
from referee.storefile import check_game_file

ROOT = Path(__file__).resolve().parents[2]
TABLE = ["Anna", "Bruno", "Carla", "Dario"]
OPENING = [ChooseDealer("Dario"),
           Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "2B"}),
           Keep("Anna")]

VERSION_0_SCHEMA = """
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
"""The schema of the first release (commit 5cb3095), which had no application id or version."""


def version_0_game(path: Path, players: object = TABLE, rules: object = None,
                   lives: object = 3, rows: list[dict[str, object]] | None = None) -> Path:
    """A game file exactly as the first release wrote it (WAL, no ids), with any setup row."""
    from referee.rules import PRESETS

    rules = PRESETS["napoli"].switches() if rules is None else rules
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(VERSION_0_SCHEMA)
    db.execute("INSERT INTO table_setup VALUES (1, ?, ?, ?, '2026-11-30T20:00:00.000+00:00')",
               (players if isinstance(players, str) else json.dumps(players),
                rules if isinstance(rules, str) else json.dumps(rules), lives))
    for row in [event_to_json(e) for e in OPENING] if rows is None else rows:
        db.execute("INSERT INTO events (kind, data, at) VALUES (?, ?, '2026-11-30T20:01:00')",
                   (row["kind"], json.dumps(row)))
    db.close()
    return path


def test_a_version_0_game_is_migrated_in_one_go_and_plays_on(tmp_path: Path) -> None:
    path = version_0_game(tmp_path / "old.sqlite")
    assert check_game_file(path) == 0
    with GameStore.open(path, readonly=True) as viewer:  # a viewer never migrates
        assert viewer.game.history == OPENING and viewer.warnings() == []
    assert _ids(path) == (0, 0)
    with GameStore.open(path) as store:
        assert store.game.history == OPENING
        assert [row["evidence"] for row in store.events()] == [None, None, None]
        assert store.play(Swap("Carla"), evidence="hand1-carla.jpg") == 4
        store.warn("Carla's card was not seen", 1)
    assert _ids(path) == (APPLICATION_ID, VERSION)
    with GameStore.open(path) as again:
        assert again.events()[-1] == {"seq": 4, "kind": "swap", "player": "Carla",
                                      "target": None, "evidence": "hand1-carla.jpg"}
        assert [w["message"] for w in again.warnings()] == ["Carla's card was not seen"]


def test_a_version_1_game_keeps_its_open_warning_and_words_new_ones_by_code(
        tmp_path: Path) -> None:
    path = version_0_game(tmp_path / "v1.sqlite")
    _sqlite(path, "ALTER TABLE events ADD COLUMN evidence TEXT",
            "CREATE TABLE warnings (id INTEGER PRIMARY KEY AUTOINCREMENT, message TEXT NOT NULL, "
            "hand INTEGER, raised TEXT NOT NULL, resolved TEXT, how TEXT)",
            "INSERT INTO warnings (message, hand, raised) VALUES "
            "('hand 1: Bruno''s card is missing from Bruno''s seat', 1, '2026-11-30T20:02:00')",
            f"PRAGMA application_id = {APPLICATION_ID}", "PRAGMA user_version = 1")
    with GameStore.open(path, readonly=True) as viewer:  # version 1 read as it is
        assert [(w["message"], w["code"], w["params"]) for w in viewer.warnings()] == [
            ("hand 1: Bruno's card is missing from Bruno's seat", None, None)]
    with GameStore.open(path) as store:
        store.warn("hand 1: Carla's card is missing from Carla's seat", 1,
                   "seat.missing", {"player": "Carla"})
    assert _ids(path) == (APPLICATION_ID, VERSION)
    with GameStore.open(path) as again:
        assert [(w["code"], w["params"]) for w in again.warnings()] == [
            (None, None), ("seat.missing", {"player": "Carla"})]


def test_a_migration_that_cannot_write_leaves_the_old_file_as_it_was(tmp_path: Path) -> None:
    path = version_0_game(tmp_path / "old.sqlite")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE warnings (x)")  # in the way of the migration's own table
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=f"cannot update .* to store version {VERSION} .left as it was"):
        GameStore.open(path)
    assert _ids(path) == (0, 0)
    with closing(sqlite3.connect(path)) as db:
        assert "evidence" not in {row[1] for row in db.execute("PRAGMA table_info(events)")}


def test_a_game_from_a_newer_saltacavallo_is_refused_saying_so(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    GameStore.create(path, TABLE).close()
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {VERSION + 1}")
    before = path.read_bytes()
    for readonly in (False, True):
        with pytest.raises(StoreError, match=f"newer Saltacavallo .store version {VERSION + 1}"):
            GameStore.open(path, readonly=readonly)
    assert path.read_bytes() == before


def test_a_new_game_carries_its_ids_and_never_replaces_a_file(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    GameStore.create(path, TABLE).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.sqlite"]  # no temporary left
    assert _ids(path) == (APPLICATION_ID, VERSION)
    with pytest.raises(StoreError, match="already exists"):
        GameStore.create(path, TABLE)
    with pytest.raises(StoreError, match="cannot create .*no such file or folder"):
        GameStore.create(tmp_path / "no" / "such" / "game.sqlite", TABLE)


def _ids(path: Path) -> tuple[int, int]:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return (db.execute("PRAGMA application_id").fetchone()[0],
                db.execute("PRAGMA user_version").fetchone()[0])


def _sqlite(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    for statement in statements:
        db.execute(statement)
    db.close()


def _game_cut_to(size: int) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        with GameStore.create(path, TABLE) as store:
            for event in OPENING:
                store.play(event)
        data = path.read_bytes()
        assert len(data) > size
        path.write_bytes(data[:size])
    return make


def _game_scribbled_over(path: Path) -> None:
    with GameStore.create(path, TABLE) as store:
        for event in OPENING:
            store.play(event)
    data = bytearray(path.read_bytes())
    data[4096 + 8: 4096 + 200] = b"\xa5" * 192  # the second page's cells: the schema's first table
    path.write_bytes(bytes(data))


BAD_FILES: list[tuple[str, Callable[[Path], None], str]] = [
    ("empty", lambda p: p.write_bytes(b""), r"is empty \(0 bytes\)"),
    ("text", lambda p: p.write_text("Anna 3, Bruno 2\n"), r"not a SQLite database"),
    ("foreign", lambda p: _sqlite(p, "CREATE TABLE notes (body TEXT)",
                                  "INSERT INTO notes VALUES ('milk')"),
     r"holds no Saltacavallo game \(its tables: notes\)"),
    ("no tables", lambda p: _sqlite(p, "CREATE TABLE t (x)", "DROP TABLE t"),
     r"holds no Saltacavallo game \(its tables: none\)"),
    ("another program's id", lambda p: _sqlite(p, "PRAGMA application_id = 1179603798",
                                               "CREATE TABLE events (seq)"),
     r"belongs to another program \(SQLite application id 0x464f5356\)"),
    ("another program's version", lambda p: _sqlite(p, "PRAGMA user_version = 7",
                                                    "CREATE TABLE events (seq)"),
     r"belongs to another program \(SQLite user version 7\)"),
    ("cut to 50 bytes", _game_cut_to(50), r"is truncated: only 50 bytes are left"),
    ("cut to two pages", _game_cut_to(8192), r"is truncated: it should hold \d+ bytes but holds "
                                             "8192"),
    ("scribbled over", _game_scribbled_over, r"is damaged"),
    ("names not JSON", lambda p: version_0_game(p, players="Anna, Bruno, Carla"),
     r"damaged: its table setup is not readable JSON"),
    ("a number for a name", lambda p: version_0_game(p, players=["Anna", 2, "Carla"]),
     r"damaged: its table setup does not list the players by name"),
    ("players not a list", lambda p: version_0_game(p, players={"Anna": 1}),
     r"damaged: its table setup does not list the players by name"),
    ("a switch from the future", lambda p: version_0_game(p, rules={"jokers": True}),
     r"damaged: its table setup is not a table: unknown rules switch 'jokers'"),
    ("a bad switch value", lambda p: version_0_game(p, rules={"dealer_draw": "sometimes"}),
     r"not a table: dealer_draw cannot be 'sometimes'"),
    ("lives in words", lambda p: version_0_game(p, lives="three"),
     r"not a table: lives must be a whole number of at least 1, not 'three'"),
    ("one player", lambda p: version_0_game(p, players=["Anna"]),
     r"not a table: a table has 3 to \d+ players, not 1"),
    ("no setup row", lambda p: _sqlite(version_0_game(p), "DELETE FROM table_setup"),
     r"damaged: its table setup \(players, rules, lives\) is missing"),
    ("two writers' keeps", lambda p: version_0_game(
        p, rows=[event_to_json(e) for e in [*OPENING, Keep("Anna")]]),
     r"stored event 4 does not replay: hand 1: Anna cannot keep"),
    ("an event not JSON", lambda p: version_0_game(p, rows=[{"kind": "keep", "player": ["x"]}]),
     r"stored event 1 does not replay"),
]


@pytest.mark.parametrize(("make", "says"), [(m, s) for _, m, s in BAD_FILES],
                         ids=[name for name, _, _ in BAD_FILES])
def test_a_bad_file_is_refused_with_its_reason_and_left_unchanged(
        tmp_path: Path, make: Callable[[Path], None], says: str) -> None:
    path = tmp_path / "bad.sqlite"
    make(path)
    before = _snapshot(tmp_path)
    for readonly in (True, False):
        with pytest.raises(StoreError, match=says):
            GameStore.open(path, readonly=readonly)
    after = _snapshot(tmp_path)
    if "damaged: its table setup" in says or "does not replay" in says:
        after.pop(tmp_path / "bad.sqlite-shm", None)  # our own old file: only SQLite's index
        before.pop(tmp_path / "bad.sqlite-shm", None)
    assert after == before


def _snapshot(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.iterdir())}


def test_another_programs_database_keeps_its_journal_mode(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    _sqlite(path, "CREATE TABLE notes (body TEXT)")
    with pytest.raises(StoreError, match="holds no Saltacavallo game"):
        GameStore.open(path)
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite"]


def test_a_folder_a_missing_file_a_device_and_a_symlink_loop_are_named(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for path, says in [(tmp_path, "is a folder, not a game file"),
                       (tmp_path / "missing.sqlite", "does not exist"),
                       (Path("/dev/null"), "not a regular file"),
                       (tmp_path / "loop", "a symlink loop")]:
        with pytest.raises(StoreError, match=says):
            GameStore.open(path)
    assert not (tmp_path / "missing.sqlite").exists()


def test_a_store_opened_read_only_refuses_every_change(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    with GameStore.create(path, TABLE) as store:
        store.play(OPENING[0])
    with GameStore.open(path, readonly=True) as viewer:
        for change in (lambda: viewer.play(OPENING[1]), viewer.undo,
                       lambda: viewer.warn("look", None),
                       lambda: viewer.resolve_warning(1, "seen")):
            with pytest.raises(StoreError, match="is open read-only"):
                change()
        assert viewer.export()["dealer"] == "Dario"


def _as_a_family_member(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a script with a person's file permissions (root's power to ignore them dropped)."""
    command = [sys.executable, "-c", script, *args]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("the tests run as root and setpriv is missing: permissions cannot bite")
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *command]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=60)


READ_ONLY_PROBE = """
import sys
from referee.store import GameStore, StoreError
try:
    GameStore.open(sys.argv[1])
except StoreError as err:
    print("write:", err)
try:
    with GameStore.open(sys.argv[1], readonly=True) as viewer:
        print("read:", viewer.game.history[-1], len(viewer.export()["players"]))
except StoreError as err:
    print("read:", err)
"""


def test_a_read_only_game_in_a_read_only_folder_can_still_be_read(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    with GameStore.create(path, TABLE) as store:
        for event in OPENING:
            store.play(event)
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        done = _as_a_family_member(READ_ONLY_PROBE, str(path))
    finally:
        tmp_path.chmod(0o755)
    assert done.stderr == ""
    assert done.stdout.splitlines() == [
        f"write: {path} is read-only: open it read-only to view or export it",
        "read: Keep(player='Anna') 4"]


def test_an_unreadable_game_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    GameStore.create(path, TABLE).close()
    path.chmod(0o000)
    done = _as_a_family_member(READ_ONLY_PROBE, str(path))
    assert done.stderr == ""
    assert done.stdout.splitlines() == [
        f"write: cannot read {path}: permission denied",
        f"read: cannot read {path}: permission denied"]


def test_undo_by_a_stale_writer_is_refused_and_a_rejected_event_is_never_stored(
        tmp_path: Path) -> None:
    path = tmp_path / "game.sqlite"
    GameStore.create(path, TABLE).close()
    with GameStore.open(path) as kitchen, GameStore.open(path) as phone:
        kitchen.play(OPENING[0])
        kitchen.play(OPENING[1])
        phone.refresh()
        assert kitchen.play(Keep("Anna")) == 3
        with pytest.raises(RuleError, match="Anna cannot keep.*another writer stored event 3"):
            phone.play(Keep("Anna"))
        assert phone.game.history == kitchen.game.history  # the loser now sees the winner's
        kitchen.play(Keep("Carla"))
        with pytest.raises(StoreError, match="nothing undone: the game changed since you last "
                                             r"looked \(another writer stored event 4 first\)"):
            phone.undo()
        assert phone.undo() == Keep("Carla")
    with GameStore.open(path) as again:
        assert [row["kind"] for row in again.events()] == [
            "choose_dealer", "deal", "keep", "keep", "undo"]
