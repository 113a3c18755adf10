"""Two cards lying close together at different angles: both read, one missed, or misnamed.

    .venv/bin/python benchmarks/eval_pairs.py

Two figure cards (10D above 9B) lie one above the other, long sides facing, a few millimetres
apart, each turned its own way and shifted along the other; a 1920x1080 camera tilted 30
degrees sees them from 110 cm, on each of the drawn tables (wood, cloth, felt). Outlined
together, such a pair once read as one quad: nothing, or another card. Every layout goes
through the whole pipeline and is judged as eval_hand.py judges a frame: each card counts as
right, missed or wrong (another reading on it), and a reading on neither card as a phantom.
Needs no shared data.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter
from pathlib import Path

from vision.classify import CardClassifier
from vision.recognize import CardReader
from vision.art.scene import CARD_W_CM, Camera, Placed, Scene, render_scene

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_hand import judge_frame  # noqa: E402  (a sibling script)

TURNS = ((80, 100), (75, 95), (100, 80), (70, 95))
"""The two cards' turns on the table (degrees): landscape, a few degrees either side."""
GAPS_CM = (0.2, 0.5)
SHIFTS_CM = (1.0, -1.0, 2.5)
CAMERA = Camera(1920, 1080, tilt=30, view_cm=110)


def read_pair(reader: CardReader, style: str, turns: tuple[int, int], gap: float, shift: float) -> Counter[str]:
    """Lay the pair on one table and tally its two cards and any phantoms, as eval_hand.py judges a frame."""
    cards = (
        Placed("10D", True, (shift, -CARD_W_CM / 2 - gap), turns[0]),
        Placed("9B", True, (0.0, CARD_W_CM / 2 + gap), turns[1]),
    )
    frame, truth = render_scene(Scene((), cards, style), CAMERA, seed=0)
    return judge_frame(truth["cards"], reader(frame))[0]


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
        print(f"| {style} | {tally['right']} | {tally['missed']} | {tally['wrong']} | {tally['phantom']} |")
    print(f"| **all** | {total['right']} | {total['missed']} | {total['wrong']} | {total['phantom']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
