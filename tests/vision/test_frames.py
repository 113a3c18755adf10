"""Frame sources: folders, images, videos, a real MJPEG stream over HTTP that drops, pushed frames."""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.frames import (
    Frame,
    ImageFiles,
    PAGE_AWAY,
    PushedFrames,
    SourceError,
    SourceState,
    SourceStatus,
    VideoFile,
    open_source,
)
from vision.io import ImageError
from vision.streams import BACKOFF_FIRST, MjpegStream


def gray(level: int, size: tuple[int, int] = (48, 64)) -> np.ndarray:
    """A flat BGR picture whose gray level names it (JPEG keeps a flat level to within a step or two)."""
    return np.full((*size, 3), level, np.uint8)


def level_of(frame: Frame) -> int:
    """The gray level a `gray` picture was made with."""
    return int(round(float(frame.pixels.mean())))


def jpeg(level: int) -> bytes:
    return cv2.imencode(".jpg", gray(level), [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()


# --- files ---------------------------------------------------------------------------------------


def test_a_folder_gives_its_images_in_name_order_and_skips_a_corrupt_one(tmp_path: Path) -> None:
    for i, level in enumerate([40, 80, 120, 160]):
        cv2.imwrite(str(tmp_path / f"frame-{i:03d}.png"), gray(level))
    (tmp_path / "frame-001.png").write_bytes((tmp_path / "frame-001.png").read_bytes()[:60])  # cut short
    (tmp_path / "hand.json").write_text("{}")  # not an image: passed over, not reported
    source = open_source(str(tmp_path), fps=10)

    frames = list(source.frames())

    assert [(f.index, f.at, level_of(f)) for f in frames] == [(0, 0.0, 40), (2, 0.2, 120), (3, 0.3, 160)]
    assert [(p.name, why) for p, why in source.skipped] == [("frame-001.png", "not a readable image "
                                                              "(corrupt data or an unsupported format)")]
    assert source.status() == SourceStatus(
        SourceState.ENDED, f"the folder {tmp_path}: 3 images read, 1 could not be read"
    )


def test_a_truncated_jpeg_in_a_folder_is_reported_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(jpeg(50))
    (tmp_path / "b.jpg").write_bytes(jpeg(90)[:-200])
    seen: list[SourceStatus] = []
    source = open_source(str(tmp_path), on_status=seen.append)

    assert [level_of(f) for f in source.frames()] in ([50], [49], [51])
    assert SourceStatus(SourceState.LIVE, "b.jpg skipped: the JPEG data is truncated (no end-of-image marker)") in seen


def test_one_image_is_one_frame(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "table.png"), gray(200))
    frames = list(open_source(str(tmp_path / "table.png")).frames())
    assert [(f.index, f.at, level_of(f)) for f in frames] == [(0, 0.0, 200)]


def test_a_folder_without_images_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing to see")
    with pytest.raises(SourceError, match="no images in it"):
        open_source(str(tmp_path))


def write_video(path: Path, levels: list[int], fps: float) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    for level in levels:
        writer.write(gray(level))
    writer.release()


def test_a_video_plays_at_its_own_frame_rate(tmp_path: Path) -> None:
    write_video(tmp_path / "hand.avi", [30, 60, 90, 120, 150], fps=10)
    source = open_source(str(tmp_path / "hand.avi"), fps=15)

    frames = list(source.frames())

    assert isinstance(source, VideoFile) and source.fps == 10
    assert [(f.index, f.at) for f in frames] == [(0, 0.0), (1, 0.1), (2, 0.2), (3, 0.3), (4, 0.4)]
    assert [abs(level_of(f) - level) <= 2 for f, level in zip(frames, [30, 60, 90, 120, 150])] == [True] * 5
    assert source.status() == SourceStatus(SourceState.ENDED, "the video hand.avi has ended (5 frames)")


def test_realtime_paces_a_file_and_fast_does_not(tmp_path: Path) -> None:
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), gray(10 * i))
    started = time.monotonic()
    list(open_source(str(tmp_path), fps=10, realtime=True).frames())
    paced = time.monotonic() - started
    started = time.monotonic()
    list(open_source(str(tmp_path), fps=10).frames())
    fast = time.monotonic() - started
    assert paced >= 0.3 > fast  # the last of 4 frames at 10 per second is due 0.3 s after the first


