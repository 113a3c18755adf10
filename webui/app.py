"""The Flask app factory (the Flask tutorial's shape): config, the table, the PIN, blueprints."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from webui.guard import PinGuard, new_pin
from webui.table import TableService
from webui.words import LANGUAGES, page_words, say

MAX_UPLOAD = 3 * 1024 * 1024
"""No request body is larger (a frame's own limit is 2 MiB; a hand record is far smaller)."""

log = logging.getLogger("saltacavallo.web")


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The web companion; `test_config` sets DATABASE, PIN, EVIDENCE_DIR, PUBLIC_URL, TABLE."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "saltacavallo.db"), EVIDENCE_DIR=None,
        PIN=None, PUBLIC_URL=None, TABLE=None, MAX_CONTENT_LENGTH=MAX_UPLOAD,
        JSON_AS_ASCII=False,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    service = app.config["TABLE"]
    if service is None:
        Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
        service = TableService(app.config["DATABASE"], app.config["EVIDENCE_DIR"])
    app.config["PIN"] = app.config["PIN"] or new_pin()
    app.extensions["saltacavallo.table"] = service
    app.extensions["saltacavallo.guard"] = PinGuard(app.config["PIN"])

    from webui import api, evening, pages

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(evening.bp)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _crash)

    @app.after_request
    def _headers(answer: BaseResponse) -> BaseResponse:
        answer.headers.setdefault("X-Content-Type-Options", "nosniff")
        answer.headers.setdefault("Referrer-Policy", "same-origin")
        return answer

    return app


def too_big() -> dict[str, str]:
    """The refusal of a body over MAX_UPLOAD, in English and Italian (the API's error fields)."""
    megabytes = MAX_UPLOAD // (1024 * 1024)
    return {"error": say("http.too_big", {"most": megabytes}, "en"),
            "error_it": say("http.too_big", {"most": megabytes}, "it")}


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _http_error(error: HTTPException) -> BaseResponse | tuple[Any, int]:
    if error.code == 413:
        said = too_big()
    else:
        code = "http.not_found" if error.code == 404 else "http.refused"
        params = {"status": error.code or 500, "name": error.name}
        said = {"error": error.description or error.name, "error_it": say(code, params, "it")}
    if _wants_json():
        return jsonify(**said), error.code or 500
    lang = request.cookies.get("lang") if request.cookies.get("lang") in LANGUAGES else "it"
    words = page_words(lang)
    html = render_template("error.html", page="error", lang=lang, w=words, words=words,
                           code=error.code,
                           message=said["error_it" if lang == "it" else "error"])
    return html, error.code or 500


def _crash(error: Exception) -> tuple[Any, int]:
    """Anything unforeseen: logged in full here, one plain line to the page, no trace."""
    log.exception("unexpected error on %s %s", request.method, request.path)
    if _wants_json():
        return jsonify(error=say("server.crash", {}, "en"),
                       error_it=say("server.crash", {}, "it")), 500
    lang = request.cookies.get("lang") if request.cookies.get("lang") in LANGUAGES else "it"
    return say("server.crash", {}, lang), 500
