"""Hand records: the RULES.md example replays to the documented output; bad records are named."""

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from referee.game import RuleError
from referee.rules import PRESETS
from referee.record import (
    RecordError,
    game_record,
    read_record,
    render_output,
    replay,
    replay_output,
)
from referee.simulate import game_events, random_game

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "RULES.md"
SHARED_RULES_MD = ROOT.parent / "shared" / "RULES.md"

EXAMPLE: dict[str, Any] = {
    "rules": "napoli",
    "players": ["Anna", "Bruno", "Carla", "Dario"],
    "lives": 3,
    "dealer": "Dario",
    "hands": [
        {
            "deal": {"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"},
            "turns": {"Anna": "keep", "Carla": "swap"},
            "stock": ["2C"],
        }
    ],
}

PRINTED = """{
  "hands": [
    {"dealer": "Dario", "swaps": [["Carla", "Anna"]],
     "final": {"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"},
     "losers": ["Carla"], "void": false,
     "lives": {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3}, "pot": 1}
  ],
  "lives": {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3},
  "pot": 1,
  "alive": ["Anna", "Bruno", "Carla", "Dario"],
  "next_dealer": "Anna",
  "winner": null
}"""


def rules_md_blocks() -> list[str]:
    return re.findall(r"```json\n(.*?)```", RULES_MD.read_text(encoding="utf-8"), re.S)


def test_the_example_file_is_the_rules_page_record() -> None:
    assert json.loads((ROOT / "examples" / "rules-example.json").read_text()) == EXAMPLE
    record, printed = rules_md_blocks()[:2]
    assert json.loads(record) == EXAMPLE
    assert printed.rstrip("\n") == PRINTED


def test_the_repository_rules_page_is_the_shared_one() -> None:
    if not SHARED_RULES_MD.is_file():
        pytest.skip(f"{SHARED_RULES_MD} is absent: nothing to compare docs/RULES.md with")
    assert RULES_MD.read_text(encoding="utf-8") == SHARED_RULES_MD.read_text(encoding="utf-8")


def test_the_example_replays_to_exactly_the_documented_output() -> None:
    text = render_output(replay_output(replay(EXAMPLE)))
    assert text == PRINTED
    assert list(json.loads(text)) == ["hands", "lives", "pot", "alive", "next_dealer", "winner"]


