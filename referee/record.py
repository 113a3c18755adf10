"""Hand records (the JSON of RULES.md): read, replay, write, and print the replay."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from referee.cards import Card, CardError, parse_card
from referee.events import ChooseDealer, Deal, Draw, Event, Keep, Reveal, Revive, Settle, Swap
from referee.game import Game, RuleError
from referee.rules import PRESETS, RulesError, find_rules

_TOP = ("rules", "players", "lives", "dealer", "hands")
_HAND = ("deal", "turns", "stock", "showdown", "revive")
_MOVES = ("keep", "swap", "draw")


class RecordError(ValueError):
    """A record that is not valid JSON, or lacks a field, or has a field of the wrong shape."""


def read_record(text: str) -> dict[str, Any]:
    """Parse a record's text; anything but a JSON object raises RecordError."""
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
    """Play one hand of a record into the game: deal, turns, draw, reveal, settle, revives.

    A `keep` written for a player showing a Re or Cavallo (who takes no turn) is accepted and
    ignored; any other move of such a player is rejected.
    """
    where = f"hand {number}: "
    _unknown_fields(hand, _HAND, where)
    deal = _need(hand, "deal", dict, where)
    cards = {p: _dealt(c, f"{where}{p}'s card in the deal") for p, c in deal.items()}
    turns = hand.get("turns", {})
    stock_codes = hand.get("stock", [])
    showdown_codes = hand.get("showdown", {})
    revives = hand.get("revive", [])
    for key, value, kind in (("turns", turns, dict), ("stock", stock_codes, list),
                             ("showdown", showdown_codes, dict), ("revive", revives, list)):
        if not isinstance(value, kind):
            raise RecordError(f"{where}{key!r} has the wrong type ({type(value).__name__})")
    for player, move in turns.items():
        if move not in _MOVES:
            raise RecordError(f"{where}{player}'s turn {move!r} is not keep, swap or draw")
    stock = [_card(c, f"{where}the stock") for c in stock_codes]
    showdown = {p: _card(c, f"{where}{p}'s card at the showdown")
                for p, c in showdown_codes.items()}
    game.play(Deal(cards))
    current = game.hand
    assert current is not None
    dealer = current.dealer
    _check_stock(number, cards, stock, showdown, dealer, turns.get(dealer) == "draw")
    for player, move in turns.items():
        if player not in current.order and player != dealer:
            if move == "keep" and player in current.shown:
                continue
            game.play(_MOVE_EVENT[move](player))  # the game rejects it, naming the rule
            raise RuleError(f"{player} takes no turn", number, player)
    for player in current.order:
        game.play(_MOVE_EVENT[turns.get(player, "keep")](player))
    move = turns.get(dealer, "keep")
    drawn = stock[0] if stock else showdown.get(dealer)
    dealer_event: Event | None = None
    if current.dealer_moves or move != "keep":
        dealer_event = Draw(dealer, drawn) if move == "draw" else _MOVE_EVENT[move](dealer)
    if game.rules.dealer_draw == "blind":
        game.play_all([e for e in (dealer_event, Reveal(showdown)) if e is not None])
    else:
        seen_first = {p: c for p, c in showdown.items() if not (p == dealer and move == "draw")}
        game.play(Reveal(seen_first))
        if dealer_event is not None:
            game.play(dealer_event)
            if move == "draw" and dealer in showdown:
                game.play(Reveal({dealer: showdown[dealer]}))
    game.play(Settle())
    for pair in revives:
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(p, str) for p in pair)):
            raise RecordError(f"{where}a revive is a [dead, living] pair of names, not {pair!r}")
        game.play(Revive(pair[0], pair[1]))


_MOVE_EVENT: dict[str, Any] = {"keep": Keep, "swap": Swap, "draw": Draw}


def _check_stock(number: int, cards: Mapping[str, Card | None], stock: list[Card],
                 showdown: Mapping[str, Card], dealer: str, drawn: bool) -> None:
    """The stock's cards are neither dealt, nor repeated, nor (unless drawn) at the showdown."""
    dealt = {c: p for p, c in cards.items() if c is not None}
    for i, card in enumerate(stock):
        if card in dealt:
            raise RuleError(f"a card twice: {card.code} is in the stock and dealt to {dealt[card]}",
                            number, dealt[card])
        if card in stock[:i]:
            raise RuleError(f"a card twice: {card.code} is twice in the stock", number, dealer)
        holder = next((p for p, c in showdown.items() if c == card), None)
        if holder is not None and not (i == 0 and drawn and holder == dealer):
            raise RuleError(f"a card twice: {card.code} is in the stock and {holder} shows it "
                            "at the reveal", number, holder)


def game_record(game: Game) -> dict[str, Any]:
    """The settled hands of a game as a hand record (an unfinished hand is left out).

    Each hand carries its full showdown and, when the dealer's drawn card was seen, the stock.
    """
    name = game.rules.name
    napoli = PRESETS["napoli"].switches()
    rules: Any = name or {k: v for k, v in game.rules.switches().items() if napoli[k] != v}
    record: dict[str, Any] = {"rules": rules, "players": list(game.players),
                              "lives": game.start_lives}
    if game.dealer is not None:
        record["dealer"] = game.results[0].dealer if game.results else game.dealer
    hands: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for event in game.history:
        if isinstance(event, Deal):
            current = {"deal": {p: "?" if c is None else c.code for p, c in event.cards.items()},
                       "turns": {}}
        elif isinstance(event, (Keep, Swap, Draw)):
            current["turns"][event.player] = _MOVE_NAME[type(event)]
            if isinstance(event, Draw) and event.card is not None:
                current["stock"] = [event.card.code]
        elif isinstance(event, Settle):
            current["showdown"] = {p: c.code for p, c in game.results[len(hands)].final.items()}
            hands.append(current)
        elif isinstance(event, Revive):
            hands[-1].setdefault("revive", []).append([event.dead, event.living])
    record["hands"] = hands
    return record


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
