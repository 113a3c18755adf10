"""Frame sources: a webcam, a video, an image or folder, a phone's MJPEG or RTSP stream, pushed frames.

Every source is a generator of `Frame`s in the style of flask-video-streaming's `Camera.frames()`,
says where it stands with `status()`, and stops its threads with `close()`. `open_source(spec)`
picks the source a command-line argument names.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.io import ImageError, decode_image, read_image
from vision.source import (
    DEFAULT_FPS,
    WORDS,
    Frame,
    FrameSource,
    SourceError,
    SourceState,
    SourceStatus,
    StatusCallback,
    coded,
    log,
)
from vision.streams import CONNECT_TIMEOUT, MjpegStream, RtspStream, Webcam

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})
"""Files a folder source reads as frames; anything else in the folder (a JSON of truth) is passed over."""
PUSH_STALE = 5.0
"""Seconds without a pushed picture after which the phone's camera is taken for stopped (a page
in the background sends nothing; a live one sends several pictures a second)."""
PAGE_AWAY = {"hidden": "source.page_hidden", "stopped": "source.page_stopped"}
"""What the phone's camera page may say when it stops sending, and the status code of each."""



class _Pacer:
    """Sleeps so that frames come out at the times they carry (real time), when asked to."""

    def __init__(self, realtime: bool) -> None:
        self.realtime = realtime
        self._start: float | None = None

    def wait(self, at: float) -> None:
        """Wait until `at` seconds after the first frame's time has passed."""
        if not self.realtime:
            return
        now = time.monotonic()
        if self._start is None:
            self._start = now - at
        delay = self._start + at - now
        if delay > 0:
            time.sleep(delay)


class ImageFiles(FrameSource):
    """An image or a folder of images in name order, at `fps`; unreadable images are reported and skipped."""

    def __init__(
        self, paths: list[Path], fps: float = DEFAULT_FPS, realtime: bool = False,
        place: dict[str, Any] | None = None, on_status: StatusCallback | None = None,
    ) -> None:
        self.place = place or coded("place.images")
        super().__init__(on_status)
        if fps <= 0:
            raise SourceError(f"frames per second must be more than 0, not {fps:g}")
        if not paths:
            raise SourceError(f"{self.description}: no images in it (looked for "
                              f"{', '.join(sorted(IMAGE_SUFFIXES))})")
        self.paths, self.fps, self._pacer = list(paths), fps, _Pacer(realtime)
        self.skipped: list[tuple[Path, str]] = []
        """(image, why) for every image that could not be read."""
        self._closed = False

    @classmethod
    def folder(cls, folder: Path, **options: Any) -> ImageFiles:
        """The images of a folder in name order (a number sorts as written: frame-010 after frame-009)."""
        try:
            paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        except OSError as error:
            raise SourceError(f"{folder}: cannot list the folder ({error.strerror})") from error
        return cls(paths, place=coded("place.folder", path=str(folder)), **options)

    def frames(self) -> Iterator[Frame]:
        """Each readable image once; its time is its place in the order over `fps`."""
        self._set_status(SourceState.LIVE, "source.reading", source=self.place)
        for index, path in enumerate(self.paths):
            if self._closed:
                return
            try:
                image = read_image(path)
            except ImageError as error:
                self.skipped.append((path, str(error)))
                log.warning("%s skipped: %s", path, error)
                self._set_status(SourceState.LIVE, "source.skipped", name=path.name,
                                 error=str(error))
                continue
            at = index / self.fps
            self._pacer.wait(at)
            yield Frame(image.pixels, at, index)
        read = len(self.paths) - len(self.skipped)
        if self.skipped:
            self._set_status(SourceState.ENDED, "source.some_read", source=self.place, read=read,
                             skipped=len(self.skipped))
        else:
            self._set_status(SourceState.ENDED, "source.all_read", source=self.place, read=read)

    def close(self) -> None:
        """Stop after the current image."""
        self._closed = True
        super().close()


class VideoFile(FrameSource):
    """A video file read with OpenCV's FFmpeg, at the video's own frame rate."""

    def __init__(self, path: Path, realtime: bool = False, on_status: StatusCallback | None = None) -> None:
        self.place = coded("place.video", name=path.name)
        super().__init__(on_status)
        self.path = path
        self._capture = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
        ok, first = self._capture.read() if self._capture.isOpened() else (False, None)
        if not ok or first is None:
            self._capture.release()
            raise SourceError(f"{path}: not a video or an image that can be read")
        self._first: np.ndarray | None = first
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if 1 <= fps <= 1000 else DEFAULT_FPS  # a stream without a rate reports 0 or nonsense
        self._pacer = _Pacer(realtime)

    def frames(self) -> Iterator[Frame]:
        """Every frame of the video; its time is its number over the video's frame rate."""
        self._set_status(SourceState.LIVE, "source.playing", source=self.place)
        index = 0
        while self._first is not None or self._capture.isOpened():
            if self._first is not None:
                ok, pixels, self._first = True, self._first, None
            else:
                ok, pixels = self._capture.read()
            if not ok or pixels is None:
                break
            at = index / self.fps
            self._pacer.wait(at)
            yield Frame(pixels, at, index)
            index += 1
        self._capture.release()
        if self._status.state is SourceState.LIVE:
            self._set_status(SourceState.ENDED, "source.ended", source=self.place, frames=index)

    def close(self) -> None:
        """Release the file."""
        self._capture.release()
        super().close()


