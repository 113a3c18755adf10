"""The whole live loop on one core and on a third of one: frames per second against decoding them, what a
still table costs, the peak memory, and how soon the reveal is told.

    taskset -c 1 .venv/bin/python -m benchmarks.bench_live [--hands 2] [--seed 0] [--still-seconds 10]

Each film goes through the loop as `saltacavallo watch` runs it on a phone's stream: every frame comes as
a JPEG (`Frame.encoded`, decoded in the loop: its thumbnail at an eighth of its size, the whole picture
only where the thumbnail changed), its cards read where the picture changed (vision.still), tracked and
seated, the controller, and each event stored at once in a real game file with its evidence photo.
Frames per second is frames over the loop's time, the decoding included. Since this machine's speed
swings from run to run, each film's frames are also decoded alone in the same run, and the loop's time
is given as a multiple of that (`x decode`), and so is the time spent in the classifier's model calls
(`the model's share`: what no reading of fewer parts saves, the crops being the model's to name). The
films: the sample hand and game as committed (960x540), the sample hand filmed again at 1280x720 by
art.sequences, `--hands` of eval_live's hands at
1280x720 (its seed `--seed`, the usual pace, from above and from the table's edge by turns, on a drawn
table and, where ../shared/data is present, on a photographed one by turns, with the valid photos'
faces), and, with the data, a still 1280x720 table of six valid-split photos' cards held for
`--photo-seconds`.

On a third of a core: the same, the benchmark pinned to one core with two processes spinning on that
core beside it (Linux shares a core fairly among the processes ready to run on it: a third each), the
decoding alone measured the same way. A still table: the 1280x720 sample hand's last picture, with a
camera's noise, fed in real time at 15 frames a second for `--still-seconds`; the share of one core is
the process's CPU time over the wall time from its third second on (once it has settled), and its
multiple of decoding those frames alone. Peak memory: the largest resident size (Linux's VmHWM) of
`saltacavallo watch` run in a process of its own on the 1280x720 sample hand's frames (a folder of
JPEGs). The reveal's
latency runs from the first frame in which every card shows (the film's truth) to the frame in which the
reveal is told. Run it pinned to one core, on a machine doing nothing else.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from art import sequences
from art.pace import PACES
from benchmarks import harness
from benchmarks.bench_vision_speed import photo_frames
from benchmarks.eval_live import QUALITY as LIVE_QUALITY
from benchmarks.eval_live import hand_faces, photo_faces
from benchmarks.live_hands import random_hand
from benchmarks.photo_tables import photo_tables, surface_for
from live.loop import Evidence, TableWatcher
from referee.events import ChooseDealer
from referee.store import GameStore
from vision.classify import Remembering
from vision.frames import Frame, open_source
from vision.recognize import CardReader

NAME = "bench_live"
FILMS = harness.ROOT / "sample_images" / "sequences"
QUALITY = 90
"""JPEG quality the frames are held at before the timed loop decodes them (a phone's stream)."""
FPS = 15
SHARERS = 2
"""Processes spinning on the loop's core beside it for the third-of-a-core figures."""
SETTLED = 2.0
"""Seconds of the still table after which its cost is counted: the first second reads it whole."""
WATCH_PEAK = ("import re, sys; from pathlib import Path; from webui.cli import main; report = Path(sys.argv.pop(1)); "
              "code = main(sys.argv[1:]); status = Path('/proc/self/status').read_text(); "
              "report.write_text(re.search(r'VmHWM:\\s*(\\d+)', status).group(1)); sys.exit(code)")
"""`saltacavallo watch` that writes its own peak resident size (kB, Linux's VmHWM) to a file: its
getrusage would count the pages of the benchmark it was forked from."""
Film = tuple[dict[str, Any], list[bytes]]
"""A film's truth (players, dealer, rules, segments) and its frames as JPEGs."""


def _jpegs(frames: list[np.ndarray], quality: int = QUALITY) -> list[bytes]:
    return [cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes() for f in frames]


def _decoded(data: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def photo_film(reader: CardReader, data: Path | None, seconds: float) -> Film | None:
    """A still 1280x720 table of six valid-split photos' cards on wood (bench_vision_speed's photo frame)
    held for `seconds` with a little sensor noise, as JPEGs, and its setup; None without the data."""
    tables = photo_frames(reader, argparse.Namespace(data=data)).get((1280, 720))
    if not tables:
        return None
    (table, _), *_ = tables  # the wood table
    setup = {"players": ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"], "dealer": "Anna", "rules": "napoli"}
    return setup, _jpegs(_noisy(table, int(seconds * FPS)))


def _noisy(picture: np.ndarray, count: int) -> list[np.ndarray]:
    """A picture held `count` frames, each with a camera's noise of its own."""
    rng = np.random.default_rng(0)
    return [np.clip(picture + rng.normal(0, 2, picture.shape), 0, 255).astype(np.uint8) for _ in range(count)]


def committed(name: str) -> Film:
    """A committed film's truth and its frames as JPEGs."""
    truth = json.loads((FILMS / f"{name}.json").read_text(encoding="utf-8"))
    with open_source(str(FILMS / truth["video"])) as source:
        return truth, [data for frame in source.frames() for data in _jpegs([frame.pixels])]


def _truth(script: sequences.GameScript, notes: list[str]) -> dict[str, Any]:
    segments = [{"from": i, "note": note} for i, note in enumerate(notes) if i == 0 or notes[i - 1] != note]
    return {"players": list(script.players), "dealer": script.hands[0].dealer, "rules": script.rules,
            "segments": segments}


def filmed_at(script: sequences.GameScript, width: int, height: int) -> Film:
    """The film of `script` rendered anew at width x height, its truth and its frames as JPEGs."""
    scaled = dataclasses.replace(script, camera=dataclasses.replace(script.camera, width=width, height=height))
    jpegs, notes = [], []
    for _, frame, shot, _ in sequences.film(scaled):
        jpegs += _jpegs([frame])
        notes.append(shot.note)
    return _truth(scaled, notes), jpegs


FILM_VIEWS = ("above", "oblique")
"""The views of eval_live's hands this bench films by turns: those its record was measured on."""


def live_hands(reader: CardReader, seed: int, count: int, data: Path | None) -> dict[str, Film]:
    """`count` of eval_live's hands at 1280x720 (its seed, the usual pace, the views by turns; a drawn and,
    with the data, a photographed table by turns, with the valid photos' faces), passed through JPEG at
    eval_live's quality."""
    decks = photo_faces(data, reader) if data else {}
    tables = photo_tables(data) if data else []
    films = {}
    for number in range(count):
        view = FILM_VIEWS[number % len(FILM_VIEWS)]
        live = random_hand(seed, PACES["usual"], view, number, (1280, 720))
        photographed = bool(tables) and number % 2 == 1
        surface = surface_for(reader, tables, seed, number) if photographed else None
        jpegs, notes = [], []
        for _, frame, shot, _ in sequences.film(live.script, hand_faces(decks, number), surface):
            jpegs += _jpegs([frame], LIVE_QUALITY)  # as it is filmed: a hand's pictures would fill the memory
            notes.append(shot.note)
        name = f"eval_live usual-{view}-{number:03d} ({'photo' if photographed else 'drawn'})"
        films[name] = _truth(live.script, notes), jpegs
    return films


def revealed_at(truth: dict[str, Any]) -> list[int]:
    """Per hand, the first frame in which every card shows (the film's truth)."""
    return [s["from"] for s in truth.get("segments", []) if s["note"] == "every card shows"]


def decode_ms(jpegs: list[bytes]) -> float:
    """Milliseconds a frame decoding the JPEGs alone."""
    start = time.perf_counter()
    for data in jpegs:
        _decoded(data)
    return 1000 * (time.perf_counter() - start) / len(jpegs)


@contextmanager
def _watcher(reader: CardReader, truth: dict[str, Any]) -> Iterator[TableWatcher]:
    """A live loop from a new game of the film's table, storing its events in a real game file."""
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore.create(Path(folder) / "game.db", truth["players"], truth["rules"])
        store.play(ChooseDealer(truth["dealer"]))
        try:
            yield TableWatcher(store.game, store.play, reader=reader, evidence=Evidence(Path(folder) / "photos"))
        finally:
            store.close()


class _Timed:
    """A classifier that counts the seconds its model calls take (the share of the loop no reading of fewer
    parts can save: the crops are the model's to name)."""

    def __init__(self, classifier: Any) -> None:
        self.classifier, self.seconds = classifier, 0.0

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        start = time.perf_counter()
        try:
            return self.classifier.classify(crops)
        finally:
            self.seconds += time.perf_counter() - start


def run_loop(reader: CardReader, truth: dict[str, Any], jpegs: list[bytes]) -> dict[str, Any]:
    """Frames per second of the whole loop over the film, its multiple of decoding the frames alone, the
    whole frames and the parts read, the crops the model classified and those that took a reading
    remembered (vision.classify.Remembering), the time a frame in the model's calls and its multiple of
    decoding, and the reveals' latencies in seconds."""
    with _watcher(reader, truth) as watcher:
        memory = watcher.still.reader.classifier
        assert isinstance(memory, Remembering)
        model = memory.classifier = _Timed(memory.classifier)
        told: list[int] = []
        start = time.perf_counter()
        for index, data in enumerate(jpegs):
            for said in watcher.step(Frame.encoded(data, index / FPS, index)):
                if said.kind == "reveal":
                    told.append(index)
        spent = time.perf_counter() - start
        wholes, parts = sum(watcher.still.wholes.values()), watcher.still.parts
        crops = {"classified": memory.classified, "remembered": memory.remembered}
    decoding = decode_ms(jpegs)
    shown = revealed_at(truth)
    latency = [round((t - s) / FPS, 3) for s, t in zip(shown, told)] if len(told) == len(shown) else []
    height, width = _decoded(jpegs[0]).shape[:2]
    ms, model_ms = 1000 * spent / len(jpegs), 1000 * model.seconds / len(jpegs)
    return {"size": f"{width}x{height}", "frames": len(jpegs), "fps": round(len(jpegs) / spent, 1),
            "ms": round(ms, 1), "decode_ms": round(decoding, 2), "x_decode": round(ms / decoding, 1),
            "model_ms": round(model_ms, 1), "model_x_decode": round(model_ms / decoding, 1),
            "wholes": wholes, "parts": parts, **crops, "reveals": len(told), "latency_s": latency}


def _spin(core: int) -> None:
    """Keep one core busy (a process sharing the loop's core)."""
    os.sched_setaffinity(0, {core})
    while True:
        pass


@contextmanager
def third_of_a_core() -> Iterator[None]:
    """This process pinned to one core with SHARERS processes spinning on it: a third of the core each."""
    before = os.sched_getaffinity(0)
    core = min(before)
    os.sched_setaffinity(0, {core})
    context = multiprocessing.get_context("fork")
    sharers = [context.Process(target=_spin, args=(core,), daemon=True) for _ in range(SHARERS)]
    for sharer in sharers:
        sharer.start()
    try:
        yield
    finally:
        for sharer in sharers:
            sharer.terminate()
            sharer.join()
        os.sched_setaffinity(0, before)


def still_table(reader: CardReader, truth: dict[str, Any], last: bytes, seconds: float) -> dict[str, Any]:
    """The share of one core the loop takes while the table lies still, fed in real time, and its multiple
    of decoding the same frames alone."""
    jpegs = _jpegs(_noisy(_decoded(last), int(seconds * FPS)))
    with _watcher(reader, truth) as watcher:
        start = time.perf_counter()
        cpu = wall = 0.0
        for index, data in enumerate(jpegs):
            time.sleep(max(0.0, start + index / FPS - time.perf_counter()))
            if index == int(SETTLED * FPS):
                cpu, wall = time.process_time(), time.perf_counter()
            watcher.step(Frame.encoded(data, index / FPS, index))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    share = cpu / wall
    decoding = decode_ms(jpegs) * FPS / 1000
    return {"seconds": seconds, "share": round(share, 4), "x_decode": round(share / decoding, 1)}


def peak_memory(jpegs: list[bytes], truth: dict[str, Any]) -> float:
    """The largest resident size (MB) of `saltacavallo watch` reading the frames from a folder of JPEGs."""
    with tempfile.TemporaryDirectory() as folder:
        frames = Path(folder) / "frames"
        frames.mkdir()
        for index, data in enumerate(jpegs):
            (frames / f"frame-{index:05d}.jpg").write_bytes(data)
        report = Path(folder) / "peak"
        command = [sys.executable, "-c", WATCH_PEAK, str(report), "watch", str(frames), "--players",
                   ",".join(truth["players"]), "--dealer", truth["dealer"], "--rules", truth["rules"],
                   "--db", str(Path(folder) / "game.db"), "--json"]
        subprocess.run(command, cwd=harness.ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return round(int(report.read_text()) / 1024, 1)


def measure(args: argparse.Namespace) -> harness.Figures:
    """Each film through the whole loop on one core and on a third of one; a still table; the peak memory."""
    reader = harness.make_reader(args, threads=1)
    data = args.photos if (args.photos / "photos" / "labels.csv").is_file() else None
    hand = filmed_at(sequences.SAMPLE_HAND, 1280, 720)
    films: dict[str, Film] = {name: committed(name) for name in ("hand", "game")}
    films["hand at 1280x720"] = hand
    films.update(live_hands(reader, args.seed, args.hands, data))
    photo = photo_film(reader, data, args.photo_seconds)
    if photo:
        films["valid photos at 1280x720"] = photo
    figures: dict[str, Any] = {"films": {name: run_loop(reader, *film) for name, film in films.items()}}
    timed = ("fps", "ms", "decode_ms", "x_decode", "model_ms", "model_x_decode")
    with third_of_a_core():
        for name, film in films.items():
            figures["films"][name]["third"] = {key: value for key, value in run_loop(reader, *film).items()
                                               if key in timed}
    figures["still"] = still_table(reader, hand[0], hand[1][-1], args.still_seconds)
    figures["peak_mb"] = peak_memory(hand[1], hand[0])
    return figures


def render(figures: harness.Figures) -> list[str]:
    """One row per film: size, frames, frames per second and its multiple of decoding, on one core and on
    a third of one, what was read, the reveals and their latency; then the still table and the memory."""
    if "films" not in figures:  # a run recorded before the third of a core, the still table and the memory
        figures = {"films": figures}
    rows = ["| film | size | frames | frames/s | ms a frame | x decode | the model's share, x decode "
            "| frames/s, a third of a core | x decode there "
            "| read whole / parts | crops classified / remembered | crops classified a frame | reveals "
            "| reveal told after (s) |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---|"]
    for name, row in figures["films"].items():
        latency = ", ".join(f"{v:.2f}" for v in row["latency_s"]) or "-"
        third = row.get("third", {})
        rows.append(f"| {name} | {row['size']} | {row['frames']} | {row['fps']:.1f} | {row['ms']:.1f} | "
                    f"{row.get('x_decode', '-')} | {row.get('model_x_decode', '-')} | "
                    f"{third.get('fps', '-')} | {third.get('x_decode', '-')} | "
                    f"{row.get('wholes', '-')} / {row.get('parts', '-')} | "
                    f"{row.get('classified', '-')} / {row.get('remembered', '-')} | {_a_frame(row, 'classified')} | "
                    f"{row['reveals']} | {latency} |")
    still = figures.get("still")
    if still:
        rows += ["", f"A still table ({still['seconds']:g} s of the 1280x720 sample hand's last picture, fed at "
                 f"{FPS} frames a second): {100 * still['share']:.1f}% of one core, {still['x_decode']} times "
                 "decoding its frames."]
    if "peak_mb" in figures:
        rows += ["", f"Peak memory of `saltacavallo watch` on the 1280x720 sample hand: {figures['peak_mb']:.0f} MB."]
    return rows


def _a_frame(row: dict[str, Any], key: str) -> str:
    """A count of a film's row over its frames, or "-" where the run did not count it."""
    return f"{row[key] / row['frames']:.1f}" if key in row else "-"


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--photos", type=Path, default=harness.DATA,
                     help="the shared data folder; without it the photo table and the photographed hands are left out")
    cli.add_argument("--photo-seconds", type=float, default=10.0, help="seconds the photo table is held")
    cli.add_argument("--hands", type=int, default=2, help="eval_live's hands played (default 2)")
    cli.add_argument("--seed", type=int, default=0, help="eval_live's seed of the hands (default 0)")
    cli.add_argument("--still-seconds", type=float, default=10.0, help="seconds the still table is fed in real time")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Run the films through the loop, print the figures, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
