"""What a person sends, checked before the game sees it: JSON bodies, names, the table, lives, the stake.

Each refusal says what to fix in Italian and in English (`Refused`); the API answers it with 400.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping
from typing import Any

from referee.cards import CardError, parse_card
from referee.game import MAX_PLAYERS, MIN_PLAYERS
from referee.rules import PRESETS

LONGEST_NAME = 24
"""Characters in a name: it must fit under its card on a phone's table page (20 seats round it)."""

LIVES = range(1, 10)
"""Lives a player may start with: the page draws one coin per life, and nine make a long evening."""

MAX_STAKE = 1000.0
"""The largest stake per life (a typo guard: families play for coins)."""

LARGEST_BODY = 256 * 1024
"""Bytes in a setup, correction or record: a record of 500 hands of 20 players is about 200 kB."""

DEEPEST = 32
"""Levels of nesting in a body: a hand record has five; a deeper body is no record but an attack."""

SHOWN = 30
"""Characters of a refused value repeated in the message (a 20,000-character name is not echoed)."""


class Refused(ValueError):
    """Input a person must fix, with the reason in Italian (`it`) and English (the message)."""

    def __init__(self, it: str, en: str) -> None:
        super().__init__(en)
        self.it = it


def shown(value: object) -> str:
    """`value` as a message quotes it, cut short when long."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def json_body(data: bytes) -> Any:
    """The JSON value of a request body: at most LARGEST_BODY bytes of UTF-8, DEEPEST levels deep."""
    if len(data) > LARGEST_BODY:
        raise Refused(f"la richiesta è troppo grande: al massimo {LARGEST_BODY // 1024} KB",
                      f"the body is too big: at most {LARGEST_BODY // 1024} KB")
    try:
        text = data.decode("utf-8") if data else "null"
    except UnicodeDecodeError:
        raise Refused("la richiesta non è testo UTF-8", "the body is not UTF-8 text") from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise _too_deep() from None
    except Refused:  # a NaN or an Infinity
        raise
    except json.JSONDecodeError as err:
        raise Refused(f"la richiesta non è JSON valido: {err.msg} alla riga {err.lineno} colonna "
                      f"{err.colno}", f"the body is not valid JSON: {err.msg} at line {err.lineno} "
                      f"column {err.colno}") from None
    except ValueError as err:  # a number of more than 4,300 digits
        raise Refused(f"la richiesta non è JSON accettabile: {err}",
                      f"the body is not acceptable JSON: {err}") from None
    _check_tree(value)
    return value


def json_object(data: bytes) -> dict[str, Any]:
    """The JSON object of a request body (`json_body`)."""
    value = json_body(data)
    if not isinstance(value, dict):
        raise Refused("la richiesta deve essere un oggetto JSON", "the body must be a JSON object")
    return value


def _no_constant(word: str) -> float:
    raise Refused(f"la richiesta non è JSON valido: {word} non è un numero",
                  f"the body is not valid JSON: {word} is not a number")


def _too_deep() -> Refused:
    return Refused(f"la richiesta ha troppi livelli uno dentro l'altro: al massimo {DEEPEST}",
                   f"the body is nested too deep: at most {DEEPEST} levels")


def _check_tree(value: Any) -> None:
    """Refuse a value nested deeper than DEEPEST, or holding text that is not Unicode (a lone
    surrogate escape such as \\ud800, which no file or page could store)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _unicode(item)
        elif isinstance(item, (list, dict)):
            if depth > DEEPEST:
                raise _too_deep()
            for key in item if isinstance(item, dict) else ():
                _unicode(key)
            children: Iterable[Any] = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def _unicode(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused("la richiesta contiene testo che non è Unicode valido",
                      "the body holds text that is not valid Unicode") from None


def name(value: object) -> str:
    """A player's name, trimmed: 1 to LONGEST_NAME printable characters."""
    if not isinstance(value, str):
        raise Refused(f"il nome di un giocatore è un testo, non {shown(value)}",
                      f"a player's name is text, not {shown(value)}")
    text = value.strip()
    if not text:
        raise Refused("manca un nome: ogni giocatore ne ha uno", "a player needs a name")
    if len(text) > LONGEST_NAME:
        raise Refused(f"il nome {shown(text)} è troppo lungo: al massimo {LONGEST_NAME} caratteri",
                      f"the name {shown(text)} is too long: at most {LONGEST_NAME} characters")
    if not text.isprintable():
        raise Refused(f"il nome {shown(text)} contiene caratteri che non si stampano (a capo, "
                      "tabulazioni, caratteri di controllo)", f"the name {shown(text)} holds "
                      "characters that cannot be printed (line breaks, tabs, control characters)")
    return text


def new_name(value: object, taken: Iterable[str]) -> str:
    """A name for a new player: a `name`, unlike every name `taken` without regard to case."""
    text = name(value)
    for other in taken:
        if other.casefold() == text.casefold():
            raise Refused(f"{other} e {text} sono lo stesso nome: ogni giocatore ne vuole uno "
                          "diverso", f"{other} and {text} are the same name: each player needs "
                          "a different one")
    return text


def players(value: object) -> list[str]:
    """The players of a new table, in seating order: MIN_PLAYERS to MAX_PLAYERS distinct names."""
    if not isinstance(value, list):
        raise Refused("i giocatori sono un elenco di nomi", "players must be a list of names")
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise Refused(f"al tavolo siedono da {MIN_PLAYERS} a {MAX_PLAYERS} giocatori, non "
                      f"{len(value)}", f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                      f"not {len(value)}")
    names: list[str] = []
    for each in value:
        names.append(new_name(each, names))
    return names


def lives(value: object) -> int | None:
    """The lives each player starts with, 1 to 9; None: the rules' own."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in LIVES:
        raise Refused(f"le vite a testa sono un numero intero da {LIVES[0]} a {LIVES[-1]}, non "
                      f"{shown(value)}", f"lives must be a whole number from {LIVES[0]} to "
                      f"{LIVES[-1]}, not {shown(value)}")
    return value


def rules(value: object) -> str | dict[str, Any]:
    """A rules preset's name, or an object of switches over `napoli`, each switch and value known."""
    if isinstance(value, str):
        if value not in PRESETS:
            raise Refused(f"non ci sono regole {shown(value)}: scegli tra {', '.join(PRESETS)}",
                          f"unknown rules preset {shown(value)}: the presets are "
                          f"{', '.join(PRESETS)}")
        return value
    if not isinstance(value, dict):
        raise Refused("le regole sono il nome di un insieme di regole o un oggetto di varianti",
                      "rules must be a preset name or an object of switches")
    usual = PRESETS["napoli"].switches()
    for switch, given in value.items():
        if switch not in usual:
            raise Refused(f"la variante {shown(switch)} non esiste: le varianti sono "
                          f"{', '.join(usual)}", f"unknown rules switch {shown(switch)}: the "
                          f"switches are {', '.join(usual)}")
        kind = type(usual[switch])
        if switch == "lives":
            lives(given)
        elif kind is bool and not isinstance(given, bool):
            raise Refused(f"la variante {switch} è vera o falsa, non {shown(given)}",
                          f"{switch} must be true or false, not {shown(given)}")
        elif issubclass(kind, enum.Enum) and given not in [m.value for m in kind]:
            choices = ", ".join(m.value for m in kind)
            raise Refused(f"la variante {switch} non può essere {shown(given)}: scegli tra "
                          f"{choices}", f"{switch} cannot be {shown(given)}: choose one of "
                          f"{choices}")
    return value


def stake(value: object) -> float:
    """The money one life is worth: 0 to MAX_STAKE, in cents at most."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 <= value <= MAX_STAKE) or abs(value * 100 - round(value * 100)) > 1e-6:
        raise Refused(f"la posta per vita è un numero da 0 a {MAX_STAKE:g}, al massimo con due "
                      f"decimali, non {shown(value)}", f"the stake per life must be a number "
                      f"from 0 to {MAX_STAKE:g} with at most two decimals, not {shown(value)}")
    return float(value)


def dealer(value: object, names: list[str]) -> str | None:
    """The first dealer, one of `names`; None lets the camera choose."""
    if value is None:
        return None
    chosen = name(value)
    if chosen not in names:
        raise Refused(f"il primo mazziere {chosen} non è al tavolo",
                      f"the first dealer {chosen} is not at the table")
    return chosen


NAMED = ("player", "dead", "living", "target", "before")
"""The fields of an event's JSON that hold a player's name."""


def event_names(event: Mapping[str, Any], seated: Iterable[str]) -> None:
    """Refuse a correction whose names are no names, or that seats a name already taken."""
    for field in NAMED:
        if event.get(field) is not None:
            name(event[field])
    if isinstance(event.get("cards"), Mapping):
        for each in event["cards"]:
            name(each)
    if event.get("kind") == "join":
        new_name(event.get("player"), seated)


def event_card(event: Mapping[str, Any]) -> None:
    """Refuse a correction whose card (`"card": "9S"`) names no card of the deck."""
    card = event.get("card")
    if card is None or (isinstance(card, str) and card.strip() == "?"):  # a card unseen
        return
    try:
        parse_card(card if isinstance(card, str) else "")
    except CardError:
        raise Refused(f"{shown(card)} non è una carta: scrivete un codice come 9S (Cavallo di "
                      "Spade) o 1D (Asso di Denari)", f"{shown(card)} is not a card: write a code "
                      "such as 9S (Cavallo di Spade) or 1D (Asso di Denari)") from None


def record_table(record: Mapping[str, Any]) -> None:
    """Refuse a game record whose table a person could not have set up (names, lives, rules)."""
    if "players" in record:
        players(record["players"])
    lives(record.get("lives"))
    if "rules" in record:
        rules(record["rules"])
