"""Accuracy of the whole pipeline on the valid photos as a phone at a real table might take them.

    .venv/bin/python -m benchmarks.eval_views [--data ../shared/data] [--model PATH] [--seed 0]

Each valid photo (decks never seen in training) is read as taken and under each condition
below, made from it by code: the phone tilted 45 degrees, the card turned by a random angle,
a dim room (dark, noisy, hard compression), a warm tungsten lamp, an out-of-focus shot, and
a lamp's glare across the card. Verdicts as in eval_valid (benchmarks.judge.judge_photo): right
(its card and nothing else), abstained (no card named), wrong (another card named), phantom
(its card, and also a face-down or unsure card where none lies).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from benchmarks import harness
from benchmarks.judge import PHOTO_VERDICTS, judge_photo
from vision.io import decode_image, read_image

NAME = "eval_views"
Condition = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def _warp_whole(image: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Apply a homography, with the output framed round the whole warped image; borders repeat."""
    h, w = image.shape[:2]
    corners = cv2.perspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]])[None], homography)[0]
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    shift = np.array([[1, 0, -lo[0]], [0, 1, -lo[1]], [0, 0, 1]])
    size = (int(np.ceil(hi[0] - lo[0])), int(np.ceil(hi[1] - lo[1])))
    return cv2.warpPerspective(image, shift @ homography, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def tilted(image: np.ndarray, rng: np.random.Generator, degrees: float = 45.0) -> np.ndarray:
    """The photo's table seen by a camera aimed at the same spot, `degrees` off straight down,
    turned about a random axis lying in the table (see `tilted_about`)."""
    return tilted_about(image, rng.uniform(0, np.pi), degrees)


def tilted_about(image: np.ndarray, axis: float, degrees: float = 45.0) -> np.ndarray:
    """The photo's table seen by a camera aimed at the same spot, turned `degrees` about an axis lying
    in the table at the angle `axis` (radians), at the distance that keeps the spot at the same scale; the frame
    keeps the photo's size (borders repeat where the photo ends)."""
    h, w = image.shape[:2]
    f = 0.9 * max(h, w)  # a phone's field of view, about 60 degrees across the long side
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    rotation = cv2.Rodrigues(np.radians(degrees) * np.array([np.cos(axis), np.sin(axis), 0.0]))[0]
    plane_to_camera = np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, f]])  # table point (x, y) in photo pixels
    centred = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]])
    homography = k @ plane_to_camera @ centred
    return cv2.warpPerspective(image, homography, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def turned(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo turned by a random angle in the table's plane."""
    h, w = image.shape[:2]
    matrix = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(10, 350)), 1.0), [0, 0, 1]])
    return _warp_whole(image, matrix)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The image after a round trip through JPEG at `quality`."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return decode_image(data.tobytes()).pixels


def dim(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A dim room: a quarter to two fifths of the light, a noisy sensor, hard compression."""
    dark = image.astype(np.float32) * rng.uniform(0.25, 0.4)
    noisy = dark + rng.normal(0, 4.0, image.shape)
    return _jpeg(np.clip(noisy, 0, 255).astype(np.uint8), 50)


def warm(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A warm tungsten lamp the phone did not balance: blue drops, red rises."""
    gains = np.array([rng.uniform(0.45, 0.6), rng.uniform(0.8, 0.9), 1.15], np.float32)
    return np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def blurred(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Out of focus: a blur a few pixels wide on the 768x1024 photo."""
    return cv2.GaussianBlur(image, (0, 0), rng.uniform(2.0, 3.0))


def glare(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp's reflection on glossy card: a bright soft ellipse near the middle."""
    h, w = image.shape[:2]
    spot = np.zeros((h, w), np.float32)
    centre = (int(w * rng.uniform(0.35, 0.65)), int(h * rng.uniform(0.35, 0.65)))
    axes = (int(w * rng.uniform(0.1, 0.2)), int(h * rng.uniform(0.05, 0.1)))
    cv2.ellipse(spot, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), max(axes) / 3)[..., None]
    return np.clip(image * (1 - 0.8 * spot) + 255 * 0.8 * spot, 0, 255).astype(np.uint8)


CONDITIONS: dict[str, Condition] = {
    "as taken": lambda image, rng: image,
    "phone tilted 45 degrees": tilted,
    "turned at random": turned,
    "dim room": dim,
    "warm lamp": warm,
    "out of focus": blurred,
    "glare": glare,
}


def measure(args: argparse.Namespace) -> harness.Figures:
    """Read every valid photo under every condition: verdicts and the photos not right, per condition."""
    reader = harness.make_reader(args)
    items = harness.photos(args.data, "valid")
    conditions = []
    for name, condition in CONDITIONS.items():
        rng = np.random.default_rng(args.seed)
        tally: Counter[str] = Counter()
        missed = []
        for k, (path, truth, _) in enumerate(items):
            image = condition(read_image(path).pixels, rng)
            if args.save is not None and k == 0:
                args.save.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(args.save / f"{name.replace(' ', '-')}.jpg"), image)
            cards = reader(image).card
            verdict = judge_photo(truth, cards)
            tally[verdict] += 1
            if verdict != "right":
                missed.append(f"{path.stem} ({', '.join(code or '--' for code in cards) or 'nothing'})")
        conditions.append({"condition": name, **{v: tally[v] for v in PHOTO_VERDICTS}, "not_right": missed})
    return {"photos": len(items), "model": reader.classifier.path.name, "conditions": conditions}


def render(figures: harness.Figures) -> list[str]:
    """A row per condition."""
    n = figures["photos"]
    lines = [f"Whole pipeline on the valid photos under table conditions ({n} photos each, model {figures['model']})", "",
             "| condition | right | abstained | wrong | phantom | not right |", "|---|---:|---:|---:|---:|---|"]
    for row in figures["conditions"]:
        cells = " | ".join(f"{row[v]} ({100 * row[v] / n:.1f}%)" for v in PHOTO_VERDICTS)
        lines.append(f"| {row['condition']} | {cells} | {'; '.join(row['not_right']) or '-'} |")
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__, reads=("data", "model"))
    cli.add_argument("--seed", type=int, default=0, help="seed of each condition's random draws")
    cli.add_argument("--save", type=Path, default=None, help="folder for one example image per condition")

    return cli


def main(argv: list[str] | None = None) -> int:
    """Read every valid photo under every condition, print the table, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
