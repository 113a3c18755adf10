"""The pages (Tavolo, Live, Storico, Setup, Fotocamera, a hand's verdict), card art, photos, QR."""

from __future__ import annotations

import io
import re
from pathlib import Path

import segno
from flask import (Blueprint, Response, abort, current_app, redirect, render_template, request,
                   send_from_directory, url_for)
from werkzeug.wrappers import Response as BaseResponse

from referee.cards import CardError, parse_card

from webui import phone
from webui.api import LANG_COOKIE, language, table
from webui.words import LANGUAGES, page_words

bp = Blueprint("pages", __name__)

_EVIDENCE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,120}\.(jpg|jpeg|png)$")
"""An evidence file name: plain, no folders, a picture."""

CARDS = Path(__file__).resolve().parent / "static" / "cards"
"""The project's own deck art, one SVG a card (`9S.svg`, `back.svg`), drawn by `python -m art.page_cards`."""

_CARD_MAX_AGE = 7 * 24 * 3600
"""The deck never changes while a server runs: pages may keep its cards a week."""


def _page(template: str, name: str, **extra: object) -> BaseResponse:
    lang = language()
    words = page_words(lang)
    html = render_template(template, page=name, lang=lang, w=words, words=words, **extra)
    answer = current_app.make_response(html)
    if request.args.get("lang") in LANGUAGES:
        answer.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return answer


@bp.get("/")
def tavolo() -> BaseResponse:
    """The table: seats, lives, pot, whose turn and the swap target; live."""
    return _page("table.html", "table")


@bp.get("/live")
def live() -> BaseResponse:
    """The camera's picture with the recognised cards, and its status."""
    return _page("live.html", "live")


@bp.get("/storico")
def storico() -> BaseResponse:
    """Every hand with its evidence; undo, corrections, export and import, warnings."""
    return _page("history.html", "history")


@bp.get("/setup")
def setup() -> BaseResponse:
    """Players, seating order, first dealer, rules, lives, stake; seats on the live picture."""
    return _page("setup.html", "setup")


@bp.get("/fotocamera")
def camera() -> BaseResponse:
    """This phone as the table's camera: its pictures' sizes, the link's bounds and the battery's
    (webui.phone)."""
    return _page("camera.html", "camera", sizes=phone.SIZES, slow_ms=phone.SLOW_MS,
                 fast_ms=phone.FAST_MS, low_battery=phone.LOW_BATTERY)


@bp.get("/mano/<int:number>")
def verdict(number: int) -> BaseResponse:
    """One hand's verdict: the photo, every card named, the losers."""
    game = table().game
    if game is None or not 1 <= number <= len(game.results):
        abort(404, f"there is no settled hand {number}")
    return _page("verdict.html", "verdict", number=number)


@bp.get("/cards/<code>.svg")
def card(code: str) -> Response:
    """A card in the project's own deck art (code like 9S, or `back`)."""
    try:
        name = "back" if code.strip().lower() == "back" else parse_card(code).code
    except CardError:
        abort(404, f"no card {code!r}")
    return send_from_directory(CARDS, f"{name}.svg", mimetype="image/svg+xml", max_age=_CARD_MAX_AGE)


@bp.get("/evidence/<name>")
def evidence(name: str) -> Response:
    """An evidence photo, only from the evidence folder."""
    if not _EVIDENCE_NAME.match(name):
        abort(404, "no such photo")
    return send_from_directory(table().evidence_dir, name, max_age=3600)


def address(which: str) -> str:
    """The address a phone should open for the table or its camera page."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url.rstrip("/")
    return base + (url_for("pages.camera") if which == "camera" else url_for("pages.tavolo"))


@bp.get("/qr/<which>.svg")
def qr(which: str) -> Response:
    """A QR code of the table's or the camera page's address."""
    if which not in ("table", "camera"):
        abort(404, "no such QR code")
    out = io.BytesIO()
    segno.make(address(which), error="m").save(out, kind="svg", scale=4, border=2,
                                                dark="#2b2118", light="#fffaf0")
    return Response(out.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@bp.get("/lang/<code>")
def switch_language(code: str) -> BaseResponse:
    """Switch the pages' language and go back."""
    if code not in LANGUAGES:
        abort(404, "no such language")
    back = request.args.get("next", "/")
    if not back.startswith("/") or back.startswith("//"):
        back = "/"
    answer = redirect(back)
    answer.set_cookie(LANG_COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax")
    return answer
