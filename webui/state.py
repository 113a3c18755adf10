"""The JSON the pages read: the tally, every seat's target and reason, the verdicts, warnings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.cards import parse_card
from referee.describe import tally
from referee.events import event_to_json
from referee.game import Game, HandResult, Phase

from live.words import card_json
from webui.words import headed, say, told, verdict

_HIDDEN = {Phase.TURNS, Phase.DEALER, Phase.REVEAL}
"""Phases in which a living seat holds a face-down card (shown on the page as a back)."""


def build_state(game: Game | None, *, version: int, stake: float, camera: Mapping[str, Any],
                warnings: list[dict[str, Any]], evidence: Mapping[int, str],
                seats: Mapping[str, Any] | None, dealer_by_camera: bool,
                notice: Mapping[str, str] | None = None, held: Mapping[str, Any] | None = None,
                decided: Mapping[str, Any] | None = None,
                asked: Mapping[str, Any] | None = None,
                decisions: Mapping[int, list[dict[str, str]]] | None = None,
                phone: Mapping[str, Any] | None = None, language: str = "it") -> dict[str, Any]:
    """The whole page state in `language`; `game` None before the first setup; `notice` a line
    about the table;
    `held` the hand held for a person (live.held), `asked` a warning asked of a person while
    the hand goes on, `decided` the latest way on taken, and `decisions` each hand's decisions
    in words; `phone` what the phone camera page last said (webui.phone.PhoneWatch)."""
    state: dict[str, Any] = {
        "version": version, "ready": game is not None, "stake": stake,
        "camera": {**camera, **_worded(camera, None, language, capital=False)},
        "warnings": [{**w, **_worded(w, w.get("hand"), language)} for w in warnings],
        "seats_placed": sorted((seats or {}).get("players", {})),
        "dealer_by_camera": dealer_by_camera,
        "notice": {"text": say(notice["code"], notice["params"], language)} if notice else None,
        "held": dict(held) if held else None, "decided": dict(decided) if decided else None,
        "asked": dict(asked) if asked else None, "phone": dict(phone) if phone else None,
    }
    if game is None:
        state.update(players=[], seats=[], verdicts=[], says=say("table.start", {}, language),
                     phase=None, hand=None,
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
            "card_name": _name(seat.shown, language), "target": seat.target,
            "may": list(seat.may), "why": seat.why.words(language),
            "turn": seat.player == view.current_player,
        })
    turn = None
    if view.current_player is not None:
        seat = next(s for s in seats_json if s["player"] == view.current_player)
        found = game.target(view.current_player) if phase is Phase.TURNS else None
        text = found.reason(language) if found else seat["why"]
        turn = {"player": view.current_player, "text": text,
                "line": say("page.turn", {"player": view.current_player}, language),
                "may": seat["may"], "target": seat["target"]}
    last = game.history[-1] if game.history else None
    outcome = game.outcome()
    state.update(
        players=list(game.players), seats=seats_json, phase=view.phase, hand=view.hand,
        dealer=view.dealer, current_player=view.current_player, turn=turn, pot=view.pot,
        lives=dict(game.lives), winner=view.winner, says=view.says.words(language),
        survivors=list(outcome.survivors) if outcome else None,
        rules=game.rules.switches(), preset=game.rules.name, start_lives=game.start_lives,
        next_dealer=game.next_dealer, alive=game.alive(),
        verdicts=[verdict_json(game, r, evidence.get(r.number),
                               (decisions or {}).get(r.number, []), language)
                  for r in reversed(game.results)],
        last_event=None if last is None else {
            **event_to_json(last), "text": told(last).words(language)},
    )
    return state


def _worded(said: Mapping[str, Any], hand: int | None, language: str,
            capital: bool = True) -> dict[str, str]:
    """A warning's or the camera's line in `language` (`text`, begun in capitals when `capital`),
    from its code and parameters; one stored before codes, or of a code unknown here, reads as it
    was stored."""
    code, params = said.get("code"), said.get("params")
    line = None
    if code and isinstance(params, Mapping):
        try:
            line = headed(hand, say(code, params, language), language)
        except (KeyError, IndexError, TypeError, ValueError):
            pass
    if line is None:
        line = str(said.get("message") or "")
    return {"text": line[:1].upper() + line[1:] if capital else line}


def _name(code: str | None, language: str) -> dict[str, str] | None:
    return None if code is None else card_json(parse_card(code), language)


def verdict_json(game: Game, result: HandResult, evidence: str | None,
                 decided: list[dict[str, str]], language: str = "it") -> dict[str, Any]:
    """One settled hand in `language`: every card named, the losers, the lives after it, its
    photo, and what was decided by hand in it."""
    low = min((c.value for c in result.final.values() if c.value <= 8), default=None)
    return {
        "hand": result.number, "dealer": result.dealer,
        "swaps": [list(s) for s in result.swaps],
        "cards": [{"player": p, **card_json(c, language)} for p, c in result.final.items()],
        "losers": list(result.losers), "void": result.void, "lowest": low,
        "lives": dict(result.lives), "pot": result.pot,
        "out": [p for p in result.losers if result.lives[p] == 0],
        "says": verdict(result).words(language),
        "evidence": f"/evidence/{evidence}" if evidence else None, "decided": decided,
    }