class PushedFrames(FrameSource):
    """Frames pushed in from outside (the web page's phone camera): the newest picture wins."""

    place = coded("place.phone")

    def __init__(self, on_status: StatusCallback | None = None, stale_after: float = PUSH_STALE) -> None:
        super().__init__(on_status)
        self._set_status(SourceState.CONNECTING, "source.waiting", where=self.place)
        self.stale_after = stale_after
        self._started = time.monotonic()
        self._ready = threading.Condition()
        self._newest: Frame | None = None
        self._pushed = 0
        self._taken = 0
        self._reading = False
        self._last_push = 0.0
        self._closed = False

    def push(self, jpeg: bytes) -> None:
        """Take one picture (JPEG or PNG bytes); raise ImageError saying why when it cannot be read.
        A JPEG is decoded only if the loop takes it, and only as far as it needs (`Frame.encoded`):
        pictures pushed faster than the loop reads them are never decoded."""
        if self._closed:
            raise SourceError("the phone's camera source is closed")
        now = time.monotonic()
        data = bytes(jpeg)
        try:
            if data.startswith(b"\xff\xd8"):
                frame = Frame.encoded(data, now - self._started, self._pushed)
            else:
                frame = Frame(decode_image(data).pixels, now - self._started, self._pushed)
        except ImageError as error:
            raise ImageError(f"the picture from the phone could not be read: {error}") from error
        with self._ready:
            self._newest = frame
            self._pushed += 1
            self._last_push = now
            self._ready.notify_all()
        self._set_status(SourceState.LIVE, "source.receiving", where=self.place)

    def status(self) -> SourceStatus:
        """Live while pictures come; waiting again once none came for `stale_after` seconds."""
        if self._status.state is SourceState.LIVE and time.monotonic() - self._last_push > self.stale_after:
            self._set_status(SourceState.RECONNECTING, "source.stale", where=self.place,
                             seconds=self.stale_after)
        return self._status

    def away(self, why: str) -> None:
        """The camera page says it stopped sending (a key of PAGE_AWAY): taken for stopped at once,
        not after `stale_after`; the next picture makes it live again."""
        if why not in PAGE_AWAY:
            raise ValueError(f"the camera page's {why!r} is not one of {', '.join(PAGE_AWAY)}")
        if not self._closed:
            self._set_status(SourceState.RECONNECTING, PAGE_AWAY[why], where=self.place)

    def taken(self, timeout: float) -> bool:
        """Wait until the loop has taken the newest picture, at most `timeout` seconds: the page that
        waits for it sends at the pace the loop keeps. At once False when no loop reads the source."""
        with self._ready:
            return self._reading and self._ready.wait_for(
                lambda: self._taken >= self._pushed or self._closed, timeout)

    def frames(self) -> Iterator[Frame]:
        """Each newest picture once, as it comes, until the source is closed."""
        seen = 0
        self._reading = True
        while True:
            with self._ready:
                while self._pushed == seen and not self._closed:
                    self._ready.wait(0.5)
                    if self._pushed == seen:
                        self.status()  # notices a phone that stopped sending
                if self._closed:
                    return
                frame, seen = self._newest, self._pushed
                self._taken = seen
                self._ready.notify_all()
            assert frame is not None
            yield frame

    def close(self) -> None:
        """Stop: `frames()` returns and further pushes are refused."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
        super().close()


def _webcam_exists(index: int) -> bool:
    """Whether a camera device of that number is present (only Linux can tell before opening)."""
    return not sys.platform.startswith("linux") or os.path.exists(f"/dev/video{index}")


def open_source(
    spec: str, fps: float = DEFAULT_FPS, *, realtime: bool = False,
    on_status: StatusCallback | None = None, connect_timeout: float | None = None,
) -> FrameSource:
    """The source a spec names: "0" a webcam, a video, an image or folder, an http(s) MJPEG or rtsp URL.

    `fps` times images (and a video that does not give its own rate); `realtime` paces file
    sources at the times their frames carry instead of as fast as they can be read. A live
    source is open once its first frame came (within `connect_timeout`). Raises SourceError
    saying why when the source cannot be opened.
    """
    timeout = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
    text = spec.strip()
    lower = text.lower()
    if text.isdigit():
        index = int(text)
        if not _webcam_exists(index):
            raise SourceError.refused("reason.no_camera", index=index)
        return Webcam(index, fps, on_status=on_status).wait_live(timeout)
    if lower.startswith(("http://", "https://")):
        return MjpegStream(text, fps, on_status=on_status).wait_live(timeout)
    if lower.startswith(("rtsp://", "rtsps://")):
        return RtspStream(text, on_status=on_status).wait_live(timeout)
    if "://" in text:
        raise SourceError(f"{text}: unknown kind of address (use http://, https:// or rtsp://)")
    path = Path(text)
    if path.is_dir():
        return ImageFiles.folder(path, fps=fps, realtime=realtime, on_status=on_status)
    if path.is_file():
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return ImageFiles([path], fps=fps, realtime=realtime,
                              place=coded("place.image", name=path.name), on_status=on_status)
        return VideoFile(path, realtime=realtime, on_status=on_status)
    if path.exists():
        raise SourceError(f"{text}: not a regular file or folder")
    raise SourceError(
        f"{text}: no such file or folder (give a camera number such as 0, a video, an image or a folder"
        " of images, or a camera address starting http:// or rtsp://)"
    )

__all__ = [
    "Frame", "FrameSource", "ImageFiles", "MjpegStream", "PAGE_AWAY", "PushedFrames", "RtspStream",
    "SourceError", "SourceState", "SourceStatus", "VideoFile", "WORDS", "Webcam", "open_source",
]
