"""Fuzzing: any record, stored event or setup row plays or is refused in words, never a crash."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
import tempfile
from argparse import Namespace
from collections.abc import Iterator
from contextlib import closing, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import events as event_module
from referee.cards import DECK
from referee.cli import run_replay
from referee.events import event_from_json
from referee.game import RuleError
from referee.record import RecordError, read_record, replay
from referee.store import GameStore, StoreError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rules-example.json"
TABLE = ["Anna", "Bruno", "Carla", "Dario"]
FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])
"""Enough examples to find the shapes nobody thought of, in a few seconds per property (and no
example database written into the working tree)."""

NAMES = st.sampled_from([*TABLE, "Elena", "", "?", " "]) | st.text(max_size=4)
CODES = (st.sampled_from([c.code for c in DECK] + ["?", "9X", "back", "", "10", "0C"])
         | st.text(max_size=3))
JSON_LEAVES = (st.none() | st.booleans() | st.integers(-3, 10**12) | st.floats()
               | st.text(max_size=5))
ANY_JSON = st.recursive(JSON_LEAVES, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)


def _sometimes(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A plausible value most of the time, any JSON value now and then."""
    return st.one_of(strategy, strategy, strategy, ANY_JSON)


SWITCHES = st.sampled_from(["lives", "dealer_draw", "revival", "horse_chain", "jokers"])
HANDS = st.fixed_dictionaries(
    {"deal": _sometimes(st.dictionaries(NAMES, CODES, max_size=5))},
    optional={"turns": _sometimes(st.dictionaries(
                  NAMES, st.sampled_from(["keep", "swap", "draw", "pass"]), max_size=5)),
              "stock": _sometimes(st.lists(CODES, max_size=3)),
              "showdown": _sometimes(st.dictionaries(NAMES, CODES, max_size=5)),
              "revive": _sometimes(st.lists(st.lists(NAMES, max_size=3), max_size=2)),
              "leave": _sometimes(st.lists(NAMES, max_size=2)),
              "join": _sometimes(ANY_JSON)})
RECORDS = st.fixed_dictionaries(
    {"players": _sometimes(st.lists(NAMES, min_size=0, max_size=6)),
     "hands": _sometimes(st.lists(_sometimes(HANDS), max_size=3))},
    optional={"rules": _sometimes(st.sampled_from(["napoli", "classica", "roma"])
                                  | st.dictionaries(SWITCHES, JSON_LEAVES, max_size=3)),
              "lives": _sometimes(st.integers(-1, 5)),
              "dealer": _sometimes(NAMES)})


def _mutations_of_the_example() -> st.SearchStrategy[dict[str, Any]]:
    """The rules page's example with one field of one hand replaced by something else."""
    example = json.loads(EXAMPLE.read_text())

    def mutate(path: tuple[str, str], value: Any) -> dict[str, Any]:
        record = json.loads(json.dumps(example))
        hand = record["hands"][0]
        if path[0] == "hand":
            hand[path[1]] = value
        else:
            record[path[1]] = value
        return record

    where = st.sampled_from([("hand", k) for k in ("deal", "turns", "stock", "showdown", "revive")]
                            + [("top", k) for k in ("players", "rules", "lives", "dealer")])
    return st.builds(mutate, where, ANY_JSON | HANDS)


@FUZZ
@given(st.one_of(RECORDS, _mutations_of_the_example()))
def test_any_record_replays_or_is_refused_with_a_record_or_rule_error(
        record: dict[str, Any]) -> None:
    try:
        replay(read_record(json.dumps(record)))
    except (RecordError, RuleError):
        pass


@FUZZ
@given(st.text(max_size=60) | ANY_JSON.map(json.dumps))
def test_any_text_is_a_record_or_a_record_error(text: str) -> None:
    try:
        assert isinstance(read_record(text), dict)
    except RecordError:
        pass


