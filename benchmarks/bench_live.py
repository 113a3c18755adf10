"""The whole live loop on one core: frames per second, and how soon the reveal is told.

    taskset -c 0 .venv/bin/python -m benchmarks.bench_live

Each film goes through the loop as `saltacavallo watch` runs it: every frame decoded from JPEG,
its cards read (or, while the table is still, its last reading kept: vision.still), tracked and
seated, the controller, and each event stored at once in a real game file with its evidence photo. Frames per second is frames over the loop's time, the decoding
included. The reveal's latency runs from the first frame in which every card shows (the film's
truth) to the frame in which the reveal is told. The films: the sample hand as committed
(960x540) and filmed again at 1280x720 by vision.art.sequences, and, where ../shared/data is
present, a 1280x720 table of six valid-split photos' cards (bench_vision_speed's photo frames)
held for `--photo-seconds`. Run it pinned to one core, on a machine doing nothing else.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks import harness
from benchmarks.bench_vision_speed import photo_frames
from referee.events import ChooseDealer
from referee.store import GameStore
from vision.art import sequences
from vision.art.scene import Camera
from vision.frames import Frame, open_source
from vision.recognize import CardReader
from webui.live import Evidence, TableWatcher

NAME = "bench_live"
FILMS = harness.ROOT / "sample_images" / "sequences"
QUALITY = 90
"""JPEG quality the frames are held at before the timed loop decodes them (a phone's stream)."""
FPS = 15


def _jpegs(frames: list[np.ndarray]) -> list[bytes]:
    return [cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])[1].tobytes() for f in frames]


def photo_film(reader: CardReader, data: Path | None, seconds: float) -> tuple[dict[str, Any], list[bytes]] | None:
    """A still 1280x720 table of six valid-split photos' cards on wood (bench_vision_speed's photo frame)
    held for `seconds` with a little sensor noise, as JPEGs, and its setup; None without the data."""
    tables = photo_frames(reader, argparse.Namespace(data=data)).get((1280, 720))
    if not tables:
        return None
    (table, _), *_ = tables  # the wood table
    rng = np.random.default_rng(0)
    held = [np.clip(table + rng.normal(0, 2, table.shape), 0, 255).astype(np.uint8) for _ in range(int(seconds * FPS))]
    setup = {"players": ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"], "dealer": "Anna", "rules": "napoli"}
    return setup, _jpegs(held)


def committed(name: str) -> tuple[dict[str, Any], list[bytes]]:
    """A committed film's truth and its frames as JPEGs."""
    truth = json.loads((FILMS / f"{name}.json").read_text(encoding="utf-8"))
    with open_source(str(FILMS / truth["video"])) as source:
        return truth, _jpegs([frame.pixels for frame in source.frames()])


def filmed_at(script: sequences.GameScript, width: int, height: int) -> tuple[dict[str, Any], list[bytes]]:
    """The film of `script` rendered anew at width x height, its truth and its frames as JPEGs."""
    scaled = dataclasses.replace(script, camera=dataclasses.replace(script.camera, width=width, height=height))
    frames, notes = [], []
    for _, frame, shot, _ in sequences.film(scaled):
        frames.append(frame)
        notes.append(shot.note)
    segments = [{"from": i, "note": note} for i, note in enumerate(notes) if i == 0 or notes[i - 1] != note]
    truth = {"players": list(scaled.players), "dealer": scaled.hands[0].dealer, "rules": scaled.rules,
             "segments": segments}
    return truth, _jpegs(frames)


def revealed_at(truth: dict[str, Any]) -> list[int]:
    """Per hand, the first frame in which every card shows (the film's truth)."""
    return [s["from"] for s in truth.get("segments", []) if s["note"] == "every card shows"]


def run_loop(reader: CardReader, truth: dict[str, Any], jpegs: list[bytes]) -> dict[str, Any]:
    """Frames per second of the whole loop over the film, and the reveals' latencies in seconds."""
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore.create(Path(folder) / "game.db", truth["players"], truth["rules"])
        store.play(ChooseDealer(truth["dealer"]))
        watcher = TableWatcher(store.game, store.play, reader=reader, evidence=Evidence(Path(folder) / "photos"))
        told: list[int] = []
        start = time.perf_counter()
        for index, data in enumerate(jpegs):
            pixels = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            for said in watcher.step(Frame(pixels, index / FPS, index)):
                if said.kind == "reveal":
                    told.append(index)
        spent = time.perf_counter() - start
        store.close()
    shown = revealed_at(truth)
    latency = [round((t - s) / FPS, 3) for s, t in zip(shown, told)] if len(told) == len(shown) else []
    height, width = cv2.imdecode(np.frombuffer(jpegs[0], np.uint8), cv2.IMREAD_COLOR).shape[:2]
    return {"size": f"{width}x{height}", "frames": len(jpegs), "fps": round(len(jpegs) / spent, 1),
            "ms": round(1000 * spent / len(jpegs), 1), "reveals": len(told), "latency_s": latency}


def measure(args: argparse.Namespace) -> harness.Figures:
    """Each film through the whole loop."""
    reader = harness.make_reader(args, threads=1)
    figures: dict[str, Any] = {}
    for name in ("hand", "game"):
        figures[name] = run_loop(reader, *committed(name))
    figures["hand at 1280x720"] = run_loop(reader, *filmed_at(sequences.SAMPLE_HAND, 1280, 720))
    data = args.photos if (args.photos / "photos" / "labels.csv").is_file() else None
    film = photo_film(reader, data, args.photo_seconds)
    if film:
        figures["valid photos at 1280x720"] = run_loop(reader, *film)
    return figures


def render(figures: harness.Figures) -> list[str]:
    """One row per film: size, frames, frames per second, reveals and their latency."""
    rows = ["| film | size | frames | frames/s | ms a frame | reveals | reveal told after (s) |",
            "|---|---|---:|---:|---:|---:|---|"]
    for name, row in figures.items():
        latency = ", ".join(f"{v:.2f}" for v in row["latency_s"]) or "-"
        rows.append(f"| {name} | {row['size']} | {row['frames']} | {row['fps']:.1f} | {row['ms']:.1f} | "
                    f"{row['reveals']} | {latency} |")
    return rows


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--photos", type=Path, default=harness.DATA,
                     help="the shared data folder; without it the photo table is left out")
    cli.add_argument("--photo-seconds", type=float, default=10.0, help="seconds the photo table is held")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Run the films through the loop, print the figures, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
