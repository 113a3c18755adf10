"""The switches of the rules and their named presets, exactly as RULES.md's table."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class RulesError(ValueError):
    """An unknown preset, switch or switch value."""


class DealerSelection(enum.StrEnum):
    """Which face-up card makes the first dealer."""

    SECOND_DENARI = "second_denari"
    RE_DI_DENARI = "re_di_denari"


class DealerDraw(enum.StrEnum):
    """When the dealer draws: after seeing every card, or before anyone reveals."""

    AFTER_REVEAL = "after_reveal"
    BLIND = "blind"


class Revival(enum.StrEnum):
    """Whether a living player may hand a dead one a life between hands."""

    ONE_LIFE = "one_life"
    OFF = "off"


class FinalTwo(enum.StrEnum):
    """Whether the last two play on for the pot or stop and share it."""

    PLAY_OUT = "play_out"
    SPLIT = "split"


class DealerRotation(enum.StrEnum):
    """Whether the deal passes after every hand or only when the stock runs short."""

    EVERY_HAND = "every_hand"
    UNTIL_STOCK_SHORT = "until_stock_short"


_CHOICES: dict[str, type[enum.StrEnum]] = {
    "dealer_selection": DealerSelection,
    "dealer_draw": DealerDraw,
    "revival": Revival,
    "final_two": FinalTwo,
    "dealer_rotation": DealerRotation,
}
_FLAGS = ("horse_chain", "skip_wraps")


@dataclass(frozen=True, slots=True)
class Rules:
    """One family's variant: every switch of RULES.md, defaults of the `napoli` preset.

    A choice may be given as its text (`dealer_draw="blind"`); it is kept as its enum member,
    which equals that text and is written as it in JSON.
    """

    lives: int = 3
    dealer_selection: DealerSelection = DealerSelection.SECOND_DENARI
    horse_chain: bool = True
    skip_wraps: bool = True
    dealer_draw: DealerDraw = DealerDraw.AFTER_REVEAL
    revival: Revival = Revival.ONE_LIFE
    final_two: FinalTwo = FinalTwo.PLAY_OUT
    dealer_rotation: DealerRotation = DealerRotation.EVERY_HAND

    def __post_init__(self) -> None:
        lives = self.lives
        if isinstance(lives, bool) or not isinstance(lives, int) or lives < 1:
            raise RulesError(f"lives must be a whole number of at least 1, not {lives!r}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}")
        for name, choice in _CHOICES.items():
            object.__setattr__(self, name, _chosen(name, choice, getattr(self, name)))

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


def _chosen(name: str, choice: type[enum.StrEnum], value: Any) -> enum.StrEnum:
    """The member of `choice` that `value` names, or a RulesError listing the choices."""
    if isinstance(value, str):
        try:
            return choice(value)
        except ValueError:
            pass
    raise RulesError(f"{name} cannot be {value!r}: choose one of {', '.join(choice)}")


def _check_names(switches: Mapping[str, Any]) -> None:
    known = [f.name for f in dataclasses.fields(Rules)]
    for name in switches:
        if name not in known:
            raise RulesError(f"unknown rules switch {name!r}: the switches are {', '.join(known)}")



PRESETS: dict[str, Rules] = {
    "napoli": Rules(),
    "classica": Rules(horse_chain=False, skip_wraps=False, dealer_draw=DealerDraw.BLIND,
                      revival=Revival.OFF),
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
