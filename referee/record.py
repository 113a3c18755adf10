"""Hand records (the JSON of RULES.md): read, replay, write, and print the replay."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from referee.cards import Card, CardError, parse_card
from referee.events import (
    ChooseDealer,
    Correct,
    Deal,
    Draw,
    Event,
    Join,
    Keep,
    Leave,
    Reveal,
    Revive,
    Settle,
    Swap,
)
from referee.game import Game, Phase, RuleError
from referee.rules import PRESETS, RulesError, find_rules

_TOP = ("rules", "players", "lives", "dealer", "hands")
_HAND = ("deal", "turns", "stock", "showdown", "revive", "leave", "join")
_MOVES = ("keep", "swap", "draw")


class RecordError(ValueError):
    """A record that is not valid JSON, or lacks a field, or has a field of the wrong shape."""


MAX_RECORD_BYTES = 4 * 1024 * 1024
"""Largest hand record read: some 10,000 hands of a full table, far beyond any evening."""
MAX_RECORD_DEPTH = 16
"""Deepest nesting of brackets read (a record's own is 5: record, hands, hand, revive, pair)."""
_NESTING = re.compile(r'[\[\]{}"\\]')


def _too_deep(text: str) -> bool:
    """Tell whether brackets outside strings nest deeper than MAX_RECORD_DEPTH (a linear scan)."""
    depth, in_string, escaped_at = 0, False, -1
    for found in _NESTING.finditer(text):
        char, at = found.group(), found.start()
        if in_string:
            if at == escaped_at:
                continue
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_RECORD_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def read_record(text: str) -> dict[str, Any]:
    """Parse a record's text; anything but a JSON object of bounded size and depth is a RecordError."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"larger than {MAX_RECORD_BYTES // 1024 // 1024} MB, the most a hand "
                          "record may hold")
    if _too_deep(text):
        raise RecordError(f"nested deeper than {MAX_RECORD_DEPTH} brackets: not a hand record")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        where = f"line {err.lineno} column {err.colno}"
        raise RecordError(f"not valid JSON: {err.msg} at {where}") from None
    if not isinstance(record, dict):
        raise RecordError("a hand record is a JSON object")
    return record


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}has no {key!r}")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise RecordError(f"{where}{key!r} has the wrong type ({type(value).__name__})")
    return value


def _unknown_fields(data: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in known:
            raise RecordError(f"{where}unknown field {key!r}: the fields are {', '.join(known)}")


def _named(name: str) -> str:
    """A player's name in a message, quoted when it holds a line break or the like."""
    return name if name.isprintable() else repr(name)


def _card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise RecordError(f"{where}: a card is a code like 9S, not {text!r}")
    try:
        return parse_card(text)
    except CardError as err:
        raise RecordError(f"{where}: {err}") from None


def _dealt(text: Any, where: str) -> Card | None:
    """A card of the deal: `?` for a face-down card nobody saw."""
    return None if isinstance(text, str) and text.strip() == "?" else _card(text, where)


def new_game(record: Mapping[str, Any]) -> Game:
    """The table of a record (rules, players, lives, first dealer), before any hand.

    A record without `rules` is played under `napoli`; its top-level `lives` overrides the
    `lives` switch of its rules.
    """
    _unknown_fields(record, _TOP, "the record: ")
    players = _need(record, "players", list, "the record ")
    if not all(isinstance(p, str) for p in players):
        raise RecordError("the record's 'players' must be a list of names")
    try:
        rules = find_rules(_need(record, "rules", (str, dict), "the record ")
                           if "rules" in record else "napoli")
    except RulesError as err:
        raise RecordError(f"the record's rules: {err}") from None
    lives = record.get("lives")
    if lives is not None and (isinstance(lives, bool) or not isinstance(lives, int)):
        raise RecordError(f"the record's 'lives' must be a whole number, not {lives!r}")
    game = Game(players, rules, lives)
    dealer = record.get("dealer", players[0])
    if not isinstance(dealer, str):
        raise RecordError(f"the record's 'dealer' must be a player's name, not {dealer!r}")
    game.play(ChooseDealer(dealer))
    return game


def replay(record: Mapping[str, Any]) -> Game:
    """Play every hand of a record; RecordError for a malformed one, RuleError for a broken rule."""
    game = new_game(record)
    hands = _need(record, "hands", list, "the record ")
    for number, hand in enumerate(hands, 1):
        if not isinstance(hand, dict):
            raise RecordError(f"hand {number} is not a JSON object")
        play_hand(game, number, hand)
    return game


def play_hand(game: Game, number: int, hand: Mapping[str, Any]) -> None:
    """Play one hand of a record into the game: deal, turns, draw, reveal, settle, then joins,
    revives and leaves (docs/HAND-RECORD.md); the game's phase says what comes next.

    A `keep` written for a player showing a Re or Cavallo (who takes no turn) is accepted and
    ignored; any other move of such a player is rejected.
    """
    where = f"hand {number}: "
    _unknown_fields(hand, _HAND, where)
    deal = _need(hand, "deal", dict, where)
    cards = {p: _dealt(c, f"{where}{_named(p)}'s card in the deal") for p, c in deal.items()}
    turns = hand.get("turns", {})
    stock_codes = hand.get("stock", [])
    showdown_codes = hand.get("showdown", {})
    for key, value, kind in (("turns", turns, dict), ("stock", stock_codes, list),
                             ("showdown", showdown_codes, dict)):
        if not isinstance(value, kind):
            raise RecordError(f"{where}{key!r} has the wrong type ({type(value).__name__})")
    for player, move in turns.items():
        if move not in _MOVES:
            raise RecordError(f"{where}{_named(player)}'s turn {move!r} is not keep, swap or draw")
    stock = [_card(c, f"{where}the stock") for c in stock_codes]
    showdown = {p: _card(c, f"{where}{_named(p)}'s card at the showdown")
                for p, c in showdown_codes.items()}
    between = _between_hands(hand, where)
    game.play(Deal(cards))
    current = game.hand
    assert current is not None
    dealer = current.dealer
    _check_stock(number, cards, stock, showdown, dealer, turns.get(dealer) == "draw")
    for player, move in turns.items():
        if player not in current.order and not (player == dealer and current.dealer_moves):
            if move == "keep" and player in current.shown:
                continue
            game.play(_MOVE_EVENT[move](player))  # the game rejects it, naming the rule
            raise RuleError("record.no_turn", {"player": player}, number, player)
    drawn = stock[0] if stock else showdown.get(dealer)
    revealed: set[str] = set()
    while current.result is None:
        phase = game.phase
        if phase is Phase.TURNS:
            player = game.current_player
            assert player is not None
            game.play(_MOVE_EVENT[turns.get(player, "keep")](player))
        elif phase is Phase.DEALER:
            move = turns.get(dealer, "keep")
            game.play(Draw(dealer, drawn) if move == "draw" else _MOVE_EVENT[move](dealer))
        elif phase is Phase.REVEAL:
            # A dealer still to draw is seen with his drawn card: the showdown holds that one.
            draws_after = current.dealer_due and turns.get(dealer) == "draw"
            seen = {p: c for p, c in showdown.items() if not (draws_after and p == dealer)}
            game.play(Reveal(seen))
            revealed |= seen.keys()
        elif rest := {p: c for p, c in showdown.items() if p not in revealed}:
            game.play(Reveal(rest))
            revealed |= rest.keys()
        else:
            game.play(Settle())
    game.play_all(between)


def _between_hands(hand: Mapping[str, Any], where: str) -> list[Event]:
    """The hand's joins, revives and leaves, in that order, as events."""
    events: list[Event] = []
    for key, make in (("join", _join), ("revive", _revive), ("leave", _leave)):
        value = hand.get(key, [])
        if not isinstance(value, list):
            raise RecordError(f"{where}{key!r} has the wrong type ({type(value).__name__})")
        events += [make(item, where) for item in value]
    return events


def _revive(pair: Any, where: str) -> Event:
    if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
        raise RecordError(f"{where}a revive is a [dead, living] pair of names, not {pair!r}")
    return Revive(pair[0], pair[1])


def _leave(name: Any, where: str) -> Event:
    if not isinstance(name, str):
        raise RecordError(f"{where}a leave names a player, not {name!r}")
    return Leave(name)


def _join(pair: Any, where: str) -> Event:
    if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
            and (pair[1] is None or isinstance(pair[1], str))):
        raise RecordError(f"{where}a join is a [player, before] pair (before a name or null), "
                          f"not {pair!r}")
    return Join(pair[0], pair[1])


