"""Accuracy versus card size: the valid photos' cards shrunk and tiled into table-like frames.

    .venv/bin/python -m benchmarks.eval_size [--data ../shared/data] [--widths 60 80 100 150 200 300]

Each valid photo's card is cut out upright (through the pipeline's own locator), shrunk to a
given width in pixels, turned to a random angle and laid with others on tables drawn by the
project's scene compositor: every card once on wood, once on the gingham cloth and once on
felt (1280x720 frames, 1920x1080 for cards wider than 150 px). Every frame goes through the
whole pipeline and is judged as a frame (benchmarks.judge): each laid card counts as right,
missed (not found or not named) or wrong (another card, or a face-down card, read on it); every
reading whose centre lies on no laid card (a square of the cloth read as a face-down card, say)
counts as a phantom.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from art.scene import Camera, Scene, render_scene
from benchmarks import harness
from benchmarks.judge import judge_frame
from vision.crop import CARD_ASPECT
from vision.io import read_image
from vision.recognize import CardReader

NAME = "eval_size"
CUT_W = 360
"""Width of the upright cut-out each card is shrunk from."""
CUT_H = round(CUT_W / CARD_ASPECT)
STYLES = ("wood", "cloth", "felt")
VERDICTS = ("right", "missed", "wrong")


def cut_out(reader: CardReader, path: Path, truth: str) -> np.ndarray | None:
    """The photo's card warped upright at CUT_W x CUT_H, from the quad the pipeline reads as it."""
    frame = read_image(path).pixels
    detections = reader(frame)
    quads = [quad for quad, label in zip(detections.quad, detections.label) if label == truth]
    if not quads:
        quads = sorted(detections.quad, key=lambda q: -cv2.contourArea(q))[:1]
    if not quads:
        return None
    target = np.float32([[0, 0], [CUT_W, 0], [CUT_W, CUT_H], [0, CUT_H]])
    return cv2.warpPerspective(frame, cv2.getPerspectiveTransform(quads[0], target), (CUT_W, CUT_H))


def lay_cards(
    table: np.ndarray, cards: list[np.ndarray], width: int, rng: np.random.Generator
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Lay cards shrunk to `width` at random angles on a grid over the table; return frame and outlines."""
    frame = table.copy()
    height = round(width / CARD_ASPECT)
    cell = int(height * 1.35)
    rows, cols = frame.shape[0] // cell, frame.shape[1] // cell
    outlines = []
    for k, card in enumerate(cards[: rows * cols]):
        small = cv2.resize(card, (width, height), interpolation=cv2.INTER_AREA)
        cy = (k // cols) * cell + cell / 2 + (frame.shape[0] - rows * cell) / 2
        cx = (k % cols) * cell + cell / 2 + (frame.shape[1] - cols * cell) / 2
        angle = float(rng.uniform(0, 360))
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
        matrix[:, 2] += (cx - width / 2, cy - height / 2)
        size = (frame.shape[1], frame.shape[0])
        warped = cv2.warpAffine(small, matrix, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpAffine(np.full((height, width), 255, np.uint8), matrix, size, flags=cv2.INTER_LINEAR)
        alpha = (mask.astype(np.float32) / 255.0)[..., None]
        frame = (frame * (1 - alpha) + warped * alpha).astype(np.uint8)
        corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        outlines.append(cv2.transform(corners[None], matrix)[0])
    return frame, outlines


def lay_and_read(
    reader: CardReader,
    cards: list[np.ndarray],
    codes: list[str],
    width: int,
    size: tuple[int, int],
    style: str,
    rng: np.random.Generator,
) -> Counter[str]:
    """Lay every card at `width` on tables of one style, frame after frame; judge each frame (right,
    wrong, missed and phantoms)."""
    tally: Counter[str] = Counter()
    order = rng.permutation(len(cards))
    k, seed = 0, 0
    while k < len(order):
        table, _ = render_scene(Scene((), (), style), Camera(size[0], size[1], tilt=0, view_cm=120), seed=seed)
        chosen = order[k:]
        frame, outlines = lay_cards(table, [cards[i] for i in chosen], width, rng)
        truth = [
            {"card": codes[i], "label": codes[i], "corners": outline.tolist(), "visible": 1.0}
            for i, outline in zip(chosen, outlines)
        ]
        tally.update(judge_frame(truth, reader(frame))[0])
        k += len(outlines)
        seed += 1
    return tally


def measure(args: argparse.Namespace) -> harness.Figures:
    """Lay every valid card at every width: right / abstained / wrong / phantoms per width, right per table."""
    locator = {"cues": tuple(args.cues)} if args.cues else {}
    reader = harness.make_reader(args, **locator)
    cutter = CardReader(reader.classifier)  # the cards are always cut out of the photos by the default locator
    cards, codes = [], []
    for path, code, _ in harness.photos(args.data, "valid"):
        cut = cut_out(cutter, path, code)
        if cut is not None:
            cards.append(cut)
            codes.append(code)
    rng = np.random.default_rng(0)
    rows = []
    for width in args.widths:
        size = (1280, 720) if width <= 150 else (1920, 1080)
        tally: Counter[str] = Counter()
        right_on: dict[str, float] = {}
        for style in STYLES:
            counts = lay_and_read(reader, cards, codes, width, size, style, rng)
            tally.update(counts)
            right_on[style] = round(100 * counts["right"] / sum(counts[v] for v in VERDICTS), 1)
        verdicts = {v: tally[v] for v in VERDICTS}
        rows.append({"width": width, "frame": f"{size[0]}x{size[1]}", **verdicts, "phantoms": tally["phantom"], "right_on": right_on})
    return {"cut_outs": len(cards), "model": reader.classifier.path.name, "rows": rows}


def render(figures: harness.Figures) -> list[str]:
    """A row per card width."""
    lines = [f"Whole pipeline on valid cards laid on drawn tables ({figures['cut_outs']} cut-outs, model {figures['model']})", "",
             "| card width (px) | frame | cards | right | missed | wrong | phantoms | right on wood | on cloth | on felt |",
             "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in figures["rows"]:
        n = sum(row[v] for v in VERDICTS)
        cells = " | ".join(f"{row[v]} ({100 * row[v] / n:.1f}%)" for v in VERDICTS)
        styles = " | ".join(f"{row['right_on'][style]:.1f}%" for style in STYLES)
        lines.append(f"| {row['width']} | {row['frame']} | {n} | {cells} | {row['phantoms']} | {styles} |")
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__, reads=("data", "model"))
    cli.add_argument("--widths", type=int, nargs="+", default=[60, 80, 100, 150, 200, 300], help="card widths (pixels)")
    cli.add_argument("--cues", nargs="+", default=None, help="locator cues (default: LocatorConfig's)")

    return cli


def main(argv: list[str] | None = None) -> int:
    """Lay every valid card at every width, print the table, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
