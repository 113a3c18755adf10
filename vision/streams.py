"""Live sources read in a thread of their own that keeps only the newest frame: webcam, MJPEG, RTSP.

A live source reconnects after a drop, at once and then waiting a little longer after each failed
try, and says so in its status; `close()` stops its thread.
"""

from __future__ import annotations

import base64
import errno
import http.client
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote, urlsplit

import cv2
import numpy as np

from vision.source import (DEFAULT_FPS, Frame, FrameSource, SourceError, SourceState, StatusCallback,
                           coded, log)
from vision.io import ImageError, decode_image

CONNECT_TIMEOUT = 8.0
"""Seconds `open_source` waits for a live source's first frame: a phone on Wi-Fi answers in one or two."""
READ_TIMEOUT = 5.0
"""Seconds without data after which a stream is taken for dropped (a camera sends several frames a second)."""
BACKOFF_FIRST = 0.25
"""Seconds before the second reconnection, doubled after each that fails: a phone app restarting its
server is back within a second. The first, after a stream that was giving pictures dropped, is tried at
once: the phone's Wi-Fi blinking costs the reconnection alone, under the 0.4 s of a hand's quickest
move (referee.observe.clock.GAP) that a hand in play is held after."""
BACKOFF_MAX = 5.0
"""Longest wait between reconnections, so a camera that comes back is seen again within seconds."""
MAX_PART_BYTES = 20_000_000
"""Largest MJPEG part taken for a picture: a 4K JPEG is a few MB; more is not a camera's stream."""
JOIN_TIMEOUT = 2.0
"""Seconds `close()` waits for the reader thread to finish."""


class _Permanent(SourceError):
    """A failure that trying again will not mend (a web page, not a camera; a wrong password)."""


