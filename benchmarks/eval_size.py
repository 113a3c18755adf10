"""Accuracy versus card size: the valid photos' cards shrunk and tiled into table-like frames.

    .venv/bin/python benchmarks/eval_size.py [--data ../shared/data] [--widths 60 80 100 150 200 300]

Each valid photo's card is cut out upright (through the pipeline's own locator), shrunk to a
given width in pixels, turned to a random angle and laid with others on tables drawn by the
project's scene compositor: every card once on wood, once on the gingham cloth and once on
felt (1280x720 frames, 1920x1080 for cards wider than 150 px). Every frame goes through the
whole pipeline; each laid card counts as right, abstained (not found or not named) or wrong
(named as another card); every reading whose centre lies on no laid card (a square of the
cloth read as a face-down card, say) counts as a phantom.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.classify import CardClassifier
from vision.crop import CARD_ASPECT
from vision.io import read_image
from vision.locate import LocatorConfig
from vision.recognize import CardReader
from vision.art.scene import Camera, Scene, render_scene

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_valid import DATA, photos  # noqa: E402  (a sibling script)

CUT_W = 360
"""Width of the upright cut-out each card is shrunk from."""
CUT_H = round(CUT_W / CARD_ASPECT)
STYLES = ("wood", "cloth", "felt")


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
    """Lay every card at `width` on tables of one style, frame after frame; count right, abstained, wrong."""
    tally: Counter[str] = Counter()
    order = rng.permutation(len(cards))
    k, seed = 0, 0
    while k < len(order):
        table, _ = render_scene(Scene((), (), style), Camera(size[0], size[1], tilt=0, view_cm=120), seed=seed)
        chosen = order[k:]
        frame, outlines = lay_cards(table, [cards[i] for i in chosen], width, rng)
        detections = reader(frame)
        centres = [tuple(map(float, quad.mean(0))) for quad in detections.quad]
        on_a_card = np.zeros(len(detections), bool)
        for i, outline in zip(chosen, outlines):
            inside = np.array([cv2.pointPolygonTest(outline.reshape(-1, 1, 2), c, False) > 0 for c in centres], bool)
            on_a_card |= inside
            centre_on = [code for code, there in zip(detections.card, inside) if code and there]
            tally["right" if centre_on == [codes[i]] else "wrong" if centre_on else "abstained"] += 1
        tally["phantoms"] += int((~on_a_card).sum())
        k += len(outlines)
        seed += 1
    return tally


def main(argv: list[str] | None = None) -> int:
    """Lay every valid card at every width and print right / abstained / wrong per width."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--widths", type=int, nargs="+", default=[60, 80, 100, 150, 200, 300])
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--cues", nargs="+", default=None, help="locator cues (default: LocatorConfig's)")
    parser.add_argument("--locator", choices=("cues", "net"), default="cues", help="locator method reading the laid cards")
    args = parser.parse_args(argv)
    if not (args.data / "photos" / "labels.csv").is_file():
        print(f"no photo labels under {args.data}: pass --data", file=sys.stderr)
        return 2
    locator = LocatorConfig(method=args.locator)
    if args.cues:
        locator = LocatorConfig(method=args.locator, cues=tuple(args.cues))
    classifier = CardClassifier(args.model)
    reader = CardReader(classifier, locator)
    cutter = CardReader(classifier)  # the cards are always cut out of the photos by the default locator
    cards, codes = [], []
    for path, code, _ in photos(args.data, "valid"):
        cut = cut_out(cutter, path, code)
        if cut is not None:
            cards.append(cut)
            codes.append(code)
    print(f"Whole pipeline on valid cards laid on drawn tables ({len(cards)} cut-outs, model {reader.classifier.path.name})\n")
    print("| card width (px) | frame | cards | right | abstained | wrong | phantoms | right on wood | on cloth | on felt |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    rng = np.random.default_rng(0)
    for width in args.widths:
        size = (1280, 720) if width <= 150 else (1920, 1080)
        tally: Counter[str] = Counter()
        right_on: dict[str, float] = {}
        for style in STYLES:
            counts = lay_and_read(reader, cards, codes, width, size, style, rng)
            tally.update(counts)
            right_on[style] = 100 * counts["right"] / sum(counts[v] for v in ("right", "abstained", "wrong"))
        n = sum(tally[v] for v in ("right", "abstained", "wrong"))
        cells = " | ".join(f"{tally[v]} ({100 * tally[v] / n:.1f}%)" for v in ("right", "abstained", "wrong"))
        styles = " | ".join(f"{right_on[style]:.1f}%" for style in STYLES)
        print(f"| {width} | {size[0]}x{size[1]} | {n} | {cells} | {tally['phantoms']} | {styles} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
