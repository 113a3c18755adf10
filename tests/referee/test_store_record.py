"""The second copy of the truth: the hand record beside the game file, and rebuilding from it."""

from __future__ import annotations

import io
import json
import random
from argparse import Namespace
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from referee.cli import run_import
from referee.events import Settle
from referee.record import replay, replay_output
from referee.simulate import game_events, random_game
from referee.store import GameStore, record_path


def test_the_record_beside_the_file_follows_every_settled_hand_and_undo(tmp_path: Path) -> None:
    rng = random.Random(4)
    source = random_game(rng)
    path = tmp_path / "family.sqlite"
    beside = tmp_path / "family.record.json"
    assert record_path(path) == beside
    with GameStore.create(path, source.first_players, source.rules) as store:
        for event in source.history:
            store.play(event)
        assert not beside.exists()  # nothing settled yet
        settled = 0
        for event in game_events(source, rng):
            store.play(event)
            if isinstance(event, Settle):
                settled += 1
                assert json.loads(beside.read_text()) == store.export()
                assert len(store.export()["hands"]) == settled
                if settled == 2:
                    store.undo()
                    assert len(json.loads(beside.read_text())["hands"]) == 1
                    store.play(event)
                    assert json.loads(beside.read_text()) == store.export()
        assert store.record_problem is None
        assert json.loads(beside.read_text()) == store.export()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["family.record.json", "family.sqlite"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_lost_game_file_is_rebuilt_from_the_record_beside_it(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    source = random_game(rng)
    for _ in game_events(source, rng, revive=0.5):
        pass
    path = tmp_path / "family.sqlite"
    with GameStore.create(path, source.first_players, source.rules) as store:
        for event in source.history:
            store.play(event)
    path.unlink()  # the laptop's disk lost it; the record beside it survived
    rebuilt = tmp_path / "rebuilt.sqlite"
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = run_import(Namespace(file=str(record_path(path)), db=rebuilt))
    assert (status, err.getvalue()) == (0, "")
    assert out.getvalue().startswith(f"imported {len(source.results)} hand")
    with GameStore.open(rebuilt) as again:
        assert replay_output(again.game) == replay_output(source)
        assert replay_output(replay(again.export())) == replay_output(source)


def test_a_record_that_cannot_be_written_does_not_lose_the_event(tmp_path: Path) -> None:
    rng = random.Random(9)
    source = random_game(rng)
    path = tmp_path / "family.sqlite"
    record_path(path).mkdir()  # something in the record's way
    with GameStore.create(path, source.first_players, source.rules) as store:
        for event in source.history:
            store.play(event)
        for event in game_events(source, rng):
            store.play(event)
            if isinstance(event, Settle):
                break
        assert store.record_problem is not None
        assert store.record_problem.startswith(f"cannot write the hand record {record_path(path)}")
        kept = len(store.game.history)
    with GameStore.open(path) as again:
        assert len(again.game.history) == kept
