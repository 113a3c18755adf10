"""Time from a settled hand to its update on every open page of the table (Server-Sent Events), and a thousand pages held open.

    taskset -c 0 .venv/bin/python -m benchmarks.bench_sse [--pages 20] [--hands 20] [--held 1000] [--changes 10]

The table's own server (webui.server) on 127.0.0.1 serves the table; each page is an SSE connection read in its
own thread. For each hand the clock starts when `Settle` is played and stops when the last page
has received the new state.

Held streams: `saltacavallo serve` runs as a process of its own and `--held` pages open an event stream each
(25 to a loopback address, under the server's share per client), read by one asyncio loop. The server's memory
(resident set, /proc) is read before and after they open: the difference over the pages is its memory per
stream. Then each of `--changes` changes is posted to the API (a deal, then its undo) and timed until every
page has it, while the table page and /api/state are asked for and timed. The pages share the machine with
the server: pinned to one core, the figures are those of a laptop doing nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import re
import socket
import subprocess
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
from webui.server import BackgroundServer, raise_open_files
from webui.table import TableService

NAME = "bench_sse"
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
TARGET_S = 0.5
"""The issue's bound for the slowest page."""
HELD_TARGET_S = 1.0
"""The bound for every one of the held pages to have a change."""
PAGE_TARGET_S = 0.2
"""The bound for the table page and the state to answer while the held pages are told."""
PER_ADDRESS = 25
"""Held pages opened from one loopback address: under the server's share per client (PER_CLIENT)."""
PIN = "1234"
CARDS = {"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}


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
        """End the connection; its reader, blocked in a read, returns at once instead of at the next comment."""
        if self.conn.sock is not None:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
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


class HeldPages:
    """Many open pages on one asyncio loop: each stream's lines are read, and when each version came."""

    def __init__(self) -> None:
        self.seen: list[dict[int, float]] = []
        self.writers: list[asyncio.StreamWriter] = []

    async def open(self, host: str, port: int, count: int) -> None:
        """Open `count` event streams, PER_ADDRESS to a loopback address (127.0.x.y)."""
        for number in range(count):
            group = number // PER_ADDRESS
            source = f"127.{10 + group // 250}.{group % 250 + 1}.1"
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
            writer.write(b"GET /api/events HTTP/1.1\r\nHost: table\r\n\r\n")
            seen: dict[int, float] = {}
            self.seen.append(seen)
            self.writers.append(writer)
            asyncio.get_running_loop().create_task(self._read(reader, seen))

    @staticmethod
    async def _read(reader: asyncio.StreamReader, seen: dict[int, float]) -> None:
        while line := await reader.readline():
            if line.startswith(b"id: "):
                seen[int(line[4:])] = time.monotonic()

    async def all_have(self, version: int, timeout: float = 60.0) -> float:
        """When the last page had `version` (time.monotonic)."""
        deadline = time.monotonic() + timeout
        while not all(version in seen for seen in self.seen):
            if time.monotonic() > deadline:
                missing = sum(version not in seen for seen in self.seen)
                raise TimeoutError(f"{missing} pages never had version {version}")
            await asyncio.sleep(0.002)
        return max(seen[version] for seen in self.seen)

    def close(self) -> None:
        for writer in self.writers:
            writer.close()


def call(url: str, method: str, path: str, body: dict | None = None) -> tuple[float, dict | None]:
    """One request on a new connection: seconds to the whole answer, and its JSON (None for a page)."""
    parts = urlsplit(url)
    started = time.monotonic()
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request(method, path, None if body is None else json.dumps(body),
                 {"Content-Type": "application/json", "X-Table-Pin": PIN})
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    if answer.status != 200:
        raise RuntimeError(f"{method} {path}: {answer.status} {data[:200]!r}")
    took = time.monotonic() - started
    return took, json.loads(data) if data.startswith(b"{") else None


def resident_kb(pid: int) -> int:
    """A process's resident memory, in kB (Linux)."""
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    assert found is not None
    return int(found[1])


def held(count: int, changes: int) -> dict:
    """Hold `count` pages open on `saltacavallo serve` and time `changes` changes to every one."""
    raise_open_files(2 * count + 256)
    with tempfile.TemporaryDirectory(prefix="saltacavallo-bench-") as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "webui.cli", "serve", "--host", "127.0.0.1", "--port", "0", "--pin", PIN,
             "--db", str(Path(folder) / "held.db")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            return asyncio.run(_held(server, count, changes))
        finally:
            server.terminate()
            server.wait(30)


def _address(server: subprocess.Popen) -> str:
    """The address `serve` prints."""
    assert server.stdout is not None
    for line in server.stdout:
        found = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
        if found:
            return found[1]
    raise RuntimeError("serve printed no address")


async def _held(server: subprocess.Popen, count: int, changes: int) -> dict:
    url = _address(server)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, call, url, "POST", "/api/setup", {"players": PLAYERS, "dealer": "Dario"})
    await loop.run_in_executor(None, call, url, "GET", "/")  # every page's code is loaded before the count
    before = resident_kb(server.pid)
    pages = HeldPages()
    parts = urlsplit(url)
    try:
        await pages.open(parts.hostname or "127.0.0.1", parts.port or 0, count)
        state = await loop.run_in_executor(None, call, url, "GET", "/api/state")
        await pages.all_have(state[1]["version"])
        await asyncio.sleep(0.5)
        after = resident_kb(server.pid)
        told, page_s, state_s = [], [], []
        for number in range(changes):
            change = ("/api/corrections", {"kind": "deal", "cards": CARDS}) if number % 2 == 0 else ("/api/undo", {})
            started = time.monotonic()
            answer = loop.run_in_executor(None, call, url, "POST", *change)
            page = loop.run_in_executor(None, call, url, "GET", "/")
            asked = loop.run_in_executor(None, call, url, "GET", "/api/state")
            version = (await answer)[1]["version"]
            told.append(await pages.all_have(version) - started)
            page_s.append((await page)[0])
            state_s.append((await asked)[0])
    finally:
        pages.close()
    return {"held": count, "changes": changes, "all_median_s": round(statistics.median(told), 4),
            "all_max_s": round(max(told), 4), "page_max_s": round(max(page_s), 4),
            "state_max_s": round(max(state_s), 4), "kb_per_stream": round((after - before) / count, 1),
            "target_s": HELD_TARGET_S, "page_target_s": PAGE_TARGET_S,
            "within_target": max(told) < HELD_TARGET_S and max(page_s + state_s) < PAGE_TARGET_S}


