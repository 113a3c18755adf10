"""What a person sends, checked before the game sees it: JSON bodies, names, the table, lives, the stake.

Each refusal is a code of WORDS with its parameters, saying what to fix (`Refused`); the API
answers it with 400, in Italian and in English.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping
from typing import Any

from referee.cards import CardError, parse_card
from referee.game import RuleError, seated
from referee.rules import PRESETS
from referee.wording import register
from live.words import Coded

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


WORDS: dict[str, dict[str, str]] = register({
    # a request's body
    "input.too_big": {"en": "the body is too big: at most {most} KB",
                      "it": "la richiesta è troppo grande: al massimo {most} KB"},
    "input.encoding": {"en": "the body is not UTF-8 text", "it": "la richiesta non è testo UTF-8"},
    "input.not_json": {"en": "the body is not valid JSON: {detail} at line {line} column {column}",
                       "it": "la richiesta non è JSON valido: {detail} alla riga {line} colonna "
                             "{column}"},
    "input.unacceptable": {"en": "the body is not acceptable JSON: {detail}",
                           "it": "la richiesta non è JSON accettabile: {detail}"},
    "input.constant": {"en": "the body is not valid JSON: {name} is not a number",
                       "it": "la richiesta non è JSON valido: {name} non è un numero"},
    "input.not_object": {"en": "the body must be a JSON object",
                         "it": "la richiesta deve essere un oggetto JSON"},
    "input.too_deep": {"en": "the body is nested too deep: at most {most} levels",
                       "it": "la richiesta ha troppi livelli uno dentro l'altro: al massimo {most}"},
    "input.not_unicode": {"en": "the body holds text that is not valid Unicode",
                          "it": "la richiesta contiene testo che non è Unicode valido"},
    # the table: names, lives, rules, the stake
    "input.name_text": {"en": "a player's name is text, not {given}",
                        "it": "il nome di un giocatore è un testo, non {given}"},
    "input.no_name": {"en": "a player needs a name", "it": "manca un nome: ogni giocatore ne ha uno"},
    "input.name_long": {"en": "the name {given} is too long: at most {most} characters",
                        "it": "il nome {given} è troppo lungo: al massimo {most} caratteri"},
    "input.name_unprintable": {"en": "the name {given} holds characters that cannot be printed "
                                     "(line breaks, tabs, control characters)",
                               "it": "il nome {given} contiene caratteri che non si stampano (a "
                                     "capo, tabulazioni, caratteri di controllo)"},
    "input.same_name": {"en": "{other} and {name} are the same name: each player needs a "
                              "different one",
                        "it": "{other} e {name} sono lo stesso nome: ogni giocatore ne vuole uno "
                              "diverso"},
    "input.players": {"en": "players must be a list of names",
                      "it": "i giocatori sono un elenco di nomi"},
    "input.lives": {"en": "lives must be a whole number from {low} to {high}, not {given}",
                    "it": "le vite a testa sono un numero intero da {low} a {high}, non {given}"},
    "input.preset": {"en": "unknown rules preset {given}: the presets are {presets:list}",
                     "it": "non ci sono regole {given}: scegli tra {presets:list}"},
    "input.rules": {"en": "rules must be a preset name or an object of switches",
                    "it": "le regole sono il nome di un insieme di regole o un oggetto di varianti"},
    "input.switch": {"en": "unknown rules switch {given}: the switches are {switches:list}",
                     "it": "la variante {given} non esiste: le varianti sono {switches:list}"},
    "input.switch_bool": {"en": "{switch} must be true or false, not {given}",
                          "it": "la variante {switch} è vera o falsa, non {given}"},
    "input.switch_choice": {"en": "{switch} cannot be {given}: choose one of {choices:list}",
                            "it": "la variante {switch} non può essere {given}: scegli tra "
                                  "{choices:list}"},
    "input.stake": {"en": "the stake per life must be a number from 0 to {most:g} with at most "
                          "two decimals, not {given}",
                    "it": "la posta per vita è un numero da 0 a {most:g}, al massimo con due "
                          "decimali, non {given}"},
    "input.card": {"en": "{given} is not a card: write a code such as 9S (Cavallo di Spade) or 1D "
                         "(Asso di Denari)",
                   "it": "{given} non è una carta: scrivete un codice come 9S (Cavallo di Spade) "
                         "o 1D (Asso di Denari)"},
    # the API's own bodies (webui.api)
    "input.seats": {"en": "players must be an object of name: [x, y]",
                    "it": "i posti sono un oggetto nome: [x, y]"},
    "input.how": {"en": "how must be a short text (at most {most} characters)",
                  "it": "come è stato risolto: un testo breve (al massimo {most} caratteri)"},
    "input.way": {"en": "say which way on", "it": "scegliete come andare avanti"},
    "input.away": {"en": "the camera page says {given}: it must be {choices:or}",
                   "it": "la pagina della fotocamera dice {given}: serve {choices:or}"},
})
"""What a person must fix in what the page sent, in each language."""


class Refused(Coded, ValueError):
    """Input a person must fix: a code of WORDS with its parameters; the message is its English."""


def shown(value: object) -> str:
    """`value` as a message quotes it, cut short when long."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def json_body(data: bytes) -> Any:
    """The JSON value of a request body: at most LARGEST_BODY bytes of UTF-8, DEEPEST levels deep."""
    if len(data) > LARGEST_BODY:
        raise Refused("input.too_big", most=LARGEST_BODY // 1024)
    try:
        text = data.decode("utf-8") if data else "null"
    except UnicodeDecodeError:
        raise Refused("input.encoding") from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise _too_deep() from None
    except Refused:  # a NaN or an Infinity
        raise
    except json.JSONDecodeError as err:
        raise Refused("input.not_json", detail=err.msg, line=err.lineno,
                      column=err.colno) from None
    except ValueError as err:  # a number of more than 4,300 digits
        raise Refused("input.unacceptable", detail=str(err)) from None
    _check_tree(value)
    return value


def json_object(data: bytes) -> dict[str, Any]:
    """The JSON object of a request body (`json_body`)."""
    value = json_body(data)
    if not isinstance(value, dict):
        raise Refused("input.not_object")
    return value


def _no_constant(word: str) -> float:
    raise Refused("input.constant", name=word)


def _too_deep() -> Refused:
    return Refused("input.too_deep", most=DEEPEST)


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
        raise Refused("input.not_unicode") from None


def name(value: object) -> str:
    """A player's name, trimmed: 1 to LONGEST_NAME printable characters."""
    if not isinstance(value, str):
        raise Refused("input.name_text", given=shown(value))
    text = value.strip()
    if not text:
        raise Refused("input.no_name")
    if len(text) > LONGEST_NAME:
        raise Refused("input.name_long", given=shown(text), most=LONGEST_NAME)
    if not text.isprintable():
        raise Refused("input.name_unprintable", given=shown(text))
    return text


def new_name(value: object, taken: Iterable[str]) -> str:
    """A name for a new player: a `name`, unlike every name `taken` without regard to case."""
    text = name(value)
    for other in taken:
        if other.casefold() == text.casefold():
            raise Refused("input.same_name", other=other, name=text)
    return text


def players(value: object) -> list[str]:
    """The players of a new table, in seating order: distinct names, as many as the game seats (`seated`)."""
    if not isinstance(value, list):
        raise Refused("input.players")
    names: list[str] = []
    for each in value:
        names.append(new_name(each, names))
    try:
        return list(seated(names))
    except RuleError as refused:
        raise Refused(refused.code, **refused.message.params) from refused


def lives(value: object) -> int | None:
    """The lives each player starts with, 1 to 9; None: the rules' own."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in LIVES:
        raise Refused("input.lives", low=LIVES[0], high=LIVES[-1], given=shown(value))
    return value


def rules(value: object) -> str | dict[str, Any]:
    """A rules preset's name, or an object of switches over `napoli`, each switch and value known."""
    if isinstance(value, str):
        if value not in PRESETS:
            raise Refused("input.preset", given=shown(value), presets=list(PRESETS))
        return value
    if not isinstance(value, dict):
        raise Refused("input.rules")
    usual = PRESETS["napoli"].switches()
    for switch, given in value.items():
        if switch not in usual:
            raise Refused("input.switch", given=shown(switch), switches=list(usual))
        kind = type(usual[switch])
        if switch == "lives":
            lives(given)
        elif kind is bool and not isinstance(given, bool):
            raise Refused("input.switch_bool", switch=switch, given=shown(given))
        elif issubclass(kind, enum.Enum) and given not in [m.value for m in kind]:
            raise Refused("input.switch_choice", switch=switch, given=shown(given),
                          choices=[m.value for m in kind])
    return value


def stake(value: object) -> float:
    """The money one life is worth: 0 to MAX_STAKE, in cents at most."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            0 <= value <= MAX_STAKE) or abs(value * 100 - round(value * 100)) > 1e-6:
        raise Refused("input.stake", most=MAX_STAKE, given=shown(value))
    return float(value)


def dealer(value: object, names: list[str]) -> str | None:
    """The first dealer, one of `names`; None lets the camera choose."""
    if value is None:
        return None
    chosen = name(value)
    if chosen not in names:
        raise Refused("table.first_dealer", dealer=chosen)
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
        raise Refused("input.card", given=shown(card)) from None


def record_table(record: Mapping[str, Any]) -> None:
    """Refuse a game record whose table a person could not have set up (names, lives, rules)."""
    if "players" in record:
        players(record["players"])
    lives(record.get("lives"))
    if "rules" in record:
        rules(record["rules"])
