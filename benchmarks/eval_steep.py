"""Faces from a leaning phone: the cards of eval_live's leaning films, read through the whole pipeline.

    .venv/bin/python -m benchmarks.eval_steep [--photos ../shared/data] [--view 60] [--hands 4] [--seed 0]

A phone leaning 55 to 66 degrees from straight down (`live_hands.VIEWS`' last) sees a card lying across
its picture flatter than any card's proportions (`vision.locate.fitting.flat`), and a far card lying
along it only a few dozen pixels long. This plays eval_live's films from that view (or `--view`,
another of its leaning views), on the drawn table with the project's drawn faces and on a
photographed table with the valid photos' faces, and reads every third frame as the live loop reads
it there (the locator searching for flat cards, each card read upright on the table's plane that the cards
read in the frame before show, and past 50 degrees no face named). Each face read is
judged against the frame's true cards under its centre: named right, abstained (read face up, no
name) or named wrong; and the classifier's own reading, named or not, right or wrong, which shows
what the reader's rules (`vision.recognize._unreadable`) keep from being named. Readings lying on no
card are phantoms; those on a pile of several (the cards collected) are counted apart. Rows: faces
seen flat, faces under SMALL_FACE pixels across (`vision.recognize.small`), the others.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from art.sequences import film
from benchmarks import eval_live, harness
from benchmarks.judge import on_card
from benchmarks.live_hands import VIEWS, random_hand
from vision.detections import CardDetections
from vision.labels import NONE
from vision.locate.fitting import flat
from vision.plane import seen_plane
from vision.recognize import SMALL_FACE, small

NAME = "eval_steep"
STEEP_TILT = 50.0
"""Degrees from straight down past which the live loop names no face (`live.loop.STEEP`, which it tells by the
cards' perspective)."""
EVERY = 3
"""Frames of a film read: one in EVERY (five a second of the films' fifteen)."""
GROUPS = ("flat", "small", "other")
VERDICTS = ("right", "abstained", "wrong", "read right", "read wrong", "phantom", "on a pile")


def _group(quad: np.ndarray) -> str:
    """How a face's quad is seen: flat, under SMALL_FACE across, or neither."""
    if flat(quad[None])[0]:
        return "flat"
    return "small" if small(quad[None])[0] else "other"


def judge_faces(truth: list[dict], detections: CardDetections) -> Counter[tuple[str, str]]:
    """The verdicts of a frame's faces, per group: named, and the classifier's reading named or not."""
    tally: Counter[tuple[str, str]] = Counter()
    for quad, label, code, face in zip(detections.quad, detections.label, detections.card, detections.face):
        if face != "up":
            continue
        group = _group(quad)
        centre = tuple(float(v) for v in quad.mean(axis=0))
        under = [card["label"] for card in truth if on_card(card["corners"], centre)]
        if len(under) != 1:
            tally[group, "phantom" if not under else "on a pile"] += 1
            continue
        tally[group, "abstained" if code is None else "right" if code == under[0] else "wrong"] += 1
        tally[group, "read right" if label == under[0] else "read wrong"] += 1
    return tally


def measure(args: argparse.Namespace) -> harness.Figures:
    """Play each hand's film on each table and judge every face read; a row per table and group."""
    eval_live._start_worker(args.model, {}, args.photos)
    reader = eval_live._reader()
    decks = eval_live.photo_faces(args.photos, reader)
    reader.locator = replace(reader.locator, leaning=True)
    numbers = [k * len(VIEWS) + VIEWS.index(args.view) for k in range(args.hands)]
    rows = []
    for table in ("drawn", "photo"):
        tally: Counter[tuple[str, str]] = Counter()
        frames = 0
        for number in numbers:
            for pace in ("brisk", "usual"):
                live = random_hand(args.seed, eval_live.PACES[pace], args.view, number, eval_live._size(eval_live.SIZE))
                reader.steep = live.script.camera.tilt > STEEP_TILT
                faces = eval_live.hand_faces(decks, number) if table == "photo" else None
                surface = eval_live._surface(args.seed, number) if table == "photo" else None
                reader.plane = None
                for i, frame, _, truth in film(live.script, faces, surface):
                    if i % EVERY == 0:
                        read = reader(eval_live._streamed(frame))
                        tally += judge_faces(truth["cards"], read)
                        reader.plane = seen_plane(read.quad[read.label != NONE]) or reader.plane
                        frames += 1
        rows += [{"table": table, "seen": group, "frames": frames, **{v: tally[group, v] for v in VERDICTS}}
                 for group in GROUPS]
    return {"hands": len(numbers) * 2, "view": args.view, "seed": args.seed, "small": SMALL_FACE,
            "rows": rows, "model": reader.classifier.path.name}


def render(figures: harness.Figures) -> list[str]:
    """A row per table and group."""
    lines = [f"Faces read in eval_live's films from the {figures['view']}-degree view ({figures['hands']} hands a "
             f"table, seed {figures['seed']}, one frame in {EVERY}, model {figures['model']}); small: under "
             f"{figures['small']:.0f} px across", "",
             "| table | seen | named right | abstained | named wrong | classifier right | classifier wrong | "
             "phantom | on a pile |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in figures["rows"]:
        lines.append(f"| {row['table']} | {row['seen']} | " + " | ".join(str(row[v]) for v in VERDICTS) + " |")
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--photos", type=Path, default=harness.DATA, help="the shared data folder (default: ../shared/data)")
    cli.add_argument("--view", choices=VIEWS[1:], default=VIEWS[-1], help="the view the films are seen from (default: the steepest)")
    cli.add_argument("--hands", type=int, default=4, help="hands a pace played from the steep view")
    cli.add_argument("--seed", type=int, default=0, help="seed of the hands")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Judge every face read, print the table, record the run."""
    return harness.run(NAME, command(), argv, measure, render, check)


def check(args: argparse.Namespace) -> str | None:
    """Why the run cannot go: the photos (their faces, the photographed tables) missing."""
    if not (args.photos / "photos" / "labels.csv").is_file():
        return f"no photo labels under {args.photos}: pass --photos"
    return None


if __name__ == "__main__":
    sys.exit(main())
