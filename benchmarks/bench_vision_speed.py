"""Frames per second of the whole reading (locate, warp, classify) on one core.

    taskset -c 0 .venv/bin/python -m benchmarks.bench_vision_speed [--seconds 3]

The frames are the project's own table scenes (benchmarks.scenes): a round table dealt 6 cards
in a 1280x720 frame and 15 cards in a 1920x1080 frame, camera tilted 30 degrees and fitted
to the deal, one frame per table style (wood, cloth, felt), some cards face down. OpenCV and
onnxruntime each get one thread. Each frame is read repeatedly; the table gives the mean.
A speed figure means something only on a machine doing nothing else: the record keeps the load.
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from benchmarks import harness
from benchmarks.scenes import SIZES, STYLES, table_frames
from vision.locate import locate_cards
from vision.recognize import CardReader

NAME = "bench_vision_speed"
MEASURES = ("candidates", "cards", "locate_ms", "ms")


def measure_frames(reader: CardReader, frames: list[np.ndarray], seconds: float) -> dict[str, float]:
    """Mean milliseconds per frame for the whole reading and for locating alone; candidates and cards."""
    total, locate, count = 0.0, 0.0, 0
    candidates, found = 0, 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or count < len(frames):
        frame = frames[count % len(frames)]
        t0 = time.perf_counter()
        quads = locate_cards(frame, reader.locator)
        t1 = time.perf_counter()
        detections = reader(frame)
        t2 = time.perf_counter()
        locate += t1 - t0
        total += t2 - t1
        candidates += len(quads)
        found += len(detections)
        count += 1
    return {
        "ms": 1000 * total / count,
        "locate_ms": 1000 * locate / count,
        "candidates": candidates / count,
        "cards": found / count,
    }


def measure(args: argparse.Namespace) -> harness.Figures:
    """The means per frame size and table, and over the three tables."""
    cv2.setNumThreads(1)
    reader = harness.make_reader(args, threads=1)
    rows = []
    for cards, size in SIZES:
        frames = table_frames(cards, size)
        results = [measure_frames(reader, [frame], args.seconds / len(frames)) for frame in frames]
        mean = {key: float(np.mean([r[key] for r in results])) for key in MEASURES}
        for style, result in [*zip(STYLES, results), ("all three", mean)]:
            rounded = {key: round(result[key], 2) for key in MEASURES}
            rows.append({"frame": f"{size[0]}x{size[1]}", "table": style, "cards_on_it": cards, **rounded})
    return {"rows": rows}


def render(figures: harness.Figures) -> list[str]:
    """A row per frame size and table, and one for the three tables together."""
    lines = ["| frame | table | cards on it | candidates | cards reported | locate ms | whole ms | frames/s |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for row in figures["rows"]:
        table = f"**{row['table']}**" if row["table"] == "all three" else row["table"]
        lines.append(f"| {row['frame']} | {table} | {row['cards_on_it']} | {row['candidates']:.1f} | {row['cards']:.1f} | "
                     f"{row['locate_ms']:.1f} | {row['ms']:.1f} | {1000 / row['ms']:.1f} |")
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--seconds", type=float, default=3.0, help="reading time per frame size")

    return cli


def main(argv: list[str] | None = None) -> int:
    """Time the reading of both frame sizes, print the table, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
