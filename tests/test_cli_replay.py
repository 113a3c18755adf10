"""`saltacavallo replay FILE` end to end, as a user runs it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "rules-example.json"


def saltacavallo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webui.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


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
    assert done.stderr == "hand 1: Anna cannot swap: Bruno shows the Re di Coppe (wall)\n"


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


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    done = saltacavallo("replay", str(tmp_path / "nope.json"))
    assert done.returncode == 2 and "cannot read" in done.stderr and "Traceback" not in done.stderr
