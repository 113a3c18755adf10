"""Two cards lying close together at different angles: both read, one missed, or misnamed.

    .venv/bin/python benchmarks/eval_pairs.py

Two figure cards (10D above 9B) lie one above the other, long sides facing, a few millimetres
apart, each turned its own way and shifted along the other; a 1920x1080 camera tilted 30
degrees sees them from 110 cm, on each of the drawn tables (wood, cloth, felt). Outlined
together, such a pair once read as one quad: nothing, or another card. Every layout goes
through the whole pipeline; each card counts as right, missed or wrong (another card named on
it), and any other card named in the frame as a phantom. Needs no shared data.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter

import cv2
import numpy as np

from vision.classify import CardClassifier
from vision.recognize import CardReader
from vision.scene import CARD_W_CM, Camera, Placed, Scene, render_scene

TURNS = ((80, 100), (75, 95), (100, 80), (70, 95))
"""The two cards' turns on the table (degrees): landscape, a few degrees either side."""
GAPS_CM = (0.2, 0.5)
SHIFTS_CM = (1.0, -1.0, 2.5)
CAMERA = Camera(1920, 1080, tilt=30, view_cm=110)


def read_pair(reader: CardReader, style: str, turns: tuple[int, int], gap: float, shift: float) -> Counter[str]:
    """Lay the pair on one table and tally its two cards and any phantoms."""
    cards = (
        Placed("10D", True, (shift, -CARD_W_CM / 2 - gap), turns[0]),
        Placed("9B", True, (0.0, CARD_W_CM / 2 + gap), turns[1]),
    )
    frame, truth = render_scene(Scene((), cards, style), CAMERA, seed=0)
    detections = reader(frame)
    centres = [tuple(float(v) for v in quad.mean(axis=0)) for quad in detections.quad]
    tally: Counter[str] = Counter()
    on_a_card = np.zeros(len(detections), bool)
    for card in truth["cards"]:
        outline = np.array(card["corners"], np.float32).reshape(-1, 1, 2)
        inside = np.array([cv2.pointPolygonTest(outline, c, False) > 0 for c in centres], bool)
        on_a_card |= inside
        named = [code for code, there in zip(detections.card, inside) if code and there]
        tally["right" if named == [card["card"]] else "wrong" if named else "missed"] += 1
    tally["phantoms"] += int((~on_a_card & (detections.label != "back")).sum())
    return tally


def main(argv: list[str] | None = None) -> int:
    """Print right / missed / wrong per table over every layout."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    reader = CardReader(CardClassifier())
    layouts = list(itertools.product(TURNS, GAPS_CM, SHIFTS_CM))
    print(f"Two cards lying close, {len(layouts)} layouts per table ({2 * len(layouts)} cards)\n")
    print("| table | right | missed | wrong | phantoms |")
    print("|---|---:|---:|---:|---:|")
    total: Counter[str] = Counter()
    for style in ("wood", "cloth", "felt"):
        tally: Counter[str] = Counter()
        for turns, gap, shift in layouts:
            tally.update(read_pair(reader, style, turns, gap, shift))
        total.update(tally)
        print(f"| {style} | {tally['right']} | {tally['missed']} | {tally['wrong']} | {tally['phantoms']} |")
    print(f"| **all** | {total['right']} | {total['missed']} | {total['wrong']} | {total['phantoms']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
