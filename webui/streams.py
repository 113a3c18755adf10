"""The live streams (the state as SSE, the picture as MJPEG) on the event loop: an open page holds no thread."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Executor
from typing import Any

from tornado import locks
from tornado.ioloop import PeriodicCallback
from tornado.iostream import StreamClosedError
from tornado.web import RequestHandler

from webui.table import TableService
from webui.words import LANGUAGES, chosen

TICK = 5.0
"""Seconds between the hub's rounds: a quiet page gets a comment and a Live page its picture again
(so a page gone without a word is noticed), and a page stuck on a message is let go. One timer for
every page: a timer each would cost the loop more than the messages."""

RETRY_MS = 1000
"""How soon a page's EventSource reconnects after the connection drops."""

WRITE_WAIT = 20.0
"""Seconds a page may take to take in one message: one that stops reading is let go, not waited on."""

MJPEG_PART_HEAD = b"--frame\r\nContent-Type: image/jpeg\r\n\r\n"
"""The head of one MJPEG part."""


class StreamHub:
    """The table's news carried into the event loop: the newest state message and picture, and the
    open pages waiting for them; the state is read in a worker thread, once per change for all pages."""

    def __init__(self, service: TableService, executor: Executor) -> None:
        self.service = service
        self.closed = False
        self.version = -1
        self.messages = dict.fromkeys(LANGUAGES, b"")
        self.picture: tuple[int, bytes | None] = service.frame()
        self._executor = executor
        self._loop = asyncio.get_running_loop()
        self._reading = False
        self._again = False
        self.tick = 0
        self.pages: set[_Stream] = set()
        self.viewers: set[_Stream] = set()
        service.on_change(lambda: self._soon(self._changed))
        service.on_picture(lambda index, jpeg: self._soon(self._new_picture, index, jpeg))
        service.count_streams(lambda: len(self.viewers))
        self._timer = PeriodicCallback(self._round, TICK * 1000)
        self._timer.start()
        self._changed()

    def close(self) -> None:
        """End every stream (the server stops)."""
        self.closed = True
        self._timer.stop()
        self._wake(self.pages | self.viewers)

    def _round(self) -> None:
        """Every TICK: wake every stream for its comment or picture; let go of the stuck ones."""
        self.tick += 1
        now = time.monotonic()
        for stream in list(self.pages | self.viewers):
            if stream.writing_since is not None and now - stream.writing_since > WRITE_WAIT:
                stream.let_go()
        self._wake(self.pages | self.viewers)

    def _soon(self, callback: Any, *args: Any) -> None:
        """Run `callback` on the loop; called from any thread (the live loop's, a request's)."""
        if self.closed:
            return
        try:
            self._loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop has closed: the server has stopped
            self.closed = True

    def _changed(self) -> None:
        if self.service.closed:
            self.close()
            return
        if self._reading:  # a read is on its way: one more after it takes in this change
            self._again = True
            return
        self._reading = True
        future = self._loop.run_in_executor(self._executor, self.service.versioned_state)
        future.add_done_callback(self._read)

    def _read(self, future: asyncio.Future[tuple[int, dict[str, str]]]) -> None:
        self._reading = False
        if future.cancelled() or future.exception() is not None:  # the table closed under the read
            self.close()
            return
        version, texts = future.result()
        if version != self.version:
            self.version = version
            self.messages = {language: f"id: {version}\ndata: {text}\n\n".encode()
                             for language, text in texts.items()}
            self._wake(self.pages)
        if self._again:
            self._again = False
            self._changed()

    def _new_picture(self, index: int, jpeg: bytes) -> None:
        self.picture = (index, jpeg)
        self._wake(self.viewers)

    @staticmethod
    def _wake(streams: set[_Stream]) -> None:
        for stream in list(streams):
            stream.poke.set()


class _Stream(RequestHandler):
    """One open page's stream: woken by the hub, let go when it stops reading or leaves."""

    def initialize(self, hub: StreamHub) -> None:
        self.hub = hub
        self.poke = locks.Event()
        self.gone = False
        self.writing_since: float | None = None

    def on_connection_close(self) -> None:
        self.gone = True
        self.poke.set()

    def let_go(self) -> None:
        """Close the connection (a page that stopped reading)."""
        self.gone = True
        self.poke.set()
        if self.request.connection is not None:
            self.request.connection.close()  # type: ignore[attr-defined]

    async def send(self, data: bytes) -> bool:
        """Write `data` and wait until it has left; False when the page is gone."""
        self.writing_since = time.monotonic()
        self.write(data)
        try:
            await self.flush()
        except StreamClosedError:
            self.gone = True
        finally:
            self.writing_since = None
        return not self.gone

    async def nap(self) -> None:
        """Wait for the hub's poke: news, its round, or the page leaving."""
        await self.poke.wait()
        self.poke.clear()

    kind = "application/octet-stream"
    """The stream's content type."""

    def audience(self) -> set[_Stream]:
        """The hub's set this stream belongs to while open (woken by its news)."""
        raise NotImplementedError

    async def get(self) -> None:
        """Stream until the page leaves or the server stops."""
        self.set_header("Content-Type", self.kind)
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Accel-Buffering", "no")
        self.audience().add(self)
        try:
            await self.stream()
        finally:
            self.audience().discard(self)

    async def stream(self) -> None:
        """Send this stream's messages while the page stays."""
        raise NotImplementedError


class EventStream(_Stream):
    """Server-Sent Events: the new state on every change in the page's language (`?lang=`, the
    `lang` cookie, or Italian), and a comment while the table is quiet."""

    kind = "text/event-stream"

    def audience(self) -> set[_Stream]:
        return self.hub.pages

    async def stream(self) -> None:
        hub = self.hub
        language = chosen(self.get_argument("lang", None), self.get_cookie("lang"))
        ok = await self.send(f"retry: {RETRY_MS}\n\n".encode())
        sent, tick = -1, hub.tick
        while ok and not (hub.closed or self.gone):
            if self.news(sent):
                sent = hub.version
                ok = await self.send(hub.messages[language])
            elif hub.tick != tick:
                tick = hub.tick
                ok = await self.send(b": quiet\n\n")
            else:
                await self.nap()

    def news(self, sent: int) -> bool:
        """Whether the hub has a state this page has not had; a page's first is the table's
        newest (a change read at this moment is waited for)."""
        hub = self.hub
        if hub.version < 0 or hub.version == sent:
            return False
        return sent >= 0 or hub.version >= hub.service.version


class PictureStream(_Stream):
    """The live picture with the recognised cards drawn on it, as MJPEG; ends while there is none."""

    kind = "multipart/x-mixed-replace; boundary=frame"

    def audience(self) -> set[_Stream]:
        return self.hub.viewers

    async def stream(self) -> None:
        hub = self.hub
        ok = await self.send(MJPEG_PART_HEAD)
        index = -1
        while ok and not (hub.closed or self.gone):
            if hub.picture[0] == index:  # no new picture: the hub's round sends this one again
                await self.nap()
            if hub.closed or self.gone:
                break
            index, jpeg = hub.picture
            if jpeg is None:  # no camera yet: end, so that a closed page is never waited on
                break
            # a browser shows a picture once the next part's head has come: send it at once
            ok = await self.send(jpeg + b"\r\n" + MJPEG_PART_HEAD)
