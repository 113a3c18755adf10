"""The table service: the one writer, its change notification, its files, and a restart."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from referee.events import Deal, Keep, Reveal, Settle, Swap
from referee.game import RuleError
from vision.frames import PushedFrames
from webui.guard import FREE_TRIES, MAX_WAIT, PinGuard, PinRefused, check_pin_text
from webui import table
from webui.table import WATCHED, TableError, TableService

from conftest import PLAYERS

HAND = [Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}), Keep("Anna"),
        Swap("Carla"), Reveal.of({"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}),
        Settle()]


@pytest.fixture
def service(tmp_path: Path) -> TableService:
    table = TableService(tmp_path / "family.db")
    table.setup(PLAYERS, "napoli", dealer="Dario", stake=0.2)
    yield table
    table.close()


def test_every_change_is_told_to_the_listeners_with_its_state(service: TableService) -> None:
    heard: list[tuple[int, str]] = []
    service.on_change(lambda: heard.append(service.versioned_state()))
    service.play(HAND[0])
    service.play(HAND[1])
    assert [version for version, _ in heard] == [service.version - 1, service.version]
    assert all('"current_player":"Carla"' in heard[-1][1][language] for language in ("it", "en"))
    assert '"Anna keeps"' in heard[-1][1]["en"] and '"Anna tiene la carta"' in heard[-1][1]["it"]


def test_a_refused_event_tells_no_listener(service: TableService) -> None:
    heard: list[int] = []
    service.on_change(lambda: heard.append(service.version))
    with pytest.raises(RuleError):
        service.play(Settle())
    assert heard == []


def test_the_state_is_built_once_per_change(service: TableService) -> None:
    first = service.state_json()
    assert service.state_json() is first
    service.play(HAND[0])
    assert service.state_json() is not first


def test_a_restart_on_the_same_file_shows_the_same_tally(tmp_path: Path) -> None:
    table = TableService(tmp_path / "family.db")
    table.setup(PLAYERS, dealer="Dario", stake=0.2)
    for event in HAND + [HAND[0].__class__.of({"Anna": "1C", "Bruno": "2C", "Carla": "4C",
                                                "Dario": "6C"})]:
        table.play(event)
    before = table.state()
    table.close()
    again = TableService(tmp_path / "family.db")
    after = again.state()
    for key in ("players", "lives", "pot", "phase", "hand", "dealer", "current_player", "seats",
                "verdicts", "stake"):
        assert after[key] == before[key], key
    assert after["lives"]["Carla"] == 2 and after["current_player"] == "Bruno"
    again.close()


def test_a_new_setup_keeps_the_old_game_file_beside(service: TableService) -> None:
    service.play(HAND[0])
    heard = []
    service.on_new_game(lambda game: heard.append(game.players))
    service.setup(["Elena", "Franco", "Gino"], "classica", lives=2, dealer="Gino")
    assert service.state()["players"] == ["Elena", "Franco", "Gino"]
    assert service.state()["preset"] == "classica" and service.state()["start_lives"] == 2
    (kept,) = service.db_path.parent.glob("family-*.db")
    old = TableService(kept, evidence_dir=service.evidence_dir)
    assert old.state()["players"] == PLAYERS and old.state()["phase"] == "turns"
    old.close()
    assert heard == [("Elena", "Franco", "Gino")]


def test_a_refused_event_changes_nothing(service: TableService) -> None:
    version = service.version
    with pytest.raises(RuleError, match="cannot settle"):
        service.play(Settle())
    assert service.version == version and service.game.history[-1].__class__.__name__ == \
        "ChooseDealer"


def test_the_live_picture_reaches_its_viewers(service: TableService) -> None:
    assert service.frame() == (0, None)
    got: list[tuple[int, bytes]] = []
    service.on_picture(lambda index, jpeg: got.append((index, jpeg)))
    service.show_frame(b"\xff\xd8first\xff\xd9")
    assert got == [(1, b"\xff\xd8first\xff\xd9")] and service.frame() == got[0]


def test_the_live_picture_is_watched_while_a_page_streams_it_or_has_just_asked_for_it(
        service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not service.watched()  # nobody looks: the live loop draws no picture
    streaming = [0]
    service.count_streams(lambda: streaming[0])
    streaming[0] = 1  # a Live page opens the picture's stream
    assert service.watched()
    streaming[0] = 0
    assert not service.watched()
    service.frame()  # the held hand's page asks for the picture now
    assert service.watched()
    later = time.monotonic() + WATCHED
    monkeypatch.setattr(table, "time", SimpleNamespace(monotonic=lambda: later))  # WATCHED seconds on
    assert not service.watched()


def test_the_camera_status_is_part_of_the_state_in_each_language(service: TableService) -> None:
    version = service.version
    phone = PushedFrames()
    service.camera_status(phone.status().to_json())
    service.camera_status(phone.status().to_json())
    assert service.version == version + 1  # the same status twice is one change
    status = {"state": "connecting", "message": "waiting for pictures from the phone's camera",
              "code": "source.waiting", "params": {"where": {"code": "place.phone", "params": {}}}}
    assert service.state("en")["camera"] == {
        **status, "text": "waiting for pictures from the phone's camera"}
    assert service.state("it")["camera"] == {
        **status, "text": "in attesa delle immagini: la fotocamera del telefono"}
    phone.close()


def test_a_status_without_a_code_reads_as_it_came(service: TableService) -> None:
    service.camera_status({"state": "live", "message": "receiving pictures"})
    for language in ("it", "en"):
        assert service.state(language)["camera"] == {"state": "live", "message": "receiving pictures",
                                                     "text": "receiving pictures"}


def test_no_game_yet_is_said_plainly(tmp_path: Path) -> None:
    table = TableService(tmp_path / "empty.db")
    with pytest.raises(TableError, match="no game yet: set up the players first"):
        table.play(HAND[0])
    with pytest.raises(TableError, match="set up the players before placing their seats"):
        table.set_seats(100, 100, {})
    table.close()


def test_pin_guard_waits_longer_after_each_wrong_pin() -> None:
    now = [1000.0]
    guard = PinGuard("4321", clock=lambda: now[0])
    for _ in range(FREE_TRIES):
        with pytest.raises(PinRefused) as refused:
            guard.check("phone", "0000")
        assert refused.value.status == 403
    waits = []
    for _ in range(8):
        with pytest.raises(PinRefused) as refused:
            guard.check("phone", "4321")  # even the right PIN waits its turn
        assert refused.value.status == 429
        waits.append(refused.value.wait)
        now[0] += refused.value.wait
        with pytest.raises(PinRefused):
            guard.check("phone", "0000")
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, MAX_WAIT, MAX_WAIT]
    guard.check("laptop", "4321")  # another client is not slowed
    now[0] += MAX_WAIT
    guard.check("phone", "4321")
    guard.check("phone", "4321")  # the right PIN clears the count


@pytest.mark.parametrize("text", ["123", "12a4", "1234567890123", "١٢٣٤"])
def test_a_chosen_pin_must_be_4_to_12_digits(text: str) -> None:
    with pytest.raises(ValueError, match="the PIN must be 4 to 12 digits"):
        check_pin_text(text)
