"""A crowded or careless Wi-Fi: idle and half-sent connections, a scanner, a hundred open pages.

Each client is a loopback address of its own (127.0.x.y all reach this machine), as each phone
on the family's Wi-Fi has one.
"""

from __future__ import annotations

import http.client
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from flask import Flask

from referee.events import Deal
from webui.server import PER_CLIENT, BackgroundServer, Limits
from webui.table import TableService

from conftest import PLAYERS, Stream

ANSWER_WITHIN = 1.0
"""The issue's bound: the page and the state answer within a second, whatever the crowd."""


@pytest.fixture
def served(app: Flask, table: TableService) -> Iterator[str]:
    table.setup(PLAYERS, dealer="Dario")
    server = BackgroundServer(app, limits=Limits(header_timeout=30.0))  # the crowd stays for the test
    yield server.url
    table.close()
    server.stop()


def connect(url: str, source: str, send: bytes = b"") -> socket.socket:
    """A raw connection from `source` that sends `send` (perhaps half a request) and then waits."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10,
                                    source_address=(source, 0))
    if send:
        sock.sendall(send)
    return sock


def timed_get(url: str, path: str, source: str) -> tuple[int, float]:
    """GET `path` from `source` on a new connection: the status and the seconds it took."""
    parts = urlsplit(url)
    started = time.monotonic()
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10,
                                      source_address=(source, 0))
    conn.request("GET", path)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer.status, time.monotonic() - started


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes `sock` within `within` seconds (0: has closed it already)."""
    sock.settimeout(within or None)
    if not within:
        sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except (TimeoutError, BlockingIOError):
        return False
    except ConnectionResetError:
        return True


def test_two_hundred_idle_and_half_sent_connections_and_a_hundred_pages_leave_the_table_answering(
        served: str, table: TableService) -> None:
    crowd = []
    for i in range(200):  # ten careless devices, twenty connections each
        source = f"127.0.1.{i % 10 + 1}"
        crowd.append(connect(served, source, b"" if i % 2 else b"GET /api/state HTTP/1.1\r\nHo"))
    pages = [Stream(served, source=f"127.0.2.{i % 5 + 1}") for i in range(100)]
    try:
        for page in pages:
            assert page.next_state()["phase"] == "deal"
        for path in ("/", "/api/state"):
            status, took = timed_get(served, path, "127.0.3.1")
            assert status == 200 and took < ANSWER_WITHIN, (path, took)
        started = time.monotonic()
        table.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}))
        assert all(page.next_state()["current_player"] == "Anna" for page in pages)
        assert time.monotonic() - started < ANSWER_WITHIN
    finally:
        for page in pages:
            page.close()
        for sock in crowd:
            sock.close()


def test_a_scanner_holds_no_more_than_its_share_and_the_family_is_served(served: str) -> None:
    scanner = [connect(served, "127.0.4.66") for _ in range(PER_CLIENT + 20)]
    try:
        time.sleep(0.3)
        held = [s for s in scanner if not closed_by_server(s, 0)]
        assert len(held) == PER_CLIENT  # the rest were closed at once
        status, took = timed_get(served, "/api/state", "127.0.4.7")
        assert status == 200 and took < ANSWER_WITHIN
    finally:
        for sock in scanner:
            sock.close()
    time.sleep(0.2)  # the server sees the closes
    assert timed_get(served, "/api/state", "127.0.4.66")[0] == 200  # its share is free again


def test_a_half_sent_request_and_a_stalled_body_are_closed_after_their_timeouts(
        app: Flask, table: TableService) -> None:
    server = BackgroundServer(app, limits=Limits(header_timeout=0.5, body_timeout=0.5))
    try:
        half = connect(server.url, "127.0.5.1", b"GET /api/state HTTP/1.1\r\nHost: table\r\n")
        silent = connect(server.url, "127.0.5.1")
        stalled = connect(server.url, "127.0.5.1", b"POST /api/setup HTTP/1.1\r\nHost: table\r\n"
                          b"Content-Length: 100\r\n\r\n{\"play")
        for sock in (half, silent, stalled):
            assert closed_by_server(sock, 3.0)
            sock.close()
        assert timed_get(server.url, "/api/state", "127.0.5.1")[0] == 200
    finally:
        table.close()
        server.stop()


def test_a_huge_upload_is_refused_with_its_reason_before_it_is_sent(served: str) -> None:
    for language, reason in (("en", "at most 3 MB"), ("it", "al massimo 3 MB")):
        sock = connect(served, "127.0.6.1", f"POST /api/frame?lang={language} HTTP/1.1\r\n"
                       "Host: table\r\nContent-Type: image/jpeg\r\n"
                       "Content-Length: 50000000\r\n\r\n".encode())
        answer = http.client.HTTPResponse(sock)
        answer.begin()
        assert answer.status == 413
        assert reason.encode() in answer.read()
        sock.close()