class LiveSource(FrameSource):
    """A source read in its own thread; `frames()` yields the newest frame each time one has come.

    A subclass gives `_connect()` (open the camera, raising OSError or SourceError), `_read()`
    (its frames' payloads, until the stream ends) and `_disconnect()`.
    """

    where: dict[str, Any] = coded("place.the_camera")
    """The camera, as its statuses name it (a code of WORDS)."""

    def __init__(self, on_status: StatusCallback | None = None) -> None:
        super().__init__(on_status)
        self._set_status(SourceState.CONNECTING, "source.connecting", where=self.where)
        self._ready = threading.Condition()
        self._newest: tuple[bytes | np.ndarray, float, int] | None = None
        self._received = 0
        self._closing = threading.Event()
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name=f"frames: {self.description}", daemon=True)
        self._thread.start()

    def _connect(self) -> None:
        raise NotImplementedError

    def _read(self) -> Iterator[bytes | np.ndarray]:
        raise NotImplementedError

    def _disconnect(self) -> None:
        raise NotImplementedError

    @staticmethod
    def _frame(payload: bytes | np.ndarray, at: float, index: int) -> Frame:
        """The frame of a payload: already decoded pixels, or a JPEG's bytes decoded when needed (a still
        table's are never decoded whole: `Frame.encoded`); ImageError when they cannot be decoded."""
        if isinstance(payload, np.ndarray):
            return Frame(payload, at, index)
        if payload.startswith(b"\xff\xd8"):
            return Frame.encoded(payload, at, index)
        return Frame(decode_image(payload).pixels, at, index)

    def _run(self) -> None:
        """Connect, read, and after a drop reconnect with a growing wait, until closed."""
        backoff = BACKOFF_FIRST
        while not self._closing.is_set():
            reason = coded("reason.ended")
            try:
                self._connect()
                for payload in self._read():
                    if self._closing.is_set():
                        break
                    self._offer(payload)
                    backoff = 0.0  # a drop from now on is asked again at once
            except _Permanent as error:
                self._failed(error)
                break
            except (OSError, SourceError, http.client.HTTPException) as error:
                reason = _in_words(error)
            finally:
                self._disconnect()
            if self._closing.is_set():
                break
            if self._received:
                self._set_status(SourceState.RECONNECTING, "source.lost", where=self.where,
                                 reason=reason)
            else:
                self._set_status(SourceState.CONNECTING, "source.no_answer", where=self.where,
                                 reason=reason)
            self._closing.wait(backoff)
            backoff = min(max(2 * backoff, BACKOFF_FIRST), BACKOFF_MAX)
        with self._ready:
            self._ready.notify_all()

    def _offer(self, payload: bytes | np.ndarray) -> None:
        """Keep a newly come frame in place of any the consumer has not taken."""
        with self._ready:
            self._newest = (payload, time.monotonic() - self._started, self._received)
            self._received += 1
            self._ready.notify_all()
        self._set_status(SourceState.LIVE, "source.receiving", where=self.where)

    def wait_live(self, timeout: float) -> LiveSource:
        """Return self once the first frame came; close and raise SourceError if none came in `timeout` s."""
        deadline = time.monotonic() + timeout
        with self._ready:
            while not self._received and self._thread.is_alive() and time.monotonic() < deadline:
                self._ready.wait(min(0.1, max(deadline - time.monotonic(), 0.001)))
        if self._received:
            return self
        status = self._status
        if status.state is SourceState.FAILED:
            error = SourceError(status.message, status.code, status.params)
        elif "reason" in status.params:
            error = SourceError.refused("source.silent_why", where=self.where,
                                        reason=status.params["reason"], timeout=timeout)
        else:
            error = SourceError.refused("source.silent", where=self.where, timeout=timeout)
        self.close()
        self._failed(error)
        raise error

    def frames(self) -> Iterator[Frame]:
        """The newest frame each time one has come (frames that came meanwhile are skipped), until closed."""
        taken = 0
        while True:
            with self._ready:
                while self._received == taken and not self._closing.is_set() and self._thread.is_alive():
                    self._ready.wait(0.5)
                if self._received == taken:
                    return  # closed, or failed for good
                payload, at, index = self._newest  # type: ignore[misc]
                taken = self._received
            try:
                frame = self._frame(payload, at, index)
            except ImageError as error:
                log.warning("%s: a picture could not be read (%s); skipped", self.description, error)
                continue
            yield frame

    def close(self) -> None:
        """Stop the reader thread and let `frames()` return."""
        self._closing.set()
        self._interrupt()
        with self._ready:
            self._ready.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(JOIN_TIMEOUT)
        super().close()

    def _interrupt(self) -> None:
        """Unblock a read in progress, where the transport allows it."""


def _in_words(error: BaseException) -> dict[str, Any]:
    """A connection error as a short phrase's code (`reason.timeout`...) with its parameters."""
    if isinstance(error, socket.timeout | TimeoutError):
        return coded("reason.timeout")
    if isinstance(error, ConnectionRefusedError):
        return coded("reason.refused")
    if isinstance(error, socket.gaierror):
        return coded("reason.address")
    if isinstance(error, http.client.IncompleteRead | http.client.RemoteDisconnected | ConnectionResetError):
        return coded("reason.stopped")
    if isinstance(error, SourceError) and error.code:
        return coded(error.code, **error.params)
    if isinstance(error, OSError) and error.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
        return coded("reason.unreachable", text=(error.strerror or str(error)).lower())
    if isinstance(error, OSError) and error.strerror:
        return coded("reason.network", text=error.strerror.lower())
    return coded("reason.network", text=str(error) or type(error).__name__)