def test_a_file_that_is_not_a_video_says_so(tmp_path: Path) -> None:
    (tmp_path / "rules.txt").write_text("Il Re ferma, il Cavallo salta")
    with pytest.raises(SourceError, match=r"rules.txt: not a video or an image that can be read"):
        open_source(str(tmp_path / "rules.txt"))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("57", "no camera at index 57"),
        ("no/such/folder", "no/such/folder: no such file or folder"),
        ("ftp://192.168.1.20/video", "unknown kind of address"),
        ("http://", "no host in the address"),
    ],
)
def test_a_bad_spec_says_why(spec: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_an_image_source_at_no_frame_rate_is_refused(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), gray(1))
    with pytest.raises(SourceError, match="more than 0"):
        ImageFiles([tmp_path / "a.png"], fps=0)


# --- a real MJPEG stream served on 127.0.0.1 ------------------------------------------------------


class Camera:
    """A phone camera app in miniature: /video streams JPEG parts, /shot.jpg one picture, /page a web page.

    The first stream drops after `drop_after` parts; for `down_for` seconds after that the
    camera answers 503 (the app restarting), then streams again. Each part's gray level counts
    up over all connections, so a test can tell which pictures came after the drop.
    """

    def __init__(self, drop_after: int = 6, down_for: float = 0.6, lengths: bool = True, rate: float = 50) -> None:
        self.drop_after, self.down_for, self.lengths, self.rate = drop_after, down_for, lengths, rate
        self.sent = 0
        self.connections = 0
        self.dropped_at: float | None = None
        self.level_at_drop: int | None = None
        camera = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep the test output quiet
                pass

            def do_GET(self) -> None:
                camera.handle(self)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def handle(self, request: http.server.BaseHTTPRequestHandler) -> None:
        if request.path == "/page":
            request.send_response(200)
            request.send_header("Content-Type", "text/html")
            request.end_headers()
            request.wfile.write(b"<html>IP Webcam</html>")
            return
        if request.path == "/shot.jpg":
            request.send_response(200)
            request.send_header("Content-Type", "image/jpeg")
            request.end_headers()
            request.wfile.write(jpeg(self.next_level()))
            return
        if self.dropped_at is not None and time.monotonic() - self.dropped_at < self.down_for:
            request.send_error(503, "restarting")
            return
        self.connections += 1
        first = self.connections == 1
        request.send_response(200)
        request.send_header("Content-Type", "multipart/x-mixed-replace; boundary=--phonecam")
        request.end_headers()
        try:
            for part in range(10_000):
                if first and part == self.drop_after:
                    self.dropped_at, self.level_at_drop = time.monotonic(), self.sent
                    request.connection.shutdown(socket.SHUT_RDWR)  # the Wi-Fi drops mid-stream
                    return
                body = jpeg(self.next_level())
                head = b"----phonecam\r\nContent-Type: image/jpeg\r\n"
                if self.lengths:
                    head += b"Content-Length: %d\r\n" % len(body)
                request.wfile.write(head + b"\r\n" + body + b"\r\n")
                request.wfile.flush()
                time.sleep(1 / self.rate)
        except (BrokenPipeError, ConnectionResetError):
            return  # the client went away

    def next_level(self) -> int:
        self.sent += 1
        return (self.sent * 5) % 250

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def camera(request: pytest.FixtureRequest) -> Iterator[Camera]:
    served = Camera(**getattr(request, "param", {}))
    yield served
    served.close()


@pytest.mark.parametrize("camera", [{"lengths": True}, {"lengths": False}], indirect=True,
                         ids=["with-content-length", "boundary-only"])
