"""Fixtures of the web companion's tests: an app on a fresh game file, its table, the PIN."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webui.app import create_app
from webui.table import TableService

PIN = "2468"
WITH_PIN = {"X-Table-Pin": PIN}
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]

WORKED_EXAMPLE = [  # RULES.md's worked example, hand 1, as the page's event JSON
    {"kind": "deal", "cards": {"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}},
    {"kind": "keep", "player": "Anna"},
    {"kind": "swap", "player": "Carla"},
    {"kind": "reveal", "cards": {"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}},
    {"kind": "settle"},
]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The companion on an empty game file in a temporary folder."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "table.db"), "PIN": PIN})
    yield app
    app.extensions["saltacavallo.table"].close()


@pytest.fixture
def table(app: Flask) -> TableService:
    """The app's table service."""
    return app.extensions["saltacavallo.table"]


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def seated(client: FlaskClient) -> FlaskClient:
    """Anna, Bruno, Carla and Dario at the table, Dario dealing first, 50 cents a life."""
    answer = client.post("/api/setup", json={"players": PLAYERS, "dealer": "Dario",
                                             "stake": 0.5}, headers=WITH_PIN)
    assert answer.status_code == 200, answer.get_json()
    return client


def play(client: FlaskClient, events: list[dict]) -> None:
    """Play events through the corrections API, each accepted."""
    for event in events:
        answer = client.post("/api/corrections", json=event, headers=WITH_PIN)
        assert answer.status_code == 200, (event, answer.get_json())


class Stream:
    """One page's SSE connection, read event by event."""

    def __init__(self, url: str, source: str | None = None) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10,
                                               source_address=(source, 0) if source else None)
        self.conn.request("GET", "/api/events")
        self.answer = self.conn.getresponse()
        assert self.answer.status == 200
        assert self.answer.getheader("Content-Type").startswith("text/event-stream")

    def next_state(self) -> dict:
        data = None
        while True:
            line = self.answer.readline().decode().rstrip("\r\n")
            if line.startswith("data: "):
                data = line[6:]
            elif line == "" and data is not None:
                return json.loads(data)

    def close(self) -> None:
        self.conn.close()
