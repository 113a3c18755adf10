"""The whole pipeline on the sample hand: 33 frames of one hand of five, against their ground truth.

    .venv/bin/python benchmarks/eval_hand.py [--hand sample_images/hand] [--locator cues|net]

Every card at least half visible in a frame (`visible` in hand.json) should be read: right when
exactly its card (or a face-down card, for a back) is read on it, wrong when another card is
named on it, missed otherwise. A reading whose centre lies on no card at all is a phantom.
Needs no shared data: the frames are the project's own drawn scenes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.classify import CardClassifier
from vision.detections import CardDetections
from vision.io import read_image
from vision.labels import BACK
from vision.locate import LocatorConfig
from vision.recognize import CardReader

HAND = Path(__file__).resolve().parent.parent / "sample_images" / "hand"
SHOWS = 0.5
"""Least visible fraction of a card that it must be read at."""


def _on(corners: list[list[float]], point: tuple[float, float]) -> bool:
    """Whether a point lies on the card with these corners."""
    return cv2.pointPolygonTest(np.array(corners, np.float32).reshape(-1, 1, 2), point, False) > 0


def judge_frame(truth: list[dict], detections: CardDetections) -> tuple[Counter[str], list[str]]:
    """Tally one frame's readings against its ground-truth cards: each reading by its class label
    ("?" for an unsure face) at its quad's centre."""
    labels = [code or (BACK if face == "down" else "?") for code, face in zip(detections.card, detections.face)]
    centres = [tuple(float(v) for v in quad.mean(axis=0)) for quad in detections.quad]
    tally: Counter[str] = Counter()
    notes = []
    for card in truth:
        if card["visible"] < SHOWS:
            continue
        read = [label for label, centre in zip(labels, centres) if _on(card["corners"], centre)]
        named = [label for label in read if label != "?"]
        expected = card["label"]
        if named == [expected]:
            tally["right"] += 1
            continue
        verdict = "wrong" if any(label != expected for label in named) else "missed"
        tally[verdict] += 1
        notes.append(f"{verdict} {card['card']}{'' if expected != BACK else ' (face down)'}: read {read or 'nothing'}")
    for label, centre in zip(labels, centres):
        if not any(_on(card["corners"], centre) for card in truth):
            tally["phantom"] += 1
            notes.append(f"phantom {label} at ({centre[0]:.0f}, {centre[1]:.0f})")
    return tally, notes


def main(argv: list[str] | None = None) -> int:
    """Read every frame of the hand and print what was not right, then the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hand", type=Path, default=HAND)
    parser.add_argument("--model", type=Path, default=None, help="ONNX model (default: the shipped one)")
    parser.add_argument("--locator", choices=("cues", "net"), default="cues", help="locator method (default: cues)")
    args = parser.parse_args(argv)
    index = args.hand / "hand.json"
    if not index.is_file():
        print(f"no hand.json in {args.hand}", file=sys.stderr)
        return 2
    frames = json.loads(index.read_text())["frames"]
    reader = CardReader(CardClassifier(args.model), LocatorConfig(method=args.locator))
    total: Counter[str] = Counter()
    for frame in frames:
        detections = reader(read_image(args.hand / frame["file"]).pixels)
        tally, notes = judge_frame(frame["cards"], detections)
        total.update(tally)
        for note in notes:
            print(f"{frame['file']} ({frame['phase']}): {note}")
    cards = sum(total[v] for v in ("right", "wrong", "missed"))
    print(
        f"\n{len(frames)} frames, {cards} cards at least {SHOWS:.0%} visible: {total['right']} right, "
        f"{total['wrong']} wrong, {total['missed']} missed; {total['phantom']} phantoms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
