"""Camera frames per second the server takes from two phones at once, and how soon a page is answered meanwhile.

    taskset -c 0 .venv/bin/python -m benchmarks.bench_frames [--seconds 10] [--live]

Two phones post the sample hand's frames (sample_images/hand/*.jpg, 960x540, a hand from the deal
to the verdict) one after another to /api/frame, each with one upload in flight (as the phone page
does), for `--seconds`; meanwhile a page asks for /api/state every 100 ms and its answer times are
kept. With `--live` the live loop reads the pushed frames too (the real work of recognising the
cards: the frames follow one another as a game moves on, so the loop reads each whole). Phones, page and server share the
machine: pinned to one core, the figures are those of a laptop doing nothing else.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks import harness
from vision.frames import PushedFrames
from webui.app import create_app
from webui.serve import BackgroundServer
from webui.table import TableService

NAME = "bench_frames"
FRAMES = harness.ROOT / "sample_images" / "hand"
PIN = "1234"
STATE_EVERY = 0.1
"""How often the watching page asks for the state, in seconds."""


def _connect(url: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)


def phone(url: str, jpegs: list[bytes], until: float, sent: list[int]) -> None:
    """Post the frames one after another, round and round, until the deadline; count the accepted ones."""
    conn = _connect(url)
    headers = {"Content-Type": "image/jpeg", "X-Table-Pin": PIN}
    posted = 0
    while time.monotonic() < until:
        conn.request("POST", "/api/frame", jpegs[posted % len(jpegs)], headers)
        posted += 1
        answer = conn.getresponse()
        answer.read()
        if answer.status == 200:
            sent[0] += 1
    conn.close()


def watcher(url: str, until: float, times: list[float]) -> None:
    """Ask for the state every STATE_EVERY seconds; keep how long each answer took."""
    conn = _connect(url)
    while time.monotonic() < until:
        started = time.perf_counter()
        conn.request("GET", "/api/state")
        conn.getresponse().read()
        times.append(time.perf_counter() - started)
        time.sleep(STATE_EVERY)
    conn.close()


def run(seconds: float, live: bool) -> dict:
    """Two phones and one watching page for `seconds`; frames/s and the page's answer times."""
    with tempfile.TemporaryDirectory(prefix="saltacavallo-bench-") as folder:  # the game file goes with it
        return _run(Path(folder), seconds, live)


def _run(work: Path, seconds: float, live: bool) -> dict:
    """`run` with the game file in the folder `work`."""
    app = create_app({"DATABASE": str(work / "bench.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    table.setup(["Anna", "Bruno", "Carla", "Dario", "Elena"], dealer="Elena")
    source = PushedFrames()
    table.phone = source
    loop = None
    if live:
        from live.loop import LiveLoop

        loop = LiveLoop(table, source).start()
    server = BackgroundServer(app)
    jpegs = [path.read_bytes() for path in sorted(FRAMES.glob("frame-*.jpg"))]
    until = time.monotonic() + seconds
    counts = [[0], [0]]
    times: list[float] = []
    threads = [threading.Thread(target=phone, args=(server.url, jpegs, until, c)) for c in counts]
    threads.append(threading.Thread(target=watcher, args=(server.url, until, times)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if loop is not None:
        loop.stop()
    source.close()
    table.close()
    server.stop()
    total = counts[0][0] + counts[1][0]
    return {"seconds": seconds, "live_loop": live, "frame_bytes": round(sum(map(len, jpegs)) / len(jpegs)),
            "frames_per_s": round(total / seconds, 1),
            "per_phone": [round(c[0] / seconds, 1) for c in counts],
            "state_median_s": round(statistics.median(times), 4),
            "state_max_s": round(max(times), 4)}


def measure(args: argparse.Namespace) -> harness.Figures:
    """The frames taken and the page's answer times."""
    return run(args.seconds, args.live)


def render(figures: harness.Figures) -> list[str]:
    """Frames per second taken, and the page's answer times."""
    loop = "with the live loop reading them" if figures["live_loop"] else "without the live loop"
    phones = " and ".join(f"{rate:.1f}" for rate in figures["per_phone"])
    return [
        f"Two phones posting the sample hand's frames ({figures['frame_bytes'] // 1000} kB each on average) for "
        f"{figures['seconds']:.0f} s, {loop}: "
        f"{figures['frames_per_s']:.1f} frames/s taken ({phones}); /api/state answered in "
        f"{1000 * figures['state_median_s']:.1f} ms (median), {1000 * figures['state_max_s']:.1f} ms at most",
    ]


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__, reads=())
    cli.add_argument("--seconds", type=float, default=10.0, help="how long the phones post")
    cli.add_argument("--live", action="store_true", help="run the live loop on the frames")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Post the frames, print the figures, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