_MOVE_EVENT: dict[str, Any] = {"keep": Keep, "swap": Swap, "draw": Draw}


def _check_stock(number: int, cards: Mapping[str, Card | None], stock: list[Card],
                 showdown: Mapping[str, Card], dealer: str, drawn: bool) -> None:
    """The stock's cards are neither dealt, nor repeated, nor (unless drawn) at the showdown."""
    dealt = {c: p for p, c in cards.items() if c is not None}
    for i, card in enumerate(stock):
        if card in dealt:
            raise RuleError("record.stock_dealt", {"card": card.code, "player": dealt[card]},
                            number, dealt[card])
        if card in stock[:i]:
            raise RuleError("record.stock_twice", {"card": card.code}, number, dealer)
        holder = next((p for p, c in showdown.items() if c == card), None)
        if holder is not None and not (i == 0 and drawn and holder == dealer):
            raise RuleError("record.stock_shown", {"card": card.code, "player": holder},
                            number, holder)


def game_record(game: Game) -> dict[str, Any]:
    """The settled hands of a game as a hand record (an unfinished hand is left out).

    Each hand carries its full showdown and, when the dealer's drawn card was seen, the stock;
    a corrected card's deal entry becomes `?` (the showdown holds it). Joins and leaves before
    the first deal are written into `players`; later ones with the hand before them.
    """
    name = game.rules.name
    napoli = PRESETS["napoli"].switches()
    rules: Any = name or {k: v for k, v in game.rules.switches().items() if napoli[k] != v}
    seating = list(game.first_players)
    record: dict[str, Any] = {"rules": rules, "players": [], "lives": game.start_lives}
    hands: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    in_hand: list[Event] = []
    moved: list[Join | Leave] = []
    for event in game.history:
        if isinstance(event, (Join, Leave)):
            if hands:
                moved.append(event)
            else:
                _seat(seating, event)
            continue
        if isinstance(event, Deal):
            if not hands and not current:
                record["players"] = list(seating)
            _write_moves(hands, moved, seating)
            current = {"deal": {p: "?" if c is None else c.code for p, c in event.cards.items()},
                       "turns": {}}
            in_hand = []
        elif isinstance(event, (Keep, Swap, Draw)):
            current["turns"][event.player] = _MOVE_NAME[type(event)]
            if isinstance(event, Draw) and event.card is not None:
                current["stock"] = [event.card.code]
        elif isinstance(event, Settle):
            result = game.results[len(hands)]
            current["showdown"] = {p: c.code for p, c in result.final.items()}
            _write_corrections(current, in_hand, result.swaps)
            hands.append(current)
        elif isinstance(event, Revive):
            hands[-1].setdefault("revive", []).append([event.dead, event.living])
        in_hand.append(event)
    if not current:
        record["players"] = list(seating)
    _write_moves(hands, moved, seating)
    if game.dealer is not None:
        record["dealer"] = game.results[0].dealer if game.results else game.next_dealer
    record["hands"] = hands
    return record