def test_an_mjpeg_stream_that_drops_is_reconnected(camera: Camera) -> None:
    seen: list[SourceStatus] = []
    source = open_source(f"{camera.url}/video", on_status=seen.append)
    levels: list[int] = []
    try:
        for frame in source.frames():
            levels.append(level_of(frame))
            if camera.level_at_drop is not None and levels[-1] > 5 * camera.level_at_drop + 10:
                break  # a picture sent after the drop has come
    finally:
        source.close()

    states = [s.state for s in seen]
    assert states[:2] == [SourceState.CONNECTING, SourceState.LIVE]
    back = states.index(SourceState.RECONNECTING)
    assert SourceState.LIVE in states[back:]
    assert seen[back].message.startswith("lost the camera at 127.0.0.1:")
    assert camera.connections == 2  # the 503s while the camera was down opened no stream
    assert levels == sorted(levels)  # never an older picture after a newer one
    assert source.status().state is SourceState.ENDED
    assert not source._thread.is_alive()


@pytest.mark.parametrize("camera", [{"down_for": 0.0}], indirect=True)
def test_a_stream_whose_wifi_blinks_gives_pictures_again_without_waiting(camera: Camera) -> None:
    source = open_source(f"{camera.url}/video")
    times: list[float] = []
    try:
        for frame in source.frames():
            times.append(frame.at)
            if camera.level_at_drop is not None and level_of(frame) > 5 * camera.level_at_drop:
                break  # the first picture sent after the drop
    finally:
        source.close()
    # pictures come every 20 ms; across the drop, only the reconnection's time is lost
    assert max(b - a for a, b in zip(times, times[1:])) < BACKOFF_FIRST


@pytest.mark.parametrize("camera", [{"drop_after": 10**6}], indirect=True)
def test_a_slow_reader_gets_the_newest_picture_not_a_backlog(camera: Camera) -> None:
    source = open_source(f"{camera.url}/video")
    try:
        frames = source.frames()
        first = next(frames)
        time.sleep(0.3)  # the camera sends about 15 pictures meanwhile
        later = next(frames)
    finally:
        source.close()
    assert later.index - first.index >= 5
    assert later.at - first.at >= 0.25


def test_a_snapshot_address_is_asked_again_for_each_picture(camera: Camera) -> None:
    source = open_source(f"{camera.url}/shot.jpg", fps=20)
    try:
        frames = source.frames()
        levels = [level_of(next(frames)) for _ in range(3)]
    finally:
        source.close()
    assert levels == sorted(levels) and len(set(levels)) == 3


def test_a_web_page_is_not_a_camera(camera: Camera) -> None:
    with pytest.raises(SourceError, match="sends text/html, not camera pictures"):
        open_source(f"{camera.url}/page")


def test_an_address_that_does_not_answer_fails_clearly() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with pytest.raises(SourceError, match=rf"the camera at 127.0.0.1:{port} does not answer "
                                          r"\(connection refused\) after 1 s"):
        open_source(f"http://127.0.0.1:{port}/video", connect_timeout=1)


def test_a_stream_source_built_directly_reports_connecting_then_failed() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    source = MjpegStream(f"http://127.0.0.1:{port}/video")
    try:
        time.sleep(0.1)
        assert source.status().state is SourceState.CONNECTING
    finally:
        source.close()
    assert source.status().state is SourceState.ENDED


def test_an_rtsp_address_that_does_not_answer_fails_clearly() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with pytest.raises(SourceError, match=rf"the camera at 127.0.0.1:{port} does not answer"):
        open_source(f"rtsp://127.0.0.1:{port}/live", connect_timeout=1)


# --- frames pushed by the phone page --------------------------------------------------------------


def test_pushed_pictures_come_out_newest_first_and_bad_ones_are_refused() -> None:
    seen: list[SourceStatus] = []
    source = PushedFrames(on_status=seen.append, stale_after=0.2)
    assert source.status().state is SourceState.CONNECTING
    frames = source.frames()

    source.push(jpeg(40))
    assert level_of(next(frames)) == 40
    source.push(jpeg(80))
    source.push(jpeg(120))  # came before the reader looked again: the 80 is never seen
    newest = next(frames)
    assert (newest.index, level_of(newest)) == (2, 120)
    with pytest.raises(ImageError, match="the picture from the phone could not be read: not a readable image"):
        source.push(b"\xff\xd8 this is not a picture \xff\xd9")
    with pytest.raises(ImageError, match="the file is empty"):
        source.push(b"")
    time.sleep(0.3)
    assert source.status() == SourceStatus(
        SourceState.RECONNECTING, "no picture from the phone's camera for 0.2 s (is the page still open?)"
    )
    source.close()
    assert list(frames) == []
    with pytest.raises(SourceError, match="closed"):
        source.push(jpeg(10))
    assert [s.state for s in seen] == [
        SourceState.CONNECTING, SourceState.LIVE, SourceState.RECONNECTING, SourceState.ENDED
    ]


