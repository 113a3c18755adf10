"""Rules: the presets exactly as RULES.md's table, switches over napoli, enums that read as their
text, clear errors."""

import enum
import json

import pytest

from referee.rules import (
    PRESETS,
    DealerDraw,
    DealerRotation,
    DealerSelection,
    FinalTwo,
    Revival,
    Rules,
    RulesError,
    find_rules,
)

TABLE = {
    "napoli": dict(lives=3, dealer_selection="second_denari", horse_chain=True, skip_wraps=True,
                   dealer_draw="after_reveal", revival="one_life", final_two="play_out",
                   dealer_rotation="every_hand"),
    "classica": dict(lives=3, dealer_selection="second_denari", horse_chain=False,
                     skip_wraps=False, dealer_draw="blind", revival="off", final_two="play_out",
                     dealer_rotation="every_hand"),
}


@pytest.mark.parametrize("name", ["napoli", "classica"])
def test_presets_match_the_table(name: str) -> None:
    assert find_rules(name).switches() == TABLE[name]
    assert find_rules(name).name == name


def test_napoli_is_the_default_and_switches_go_over_it() -> None:
    assert Rules() == PRESETS["napoli"]
    mixed = find_rules({"final_two": "split", "horse_chain": False})
    assert mixed.final_two == "split" and not mixed.horse_chain and mixed.skip_wraps
    assert mixed.name is None


@pytest.mark.parametrize(
    ("spec", "says"),
    [("siciliana", "unknown rules preset 'siciliana'"),
     ({"jumps": 2}, "unknown rules switch 'jumps'"),
     ({"final_two": "share"}, "final_two cannot be 'share'"),
     ({"horse_chain": "yes"}, "horse_chain must be true or false"),
     ({"lives": 0}, "lives must be a whole number of at least 1"),
     (42, "rules must be a preset name or an object")],
)
def test_unknown_switches_and_values_are_clear_errors(spec: object, says: str) -> None:
    with pytest.raises(RulesError, match=says):
        find_rules(spec)  # type: ignore[arg-type]


def test_a_switch_is_its_enum_member_and_still_reads_and_writes_as_its_text() -> None:
    given_as_text = Rules(dealer_draw="blind", revival="off")  # type: ignore[arg-type]
    assert given_as_text.dealer_draw is DealerDraw.BLIND and given_as_text.revival is Revival.OFF
    assert given_as_text == Rules(dealer_draw=DealerDraw.BLIND, revival=Revival.OFF)
    assert given_as_text.dealer_draw == "blind" and f"{given_as_text.dealer_draw}" == "blind"
    classica = find_rules({"dealer_draw": "blind", "revival": "off", "horse_chain": False,
                           "skip_wraps": False})
    assert classica.name == "classica"
    assert json.dumps(PRESETS["classica"].switches()) == (
        '{"lives": 3, "dealer_selection": "second_denari", "horse_chain": false, '
        '"skip_wraps": false, "dealer_draw": "blind", "revival": "off", "final_two": "play_out", '
        '"dealer_rotation": "every_hand"}')


@pytest.mark.parametrize(("switch", "choice"), [
    ("dealer_selection", DealerSelection), ("dealer_draw", DealerDraw), ("revival", Revival),
    ("final_two", FinalTwo), ("dealer_rotation", DealerRotation)])
def test_every_choice_switch_takes_each_member_and_nothing_else(
        switch: str, choice: type[enum.StrEnum]) -> None:
    for member in choice:
        assert getattr(find_rules({switch: member.value}), switch) is member
    with pytest.raises(RulesError, match=f"{switch} cannot be 3: choose one of "
                                         f"{', '.join(m.value for m in choice)}"):
        find_rules({switch: 3})
