"""The JSON API the pages use: the state and every change (with the PIN), answered in the page's
language (`?lang=`, then the `lang` cookie the pages keep, then Italian); the live streams are in
webui.streams."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, current_app, jsonify, request

from referee.events import event_from_json
from referee.record import RecordError
from referee.rules import RulesError
from referee.cards import CardError
from referee.game import RuleError
from referee.store import StoreError
from referee.wording import plain

from vision.frames import PAGE_AWAY
from live import way
from live.words import Coded
from webui import inputs
from webui.guard import PinGuard, PinRefused
from webui.phone import aim_in
from webui.table import TableError, TableService
from webui.uploads import UploadError, jpeg_size
from webui.words import chosen, say

bp = Blueprint("api", __name__, url_prefix="/api")

PIN_HEADER = "X-Table-Pin"
LANG_COOKIE = "lang"

LONGEST_HOW = 500
"""Characters in how a warning was resolved: a short note on the History page."""

F = TypeVar("F", bound=Callable[..., Any])


def table() -> TableService:
    """This app's table."""
    return cast(TableService, current_app.extensions["saltacavallo.table"])


def language() -> str:
    """The reader's language: `?lang=`, then the cookie, then Italian."""
    return chosen(request.args.get("lang"), request.cookies.get(LANG_COOKIE))


def needs_pin(view: F) -> F:
    """A change: refused (403, or 429 after repeated wrong PINs) without the table's PIN."""

    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        guard = cast(PinGuard, current_app.extensions["saltacavallo.guard"])
        try:
            guard.check(request.remote_addr or "?", request.headers.get(PIN_HEADER))
        except PinRefused as refused:
            answer = _refuse(refused.status, refused)
            if refused.wait:
                answer.headers["Retry-After"] = str(int(refused.wait + 0.999))
            return answer
        return view(*args, **kwargs)

    return cast(F, checked)


def _refuse(status: int, error: Exception) -> Response:
    """A refusal: `error` in the reader's language, with its code and parameters where it has
    them (a RuleError, a TableError or HeldError, a refused PIN or upload...)."""
    answer = jsonify(**refusal(error, language()))
    answer.status_code = status
    return answer


_DETAILED = {RecordError: "refused.record", StoreError: "refused.store",
             RulesError: "refused.rules", CardError: "refused.card"}
"""The refusals of the referee that carry no code yet: their English given as a detail."""


def refusal(error: Exception, language: str = "it") -> dict[str, Any]:
    """A refusal as the pages read it: `error` in `language`, and the code with its parameters."""
    if isinstance(error, RuleError):
        return {"error": error.words(language), "code": error.code,
                "params": plain(error.params), "hand": error.hand}
    if isinstance(error, Coded):
        return {"error": error.words(language), "code": error.code,
                "params": plain(error.params)}
    code = next((c for kind, c in _DETAILED.items() if isinstance(error, kind)), "refused.other")
    params = {"detail": str(error)}
    return {"error": say(code, params, language), "code": code, "params": params}


def _object() -> dict[str, Any]:
    """The request's JSON object (inputs.json_object: a Refused, answered 400, names what is wrong)."""
    return inputs.json_object(request.get_data(cache=False))


@bp.errorhandler(inputs.Refused)
def _refused(refused: inputs.Refused) -> Response:
    """Input a person must fix: 400, the reason in the reader's language; nothing was changed."""
    answer = jsonify(**refusal(refused, language()))
    answer.status_code = 400
    return answer


def _changed() -> Response:
    """The answer to a change: the new state, in the reader's language."""
    return Response(table().state_json(language()), mimetype="application/json")


def _apply(change: Callable[[], object]) -> Response:
    """Run a change; a rule it breaks is 409, a bad value 400, each with its message."""
    try:
        change()
    except (RuleError, RecordError, TableError, RulesError, CardError, StoreError,
            way.WayError, way.HeldError) as err:
        status = 409 if isinstance(err, (RuleError, TableError, StoreError, way.WayError,
                                         way.HeldError)) else 400
        return _refuse(status, err)
    return _changed()


@bp.get("/state")
def state() -> Response:
    """The whole table as JSON, in the reader's language."""
    return _changed()


@bp.get("/record")
def record() -> Response:
    """The hand record (RULES.md) of the game; `?download=1` to save it as a file."""
    try:
        data = table().record()
    except TableError as err:
        return _refuse(409, err)
    answer = Response(json.dumps(data, ensure_ascii=False, indent=2),
                      mimetype="application/json")
    if request.args.get("download"):
        answer.headers["Content-Disposition"] = "attachment; filename=saltacavallo-partita.json"
    return answer


@bp.post("/pin")
@needs_pin
def pin() -> Response:
    """Check a PIN (the page asks once and keeps it)."""
    return jsonify(ok=True)


