"""The evening page and its API: the games and their winners, who owes whom, the pictures, the
next game in one tap, and the evening exported (JSON, an offline page) or brought back."""

from __future__ import annotations

import base64
import json
from datetime import date
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template, request

from referee.evening import (EveningError, GameMoney, evening_net, game_money, next_dealer,
                             payments, read_evening)
from referee.game import Game, RuleError
from referee.record import game_record

from live.words import Coded
from webui import inputs
from webui.api import _apply, _object, _refuse, _refused, language, needs_pin, table
from webui.evening_svg import chart_svg, lives_series, picture_svg
from webui.pages import _page
from webui.state import verdict_json
from webui.table import TableError, TableService
from webui.words import euros, page_words, say

bp = Blueprint("evening", __name__)
bp.register_error_handler(inputs.Refused, _refused)
bp.register_error_handler(TableError, lambda err: _refuse(409, err))  # no game yet

PHOTO_MOST = 4 * 1024 * 1024
"""An evidence photo larger than this stays out of the offline page (a phone's is ~200 kB)."""


def evening_view(service: TableService, language: str = "it") -> dict[str, Any]:
    """The evening as the page reads it, in `language`: games, nets, payments, the chart."""
    with service.lock:
        store = service.store
        if store is None:
            raise TableError("table.no_game")
        games = list(zip(store.games, store.stakes, strict=True))
        evidence = [service.evidence_by_hand(n) for n in range(1, len(games) + 1)]
        moneys = [game_money(game, stake, n) for n, (game, stake) in enumerate(games, 1)]
        net = evening_net(moneys)
        current = games[-1][0]
        over = current.outcome() is not None
        words = page_words(language)
        view = {
            "version": service.version,
            "title": {"text": f"{words['ev_title']} {date.today():%d/%m/%Y}"},
            "games": [_game(game, money, hands, language) for (game, _), money, hands
                      in zip(games, moneys, evidence, strict=True)],
            "net": [{"player": p, "cents": c, "text": f"{p} {_signed(c, language)}"}
                    for p, c in sorted(net.items(), key=lambda item: -item[1])],
            "payments": [{"payer": pay.payer, "payee": pay.payee, "cents": pay.cents,
                          "text": say("evening.payment", {"payer": pay.payer, "payee": pay.payee,
                                                          "cents": pay.cents}, language)}
                         for pay in payments(net)],
            "chart": {"game": len(games), "lives": lives_series(current),
                      "title": {"text": f"{words['ev_game']} {len(games)}: "
                                        f"{words['ev_chart'].lower()}"}},
            "over": over, "stake": service.stake, "next_stake": service.next_stake,
            "next_players": list(current.players),
            "next_dealer": next_dealer(current, list(current.players)),
        }
    return view


def _signed(cents: int, lang: str) -> str:
    return ("+" if cents > 0 else "") + euros(cents, lang)


def _game(game: Game, money: GameMoney, evidence: dict[int, str], language: str) -> dict[str, Any]:
    """One game of the evening in `language`: its winner (or survivors), pot and stake, its
    deciding hand."""
    words = page_words(language)
    if money.winner:
        how = say("evening.won", {"winner": money.winner}, language)
    elif money.over:
        how = say("evening.split", {"survivors": list(money.survivors)}, language)
    else:
        how = words["ev_in_play"]
    text = (f"{words['ev_game']} {money.number}: {how} ({words['pot'].lower()} {money.pot}, "
            f"{words['ev_stake_now']} {euros(money.stake, language)})")
    deciding = None
    if money.deciding is not None:
        result = game.results[money.deciding - 1]
        deciding = verdict_json(game, result, evidence.get(result.number), [], language)
    return {"number": money.number, "players": list(money.players), "winner": money.winner,
            "survivors": list(money.survivors), "over": money.over, "pot": money.pot,
            "stake": money.stake / 100, "hands": len(game.results), "net": money.net,
            "text": text, "deciding": deciding}


def evening_export(service: TableService) -> dict[str, Any]:
    """The evening as one JSON: every game's hand record with its stake, pot, winner and nets,
    and the evening's nets and payments (docs/EVENING.md); `read_evening` reads it back."""
    view = evening_view(service, "en")
    with service.lock:
        store = service.store
        assert store is not None
        records = [game_record(game) for game in store.games]
    return {
        "saltacavallo": "evening",
        "games": [{"stake": game["stake"], "record": record, "pot": game["pot"],
                   "winner": game["winner"],
                   "net": {p: c / 100 for p, c in game["net"].items()}}
                  for game, record in zip(view["games"], records, strict=True)],
        "net": {row["player"]: row["cents"] / 100 for row in view["net"]},
        "payments": [{"payer": p["payer"], "payee": p["payee"], "euros": p["cents"] / 100}
                     for p in view["payments"]],
    }


