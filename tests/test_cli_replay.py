"""`saltacavallo replay FILE` end to end, as a user runs it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.record import replay, replay_output

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "rules-example.json"


def saltacavallo(*args: str, given: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webui.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60, input=given)


def test_replaying_the_rules_example_prints_the_documented_tally() -> None:
    done = saltacavallo("replay", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    printed = json.loads(done.stdout)
    assert printed["hands"][0]["swaps"] == [["Carla", "Anna"]]
    assert printed["hands"][0]["final"] == {"Anna": "5S", "Bruno": "10C", "Carla": "3D",
                                            "Dario": "9B"}
    assert (printed["pot"], printed["next_dealer"], printed["winner"]) == (1, "Anna", None)
    assert printed["lives"] == {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3}


def test_a_record_that_breaks_a_rule_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    record = json.loads(EXAMPLE.read_text())
    record["hands"][0]["turns"]["Anna"] = "swap"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    done = saltacavallo("replay", str(bad))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"saltacavallo replay: {bad}: hand 1: Anna cannot swap: Bruno shows "
                           "the Re di Coppe (wall)\n")


@pytest.mark.parametrize(
    ("text", "says"),
    [('{"rules": "napoli", "players": ["Anna", "Bruno", "Carla"], ', "not valid JSON"),
     ('{"rules": "napoli", "hands": []}', "the record has no 'players'"),
     ('{"rules": "napoli", "players": ["A", "B", "C"], "hands": [{"deal": {"A": "9X"}}]}',
      "unknown card code '9X'")],
)
def test_malformed_records_exit_2_with_a_message_not_a_traceback(tmp_path: Path, text: str,
                                                                 says: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    done = saltacavallo("replay", str(bad))
    assert done.returncode == 2 and done.stdout == ""
    assert says in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_record_on_standard_input_is_replayed() -> None:
    done = saltacavallo("replay", "-", given=EXAMPLE.read_text())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["lives"] == {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3}
    done = saltacavallo("replay", "-", given='{"players": ["Anna"]')
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("saltacavallo replay: <stdin>: not valid JSON")


def _unreadable(tmp_path: Path) -> list[tuple[str, str]]:
    """Files that cannot be read as a record at all, and what each is called."""
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    (tmp_path / "latin1.json").write_bytes('{"players": ["Niccol\xf2"]}'.encode("latin-1"))
    (tmp_path / "deep.json").write_text("[" * 100_000)
    return [(str(tmp_path / "nope.json"), "cannot read it: no such file or folder"),
            (str(tmp_path), "cannot read it: a folder, not a file"),
            (str(tmp_path / "loop.json"), "cannot read it: a symlink loop"),
            ("/dev/zero", "larger than 4 MB, the most a hand record may hold"),
            (str(tmp_path / "latin1.json"), "not UTF-8 text (byte 20 is 0xf2)"),
            (str(tmp_path / "deep.json"), "nested deeper than 16 brackets: not a hand record")]


def test_every_unreadable_record_gets_one_prefixed_line_and_exit_2(tmp_path: Path) -> None:
    for name, says in _unreadable(tmp_path):
        done = saltacavallo("replay", name)
        assert (done.returncode, done.stdout) == (2, ""), name
        assert done.stderr.startswith(f"saltacavallo replay: {name}: {says}"), done.stderr
        assert len(done.stderr.splitlines()) == 1


def test_a_record_imported_into_a_new_game_file_plays_on_from_the_same_tally(
        tmp_path: Path) -> None:
    game = tmp_path / "again.sqlite"
    done = saltacavallo("import", str(EXAMPLE), "--db", str(game))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"imported 1 hand (6 events) into {game}\n"
    exported = saltacavallo("export", str(game))
    assert exported.returncode == 0, exported.stderr
    tally = replay_output(replay(json.loads(exported.stdout)))
    assert tally == replay_output(replay(json.loads(EXAMPLE.read_text())))
    assert json.loads((tmp_path / "again.record.json").read_text()) == json.loads(exported.stdout)
    again = saltacavallo("import", str(EXAMPLE), "--db", str(game))
    assert (again.returncode, again.stdout) == (2, "")
    assert again.stderr == (f"saltacavallo import: {game} already exists: open it, or choose a "
                            "new file\n")


def test_import_and_export_refuse_bad_input_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["Anna", "Bruno"], "hands": []}')
    cases = [(("import", str(bad), "--db", str(tmp_path / "new.sqlite")),
              f"saltacavallo import: {bad}: a table has 3 to 20 players, not 2"),
             (("import", str(EXAMPLE), "--db", str(tmp_path / "no" / "new.sqlite")),
              "saltacavallo import: cannot create"),
             (("export", str(bad)), f"saltacavallo export: {bad} holds no Saltacavallo game")]
    for args, says in cases:
        done = saltacavallo(*args)
        assert (done.returncode, done.stdout) == (2, ""), args
        assert done.stderr.startswith(says) and len(done.stderr.splitlines()) == 1, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]