@pytest.mark.parametrize("why, english", [
    ("hidden", "the phone's camera: its page is hidden (the phone locked, or another app in front); it "
               "starts again when the page is shown"),
    ("stopped", "the phone's camera stopped (a call, or stopped on its page)"),
])
def test_a_page_that_says_it_stopped_sending_is_taken_at_its_word_at_once(why: str, english: str) -> None:
    seen: list[SourceStatus] = []
    source = PushedFrames(on_status=seen.append)  # the default 5 s of staleness never comes into it
    source.push(jpeg(40))
    source.away(why)
    assert source.status() == SourceStatus(SourceState.RECONNECTING, english, PAGE_AWAY[why],
                                           {"where": PushedFrames.place})
    source.push(jpeg(80))  # the page is back
    assert [s.code for s in seen] == ["source.waiting", "source.receiving", PAGE_AWAY[why],
                                     "source.receiving"]
    with pytest.raises(ValueError, match="'asleep' is not one of hidden, stopped"):
        source.away("asleep")
    source.close()


def test_a_closed_pushed_source_ends_a_waiting_reader() -> None:
    source = PushedFrames()
    got: list[Frame] = []
    reader = threading.Thread(target=lambda: got.extend(source.frames()))
    reader.start()
    time.sleep(0.1)
    source.close()
    reader.join(2)
    assert not reader.is_alive() and got == []


def test_a_pushed_picture_is_answered_once_the_loop_has_taken_it() -> None:
    source = PushedFrames()
    source.push(jpeg(40))
    assert source.taken(5.0) is False  # nobody reads the source: no wait at all
    frames = source.frames()
    first = next(frames)  # the loop reads: it takes each picture as it comes
    assert first.index == 0 and source.taken(0.0) is True
    source.push(jpeg(80))
    began = time.monotonic()
    assert source.taken(0.2) is False  # the loop is busy: the page waits, at most as long as told
    assert 0.2 <= time.monotonic() - began < 1.0
    taking = threading.Timer(0.1, lambda: next(frames))
    taking.start()
    assert source.taken(5.0) is True  # answered the moment the loop takes it
    taking.join()
    source.close()


# --- a camera's JPEG frame, decoded only as far as the loop needs ---------------------------------


def _photo_like() -> bytes:
    """A 1280x720 JPEG of soft blotches, as a camera's picture of a table is soft at a thumbnail's scale."""
    noise = (np.random.default_rng(0).random((720, 1280, 3)) * 255).astype(np.uint8)
    return cv2.imencode(".jpg", cv2.GaussianBlur(noise, (31, 31), 0))[1].tobytes()


def test_a_jpeg_frame_is_decoded_whole_only_when_its_pixels_are_asked_for() -> None:
    data = _photo_like()
    frame = Frame.encoded(data, 0.5, 7)
    assert (frame.size, frame.at, frame.index, frame.decoded) == ((1280, 720), 0.5, 7, False)
    thumbnail = frame.thumbnail(160)  # an eighth of it decoded, in grey
    assert thumbnail.shape == (90, 160) and not frame.decoded
    decoded = Frame(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), 0.5, 7)
    assert np.abs(thumbnail.astype(int) - decoded.thumbnail(160)).max() <= 2  # alike within the camera's noise
    assert frame.pixels.shape == (720, 1280, 3) and frame.decoded


def test_a_jpeg_frame_that_cannot_be_decoded_whole_is_refused_before_it_is_decoded() -> None:
    data = _photo_like()
    with pytest.raises(ImageError, match="truncated"):
        Frame.encoded(data[: len(data) // 2], 0.0, 0)
    with pytest.raises(ImageError, match="not a JPEG"):
        Frame.encoded(cv2.imencode(".png", gray(10))[1].tobytes(), 0.0, 0)
