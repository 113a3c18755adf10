"""Rules: the presets exactly as RULES.md's table, switches over napoli, clear errors."""

import pytest

from referee.rules import PRESETS, Rules, RulesError, find_rules

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