class MjpegStream(LiveSource):
    """An http(s) camera serving multipart/x-mixed-replace JPEG parts (IP Webcam, DroidCam) or single JPEGs.

    The password of `http://user:password@host:8080/video` is sent as basic authentication.
    """

    def __init__(self, url: str, fps: float = DEFAULT_FPS, on_status: StatusCallback | None = None) -> None:
        parts = urlsplit(url)
        if not parts.hostname:
            raise SourceError(f"{url}: no host in the address")
        try:
            self._port = parts.port
        except ValueError as error:
            raise SourceError(f"{url}: {error}") from error
        self.url, self.fps = url, fps
        self._https = parts.scheme.lower() == "https"
        self._host = parts.hostname
        self._path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._headers = {"User-Agent": "saltacavallo", "Accept": "multipart/x-mixed-replace, image/jpeg"}
        if parts.username is not None:
            secret = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
            self._headers["Authorization"] = "Basic " + base64.b64encode(secret).decode()
        shown = f"{self._host}:{self._port}" if self._port else self._host
        self.where = coded("place.camera_at", address=shown)
        self.place = coded("place.stream", url=f"{parts.scheme}://{shown}{parts.path}")
        self._connection: http.client.HTTPConnection | None = None
        self._response: http.client.HTTPResponse | None = None
        super().__init__(on_status)

    def _connect(self) -> None:
        kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        self._connection = kind(self._host, self._port, timeout=READ_TIMEOUT)
        self._connection.request("GET", self._path, headers=self._headers)
        response = self._connection.getresponse()
        self._response = response
        if response.status in (401, 403):
            raise _Permanent.refused("source.password", where=self.where)
        if response.status == 404:
            raise _Permanent.refused("source.not_found", where=self.where, path=self._path)
        if response.status != 200:
            raise SourceError.refused("reason.http", status=response.status, phrase=response.reason)

    def _read(self) -> Iterator[bytes]:
        response = self._response
        assert response is not None
        kind = (response.getheader("Content-Type") or "").lower()
        if kind.startswith("image/"):
            yield from self._snapshots(response)
            return
        if not kind.startswith("multipart/"):
            raise _Permanent.refused("source.not_pictures", where=self.where,
                                     kind=kind.split(";")[0] or "no content type")
        yield from _Parts(response, _boundary(kind, response.getheader("Content-Type") or ""))

    def _snapshots(self, response: http.client.HTTPResponse) -> Iterator[bytes]:
        """A camera address that gives one JPEG per request (IP Webcam's /shot.jpg), asked again at `fps`."""
        while True:
            asked = time.monotonic()
            yield response.read(MAX_PART_BYTES)
            self._disconnect()
            if self._closing.wait(max(0.0, 1 / self.fps - (time.monotonic() - asked))):
                return
            self._connect()
            response = self._response  # type: ignore[assignment]
            assert response is not None

    def _disconnect(self) -> None:
        if self._connection is not None:
            self._connection.close()
        self._connection = self._response = None

    def _interrupt(self) -> None:
        connection = self._connection
        sock = getattr(connection, "sock", None) if connection is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed


def _boundary(kind: str, header: str) -> bytes:
    """The multipart boundary, as the parts' separator lines carry it without their leading dashes."""
    for param in header.split(";")[1:]:
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "boundary" and value.strip().strip('"'):
            return value.strip().strip('"').lstrip("-").encode("latin-1")
    raise _Permanent.refused("source.no_boundary", kind=kind.split(";")[0])


def _is_boundary(line: bytes, boundary: bytes) -> bool:
    """Whether a line separates parts (servers differ in how many dashes they put before it)."""
    text = line.strip()
    return text.startswith(b"--") and text.lstrip(b"-").rstrip(b"-") == boundary


