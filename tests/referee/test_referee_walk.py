"""The walk to the right: walls, jumps, wraps, and the reason given for each."""

import pytest

from referee.cards import parse_card
from referee.rules import find_rules
from referee.walk import Stop, swap_target


def walk(table: str, who: str, dealer: str, **switches: object):
    """Walk from `who` round a table written `Anna 3D, Bruno 10C, Carla ?, Dario 9B`."""
    seats = [seat.split() for seat in table.split(",")]
    ring = [name for name, _ in seats]
    shown = {name: parse_card(code) for name, code in seats
             if code != "?" and parse_card(code).value >= 9}
    return swap_target(who, ring, shown, dealer, find_rules(switches))


CASES = [
    # table, who, dealer, switches, target, stop, reason
    ("Anna 3D, Bruno 5C, Carla 5S, Dario 2B", "Anna", "Dario", {}, "Bruno", Stop.TARGET,
     "Anna may swap with Bruno"),
    ("Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "Anna", "Dario", {}, None, Stop.WALL,
     "Anna cannot swap: Bruno shows the Re di Coppe (wall)"),
    ("Anna 3D, Bruno 9C, Carla 5S, Dario 2B", "Anna", "Dario", {}, "Carla", Stop.TARGET,
     "Anna may swap with Carla: Bruno's Cavallo di Coppe is jumped"),
    ("Anna 3D, Bruno 9C, Carla 9S, Dario 2B", "Anna", "Dario", {}, "Dario", Stop.TARGET,
     "Anna may swap with Dario: Bruno's Cavallo di Coppe is jumped "
     "and Carla's Cavallo di Spade is jumped"),
    ("Anna 3D, Bruno 9C, Carla 9S, Dario 2B", "Anna", "Dario", {"horse_chain": False}, None,
     Stop.SECOND_CAVALLO, "Anna cannot swap: Bruno's Cavallo di Coppe is jumped, then "
     "Carla's Cavallo di Spade is a second Cavallo (horse_chain off: only one jump)"),
    ("Anna 3D, Bruno 9C, Carla 10S, Dario 2B", "Anna", "Dario", {}, None, Stop.WALL,
     "Anna cannot swap: Bruno's Cavallo di Coppe is jumped, then "
     "Carla shows the Re di Spade (wall)"),
    ("Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "Carla", "Dario", {}, "Anna", Stop.TARGET,
     "Carla may swap with Anna: Dario's Cavallo di Bastoni is jumped"),
    ("Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "Carla", "Dario", {"skip_wraps": False}, None,
     Stop.PASSES_DEALER, "Carla cannot swap: Dario's Cavallo di Bastoni is jumped, then "
     "the walk would pass the dealer Dario (skip_wraps off)"),
    ("Anna 3D, Bruno 10C, Carla 5S, Dario 4B", "Carla", "Dario", {"skip_wraps": False},
     "Dario", Stop.TARGET, "Carla may swap with Dario"),
    ("Anna 3D, Bruno 9C, Carla 9S, Dario 9B", "Anna", "Dario", {}, None, Stop.BACK_TO_SELF,
     "Anna cannot swap: Bruno's Cavallo di Coppe is jumped and Carla's Cavallo di Spade is "
     "jumped and Dario's Cavallo di Bastoni is jumped, then the walk comes back to Anna"),
    ("Anna 3D, Bruno ?, Carla 9S, Dario 9B", "Bruno", "Anna", {}, "Anna", Stop.TARGET,
     "Bruno may swap with Anna: Carla's Cavallo di Spade is jumped "
     "and Dario's Cavallo di Bastoni is jumped"),
    ("Anna 3D, Bruno ?, Carla 9S, Dario 9B", "Bruno", "Carla", {"skip_wraps": False}, None,
     Stop.PASSES_DEALER, "Bruno cannot swap: Carla's Cavallo di Spade is jumped, then "
     "the walk would pass the dealer Carla (skip_wraps off)"),
]


@pytest.mark.parametrize(("table", "who", "dealer", "switches", "target", "stop", "reason"), CASES)
def test_walk(table: str, who: str, dealer: str, switches: dict, target: str | None,
              stop: Stop, reason: str) -> None:
    found = walk(table, who, dealer, **switches)
    assert (found.target, found.stop, found.reason()) == (target, stop, reason)


def test_the_reason_in_italian() -> None:
    found = walk("Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "Anna", "Dario")
    assert found.reason_it() == "Anna non può scambiare: Bruno ha il Re di Coppe (muro)"
    found = walk("Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "Carla", "Dario")
    assert found.reason_it() == "Carla può scambiare con Anna: salta il Cavallo di Bastoni di Dario"