def measure(args: argparse.Namespace) -> harness.Figures:
    """The settled hands' times to the last page, then the held pages' (none with --held 0)."""
    figures = run(args.pages, args.hands)
    if args.held:
        figures["held_streams"] = held(args.held, args.changes)
    return figures


def render(figures: harness.Figures) -> list[str]:
    """The times, against the half second a page may take; the held pages against their bounds."""
    lines = [
        f"{figures['hands']} settled hands, {figures['pages']} open pages: the last page had the new state after "
        f"{1000 * figures['median_s']:.0f} ms (median), {1000 * figures['min_s']:.0f}-{1000 * figures['max_s']:.0f} ms "
        f"(fastest to slowest; the bound is {1000 * figures['target_s']:.0f} ms)",
    ]
    held_figures = figures.get("held_streams")
    if held_figures:
        lines += ["", f"{held_figures['held']} pages held open on `saltacavallo serve`, {held_figures['changes']} changes "
                  f"posted: every page had each change after {1000 * held_figures['all_median_s']:.0f} ms (median), "
                  f"{1000 * held_figures['all_max_s']:.0f} ms at most (the bound is "
                  f"{1000 * held_figures['target_s']:.0f} ms); meanwhile the table page answered in "
                  f"{1000 * held_figures['page_max_s']:.0f} ms and /api/state in {1000 * held_figures['state_max_s']:.0f} ms "
                  f"at most (the bound is {1000 * held_figures['page_target_s']:.0f} ms); the server's memory: "
                  f"{held_figures['kb_per_stream']:.1f} kB per open stream"]
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__, reads=())
    cli.add_argument("--pages", type=int, default=20, help="open pages, each an SSE connection")
    cli.add_argument("--hands", type=int, default=20, help="hands settled and timed")
    cli.add_argument("--held", type=int, default=1000, help="pages held open on `serve` (0: none)")
    cli.add_argument("--changes", type=int, default=10, help="changes timed to every held page")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Time the hands, print the figures, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