def _photo(service: TableService, url: str | None) -> str | None:
    """An evidence photo as a data address, for a page that must open with nothing else."""
    if not url:
        return None
    path = Path(service.evidence_dir) / Path(url).name
    try:
        if path.stat().st_size > PHOTO_MOST:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    kind = "png" if path.suffix.lower() == ".png" else "jpeg"
    return f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")


def _svg(text: str) -> Response:
    return Response(text, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


def _evening_refusal(err: EveningError) -> Coded:
    """A read-back evening's refusal, worded in each language."""
    code, params = err.code, dict(err.params)
    why = params.get("why")
    if isinstance(why, RuleError):  # its rule worded in each language, and its hand
        params["why"] = why.message
        if why.hand:
            code, params["hand"] = "evening.record_hand", why.hand
    elif why is not None:  # a record that is not one: its English
        params["why"] = str(why)
    return Coded(code, **params)


@bp.get("/serata")
def page() -> Any:
    """The evening: its games, who owes whom, the chart, the shared picture, the next game."""
    return _page("evening.html", "evening")


@bp.get("/api/evening")
def view() -> Response:
    """The evening as JSON in the reader's language (the page reads it again at every change of
    the table)."""
    return Response(json.dumps(evening_view(table(), language()), ensure_ascii=False),
                    mimetype="application/json")


@bp.get("/serata/chart.svg")
def chart() -> Response:
    """The lives of the game in play, hand by hand."""
    found = evening_view(table(), language())["chart"]
    return _svg(chart_svg(found["lives"], found["title"]["text"]))


@bp.get("/serata/picture.svg")
def picture() -> Response:
    """The whole evening in one picture (the page turns it into a PNG to share)."""
    lang = language()
    return _svg(picture_svg(evening_view(table(), lang), page_words(lang)))


@bp.get("/api/evening/export")
def export() -> Response:
    """The evening as one JSON file."""
    data = evening_export(table())
    answer = Response(json.dumps(data, ensure_ascii=False, indent=1), mimetype="application/json")
    answer.headers["Content-Disposition"] = "attachment; filename=saltacavallo-serata.json"
    return answer


@bp.get("/serata/export.html")
def export_page() -> Response:
    """The evening as one page that opens on any phone with no network: pictures inline."""
    service = table()
    lang = language()
    found = evening_view(service, lang)
    data = evening_export(service)
    words = page_words(lang)
    for game in found["games"]:
        if game["deciding"]:
            game["deciding"]["photo"] = _photo(service, game["deciding"]["evidence"])
    html = render_template(
        "evening_export.html", lang=lang, w=words, view=found,
        picture=picture_svg(found, words),
        data=json.dumps(data, ensure_ascii=False).replace("<", "\\u003c"))
    answer = Response(html, mimetype="text/html")
    answer.headers["Content-Disposition"] = "attachment; filename=saltacavallo-serata.html"
    return answer


@bp.post("/api/evening/next")
@needs_pin
def next_game() -> Response:
    """The next game: `{}` with the same players, `{"players": [...]}` with others; a game not
    over is left without a winner only with `{"anyway": true}`."""
    body = _object()
    names = inputs.players(body["players"]) if body.get("players") is not None else None
    anyway = body.get("anyway") is True
    return _apply(lambda: table().next_game(names, anyway))


@bp.post("/api/evening/stake")
@needs_pin
def stake() -> Response:
    """The stake per life from the next game on: `{"stake": 1.5}`."""
    value = inputs.stake(_object().get("stake"))
    return _apply(lambda: table().set_stake(value))


@bp.post("/api/evening")
@needs_pin
def import_evening() -> Response:
    """A new evening from an exported one; one that does not add up is refused, naming the game."""
    body = _object()
    try:
        games = read_evening(body)
        for game, _ in games:
            inputs.record_table({"players": list(game.first_players), "lives": game.start_lives})
    except EveningError as err:
        return _refuse(400, _evening_refusal(err))
    return _apply(lambda: table().import_evening(games))