class _Parts:
    """The pictures of a multipart/x-mixed-replace response, one part's bytes at a time."""

    def __init__(self, response: http.client.HTTPResponse, boundary: bytes) -> None:
        self._response, self._boundary = response, boundary
        self._at_boundary = False
        """Whether the last body's end was found by reading the next part's boundary line."""

    def __iter__(self) -> Iterator[bytes]:
        while True:
            length = self._header()
            if length is None:
                return  # the stream ended cleanly
            yield self._body(length)

    def _line(self) -> bytes:
        return self._response.readline(65536)

    def _header(self) -> int | None:
        """Read up to a part's body: its length (-1 when not given), or None when the stream ended."""
        if self._at_boundary:
            self._at_boundary = False
        else:
            line = self._line()
            while line and not _is_boundary(line, self._boundary):
                if line.startswith(b"\xff\xd8"):
                    raise SourceError.refused("reason.parts")
                line = self._line()
            if not line or line.strip().endswith(b"--"):
                return None
        length = -1
        while True:
            line = self._line()
            if not line:
                return None
            if not line.strip():
                return length
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length" and value.strip().isdigit():
                length = int(value.strip())
                if length > MAX_PART_BYTES:
                    raise _Permanent.refused("source.part_too_large", size=length)

    def _body(self, length: int) -> bytes:
        """A part's bytes: `length` of them, or, not given, everything up to the next boundary line."""
        if length >= 0:
            body = self._response.read(length)
            if len(body) < length:
                raise http.client.IncompleteRead(body, length - len(body))
            return body
        chunks: list[bytes] = []
        size = 0
        while True:
            line = self._line()
            if not line:
                raise http.client.IncompleteRead(b"".join(chunks))
            if _is_boundary(line, self._boundary):
                self._at_boundary = not line.strip().endswith(b"--")
                return b"".join(chunks).removesuffix(b"\n").removesuffix(b"\r")
            chunks.append(line)
            size += len(line)
            if size > MAX_PART_BYTES:
                raise _Permanent(f"a picture over {MAX_PART_BYTES} bytes is too large for a camera's stream")


class _Capture(LiveSource):
    """A live source OpenCV's VideoCapture reads (its `_connect` opens `self._capture`)."""

    _capture: cv2.VideoCapture | None

    def _read(self) -> Iterator[np.ndarray]:
        assert self._capture is not None
        while not self._closing.is_set():
            ok, pixels = self._capture.read()
            if not ok or pixels is None:
                return
            yield pixels

    def _disconnect(self) -> None:
        if self._capture is not None:
            self._capture.release()
        self._capture = None


class RtspStream(_Capture):
    """An RTSP camera read with OpenCV's FFmpeg (over TCP, which a phone on Wi-Fi keeps more reliably)."""

    def __init__(self, url: str, on_status: StatusCallback | None = None) -> None:
        parts = urlsplit(url)
        if not parts.hostname:
            raise SourceError(f"{url}: no host in the address")
        self.url = url
        shown = f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname
        self.where = coded("place.camera_at", address=shown)
        self.place = coded("place.stream", url=f"rtsp://{shown}{parts.path}")
        self._capture = None
        os.environ.setdefault("OPENCV_FFMPEG_CAPTURE_OPTIONS", "rtsp_transport;tcp")
        super().__init__(on_status)

    def _connect(self) -> None:
        timeout_ms = int(READ_TIMEOUT * 1000)
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, timeout_ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, timeout_ms]
        self._capture = cv2.VideoCapture(self.url, cv2.CAP_FFMPEG, params)
        if not self._capture.isOpened():
            raise SourceError.refused("reason.no_rtsp")


class Webcam(_Capture):
    """A camera attached to this computer, by its number (0 is the first)."""

    SIZE = (1280, 720)
    """Width and height asked of the camera: the reader is measured at 720p; a camera gives its nearest."""

    def __init__(self, index: int, fps: float = DEFAULT_FPS, on_status: StatusCallback | None = None) -> None:
        self.index, self.fps = index, fps
        self.where = self.place = coded("place.camera", index=index)
        self._capture = None
        super().__init__(on_status)

    def _connect(self) -> None:
        self._capture = cv2.VideoCapture(self.index)
        if not self._capture.isOpened():
            raise SourceError.refused("reason.no_camera", index=self.index)
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.SIZE[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.SIZE[1])
        self._capture.set(cv2.CAP_PROP_FPS, self.fps)

