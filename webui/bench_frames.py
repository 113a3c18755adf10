"""Camera frames per second the server takes from two phones at once: `python -m webui.bench_frames`.

Two phones post a real 1280x720 sample frame to /api/frame, each with one upload in flight (as
the phone page does), for `--seconds`; meanwhile a page asks for /api/state every 100 ms and its
answer times are kept. With `--live` the live loop reads the pushed frames too (the real work
of recognising the cards). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from vision.frames import PushedFrames

from webui.app import create_app
from webui.serve import BackgroundServer
from webui.table import TableService

FRAME = Path(__file__).resolve().parents[1] / "sample_images" / "hand" / "frame-000.jpg"
PIN = "1234"
STATE_EVERY = 0.1
"""How often the watching page asks for the state, in seconds."""


def _connect(url: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)


def phone(url: str, jpeg: bytes, until: float, sent: list[int]) -> None:
    """Post frames one after another until the deadline; count the accepted ones."""
    conn = _connect(url)
    headers = {"Content-Type": "image/jpeg", "X-Table-Pin": PIN}
    while time.monotonic() < until:
        conn.request("POST", "/api/frame", jpeg, headers)
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
    work = Path(tempfile.mkdtemp(prefix="saltacavallo-bench-"))
    app = create_app({"DATABASE": str(work / "bench.db"), "PIN": PIN})
    table: TableService = app.extensions["saltacavallo.table"]
    table.setup(["Anna", "Bruno", "Carla", "Dario", "Elena"], dealer="Elena")
    source = PushedFrames()
    table.phone = source
    loop = None
    if live:
        from webui.live import LiveLoop

        loop = LiveLoop(table, source).start()
    server = BackgroundServer(app)
    jpeg = FRAME.read_bytes()
    until = time.monotonic() + seconds
    counts = [[0], [0]]
    times: list[float] = []
    threads = [threading.Thread(target=phone, args=(server.url, jpeg, until, c)) for c in counts]
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
    return {"seconds": seconds, "live_loop": live, "frame_bytes": len(jpeg),
            "frames_per_s": round(total / seconds, 1),
            "per_phone": [round(c[0] / seconds, 1) for c in counts],
            "state_median_s": round(statistics.median(times), 4),
            "state_max_s": round(max(times), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--live", action="store_true", help="run the live loop on the frames")
    args = parser.parse_args()
    print(json.dumps(run(args.seconds, args.live)))


if __name__ == "__main__":
    main()