def with_hand(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(EXAMPLE)
    record["hands"][0].update(changes)
    return record


ILLEGAL = [
    (with_hand(turns={"Anna": "swap"}),
     "hand 1: Anna cannot swap: Bruno shows the Re di Coppe (wall)"),
    (with_hand(revive=[["Bruno", "Anna"]]), "hand 1: Bruno cannot be revived: Bruno is not dead"),
    (with_hand(deal={"Anna": "3D", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}),
     "hand 1: a card twice: 3D is dealt twice"),
    (with_hand(showdown={"Anna": "5S", "Bruno": "3D", "Carla": "10C", "Dario": "9B"}),
     "hand 1: Bruno shows 3D at the reveal, but Bruno's Re di Coppe was shown at the deal "
     "(a Re that moved)"),
    (with_hand(turns={"Dario": "draw"}),
     "hand 1: Dario cannot draw: Dario shows the Cavallo di Bastoni and takes no turn"),
    (with_hand(turns={"Bruno": "swap"}),
     "hand 1: Bruno cannot swap: Bruno shows the Re di Coppe and takes no turn"),
    (with_hand(turns={"Anna": "draw"}), "hand 1: Anna cannot draw: only the dealer draws"),
    (with_hand(turns={"Zeno": "keep"}), "hand 1: Zeno is not at the table"),
    (with_hand(deal={"Anna": "3D", "Bruno": "10C", "Carla": "5S"}),
     "hand 1: Dario has no card in the deal"),
    ({**EXAMPLE, "dealer": "Zeno"}, "Zeno is not at the table"),
    ({**EXAMPLE, "players": ["Anna", "Bruno"]}, "a table has 3 to 20 players, not 2"),
]


@pytest.mark.parametrize(("record", "says"), ILLEGAL)
def test_a_record_that_breaks_a_rule_names_hand_player_and_rule(record: dict, says: str) -> None:
    with pytest.raises(RuleError) as caught:
        replay(record)
    assert str(caught.value) == says


def test_a_dead_players_turn_is_rejected() -> None:
    record = {"rules": "napoli", "players": ["Anna", "Bruno", "Carla", "Dario"], "lives": 1,
              "hands": [{"deal": {"Anna": "5D", "Bruno": "1C", "Carla": "6S", "Dario": "7B"}},
                        {"deal": {"Anna": "5D", "Carla": "6S", "Dario": "7B"},
                         "turns": {"Bruno": "keep"}}]}
    with pytest.raises(RuleError, match=r"^hand 2: Bruno cannot keep: Bruno is dead$"):
        replay(record)


@pytest.mark.parametrize(
    ("text", "says"),
    [("{", "not valid JSON"), ("[1, 2]", "a hand record is a JSON object"),
     ('{"rules": "napoli", "hands": []}', "the record has no 'players'"),
     ('{"rules": 3, "players": ["A", "B", "C"], "hands": []}', "'rules' has the wrong type"),
     ('{"rules": "napoli", "players": ["A", "B", "C"]}', "the record has no 'hands'"),
     ('{"rules": "roma", "players": ["A", "B", "C"], "hands": []}', "unknown rules preset 'roma'"),
     ('{"rules": {"jumps": 1}, "players": ["A", "B", "C"], "hands": []}',
      "unknown rules switch 'jumps'"),
     ('{"rules": "napoli", "players": ["A", "B", "C"], "hands": [{}]}', "hand 1: has no 'deal'"),
     ('{"rules": "napoli", "players": ["A", "B", "C"], "hands": [{"deal": {"A": "11D"}}]}',
      "unknown card code '11D'"),
     ('{"rules": "napoli", "players": ["A", "B", "C"], "hands": [{"deal": {}, "swaps": []}]}',
      "hand 1: unknown field 'swaps'"),
     ('{"rules": "napoli", "players": ["A", "B", "C"], "hands": [{"deal": {"A": "1D", '
      '"B": "2D", "C": "3D"}, "turns": {"A": "pass"}}]}', "A's turn 'pass' is not keep"),
     ('{"rules": "napoli", "players": ["A", "B", "C"], "hands": [{"deal": {"A": "1D", '
      '"B": "2D", "C": "3D"}, "stock": ["?"]}]}', "a seen card is required"),
     ('{"rules": "napoli", "players": ["A", "B", "C"], "hands": [{"deal": {"A": "1D", '
      '"B": "2D", "C": "3D"}, "revive": [["A"]]}]}', "a revive is a [dead, living] pair")],
)
def test_malformed_records_are_record_errors(text: str, says: str) -> None:
    with pytest.raises(RecordError, match=re.escape(says)):
        replay(read_record(text))


def test_every_random_game_exports_as_a_record_that_replays_to_the_same_game() -> None:
    rng = random.Random(7)
    for _ in range(60):
        game = random_game(rng)
        for _ in game_events(game, rng, unseen=0.3):
            pass
        record = json.loads(json.dumps(game_record(game)))
        again = replay(record)
        assert replay_output(again) == replay_output(game)
        assert again.outcome() == game.outcome()


def test_a_record_without_rules_is_played_under_napoli() -> None:
    record = {"players": ["Anna", "Bruno", "Carla", "Dario"], "dealer": "Dario",
              "hands": [{"deal": {"Anna": "3D", "Bruno": "9C", "Carla": "5S", "Dario": "9B"},
                         "turns": {"Anna": "keep", "Carla": "swap"}}]}
    game = replay(record)
    assert game.rules == PRESETS["napoli"]
    # skip_wraps (napoli): Carla jumps the dealer Dario's Cavallo and swaps with Anna
    assert game.results[0].swaps == (("Carla", "Anna"),)
    assert game.results[0].losers == ("Carla",)


def test_without_a_dealer_the_first_player_deals_and_lives_default_to_the_rules() -> None:
    record = {"rules": {"lives": 2}, "players": ["Anna", "Bruno", "Carla"],
              "hands": [{"deal": {"Anna": "4D", "Bruno": "2C", "Carla": "6S"}}]}
    game = replay(record)
    assert game.results[0].dealer == "Anna" and game.lives == {"Anna": 2, "Bruno": 1, "Carla": 2}
    assert game.next_dealer == "Bruno"
