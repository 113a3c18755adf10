"""The web server: Tornado's event loop holds every connection and the live streams; the Flask app
answers the short requests in a few worker threads.

An open page costs a coroutine, not a thread; an idle or half-sent request is closed after its
timeout; one client address holds at most a fair share of the connections.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import ssl
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from flask import Flask
from tornado.httpserver import HTTPServer
from tornado.iostream import IOStream
from tornado.netutil import bind_sockets
from tornado.web import Application, RequestHandler, stream_request_body
from tornado.wsgi import WSGIContainer

from webui.app import MAX_UPLOAD, too_big
from webui.streams import EventStream, PictureStream, StreamHub
from webui.words import chosen

log = logging.getLogger("saltacavallo.server")

WORKERS = 16
"""Threads for the app's short requests (pages, changes, the phone camera's frames): no open page
holds one, so a few answer a whole family; a slow change (a game record replayed) leaves room."""

PER_CLIENT = 32
"""Connections one address may hold: a browser opens at most 6 to one server, however many tabs
(Chrome, Firefox, Safari), so 32 is several browsers on one device; a scanner gets no more."""

MOST_CONNECTIONS = 4000
"""Connections held in all: a table's phones need a few dozen; the cap keeps the process below its
limit of open files (raised at start where the system allows), which would stop it accepting."""

HEADER_TIMEOUT = 10.0
"""Seconds a client has to send a request's head, and that a kept-alive connection may idle: a
phone on a weak Wi-Fi sends a head in well under one; a half-sent request is closed after this."""

BODY_TIMEOUT = 60.0
"""Seconds a client has to send a request's body: a 3 MB game record over a 1 Mbit/s Wi-Fi takes 25."""

STOP_WAIT = 5.0
"""Seconds a stopping server waits for its loop to close the connections."""


@dataclass(frozen=True)
class Limits:
    """What one client and all of them may hold, and how long a request may take to arrive."""

    per_client: int = PER_CLIENT
    connections: int = MOST_CONNECTIONS
    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT


class FairServer(HTTPServer):
    """Tornado's HTTP server, refusing a connection past a client's share or the total."""

    def initialize(self, *args: Any, limits: Limits = Limits(), **kwargs: Any) -> None:
        super().initialize(*args, idle_connection_timeout=limits.header_timeout,
                           body_timeout=limits.body_timeout, **kwargs)
        self.limits = limits
        self.held: Counter[str] = Counter()
        self._client_of: dict[IOStream, str] = {}
        self._told: set[str] = set()

    def handle_stream(self, stream: IOStream, address: Any) -> None:
        """A new connection: served, or closed at once when its client holds its share."""
        client = str(address[0]) if isinstance(address, tuple) and address else "local"
        if self.held[client] >= self.limits.per_client or \
                len(self._client_of) >= self.limits.connections:
            if client not in self._told:  # said once per client, not once per connection
                self._told.add(client)
                log.warning("%s holds %d connections: more are refused until some close",
                            client, self.held[client])
            stream.close()
            return
        self.held[client] += 1
        self._client_of[stream] = client
        super().handle_stream(stream, address)

    def on_close(self, server_conn: Any) -> None:
        """A connection closed: its client's share is freed."""
        client = self._client_of.pop(getattr(server_conn, "stream", None), None)  # type: ignore[arg-type]
        if client is not None:
            self.held[client] -= 1
            if self.held[client] <= 0:
                del self.held[client]
                self._told.discard(client)
        super().on_close(server_conn)


@stream_request_body
class AppHandler(RequestHandler):
    """Everything but the streams: the Flask app in a worker thread, the body refused early when too big."""

    def initialize(self, container: WSGIContainer) -> None:
        self.container = container
        self.parts: list[bytes] = []

    def prepare(self) -> None:
        """Refuse a body declared too big before reading it; bound an undeclared one."""
        declared = int(self.request.headers.get("Content-Length") or 0)  # tornado checked it is a number
        if declared > MAX_UPLOAD:
            self.set_status(413)
            self.set_header("Content-Type", "application/json")
            language = chosen(self.get_argument("lang", None), self.get_cookie("lang"))
            self.finish(json.dumps(too_big(language), ensure_ascii=False))
            return
        self.request.connection.set_max_body_size(MAX_UPLOAD)  # type: ignore[union-attr]

    def data_received(self, chunk: bytes) -> None:
        self.parts.append(chunk)

    def pass_on(self, *args: str) -> None:
        """The whole request to the Flask app (as tornado's FallbackHandler does)."""
        self.request.body = b"".join(self.parts)
        self._finished = True  # the container answers on the connection itself
        self.container(self.request)
        self.on_finish()

    get = head = post = put = delete = patch = options = pass_on


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    """The server's TLS settings for a certificate and its key (OSError or ValueError when unusable)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def raise_open_files(wanted: int = MOST_CONNECTIONS + 256) -> None:
    """Let the process open `wanted` files where the system allows (macOS starts at 256)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass


class BackgroundServer:
    """The app and its streams served by an event loop in a thread of its own (serve, tests, benchmarks)."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = WORKERS,
                 *, sockets: list[socket.socket] | None = None, tls: ssl.SSLContext | None = None,
                 limits: Limits = Limits()) -> None:
        self.app, self.limits, self.tls = app, limits, tls
        self.sockets = sockets if sockets is not None else bind_sockets(port, host)
        self.port = int(self.sockets[0].getsockname()[1])
        self.url = f"{'https' if tls else 'http'}://{host}:{self.port}"
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="web")
        self.server: FairServer | None = None
        self.hub: StreamHub | None = None
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="web-server", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._failed is not None:
            raise self._failed

    def alive(self) -> bool:
        """Whether the loop is still serving."""
        return self._thread.is_alive()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._start())
        except BaseException as error:  # said to the caller of __init__, who is waiting
            self._failed = error
            self._ready.set()
            return
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()

    async def _start(self) -> None:
        logging.getLogger("tornado.access").setLevel(logging.ERROR)  # a refused request is no news; a 5xx is
        service = self.app.extensions["saltacavallo.table"]
        self.hub = StreamHub(service, self.executor)
        container = WSGIContainer(self.app, executor=self.executor)
        routes = Application([
            (r"/api/events", EventStream, {"hub": self.hub}),
            (r"/api/live\.mjpg", PictureStream, {"hub": self.hub}),
            (r".*", AppHandler, {"container": container}),
        ])
        self.server = FairServer(routes, ssl_options=self.tls, limits=self.limits)
        self.server.add_sockets(self.sockets)

    async def _shutdown(self) -> None:
        assert self.server is not None and self.hub is not None
        self.server.stop()
        self.hub.close()
        await asyncio.sleep(0)  # the streams take their last turn and finish
        await self.server.close_all_connections()

    def stop(self) -> None:
        """Stop listening, end every stream and close every connection."""
        if self._loop.is_running():
            done = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
            try:
                done.result(STOP_WAIT)
            except Exception:  # stopping anyway: the connections go with the loop
                log.exception("the server did not close its connections in time")
            self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(STOP_WAIT)
        self.executor.shutdown(wait=False, cancel_futures=True)
