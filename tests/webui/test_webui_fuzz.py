"""Anything posted, with the PIN, to every route that changes the table: never a 5xx, nothing changed
by a refusal, and the real server still answering."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from webui.app import create_app
from webui.server import BackgroundServer
from webui.table import TableService

from conftest import PIN, PLAYERS, WITH_PIN

FUZZ = settings(max_examples=300, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""Enough bodies to find the shapes nobody thought of, in a few seconds per property (and no
example database written into the working tree)."""

ROUTES = ["/api/pin", "/api/setup", "/api/undo", "/api/corrections", "/api/record", "/api/seats",
          "/api/warnings/1/resolve", "/api/frame"]
"""Every POST route of the API."""

LEAVES = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
          | st.text(max_size=8) | st.sampled_from(PLAYERS + ["", " ", "anna", "<b>x</b>"]))
ANY_JSON = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=5)
                        | st.dictionaries(st.text(max_size=6), inner, max_size=5), max_leaves=20)
KEYS = st.sampled_from(["players", "rules", "lives", "dealer", "stake", "kind", "player", "card",
                        "cards", "dead", "living", "before", "target", "hands", "deal", "turns",
                        "width", "height", "how"])
SHAPED = st.dictionaries(KEYS, ANY_JSON, max_size=6)
"""Objects with the fields the routes read, holding anything."""

DEEP = st.integers(1, 3000).flatmap(lambda n: st.sampled_from(
    ["[" * n + "]" * n, "[" * n, '{"a":' * n + "1" + "}" * n, '{"players":' + "[" * n + "]" * n + "}"]))
HUGE = st.integers(1000, 300_000).flatmap(lambda n: st.sampled_from(
    [{"players": ["x" * n, "Bruno", "Carla"]}, {"kind": "join", "player": "y" * n},
     {"players": PLAYERS, "rules": "z" * n}, {"players": [f"p{i}" for i in range(n // 100)]}]))
WIDE = st.integers(21, 5000).map(lambda n: {"players": PLAYERS, "rules": {f"s{i}": i for i in range(n)}})

BODIES = st.one_of(
    SHAPED.map(lambda v: json.dumps(v).encode()),
    ANY_JSON.map(lambda v: json.dumps(v).encode()),
    DEEP.map(str.encode),
    HUGE.map(lambda v: json.dumps(v).encode()),
    WIDE.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=64),  # bad UTF-8 among it
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TableService, str]]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app({"DATABASE": str(folder / "table.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    table.setup(PLAYERS, dealer="Dario", stake=0.5)
    server = BackgroundServer(app)
    yield table, server.url
    table.close()
    server.stop()


def send(url: str, method: str, path: str, body: bytes | None = None) -> tuple[int, Any]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    conn.request(method, path, body, {"Content-Type": "application/json", **WITH_PIN})
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    return answer.status, json.loads(data)


def unchanged(state: dict) -> dict:
    """The state without the fields that say when, not what."""
    return {k: v for k, v in state.items() if k != "camera"}


@FUZZ
@given(route=st.sampled_from(ROUTES), body=BODIES)
def test_any_body_on_any_route_is_taken_or_refused_in_words_and_a_refusal_changes_nothing(
        served: tuple[TableService, str], route: str, body: bytes) -> None:
    table, url = served
    before = send(url, "GET", "/api/state")[1]
    status, answer = send(url, "POST", route, body)
    event(f"{route} {status}")  # --hypothesis-show-statistics shows which answers were seen
    assert status < 500, (route, body[:200], answer)
    if status >= 400:
        assert isinstance(answer["error"], str) and answer["error"]
        after = send(url, "GET", "/api/state")
        assert after[0] == 200 and unchanged(after[1]) == unchanged(before)
    if table.game is None or table.game.hand is not None or len(table.game.players) != 4:
        table.setup(PLAYERS, dealer="Dario", stake=0.5)  # the next body finds the same table


@FUZZ
@given(body=BODIES)
def test_any_setup_refused_is_a_400_in_italian_and_english(served: tuple[TableService, str],
                                                           body: bytes) -> None:
    table, url = served
    status, answer = send(url, "POST", "/api/setup?lang=en", body)
    assert status in (200, 400), answer
    if status == 400:  # nothing changed: asked again in Italian, the same refusal in its words
        again, italian = send(url, "POST", "/api/setup?lang=it", body)
        assert again == 400 and italian.get("code") == answer.get("code")
        assert answer["error"] and italian["error"] and answer["error"] != italian["error"]
    else:
        table.setup(PLAYERS, dealer="Dario", stake=0.5)
