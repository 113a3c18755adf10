"""The switches of the rules and their named presets, exactly as RULES.md's table."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class RulesError(ValueError):
    """An unknown preset, switch or switch value."""


_CHOICES: dict[str, tuple[str, ...]] = {
    "dealer_selection": ("second_denari", "re_di_denari"),
    "dealer_draw": ("after_reveal", "blind"),
    "revival": ("one_life", "off"),
    "final_two": ("play_out", "split"),
    "dealer_rotation": ("every_hand", "until_stock_short"),
}
_FLAGS = ("horse_chain", "skip_wraps")


@dataclass(frozen=True, slots=True)
class Rules:
    """One family's variant: every switch of RULES.md, defaults of the `napoli` preset."""

    lives: int = 3
    dealer_selection: str = "second_denari"
    horse_chain: bool = True
    skip_wraps: bool = True
    dealer_draw: str = "after_reveal"
    revival: str = "one_life"
    final_two: str = "play_out"
    dealer_rotation: str = "every_hand"

    def __post_init__(self) -> None:
        _check_switches(dataclasses.asdict(self))

    def replace(self, **switches: Any) -> Rules:
        """These rules with some switches changed (checked like any other)."""
        _check_names(switches)
        return dataclasses.replace(self, **switches)

    def switches(self) -> dict[str, Any]:
        """Every switch and its value, in the table's order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @property
    def name(self) -> str | None:
        """The preset these rules are exactly, or None for a family's own mix."""
        return next((name for name, rules in PRESETS.items() if rules == self), None)


def _check_names(switches: Mapping[str, Any]) -> None:
    known = [f.name for f in dataclasses.fields(Rules)]
    for name in switches:
        if name not in known:
            raise RulesError(f"unknown rules switch {name!r}: the switches are {', '.join(known)}")


def _check_switches(switches: Mapping[str, Any]) -> None:
    lives = switches["lives"]
    if isinstance(lives, bool) or not isinstance(lives, int) or lives < 1:
        raise RulesError(f"lives must be a whole number of at least 1, not {lives!r}")
    for name in _FLAGS:
        if not isinstance(switches[name], bool):
            raise RulesError(f"{name} must be true or false, not {switches[name]!r}")
    for name, choices in _CHOICES.items():
        if switches[name] not in choices:
            raise RulesError(
                f"{name} cannot be {switches[name]!r}: choose one of {', '.join(choices)}"
            )


PRESETS: dict[str, Rules] = {
    "napoli": Rules(),
    "classica": Rules(horse_chain=False, skip_wraps=False, dealer_draw="blind", revival="off"),
}
"""The named presets of RULES.md's table."""


def find_rules(spec: str | Mapping[str, Any] | Rules) -> Rules:
    """A preset by name, or an object of switches over `napoli`; anything else is a RulesError."""
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, str):
        try:
            return PRESETS[spec]
        except KeyError:
            raise RulesError(
                f"unknown rules preset {spec!r}: the presets are {', '.join(PRESETS)}"
            ) from None
    if isinstance(spec, Mapping):
        _check_names(spec)
        return PRESETS["napoli"].replace(**spec)
    raise RulesError(f"rules must be a preset name or an object of switches, not {spec!r}")
