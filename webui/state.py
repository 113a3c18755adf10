"""The JSON the pages read: the tally, every seat's target and reason, the verdicts, warnings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.cards import Card, parse_card
from referee.describe import tally
from referee.events import event_to_json
from referee.game import Game, HandResult, Phase

from webui.words import event_words, headed, say, verdict_words

_HIDDEN = {Phase.TURNS, Phase.DEALER, Phase.REVEAL}
"""Phases in which a living seat holds a face-down card (shown on the page as a back)."""


def card_json(card: Card) -> dict[str, str]:
    """A card for the page: its code and its name in both languages."""
    return {"code": card.code, "it": card.italian, "en": card.english}


def build_state(game: Game | None, *, version: int, stake: float, camera: Mapping[str, Any],
                warnings: list[dict[str, Any]], evidence: Mapping[int, str],
                seats: Mapping[str, Any] | None, dealer_by_camera: bool,
                notice: Mapping[str, str] | None = None, held: Mapping[str, Any] | None = None,
                decided: Mapping[str, Any] | None = None,
                asked: Mapping[str, Any] | None = None,
                decisions: Mapping[int, list[dict[str, str]]] | None = None,
                phone: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The whole page state; `game` None before the first setup; `notice` a line about the table;
    `held` the hand held for a person (webui.held), `asked` a warning asked of a person while
    the hand goes on, `decided` the latest way on taken, and `decisions` each hand's decisions
    in words; `phone` what the phone camera page last said (webui.phone.PhoneWatch)."""
    state: dict[str, Any] = {
        "version": version, "ready": game is not None, "stake": stake,
        "camera": {**camera, **_worded(camera, None, capital=False)},
        "warnings": [{**w, **_worded(w, w.get("hand"))} for w in warnings],
        "seats_placed": sorted((seats or {}).get("players", {})),
        "dealer_by_camera": dealer_by_camera, "notice": dict(notice) if notice else None,
        "held": dict(held) if held else None, "decided": dict(decided) if decided else None,
        "asked": dict(asked) if asked else None, "phone": dict(phone) if phone else None,
    }
    if game is None:
        state.update(players=[], seats=[], verdicts=[], says=say("table.start", {}, "en"),
                     says_it=say("table.start", {}, "it"), phase=None, hand=None,
                     dealer=None, current_player=None, turn=None, pot=0, lives={},
                     winner=None, last_event=None, rules=None, start_lives=None)
        return state
    view = tally(game)
    phase = game.phase
    seats_json = []
    for seat in view.seats:
        card: str | None = seat.shown
        if card is None and seat.alive and phase in _HIDDEN:
            card = "back"
        seats_json.append({
            "player": seat.player, "lives": seat.lives, "alive": seat.alive,
            "dealer": seat.dealer, "shown": seat.shown, "card": card,
            "card_name": _name(seat.shown), "target": seat.target, "may": list(seat.may),
            "why": seat.why.words("en"), "why_it": seat.why.words("it"),
            "turn": seat.player == view.current_player,
        })
    turn = None
    if view.current_player is not None:
        seat = next(s for s in seats_json if s["player"] == view.current_player)
        found = game.target(view.current_player) if phase is Phase.TURNS else None
        text, text_it = (found.reason(), found.reason_it()) if found else (seat["why"],
                                                                          seat["why_it"])
        turn = {"player": view.current_player, "text": text, "text_it": text_it,
                "may": seat["may"], "target": seat["target"]}
    last = game.history[-1] if game.history else None
    outcome = game.outcome()
    state.update(
        players=list(game.players), seats=seats_json, phase=view.phase, hand=view.hand,
        dealer=view.dealer, current_player=view.current_player, turn=turn, pot=view.pot,
        lives=dict(game.lives), winner=view.winner, says=view.says.words("en"),
        says_it=view.says.words("it"),
        survivors=list(outcome.survivors) if outcome else None,
        rules=game.rules.switches(), preset=game.rules.name, start_lives=game.start_lives,
        next_dealer=game.next_dealer, alive=game.alive(),
        verdicts=[verdict_json(game, r, evidence.get(r.number),
                               (decisions or {}).get(r.number, []))
                  for r in reversed(game.results)],
        last_event=None if last is None else {
            **event_to_json(last), **dict(zip(("text", "text_it"), event_words(last)))},
    )
    return state


def _worded(said: Mapping[str, Any], hand: int | None, capital: bool = True) -> dict[str, str]:
    """A warning's or the camera's line in each language (`text`, `text_it`; begun in capitals
    when `capital`), from its code and parameters; one stored before codes, or of a code unknown
    here, reads as it was stored."""
    code, params = said.get("code"), said.get("params")
    lines = None
    if code and isinstance(params, Mapping):
        try:
            lines = {"text": headed(hand, say(code, params, "en"), "en"),
                     "text_it": headed(hand, say(code, params, "it"), "it")}
        except (KeyError, IndexError, TypeError, ValueError):
            pass
    if lines is None:
        message = str(said.get("message") or "")
        lines = {"text": message, "text_it": message}
    if capital:
        return {key: line[:1].upper() + line[1:] for key, line in lines.items()}
    return lines


def _name(code: str | None) -> dict[str, str] | None:
    return None if code is None else card_json(parse_card(code))


def verdict_json(game: Game, result: HandResult, evidence: str | None,
                 decided: list[dict[str, str]]) -> dict[str, Any]:
    """One settled hand: every card named, the losers, the lives after it, its photo, and what
    was decided by hand in it."""
    says, says_it = verdict_words(result)
    low = min((c.value for c in result.final.values() if c.value <= 8), default=None)
    return {
        "hand": result.number, "dealer": result.dealer,
        "swaps": [list(s) for s in result.swaps],
        "cards": [{"player": p, **card_json(c)} for p, c in result.final.items()],
        "losers": list(result.losers), "void": result.void, "lowest": low,
        "lives": dict(result.lives), "pot": result.pot,
        "out": [p for p in result.losers if result.lives[p] == 0],
        "says": says, "says_it": says_it,
        "evidence": f"/evidence/{evidence}" if evidence else None, "decided": decided,
    }
