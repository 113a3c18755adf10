"""Two cards lying close together at different angles: both read, one missed, or misnamed.

    .venv/bin/python -m benchmarks.eval_pairs

Two figure cards (10D above 9B) lie one above the other, long sides facing, a few millimetres
apart, each turned its own way and shifted along the other; a 1920x1080 camera tilted 30
degrees sees them from 110 cm, on each of the drawn tables (wood, cloth, felt). Outlined
together, such a pair once read as one quad: nothing, or another card. Every layout goes
through the whole pipeline and is judged as a frame (benchmarks.judge): each card counts as
right, missed or wrong (another reading on it), and a reading on neither card as a phantom.
Needs no shared data.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import Counter

from art.scene import CARD_W_CM, Camera, Placed, Scene, render_scene
from benchmarks import harness
from benchmarks.judge import judge_frame
from vision.recognize import CardReader

NAME = "eval_pairs"
TURNS = ((80, 100), (75, 95), (100, 80), (70, 95))
"""The two cards' turns on the table (degrees): landscape, a few degrees either side."""
GAPS_CM = (0.2, 0.5)
SHIFTS_CM = (1.0, -1.0, 2.5)
CAMERA = Camera(1920, 1080, tilt=30, view_cm=110)
STYLES = ("wood", "cloth", "felt")
COUNTS = ("right", "missed", "wrong", "phantom")


def read_pair(reader: CardReader, style: str, turns: tuple[int, int], gap: float, shift: float) -> Counter[str]:
    """Lay the pair on one table and tally its two cards and any phantoms, as a frame is judged."""
    cards = (
        Placed("10D", True, (shift, -CARD_W_CM / 2 - gap), turns[0]),
        Placed("9B", True, (0.0, CARD_W_CM / 2 + gap), turns[1]),
    )
    frame, truth = render_scene(Scene((), cards, style), CAMERA, seed=0)
    return judge_frame(truth["cards"], reader(frame))[0]


def measure(args: argparse.Namespace) -> harness.Figures:
    """Right / missed / wrong / phantoms per table over every layout."""
    reader = harness.make_reader(args)
    layouts = list(itertools.product(TURNS, GAPS_CM, SHIFTS_CM))
    tables = {}
    for style in STYLES:
        tally: Counter[str] = Counter()
        for turns, gap, shift in layouts:
            tally.update(read_pair(reader, style, turns, gap, shift))
        tables[style] = {key: tally[key] for key in COUNTS}
    return {"layouts": len(layouts), "tables": tables}


def render(figures: harness.Figures) -> list[str]:
    """One row per table and one for all."""
    layouts, tables = figures["layouts"], figures["tables"]
    rows = [f"Two cards lying close, {layouts} layouts per table ({2 * layouts} cards)", "",
            "| table | right | missed | wrong | phantoms |", "|---|---:|---:|---:|---:|"]
    total = {key: sum(table[key] for table in tables.values()) for key in COUNTS}
    for style, tally in [*tables.items(), ("**all**", total)]:
        rows.append(f"| {style} | " + " | ".join(str(tally[key]) for key in COUNTS) + " |")
    return rows


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    return harness.parser(NAME, __doc__)


def main(argv: list[str] | None = None) -> int:
    """Read every layout on every table, print the table, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
