"""Screenshots of the pages at phone and laptop size: `python -m benchmarks.screenshots OUTDIR`.

A game from the sample scene `reveal-tie` (its photo as the verdict's evidence) and a second
hand in play is served on 127.0.0.1, and Debian's headless Chromium photographs the pages.
`--held` plays the demo's `hidden` film through the live loop instead and photographs its held
hand, cleared in one tap as a person would, and the hand's verdict. `--evening` plays an evening
of three random games and photographs its page. `--camera` plays the sample hand into the phone
camera page through Chromium's fake camera and photographs the page: aimed, in a dark room, and
with its battery low.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from referee.events import Deal, Keep
from referee.game import Game
from referee.record import replay
from referee.simulate import hand_events

from webui.app import create_app
from webui.server import BackgroundServer
from webui.table import TableService

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"
SHOTS = [("table-phone", "/", 390, 844, True), ("table-laptop", "/", 1366, 768, False),
         ("history-phone", "/storico", 390, 844, True), ("setup-phone", "/setup", 390, 844, True),
         ("table-phone-en", "/?lang=en", 390, 844, False)]


def sample_game(table: TableService) -> None:
    """Hand 1 of the sample `reveal-tie` (Anna and Carla tie and pay), then hand 2 in play."""
    scene = json.loads((SAMPLES / "reveal-tie.json").read_text(encoding="utf-8"))
    played = replay(scene["record"])
    table.setup(scene["players"], dealer=scene["dealer"], stake=0.5)
    shutil.copy(SAMPLES / "reveal-tie.jpg", table.evidence_dir / "hand-1.jpg")
    events = played.history[1:]
    for event in events[:-1]:
        table.play(event)
    table.play(events[-1], evidence="hand-1.jpg")
    table.play(Deal.of({"Anna": "8C", "Bruno": "9C", "Carla": "4D", "Dario": "6S",
                        "Elena": "3B"}))
    table.play(Keep("Carla"))


def take(outdir: Path, play: Callable[[TableService], None] = sample_game,
         shots: list[tuple[str, str, int, int, bool]] = SHOTS) -> list[Path]:
    """Serve the game `play` plays (the sample game) and save every screenshot in `outdir`;
    their paths."""
    work = Path(tempfile.mkdtemp(prefix="saltacavallo-shots-"))
    app = create_app({"DATABASE": str(work / "table.db"), "PIN": "1234"})
    table: TableService = app.extensions["saltacavallo.table"]
    play(table)
    server = BackgroundServer(app, threads=16)
    try:
        return shoot(server.url, outdir, shots, work)
    finally:
        table.close()
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


def shoot(url: str, outdir: Path, shots: list[tuple[str, str, int, int, bool]],
          work: Path) -> list[Path]:
    """Photograph the pages of the server at `url`; the files written."""
    from playwright.sync_api import sync_playwright

    outdir.mkdir(parents=True, exist_ok=True)
    saved = []
    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(work / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS)
        for name, path, width, height, full in shots:
            page = context.new_page()
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url + path)
            page.wait_for_function("document.body.dataset.version !== undefined")
            page.wait_for_timeout(1500)  # the cards' art, the photos and a live picture load
            target = outdir / f"{name}.png"
            page.screenshot(path=str(target), full_page=full)
            saved.append(target)
            page.close()
        context.close()
    return saved


LIVE_SHOTS = [("verdict-phone", "/mano/1", 390, 844, True), ("live-laptop", "/live", 1366, 768,
                                                                  False)]
"""What `--url` photographs of a running server whose live loop has settled a hand."""


HELD_FILM = "hidden"
"""The demo film whose held hand is photographed: two cards exchanged under the hands and back."""


EVENING_SHOTS = [("evening-phone", "/serata", 390, 844, True),
                 ("evening-laptop", "/serata", 1366, 768, True)]
EVENING_SEED = 55
"""The seed of the random hands of the evening photographed."""


def evening_games(table: TableService, seed: int = EVENING_SEED) -> None:
    """Three games of four players, two lives each, played by random legal hands; the stake
    rises from 0,50 € to 1 € for the third."""
    rng = random.Random(seed)
    table.setup(["Anna", "Bruno", "Carla", "Dario"], lives=2, dealer="Dario", stake=0.5)
    for number in (1, 2, 3):
        if number > 1:
            table.next_game()
        scratch = Game(table.game.first_players, table.game.rules, table.game.start_lives)
        scratch.play_all(table.game.history)
        while scratch.outcome() is None:
            for event in hand_events(scratch, rng, unseen=0.0):
                table.play(event)
        if number == 2:
            table.set_stake(1.0)


def held(outdir: Path) -> list[Path]:
    """The held hand of the demo's `hidden` film at phone size, once the cards lie back, then one
    tap (no swap) and the hand's verdict: `held-phone.png`, `held-verdict-phone.png`."""
    from playwright.sync_api import sync_playwright

    from webui.demo import FILMS, DemoFilms, demo_loop

    truth = json.loads((FILMS / f"{HELD_FILM}.json").read_text(encoding="utf-8"))
    back = next(s["from"] for s in truth["segments"]
                if s["note"] == "the family answers the held hand on the page") / truth["fps"]
    work = Path(tempfile.mkdtemp(prefix="saltacavallo-shots-"))
    app = create_app({"DATABASE": str(work / "table.db"), "PIN": "1234"})
    table: TableService = app.extensions["saltacavallo.table"]
    loop = demo_loop(table, DemoFilms(names=(HELD_FILM,), rounds=1, hold=60.0),
                     answers={}).start()  # a person answers, in one tap
    server = BackgroundServer(app, threads=16)
    outdir.mkdir(parents=True, exist_ok=True)
    saved = [outdir / "held-phone.png", outdir / "held-verdict-phone.png"]
    try:
        with sync_playwright() as driver:
            context = driver.chromium.launch_persistent_context(
                str(work / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS)
            context.add_init_script("localStorage.setItem('saltacavallo.pin', '1234');")
            page = context.new_page()
            page.set_viewport_size({"width": 390, "height": 844})
            page.goto(server.url + "/")
            page.wait_for_selector("#held:not([hidden]) .question", timeout=180000)
            while loop.holds.controller is None or loop.holds.controller.seen.at < back + 0.5:
                time.sleep(0.1)  # the cards lie back where they were
            page.wait_for_timeout(1500)  # the camera's picture now
            page.screenshot(path=str(saved[0]), full_page=True)
            page.click("#held .answers .no")
            page.wait_for_selector("#verdict:not([hidden]) .by-hand li", timeout=180000)
            page.goto(server.url + "/mano/1")
            page.wait_for_selector("#one-verdict .by-hand li")
            page.wait_for_timeout(1500)
            page.screenshot(path=str(saved[1]), full_page=True)
            context.close()
    finally:
        loop.stop()
        table.close()
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return saved


CAMERA_FILM = "hand"
"""The sample film the phone camera page is photographed filming."""
WAKE_LOCK = ("Object.defineProperty(navigator, 'wakeLock', {value: {request: async () => "
             "Object.assign(new EventTarget(), {release: async () => {}})}});")
"""Headless Chromium refuses the screen wake lock a phone grants: a stand-in grants it."""
AIMED = ("document.querySelectorAll('#aim-marks circle.seen').length === 5 && "
         "document.querySelectorAll('#aim-marks text.card').length >= 3")
"""The camera page aimed at the sample hand: its five places ticked, three cards or more read."""
CAMERA_SHOTS = [
    ("camera-aim-phone", 1.0, "", AIMED),
    ("camera-dark-phone", 0.04, "", "!document.querySelector('#light').hidden"),
    ("camera-battery-phone", 1.0, "navigator.getBattery = async () => Object.assign("
     "new EventTarget(), {level: 0.15, charging: false});", AIMED),
]
"""Each camera page photographed: its name, the room's light, what the browser tells (a low
battery), and when it is worth the photo."""


def camera(outdir: Path) -> list[Path]:
    """The phone camera page at phone size filming the sample hand through the live loop: aimed
    (every place ticked, the cards read), in a dark room, and with its battery low."""
    from playwright.sync_api import sync_playwright

    from art.y4m import film_frames, write_y4m
    from live.loop import LiveLoop
    from vision.frames import PushedFrames
    from webui.demo import FILMS

    truth = json.loads((FILMS / f"{CAMERA_FILM}.json").read_text(encoding="utf-8"))
    work = Path(tempfile.mkdtemp(prefix="saltacavallo-shots-"))
    outdir.mkdir(parents=True, exist_ok=True)
    saved = []
    try:
        for name, light, told, ready in CAMERA_SHOTS:
            film = work / f"{name}.y4m"
            write_y4m(film_frames(FILMS / truth["video"], light), film, truth["fps"])
            app = create_app({"DATABASE": str(work / f"{name}.db"), "PIN": "1234"})
            table: TableService = app.extensions["saltacavallo.table"]
            table.setup(truth["players"], truth["rules"], dealer=truth["dealer"])
            source = PushedFrames(on_status=lambda s, t=table: t.camera_status(s.to_json()))
            table.phone = source
            loop = LiveLoop(table, source).start()
            server = BackgroundServer(app, threads=8)
            try:
                with sync_playwright() as driver:
                    context = driver.chromium.launch_persistent_context(
                        str(work / f"profile-{name}"), executable_path=CHROMIUM, headless=True,
                        args=FLAGS + ["--use-fake-ui-for-media-stream",
                                      "--use-fake-device-for-media-stream",
                                      f"--use-file-for-fake-video-capture={film}"])
                    context.add_init_script("localStorage.setItem('saltacavallo.pin', '1234');"
                                            + WAKE_LOCK + told)
                    page = context.new_page()
                    page.set_viewport_size({"width": 390, "height": 844})
                    page.goto(server.url + "/fotocamera")
                    page.click("#camera-start")
                    page.wait_for_function(ready, timeout=120000)
                    target = outdir / f"{name}.png"
                    page.screenshot(path=str(target), full_page=True)
                    saved.append(target)
                    context.close()
            finally:
                loop.stop()
                table.close()
                server.stop()
            film.unlink()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return saved


def main(argv: list[str]) -> int:
    """Write the screenshots to the folder given (docs/screenshots by default).

    With `--url URL` the pages of a running `saltacavallo serve` are photographed instead.
    """
    parser = argparse.ArgumentParser(prog="python -m benchmarks.screenshots",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--url", help="photograph the pages of a running server instead")
    parser.add_argument("--held", action="store_true",
                        help="photograph the demo's held hand and its verdict instead")
    parser.add_argument("--evening", action="store_true",
                        help="photograph the page of an evening of three games instead")
    parser.add_argument("--camera", action="store_true",
                        help="photograph the phone camera page filming the sample hand instead")
    args = parser.parse_args(argv)
    if args.held:
        paths = held(args.outdir)
    elif args.evening:
        paths = take(args.outdir, evening_games, EVENING_SHOTS)
    elif args.camera:
        paths = camera(args.outdir)
    elif args.url:
        work = Path(tempfile.mkdtemp(prefix="saltacavallo-shots-"))
        paths = shoot(args.url.rstrip("/"), args.outdir, LIVE_SHOTS, work)
        shutil.rmtree(work, ignore_errors=True)
    else:
        paths = take(args.outdir)
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
