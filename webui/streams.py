"""The live streams (the state as SSE, the picture as MJPEG) on the event loop: an open page holds no thread."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from concurrent.futures import Executor
from datetime import timedelta
from typing import Any

from tornado import gen, locks
from tornado.iostream import StreamClosedError
from tornado.web import RequestHandler

from webui.table import TableService

KEEPALIVE = 15.0
"""Seconds between SSE comments on a quiet table: a page gone without a word is noticed within this."""

RETRY_MS = 1000
"""How soon a page's EventSource reconnects after the connection drops."""

MJPEG_WAIT = 5.0
"""Seconds a Live page waits for a new picture before the old one is sent again."""

WRITE_WAIT = 20.0
"""Seconds a page may take to take in one message: one that stops reading is let go, not waited on."""

PART = b"--frame\r\nContent-Type: image/jpeg\r\n\r\n"
"""The head of one MJPEG part."""


class StreamHub:
    """The table's news carried into the event loop: the newest state message and picture, and the
    open pages waiting for them; the state is read in a worker thread, once per change for all pages."""

    def __init__(self, service: TableService, executor: Executor) -> None:
        self.service = service
        self.closed = False
        self.version = -1
        self.message = b""
        self.picture: tuple[int, bytes | None] = service.frame()
        self._executor = executor
        self._loop = asyncio.get_running_loop()
        self._reading = False
        self._again = False
        self.state_waiters: set[locks.Event] = set()
        self.picture_waiters: set[locks.Event] = set()
        service.on_change(lambda: self._soon(self._changed))
        service.on_picture(lambda index, jpeg: self._soon(self._new_picture, index, jpeg))
        self._changed()

    def close(self) -> None:
        """End every stream (the server stops)."""
        self.closed = True
        self._wake(self.state_waiters | self.picture_waiters)

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

    def _read(self, future: asyncio.Future[tuple[int, str]]) -> None:
        self._reading = False
        if future.cancelled() or future.exception() is not None:  # the table closed under the read
            self.close()
            return
        version, text = future.result()
        if version != self.version:
            self.version = version
            self.message = f"id: {version}\ndata: {text}\n\n".encode()
            self._wake(self.state_waiters)
        if self._again:
            self._again = False
            self._changed()

    def _new_picture(self, index: int, jpeg: bytes) -> None:
        self.picture = (index, jpeg)
        self._wake(self.picture_waiters)

    @staticmethod
    def _wake(waiters: set[locks.Event]) -> None:
        for waiter in list(waiters):
            waiter.set()


class _Stream(RequestHandler):
    """One open page's stream: woken by the hub, let go when it stops reading or leaves."""

    def initialize(self, hub: StreamHub) -> None:
        self.hub = hub
        self.poke = locks.Event()
        self.gone = False

    def on_connection_close(self) -> None:
        self.gone = True
        self.poke.set()

    async def send(self, data: bytes) -> bool:
        """Write `data` and wait until it has left; False when the page is gone or stopped reading."""
        self.write(data)
        flushed: Awaitable[None] = self.flush()
        try:
            await gen.with_timeout(timedelta(seconds=WRITE_WAIT), flushed,
                                   quiet_exceptions=(StreamClosedError,))
        except (StreamClosedError, TimeoutError):
            self.gone = True
            if self.request.connection is not None:
                self.request.connection.close()  # type: ignore[attr-defined]
            return False
        return True

    async def nap(self, seconds: float) -> bool:
        """Wait for the hub's poke (or the page leaving) at most `seconds`; False when none came."""
        try:
            await self.poke.wait(timedelta(seconds=seconds))
        except TimeoutError:
            return False
        finally:
            self.poke.clear()
        return True

    def headers(self, kind: str) -> None:
        self.set_header("Content-Type", kind)
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Accel-Buffering", "no")


class EventStream(_Stream):
    """Server-Sent Events: the new state on every change, and a comment while the table is quiet."""

    async def get(self) -> None:
        self.headers("text/event-stream")
        hub = self.hub
        hub.state_waiters.add(self.poke)
        try:
            ok = await self.send(f"retry: {RETRY_MS}\n\n".encode())
            sent = -1
            while ok and not (hub.closed or self.gone):
                if self.news(sent):
                    sent = hub.version
                    ok = await self.send(hub.message)
                elif not await self.nap(KEEPALIVE):
                    ok = await self.send(b": quiet\n\n")
        finally:
            hub.state_waiters.discard(self.poke)

    def news(self, sent: int) -> bool:
        """Whether the hub has a state this page has not had; a page's first is the table's
        newest (a change read at this moment is waited for)."""
        hub = self.hub
        if hub.version < 0 or hub.version == sent:
            return False
        return sent >= 0 or hub.version >= hub.service.version


class PictureStream(_Stream):
    """The live picture with the recognised cards drawn on it, as MJPEG; ends while there is none."""

    async def get(self) -> None:
        self.headers("multipart/x-mixed-replace; boundary=frame")
        hub = self.hub
        hub.picture_waiters.add(self.poke)
        try:
            ok = await self.send(PART)
            index = -1
            while ok and not (hub.closed or self.gone):
                if hub.picture[0] == index:
                    await self.nap(MJPEG_WAIT)
                if hub.closed or self.gone:
                    break
                index, jpeg = hub.picture
                if jpeg is None:  # no camera yet: end, so that a closed page is never waited on
                    break
                # a browser shows a picture once the next part's head has come: send it at once
                ok = await self.send(jpeg + b"\r\n" + PART)
        finally:
            hub.picture_waiters.discard(self.poke)
