"""The speed benchmark's table scenes softened, as a webcam out of focus would show them.

    .venv/bin/python -m benchmarks.eval_soft [--blur 0 0.7 1.0 1.5]

Each frame of bench_vision_speed (benchmarks.scenes: 6 cards at 1280x720, 15 at 1920x1080, on
wood, the checked cloth and felt) is blurred (Gaussian, sigma in pixels) and read whole; every
card at least half visible is judged as a frame (benchmarks.judge): right, wrong or missed, and
readings on no card are phantoms. Needs no shared data.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import cv2

from benchmarks import harness
from benchmarks.judge import judge_frame
from benchmarks.scenes import SIZES, STYLES, table_scenes

NAME = "eval_soft"
COUNTS = ("right", "wrong", "missed", "phantom")


def measure(args: argparse.Namespace) -> harness.Figures:
    """Right, wrong, missed and phantoms per frame size, table and blur."""
    reader = harness.make_reader(args)
    rows = []
    for cards, size in SIZES:
        for style, (frame, truth) in zip(STYLES, table_scenes(cards, size)):
            cells = []
            for sigma in args.blur:
                soft = cv2.GaussianBlur(frame, (0, 0), sigma) if sigma > 0 else frame
                tally = judge_frame(truth["cards"], reader(soft))[0]
                cells.append({"blur": sigma, **{key: tally[key] for key in COUNTS}})
            rows.append({"frame": f"{size[0]}x{size[1]}", "table": style, "cells": cells})
    return {"blur": list(args.blur), "rows": rows}


def render(figures: harness.Figures) -> list[str]:
    """A row per frame and table, a column per blur, then the totals."""
    lines = ["Cards read right (of those at least half visible) in the speed frames, blurred", "",
             "| frame | table | " + " | ".join(f"blur {sigma:g} px" for sigma in figures["blur"]) + " |",
             "|---|---|" + "---:|" * len(figures["blur"])]
    total: Counter[str] = Counter()
    for row in figures["rows"]:
        texts = []
        for cell in row["cells"]:
            total.update({key: cell[key] for key in COUNTS})
            n = cell["right"] + cell["wrong"] + cell["missed"]
            extra = "".join(f", {cell[k]} {k}" for k in ("wrong", "phantom") if cell[k])
            texts.append(f"{cell['right']} of {n}{extra}")
        lines.append(f"| {row['frame']} | {row['table']} | " + " | ".join(texts) + " |")
    lines += ["", f"All: {total['right']} right, {total['wrong']} wrong, {total['missed']} missed, {total['phantom']} phantoms"]
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--blur", type=float, nargs="+", default=[0.0, 0.7, 1.0, 1.5], help="sigmas (pixels)")

    return cli


def main(argv: list[str] | None = None) -> int:
    """Read every frame at every blur, print the table, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