@bp.post("/setup")
@needs_pin
def setup() -> Response:
    """A new game: `{"players": [...], "rules": "napoli" or {switches}, "lives", "dealer",
    "stake"}`; `dealer` null lets the camera choose from cards dealt face up."""
    body = _object()
    names = inputs.players(body.get("players"))
    rules = inputs.rules(body.get("rules", "napoli"))
    lives = inputs.lives(body.get("lives"))
    dealer = inputs.dealer(body.get("dealer"), names)
    stake = inputs.stake(body.get("stake", 0))
    return _apply(lambda: table().setup(names, rules, lives, dealer, stake))


@bp.post("/undo")
@needs_pin
def undo() -> Response:
    """Take back the last event."""
    return _apply(table().undo)


@bp.post("/corrections")
@needs_pin
def corrections() -> Response:
    """A person's event, as the hand record's event JSON: `{"kind": "revive", "dead": "Anna",
    "living": "Bruno"}`; one the rules forbid is 409 with the rule."""
    body = _object()
    game = table().game
    inputs.event_names(body, game.players if game is not None else ())
    inputs.event_card(body)
    try:
        event = event_from_json(body)
    except (ValueError, KeyError, TypeError) as err:
        detail = str(err) if not isinstance(err, KeyError) else f"the event has no {err}"
        return _refuse(400, Coded("event.invalid", detail=detail))
    return _apply(lambda: table().correct(event))


@bp.post("/record")
@needs_pin
def import_record() -> Response:
    """Start a new game from a hand record (JSON body), every hand replayed."""
    body = _object()
    inputs.record_table(body)
    return _apply(lambda: table().import_record(body))


@bp.post("/seats")
@needs_pin
def seats() -> Response:
    """The seats tapped on the live picture: `{"width", "height", "players": {name: [x, y]}}`."""
    body = _object()
    points = body.get("players")
    if not isinstance(points, dict):
        raise inputs.Refused("input.seats")
    return _apply(lambda: table().set_seats(body.get("width"), body.get("height"), points))


@bp.post("/warnings/<int:ident>/resolve")
@needs_pin
def resolve(ident: int) -> Response:
    """A person resolved a warning: `{"how": "..."}`."""
    how = _object().get("how", "resolved")
    if not isinstance(how, str) or len(how) > LONGEST_HOW:
        raise inputs.Refused("input.how", most=LONGEST_HOW)
    return _apply(lambda: table().resolve(ident, how))


@bp.post("/held/<int:ident>")
@needs_pin
def held(ident: int) -> Response:
    """A way on from the held hand `ident`, as the page offers it: `{"way": "continue"}`,
    `{"way": "swap", "player", "target"}`, `{"way": "unseen", "a", "b", "answer": "yes"|"no"}`,
    `{"way": "redeal"}`, `{"way": "write", "cards": {player: code}}`."""
    body = _object()
    if not isinstance(body.get("way"), str):
        raise inputs.Refused("input.way")
    return _apply(lambda: table().decide(ident, way.from_json(body)))


@bp.post("/decisions/<int:number>/undo")
@needs_pin
def take_back(number: int) -> Response:
    """Take back the latest decision on a held hand: the hand is held again as it was."""
    return _apply(lambda: table().take_back(number))


@bp.post("/frame")
@needs_pin
def frame() -> Response:
    """One JPEG from the phone camera page (newest wins), with `?battery=0.54&charging=0&slow=0` as its
    page knows them. Answered once the live loop has taken it (the page sends the next one then), with
    the milliseconds waited for that, the view to aim the camera by and the word on the light
    (webui.phone)."""
    data = request.get_data(cache=False)
    try:
        width, height = jpeg_size(data)
    except UploadError as err:
        return _refuse(err.status, err)
    service = table()
    try:
        service.push_frame(data)
    except TableError as err:
        return _refuse(409, err)
    service.phone_heard(data, (width, height), request.args)
    waited = service.phone_taken()
    return jsonify(ok=True, width=width, height=height, waited=round(waited * 1000),
                   aim=aim_in(service.aim(), language()), light=service.phone_light)


@bp.post("/frame/away")
@needs_pin
def frame_away() -> Response:
    """The phone camera page stopped sending: `{"why": "hidden"}` (the page is in the background,
    the phone locked) or `{"why": "stopped"}` (its camera stopped); the camera's status says so at
    once rather than when the pictures are missed."""
    why = _object().get("why")
    if why not in PAGE_AWAY:
        raise inputs.Refused("input.away", given=inputs.shown(why), choices=list(PAGE_AWAY))
    try:
        table().phone_away(why)
    except TableError as err:
        return _refuse(409, err)
    return jsonify(ok=True)


@bp.get("/live.jpg")
def live_picture() -> Response:
    """The newest live picture, or 404 before the first."""
    _, jpeg = table().frame()
    if jpeg is None:
        return _refuse(404, Coded("picture.none"))
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
