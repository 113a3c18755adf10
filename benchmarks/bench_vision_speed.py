"""Frames per second of the whole reading (locate, warp, classify) on one core.

    taskset -c 0 .venv/bin/python benchmarks/bench_vision_speed.py [--seconds 3]

The frames are the project's own table scenes (vision.art.scene): a round table dealt 6 cards
in a 1280x720 frame and 15 cards in a 1920x1080 frame, camera tilted 30 degrees and fitted
to the deal, one frame per table style (wood, cloth, felt), some cards face down. OpenCV and
onnxruntime each get one thread. Each frame is read repeatedly; the table gives the mean.
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from vision.classify import CardClassifier
from vision.labels import CLASSES
from vision.locate import LocatorConfig, locate_cards
from vision.recognize import CardReader
from vision.art.scene import Camera, Scene, deal_to_seats, fit_camera, render_scene, round_table_seats


STYLES = ("wood", "cloth", "felt")


def table_frames(cards: int, size: tuple[int, int]) -> list[np.ndarray]:
    """One frame per table style with `cards` players' cards dealt round the table."""
    return [frame for frame, _ in table_scenes(cards, size)]


def table_scenes(cards: int, size: tuple[int, int]) -> list[tuple[np.ndarray, dict]]:
    """`table_frames` with each frame's ground truth (vision.art.scene.render_scene's)."""
    frames = []
    for k, style in enumerate(STYLES):
        rng = np.random.default_rng(k)
        names = [f"player {i + 1}" for i in range(cards)]
        seats = round_table_seats(names)
        labels = rng.choice(40, cards, replace=False)
        hands = {name: (CLASSES[label], bool(rng.random() > 0.2)) for name, label in zip(names, labels)}
        dealt = deal_to_seats(seats, hands, rng)
        camera = fit_camera(dealt, Camera(size[0], size[1], tilt=30, yaw=float(rng.uniform(-20, 20))))
        frames.append(render_scene(Scene(seats, dealt, style), camera, seed=k))
    return frames


def measure(reader: CardReader, frames: list[np.ndarray], seconds: float) -> dict[str, float]:
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


def main(argv: list[str] | None = None) -> int:
    """Print frames per second for the two frame sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="reading time per frame size")
    parser.add_argument("--locator", choices=("cues", "net"), default="cues", help="locator method (default: cues)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    reader = CardReader(CardClassifier(threads=1), LocatorConfig(method=args.locator))
    print("| frame | table | cards on it | candidates | cards reported | locate ms | whole ms | frames/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for cards, size in ((6, (1280, 720)), (15, (1920, 1080))):
        frames = table_frames(cards, size)
        results = [measure(reader, [frame], args.seconds / len(frames)) for frame in frames]
        mean = {key: float(np.mean([r[key] for r in results])) for key in results[0]}
        for style, result in list(zip(STYLES, results)) + [("**all three**", mean)]:
            print(
                f"| {size[0]}x{size[1]} | {style} | {cards} | {result['candidates']:.1f} | {result['cards']:.1f} | "
                f"{result['locate_ms']:.1f} | {result['ms']:.1f} | {1000 / result['ms']:.1f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