def _seat(seating: list[str], event: Join | Leave) -> None:
    """Seat a join (before his neighbour, or last) or unseat a leave, in place."""
    if isinstance(event, Leave):
        seating.remove(event.player)
    else:
        seating.insert(len(seating) if event.before is None else seating.index(event.before),
                       event.player)


def _write_moves(hands: list[dict[str, Any]], moved: list[Join | Leave],
                 seating: list[str]) -> None:
    """Write the joins and leaves since the last hand onto it, as the replay applies them.

    The replay seats every join before any leave, so a join is written with the right-hand
    neighbour it has once the break is over (the joins from the right), and a player who came
    and went in the same break is left out; `seating` becomes the seating after the break.
    """
    if not moved:
        return
    before = list(seating)
    for event in moved:
        _seat(seating, event)
    leaves = [e.player for e in moved if isinstance(e, Leave) and e.player in before]
    joins: list[list[str | None]] = []
    for at in range(len(seating) - 1, -1, -1):
        player = seating[at]
        if player not in before:
            joins.append([player, seating[at + 1] if at + 1 < len(seating) else None])
    hand = hands[-1]
    if leaves:
        hand["leave"] = leaves
    if joins:
        hand["join"] = joins
    moved.clear()


def _write_corrections(hand: dict[str, Any], events: list[Event],
                       swaps: tuple[tuple[str, str], ...]) -> None:
    """A corrected card was misread wherever it came from: its deal entry becomes `?`.

    The card at each seat is followed from its deal seat through the swaps (and from the
    stock after a draw), so the replay meets the corrected card first at the showdown.
    """
    origin: dict[str, str | None] = {p: p for p in hand["deal"]}
    swapped = iter(swaps)
    for event in events:
        if isinstance(event, Swap):
            player, target = next(swapped)
            origin[player], origin[target] = origin[target], origin[player]
        elif isinstance(event, Draw):
            origin[event.player] = None
        elif isinstance(event, Correct):
            source = origin[event.player]
            if source is None:
                hand["stock"] = [event.card.code]
            else:
                hand["deal"][source] = "?"


_MOVE_NAME = {Keep: "keep", Swap: "swap", Draw: "draw"}


def replay_output(game: Game) -> dict[str, Any]:
    """The object `saltacavallo replay` prints: every hand, then the standing of the game."""
    hands = [
        {"dealer": r.dealer, "swaps": [list(s) for s in r.swaps],
         "final": {p: c.code for p, c in r.final.items()}, "losers": list(r.losers),
         "void": r.void, "lives": r.lives, "pot": r.pot}
        for r in game.results
    ]
    outcome = game.outcome()
    return {"hands": hands, "lives": dict(game.lives), "pot": game.pot, "alive": game.alive(),
            "next_dealer": game.next_dealer, "winner": outcome.winner if outcome else None}


_HAND_LINES = (("dealer", "swaps"), ("final",), ("losers", "void"), ("lives", "pot"))


def render_output(output: Mapping[str, Any]) -> str:
    """The replay object laid out as RULES.md shows it (one hand over four lines)."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    hands = []
    for hand in output["hands"]:
        lines = [", ".join(f"{dump(k)}: {dump(hand[k])}" for k in keys) for keys in _HAND_LINES]
        hands.append("    {" + ",\n     ".join(lines) + "}")
    body = ["{", '  "hands": [' + ("\n" + ",\n".join(hands) + "\n  ]," if hands else "],")]
    rest = [f"  {dump(k)}: {dump(v)}" for k, v in output.items() if k != "hands"]
    return "\n".join(body + [",\n".join(rest), "}"])
