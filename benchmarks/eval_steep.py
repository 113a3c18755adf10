"""Faces seen flat: cards lying across the picture of a phone leaning steeply, read through the whole pipeline.

    .venv/bin/python -m benchmarks.eval_steep [--photos ../shared/data] [--hands 4] [--seed 0]

A card lying across the picture of a camera more than about 53 degrees from straight down is seen
flatter than any card's proportions (`vision.locate.fitting.flat`). This plays eval_live's films
from its steepest view (`live_hands.VIEWS`' last, about 55 to 66 degrees), on the drawn table with the
project's drawn faces and on a photographed table with the valid photos' faces, and reads every
third frame as the live loop reads it there (the locator searching for flat cards). Each face read
on a flat quad is judged against the frame's true cards under its centre: right (its card named),
abstained (read face up, no name), wrong (another card, or a face-down card, named). Readings lying
on no card are phantoms; those on a pile of several (the cards collected) are counted apart.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

from art.sequences import film
from benchmarks import eval_live, harness
from benchmarks.judge import UNSURE, labels_and_centres, on_card
from benchmarks.live_hands import VIEWS, random_hand
from vision.locate.fitting import flat

NAME = "eval_steep"
VIEW = "60"
EVERY = 3
"""Frames of a film read: one in EVERY (five a second of the films' fifteen)."""
VERDICTS = ("right", "abstained", "wrong", "phantom", "on a pile")


def judge_flat(truth: list[dict], detections) -> Counter[str]:
    """The verdicts of a frame's faces read on flat quads."""
    tally: Counter[str] = Counter()
    labels, centres = labels_and_centres(detections)
    for label, centre, seen_flat, face in zip(labels, centres, flat(detections.quad), detections.face):
        if not seen_flat or face != "up":
            continue
        under = [card["label"] for card in truth if on_card(card["corners"], centre)]
        if not under:
            tally["phantom"] += 1
        elif len(under) > 1:
            tally["on a pile"] += 1
        elif label == UNSURE:
            tally["abstained"] += 1
        else:
            tally["right" if label == under[0] else "wrong"] += 1
    return tally


def measure(args: argparse.Namespace) -> harness.Figures:
    """Play each hand's film on each table and judge every face read flat; a row per table."""
    eval_live._start_worker(args.model, {}, args.photos)
    reader = eval_live._reader()
    decks = eval_live.photo_faces(args.photos, reader)
    reader.locator = replace(reader.locator, leaning=True)
    numbers = [k * len(VIEWS) + VIEWS.index(VIEW) for k in range(args.hands)]
    rows = []
    for table in ("drawn", "photo"):
        tally: Counter[str] = Counter()
        frames = 0
        for number in numbers:
            for pace in ("brisk", "usual"):
                live = random_hand(args.seed, eval_live.PACES[pace], VIEW, number, eval_live._size(eval_live.SIZE))
                faces = eval_live.hand_faces(decks, number) if table == "photo" else None
                surface = eval_live._surface(args.seed, number) if table == "photo" else None
                for i, frame, _, truth in film(live.script, faces, surface):
                    if i % EVERY == 0:
                        tally += judge_flat(truth["cards"], reader(eval_live._streamed(frame)))
                        frames += 1
        rows.append({"table": table, "frames": frames, **{v: tally[v] for v in VERDICTS}})
    return {"hands": len(numbers) * 2, "view": VIEW, "seed": args.seed, "rows": rows,
            "model": reader.classifier.path.name}


def render(figures: harness.Figures) -> list[str]:
    """A row per table."""
    lines = [f"Faces read on flat quads, eval_live's films from the {figures['view']}-degree view "
             f"({figures['hands']} hands a table, seed {figures['seed']}, model {figures['model']})", "",
             "| table | frames read | right | abstained | wrong | phantom | on a pile |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for row in figures["rows"]:
        lines.append(f"| {row['table']} | {row['frames']} | " + " | ".join(str(row[v]) for v in VERDICTS) + " |")
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--photos", type=Path, default=harness.DATA, help="the shared data folder (default: ../shared/data)")
    cli.add_argument("--hands", type=int, default=4, help="hands a pace played from the steep view")
    cli.add_argument("--seed", type=int, default=0, help="seed of the hands")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Judge every face read flat, print the table, record the run."""
    return harness.run(NAME, command(), argv, measure, render, check)


def check(args: argparse.Namespace) -> str | None:
    """Why the run cannot go: the photos (their faces, the photographed tables) missing."""
    if not (args.photos / "photos" / "labels.csv").is_file():
        return f"no photo labels under {args.photos}: pass --photos"
    return None


if __name__ == "__main__":
    sys.exit(main())