@settings(FUZZ, max_examples=60)
@given(st.one_of(RECORDS, _mutations_of_the_example()))
def test_the_replay_command_answers_any_record_with_a_tally_or_one_line(
        record: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_text(json.dumps(record))
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = run_replay(Namespace(file=str(path)))
    if status == 0:
        assert json.loads(out.getvalue())["lives"] is not None and err.getvalue() == ""
    else:
        assert status == 2 and out.getvalue() == ""
        assert err.getvalue().startswith(f"saltacavallo replay: {path}: ")
        assert len(err.getvalue().splitlines()) == 1


@pytest.fixture(scope="module")
def blank_game() -> Iterator[Path]:
    """A new game file of four players, copied for each example (creating one costs an fsync)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "blank.sqlite"
        GameStore.create(path, TABLE).close()
        yield path


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    """A folder for the examples' copies."""
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


def _copy(blank: Path, scratch: Path) -> Path:
    path = scratch / "game.sqlite"
    for leftover in scratch.iterdir():
        leftover.unlink()
    shutil.copyfile(blank, path)
    return path


KINDS = st.sampled_from(sorted(event_module._KINDS) + ["undo", "corrupt", ""])
EVENT_FIELDS = {"player": NAMES, "card": CODES, "cards": st.dictionaries(NAMES, CODES, max_size=5),
                "target": st.none() | NAMES, "dead": NAMES, "living": NAMES}
EVENTS = st.builds(lambda kind, fields: {"kind": kind, **fields}, KINDS,
                   st.dictionaries(st.sampled_from(sorted(EVENT_FIELDS)) | st.text(max_size=3),
                                   ANY_JSON, max_size=3)) | st.builds(
    lambda kind, fields: {"kind": kind, **fields}, KINDS,
    st.fixed_dictionaries({}, optional={k: _sometimes(v) for k, v in EVENT_FIELDS.items()}))
ROWS = _sometimes(EVENTS).map(json.dumps) | st.text(max_size=20) | st.just("[" * 5000)


@FUZZ
@given(st.lists(ROWS, min_size=1, max_size=6))
def test_any_stored_events_replay_or_the_file_is_refused_in_words(
        blank_game: Path, scratch: Path, rows: list[str]) -> None:
    path = _copy(blank_game, scratch)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        for text in rows:
            db.execute("INSERT INTO events (kind, data, at) VALUES ('?', ?, 'now')", (text,))
    try:
        GameStore.open(path).close()
    except StoreError as err:
        assert str(err).startswith(f"{path}: stored event ")


@FUZZ
@given(st.lists(_sometimes(EVENTS), min_size=1, max_size=6))
def test_any_event_json_played_into_a_store_is_taken_or_refused_and_the_file_still_replays(
        blank_game: Path, scratch: Path, rows: list[Any]) -> None:
    path = _copy(blank_game, scratch)
    with GameStore.open(path) as store:
        for data in rows:
            try:
                event = event_from_json(data)
            except (ValueError, KeyError, TypeError, AttributeError):
                continue  # not an event at all: nothing to play
            try:
                store.play(event)
            except (RuleError, StoreError):
                pass
        played = list(store.game.history)
    with GameStore.open(path) as again:
        assert again.game.history == played


SETUP_TEXT = (ANY_JSON.map(json.dumps) | st.text(max_size=12)
              | st.lists(NAMES, max_size=6).map(json.dumps) | st.just("[" * 5000))
RULES_TEXT = SETUP_TEXT | st.sampled_from(['"napoli"', '{"lives": 2}', '{"jokers": true}'])
LIVES = (st.integers(-2, 2**63 - 1) | st.text(max_size=3) | st.floats(allow_nan=False)
         | st.binary(max_size=3))


@FUZZ
@given(SETUP_TEXT, RULES_TEXT, LIVES)
def test_any_setup_row_is_a_table_or_a_store_error(
        blank_game: Path, scratch: Path, players: str, rules: str, lives: Any) -> None:
    path = _copy(blank_game, scratch)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("UPDATE table_setup SET players = ?, rules = ?, lives = ?",
                   (players, rules, lives))
    try:
        with GameStore.open(path) as store:
            assert len(store.game.players) >= 3
    except StoreError as err:
        assert str(err).startswith(f"{path} is damaged: its table setup")
