"""The closer look's enlargement: of the face-up cards a whole reading misses, how many a closer look
at their place finds, per long side the place's card is enlarged to, and at what cost.

    .venv/bin/python -m benchmarks.eval_closer [--enlarge 140 160 200 160,200] [--hands 20] [--jobs 2]

The hands are eval_live's (the same seed, paces and views, faces cut out of the valid-split photos),
filmed in memory and passed through JPEG as there. From the reveal to the end of the film, every
EVERY-th frame is read whole; each face-up card lying at a seat and shown whole that the reading
does not name where it lies is searched for closely (`CloseLooks._searched`, the card's true outline as
its place) at every enlargement (or sequence of them, the next tried when one finds nothing,
as the loop does: `160,200`). A look is right when it names the card, wrong when it names
another, empty otherwise; its time is the look's wall time on one thread (both looks, when the first finds nothing).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cv2
import numpy as np

from art.pace import PACES
from art.sequences import FPS, film
from benchmarks import eval_live, harness
from benchmarks.live_hands import random_hand
from vision.classify import CardClassifier
from vision.closer import CLOSE_CARDS, SAME_PLACE_LENGTHS, CloseLooks, _Place
from vision.recognize import CardReader

NAME = "eval_closer"
EVERY = 3
"""Frames between two frames studied: neighbouring frames show nearly the same table."""
WHOLE = 0.95
"""Least visible share of a card studied: a card under a hand is no place for a closer look."""
AFTER = ("reveal", "draw", "settle")
"""The phases studied: the cards face up at the seats, where a missed card costs the hand."""
_ENLARGE: tuple[tuple[float, ...], ...] = ()


def _start(enlarge: tuple[tuple[float, ...], ...], decks: dict[str, dict[str, np.ndarray]]) -> None:
    global _ENLARGE
    _ENLARGE = enlarge
    eval_live._start_worker(None, decks)


def study_hand(seed: int, pace: str, view: str, number: int) -> dict[str, Any]:
    """One hand's missed face-up cards and what each enlargement's closer look made of them."""
    live = random_hand(seed, PACES[pace], view, number)
    reader = CardReader(CardClassifier(None, threads=1))
    looks = {size: CloseLooks(reader, size) for size in _ENLARGE}
    counts = {size: {"right": 0, "wrong": 0, "empty": 0, "seconds": 0.0} for size in _ENLARGE}
    cards = missed = 0
    for i, frame, shot, truth in film(live.script, eval_live.hand_faces(eval_live._DECKS, number)):
        if shot.phase not in AFTER or i % EVERY:
            continue
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, eval_live.QUALITY])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
        read = reader(frame)
        for card in truth["cards"]:
            if not card["face_up"] or card["seat"] is None or card["visible"] < WHOLE:
                continue
            cards += 1
            place = _Place(np.float32(card["corners"]), i / FPS, rested=True)
            near = np.linalg.norm(read.quad.mean(axis=1) - place.centre, axis=1) < SAME_PLACE_LENGTHS * place.length \
                if len(read) else np.zeros(0, bool)
            if card["label"] in read.label[near]:
                continue
            missed += 1
            for size, look in looks.items():
                clock = time.perf_counter()
                found = look._searched(frame, place)
                counts[size]["seconds"] += time.perf_counter() - clock
                verdict = "empty" if not len(found) else "right" if found.label[0] == card["label"] else "wrong"
                counts[size][verdict] += 1
    return {"name": f"{pace}-{view}-{number:03d}", "style": live.script.style, "cards": cards,
            "missed": missed, "looks": {_name(size): row for size, row in counts.items()}}


def _name(sizes: tuple[float, ...]) -> str:
    return ",".join(f"{size:g}" for size in sizes)


def _sizes(text: str) -> tuple[float, ...]:
    """An --enlarge argument: one long side, or several tried in turn (`160,200`)."""
    return tuple(float(size) for size in text.split(","))


def measure(args: argparse.Namespace) -> harness.Figures:
    """Study every planned hand (in `--jobs` processes) and sum the looks per enlargement and table style."""
    decks = eval_live.photo_faces(args.photos, CardReader(CardClassifier(args.model)))
    planned = eval_live.plan(args)
    with ProcessPoolExecutor(args.jobs, initializer=_start, initargs=(tuple(map(_sizes, args.enlarge)), decks)) as pool:
        hands = list(pool.map(study_hand, *zip(*planned)))
    styles = sorted({hand["style"] for hand in hands})
    rows = []
    for style in [*styles, "all"]:
        group = [hand for hand in hands if style in ("all", hand["style"])]
        for size in map(_sizes, args.enlarge):
            row = {key: sum(hand["looks"][_name(size)][key] for hand in group) for key in ("right", "wrong", "empty", "seconds")}
            rows.append({"style": style, "enlarge": _name(size), "cards": sum(h["cards"] for h in group),
                         "missed": sum(h["missed"] for h in group), **row})
    return {"rows": rows, "hands": hands}


def render(figures: harness.Figures) -> list[str]:
    """A row per table style and enlargement: the cards missed by the whole reading, and the looks' verdicts and cost."""
    lines = ["| table | enlarged to (px) | face-up cards | missed by the whole reading | found by the look | "
             "wrong | empty | ms a place |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in figures["rows"]:
        looks = row["right"] + row["wrong"] + row["empty"]
        ms = f"{1000 * row['seconds'] / looks:.0f}" if looks else "-"
        lines.append(f"| {row['style']} | {row['enlarge']} | {row['cards']} | {row['missed']} | {row['right']} | "
                     f"{row['wrong']} | {row['empty']} | {ms} |")
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments, eval_live's choice of hands, and the enlargements."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--photos", type=eval_live.Path, default=harness.DATA, help="the shared data folder (default: ../shared/data)")
    cli.add_argument("--hands", type=int, default=20, help="hands per pace (default 20), alternately from above and oblique")
    cli.add_argument("--pace", nargs="+", choices=sorted(PACES), default=["brisk", "usual", "slow"], help="paces to play")
    cli.add_argument("--seed", type=int, default=0, help="seed of the hands")
    cli.add_argument("--jobs", type=int, default=2, help="processes studying hands at once")
    cli.add_argument("--views", nargs="+", choices=eval_live.VIEWS, default=list(eval_live.VIEWS),
                     help="study only the hands of these views, as eval_live plays them")
    cli.add_argument("--illegal", action="store_true",
                     help="study only hands with an illegal swap (the first --hands of the seed), as eval_live plays them")
    cli.add_argument("--enlarge", nargs="+", default=["140", "160", "200", _name(CLOSE_CARDS)],
                     help="long sides (px) the place's card is enlarged to; several, comma-separated, are tried in turn")
    return cli


def _check(args: argparse.Namespace) -> str | None:
    if args.hands < 1 or args.jobs < 1:
        return "--hands and --jobs must be at least 1"
    try:
        if not all(size > 0 for sizes in map(_sizes, args.enlarge) for size in sizes):
            return "--enlarge takes long sides in pixels, above 0"
    except ValueError:
        return f"--enlarge takes long sides in pixels, one or several comma-separated: not {' '.join(args.enlarge)}"
    if not (args.photos / "photos" / "labels.csv").is_file():
        return f"no photo labels under {args.photos}: pass --photos"
    return None


def main(argv: list[str] | None = None) -> int:
    """Study the hands, print the table, record the run."""
    return harness.run(NAME, command(), argv, measure, render, _check)


if __name__ == "__main__":
    sys.exit(main())
