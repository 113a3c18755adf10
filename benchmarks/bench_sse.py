"""Time from a settled hand to its update on every open page of the table (Server-Sent Events).

    taskset -c 0 .venv/bin/python -m benchmarks.bench_sse [--pages 20] [--hands 20]

A real cheroot server on 127.0.0.1 serves the table; each page is an SSE connection read in its
own thread. For each hand the clock starts when `Settle` is played and stops when the last page
has received the new state. The pages share the machine with the server: pinned to one core, the
figure is that of a laptop doing nothing else.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from benchmarks import harness
from referee.events import Deal, Keep, Reveal, Settle
from webui.app import create_app
from webui.server import BackgroundServer
from webui.table import TableService

NAME = "bench_sse"
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
TARGET_S = 0.5
"""The issue's bound for the slowest page."""


class Page:
    """One open page: an SSE connection and the time each state version arrived."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self.conn.request("GET", "/api/events")
        self.answer = self.conn.getresponse()
        self.seen: dict[int, float] = {}
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                line = self.answer.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    version = json.loads(line[6:])["version"]
                    self.seen[version] = time.perf_counter()
        except (OSError, ValueError, AttributeError):  # the connection closed under the reader
            return

    def close(self) -> None:
        self.conn.close()


def hand(number: int) -> list:
    """A plain hand of four players: everyone keeps, the lowest pays."""
    suits = "DCSB"
    cards = {p: f"{v}{suits[(number + i) % 4]}" for i, (p, v) in
             enumerate(zip(PLAYERS, (2, 3, 5, 7)))}
    return [Deal.of(cards), Reveal.of(cards)]


def wait_all(pages: list[Page], version: int, timeout: float = 10.0) -> float:
    """When the last page got `version` (perf_counter)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(version in p.seen for p in pages):
            return max(p.seen[version] for p in pages)
        time.sleep(0.001)
    raise TimeoutError(f"not every page got version {version}")


def run(pages_count: int, hands: int) -> dict:
    """Serve a table to `pages_count` pages and time `hands` settled hands."""
    with tempfile.TemporaryDirectory(prefix="saltacavallo-bench-") as folder:  # the game file goes with it
        return _run(Path(folder), pages_count, hands)


def _run(work: Path, pages_count: int, hands: int) -> dict:
    """`run` with the game file in the folder `work`."""
    app = create_app({"DATABASE": str(work / "bench.db"), "PIN": "1234"})
    table: TableService = app.extensions["saltacavallo.table"]
    table.setup(PLAYERS, dealer="Dario", lives=hands + 1)
    server = BackgroundServer(app)
    pages = [Page(server.url) for _ in range(pages_count)]
    wait_all(pages, table.version)
    times = []
    try:
        for number in range(hands):
            deal, reveal = hand(number)
            table.play(deal)
            while table.game.current_player and table.game.phase.value in ("turns", "dealer"):
                table.play(Keep(table.game.current_player))
            table.play(reveal)
            if table.game.phase.value == "dealer":
                table.play(Keep(table.game.current_player))
            wait_all(pages, table.version)
            started = time.perf_counter()
            table.play(Settle())
            times.append(wait_all(pages, table.version) - started)
    finally:
        for page in pages:
            page.close()
        table.close()
        server.stop()
    return {"pages": pages_count, "hands": hands, "median_s": round(statistics.median(times), 4),
            "max_s": round(max(times), 4), "min_s": round(min(times), 4),
            "target_s": TARGET_S, "within_target": max(times) < TARGET_S}


def measure(args: argparse.Namespace) -> harness.Figures:
    """The settled hands' times to the last page."""
    return run(args.pages, args.hands)


def render(figures: harness.Figures) -> list[str]:
    """The times, against the half second a page may take."""
    return [
        f"{figures['hands']} settled hands, {figures['pages']} open pages: the last page had the new state after "
        f"{1000 * figures['median_s']:.0f} ms (median), {1000 * figures['min_s']:.0f}-{1000 * figures['max_s']:.0f} ms "
        f"(fastest to slowest; the bound is {1000 * figures['target_s']:.0f} ms)",
    ]


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__, reads=())
    cli.add_argument("--pages", type=int, default=20, help="open pages, each an SSE connection")
    cli.add_argument("--hands", type=int, default=20, help="hands settled and timed")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Time the hands, print the figures, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
