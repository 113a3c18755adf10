"""The speed benchmark's table scenes softened, as a webcam out of focus would show them.

    .venv/bin/python benchmarks/eval_soft.py [--blur 0 0.7 1.0 1.5]

Each frame of bench_vision_speed.py (6 cards at 1280x720, 15 at 1920x1080, on wood, the checked
cloth and felt) is blurred (Gaussian, sigma in pixels) and read whole; every card at least half
visible is judged as eval_hand.py judges it: right, wrong or missed, and readings on no card are
phantoms. Needs no shared data.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2

from vision.classify import CardClassifier
from vision.recognize import CardReader

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_vision_speed import STYLES, table_scenes  # noqa: E402  (sibling scripts)
from eval_hand import judge_frame  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Print right / cards per frame size, table and blur."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blur", type=float, nargs="+", default=[0.0, 0.7, 1.0, 1.5], help="sigmas (pixels)")
    args = parser.parse_args(argv)
    reader = CardReader(CardClassifier())
    print("Cards read right (of those at least half visible) in the speed frames, blurred\n")
    print("| frame | table | " + " | ".join(f"blur {sigma:g} px" for sigma in args.blur) + " |")
    print("|---|---|" + "---:|" * len(args.blur))
    total: Counter[str] = Counter()
    for cards, size in ((6, (1280, 720)), (15, (1920, 1080))):
        for style, (frame, truth) in zip(STYLES, table_scenes(cards, size)):
            cells = []
            for sigma in args.blur:
                soft = cv2.GaussianBlur(frame, (0, 0), sigma) if sigma > 0 else frame
                tally = judge_frame(truth["cards"], reader(soft))[0]
                total.update(tally)
                n = tally["right"] + tally["wrong"] + tally["missed"]
                extra = "".join(f", {tally[k]} {k}" for k in ("wrong", "phantom") if tally[k])
                cells.append(f"{tally['right']} of {n}{extra}")
            print(f"| {size[0]}x{size[1]} | {style} | " + " | ".join(cells) + " |", flush=True)
    print(f"\nAll: {total['right']} right, {total['wrong']} wrong, {total['missed']} missed, {total['phantom']} phantoms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
