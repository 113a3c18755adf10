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

from webui.api import language
from webui.guard import PinGuard, new_pin
from webui.table import TableService
from webui.words import page_words, say

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


def too_big(language: str = "it") -> dict[str, str]:
    """The refusal of a body over MAX_UPLOAD in `language` (the API's error field)."""
    return {"error": say("http.too_big", {"most": MAX_UPLOAD // (1024 * 1024)}, language)}


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _http_error(error: HTTPException) -> BaseResponse | tuple[Any, int]:
    lang = language()
    if error.code == 413:
        said = too_big(lang)["error"]
    elif lang == "it":
        code = "http.not_found" if error.code == 404 else "http.refused"
        said = say(code, {"status": error.code or 500, "name": error.name}, lang)
    else:  # the English Flask gives (what the view said when it refused)
        said = error.description or error.name
    if _wants_json():
        return jsonify(error=said), error.code or 500
    words = page_words(lang)
    html = render_template("error.html", page="error", lang=lang, w=words, words=words,
                           code=error.code, message=said)
    return html, error.code or 500


def _crash(error: Exception) -> tuple[Any, int]:
    """Anything unforeseen: logged in full here, one plain line to the page, no trace."""
    log.exception("unexpected error on %s %s", request.method, request.path)
    if _wants_json():
        return jsonify(error=say("server.crash", {}, language())), 500
    return say("server.crash", {}, language()), 500
