"""The whole pipeline on the sample hand: 33 frames of one hand of five, against their ground truth.

    .venv/bin/python -m benchmarks.eval_hand [--hand sample_images/hand]

Every card at least half visible in a frame (`visible` in hand.json) should be read: right when
exactly its card (or a face-down card, for a back) is read on it, wrong when another card is
named on it, missed otherwise. A reading whose centre lies on no card at all is a phantom
(benchmarks.judge). Needs no shared data: the frames are the project's own drawn scenes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from benchmarks import harness
from benchmarks.judge import SHOWS, judge_frame
from vision.io import read_image

NAME = "eval_hand"
HAND = harness.ROOT / "sample_images" / "hand"


def measure(args: argparse.Namespace) -> harness.Figures:
    """Read every frame of the hand and judge it; the totals and a note on each card not right."""
    frames = json.loads((args.hand / "hand.json").read_text())["frames"]
    reader = harness.make_reader(args)
    total: Counter[str] = Counter()
    notes = []
    for frame in frames:
        detections = reader(read_image(args.hand / frame["file"]).pixels)
        tally, said = judge_frame(frame["cards"], detections)
        total.update(tally)
        notes.extend(f"{frame['file']} ({frame['phase']}): {note}" for note in said)
    cards = sum(total[v] for v in ("right", "wrong", "missed"))
    return {"frames": len(frames), "cards": cards, **{v: total[v] for v in ("right", "wrong", "missed", "phantom")}, "notes": notes}


def render(figures: harness.Figures) -> list[str]:
    """The notes as a list, then the totals."""
    return [
        *(f"- {note}" for note in figures["notes"]),
        "",
        f"{figures['frames']} frames, {figures['cards']} cards at least {SHOWS:.0%} visible: {figures['right']} right, "
        f"{figures['wrong']} wrong, {figures['missed']} missed; {figures['phantom']} phantoms",
    ]


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--hand", type=Path, default=HAND, help="folder with hand.json and its frames")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Read the hand, print what was not right and the totals, record the run."""
    return harness.run(NAME, command(), argv, measure, render, check=_missing_hand)


def _missing_hand(args: argparse.Namespace) -> str | None:
    """Why the hand cannot be read, or None."""
    return None if (args.hand / "hand.json").is_file() else f"no hand.json in {args.hand}"


if __name__ == "__main__":
    sys.exit(main())
