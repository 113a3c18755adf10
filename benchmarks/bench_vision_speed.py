"""Frames per second of the whole reading (locate, warp, classify) on one core, with small and large cards.

    taskset -c 0 .venv/bin/python -m benchmarks.bench_vision_speed [--seconds 3] [--data ../shared/data]

The frames are the project's own table scenes (benchmarks.scenes): a round table dealt 6 cards
in a 1280x720 frame and 15 cards in a 1920x1080 frame, camera tilted 30 degrees and fitted
to the deal, one frame per table style (wood, cloth, felt), some cards face down; the same
tables with the players close together, so that the cards are large (short side about 140 px
at 720p, 110 px at 1080p, as a phone held over a table shows them); and, where the shared data
is present, frames built from the valid photos' cards laid on the drawn tables at those sizes
(benchmarks.eval_size's cut-outs and layout). OpenCV and onnxruntime each get one thread. Each
frame is read repeatedly; the table gives the mean and the fastest reading (the other guests of a
shared machine slow some readings, never speed one up), the candidates the locator finds, the outlines
the reader fits to their straight runs (it holds back those inside a solid card-shaped one, and fits
them only when that one is not named surely), how many quads it finishes and classifies (it passes
over the parts of a surely named card) and
how many of them are read as not-a-card when all are, the cards read right (of those at least
half visible, judged by benchmarks.judge against the frame's truth) and the phantoms, and a second table the time of each
stage, taken in a separate pass of a few readings a frame. A speed figure means something only
on a machine doing nothing else: the record keeps the load.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np

import vision.locate.candidates
import vision.locate.core
import vision.recognize
from art.scene import Camera, Scene, render_scene
from benchmarks import harness
from benchmarks.eval_size import cut_out, lay_cards
from benchmarks.judge import judge_frame
from benchmarks.scenes import CLOSE, SIZES, STYLES, TABLE, table_scenes
from vision.labels import NONE
from vision.locate import LocatorConfig, locate_cards
from vision.locate.cloth import Cloth
from vision.recognize import CardReader

NAME = "bench_vision_speed"
MEASURES = ("candidates", "fitted", "read", "none", "cards", "locate_ms", "ms", "fastest_ms")
"""Figures averaged over a kind of frame's three tables."""
COUNTS = ("right", "shown", "phantoms")
"""Figures summed over them: cards read right, cards at least half visible, readings on no card."""
PHOTO_WIDTH = {(1280, 720): 146, (1920, 1080): 101}
"""Width (pixels) of the valid photos' cards laid on the photo-built frames of each size (issue 15's table)."""
STAGE_READINGS = 3
"""Readings of each frame in the pass that times the stages."""
STAGES = ("exposure", "cloth", "cues", "outlines", "side fits", "scoring", "crisp map", "snap", "locate, rest",
          "warp", "classify", "resolve", "rest")
"""The stages timed, in the order a frame goes through them ("rest": what no stage names)."""


def measure_frames(reader: CardReader, frames: list[np.ndarray], seconds: float) -> dict[str, float]:
    """Mean milliseconds per frame for the whole reading and for locating alone, and the fastest whole
    reading (on a shared machine the other guests' load slows some readings, never speeds one up);
    candidates, those read, those read as not-a-card, and cards."""
    total, locate, count, fastest = 0.0, 0.0, 0, float("inf")
    candidates, found = 0, 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or count < len(frames):
        frame = frames[count % len(frames)]
        t0 = time.perf_counter()
        quads = locate_cards(frame, reader.locator)
        t1 = time.perf_counter()
        detections = reader(frame)
        t2 = time.perf_counter()
        locate += t1 - t0
        total += t2 - t1
        fastest = min(fastest, t2 - t1)
        candidates += len(quads)
        found += len(detections)
        count += 1
    none = [int((reader.read_quads(frame, locate_cards(frame, reader.locator)).label == NONE).sum()) for frame in frames]
    return {
        "ms": 1000 * total / count,
        "fastest_ms": 1000 * fastest,
        "locate_ms": 1000 * locate / count,
        "candidates": candidates / count,
        "fitted": float(np.mean([outlines_fitted(reader, frame) for frame in frames])),
        "read": float(np.mean([quads_read(reader, frame) for frame in frames])),
        "none": float(np.mean(none)),
        "cards": found / count,
    }


def quads_read(reader: CardReader, frame: np.ndarray) -> int:
    """How many quads one reading of the frame finishes and classifies (those it passes over are not)."""
    return _items_passed(reader, frame, reader, "read_quads")


def outlines_fitted(reader: CardReader, frame: np.ndarray) -> int:
    """How many outlines one reading of the frame fits to their straight runs (the costlier side fit); those
    held back inside a card named surely are not (recognize, held_quads)."""
    return _items_passed(reader, frame, vision.locate.candidates, "fit_quads")


def _items_passed(reader: CardReader, frame: np.ndarray, owner: Any, name: str) -> int:
    """How many items (the length of the last argument) one reading of the frame hands to `owner.name`
    in all; `owner` is left as it was (an instance's method lives on its class)."""
    counts: list[int] = []
    own = name in vars(owner)
    original = getattr(owner, name)

    def counted(*args: Any) -> Any:
        counts.append(len(args[-1]))
        return original(*args)

    setattr(owner, name, counted)
    try:
        reader(frame)
    finally:
        if own:
            setattr(owner, name, original)
        else:
            delattr(owner, name)
    return sum(counts)


@contextmanager
def _timed(spent: dict[str, float], places: list[tuple[Any, str, str]]) -> Iterator[None]:
    """Within the block, every call of the attribute `name` of each `owner` adds its seconds to `spent[stage]`."""
    own = [name in vars(owner) for owner, name, _ in places]  # an instance's method lives on its class
    saved = [(owner, name, vars(owner)[name] if isinstance(owner, type) else getattr(owner, name)) for owner, name, _ in places]

    def timer(function: Callable[..., Any], stage: str) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[stage] += time.perf_counter() - start
        return timed

    try:
        for (owner, name, stage), (_, _, original) in zip(places, saved):
            if isinstance(original, classmethod):
                setattr(owner, name, classmethod(timer(original.__func__, stage)))
            else:
                setattr(owner, name, timer(original, stage))
        yield
    finally:
        for (owner, name, original), kept in zip(saved, own):
            if kept:
                setattr(owner, name, original)
            else:
                delattr(owner, name)


def stage_times(reader: CardReader, frames: list[np.ndarray]) -> dict[str, float]:
    """Milliseconds per frame spent in each of STAGES, over STAGE_READINGS readings of every frame."""
    spent: dict[str, float] = defaultdict(float)
    core, found, recognize = vision.locate.core, vision.locate.candidates, vision.recognize
    places = [
        (recognize, "well_exposed", "exposure"), (Cloth, "of", "cloth"), (core, "cue_masks", "cues"),
        (core, "candidates", "candidates"), (found, "find_outlines", "outlines"), (found, "fit_quads", "side fits"),
        (core, "sharp_mask", "crisp map"), (recognize, "finish", "snap"), (recognize, "rough_quads", "locate"),
        (recognize, "held_quads", "held"),
        (recognize, "warp_card", "warp"), (reader.classifier, "classify", "classify"),
        (recognize, "resolve_overlaps", "resolve"),
    ]
    total = 0.0
    with _timed(spent, places):
        for frame in frames:
            for _ in range(STAGE_READINGS):
                start = time.perf_counter()
                reader(frame)
                total += time.perf_counter() - start
    # the outlines held back are fitted and scored once the first quads are read (recognize, held_quads)
    spent["scoring"] = spent["candidates"] + spent["held"] - spent["outlines"] - spent["side fits"]
    inside = ("cloth", "cues", "candidates", "crisp map")
    spent["locate, rest"] = spent["locate"] - sum(spent[stage] for stage in inside)
    spent["rest"] = total - sum(spent[stage] for stage in ("exposure", "locate", "held", "snap", "warp", "classify", "resolve"))
    readings = len(frames) * STAGE_READINGS
    return {stage: round(1000 * spent[stage] / readings, 2) for stage in STAGES}


Frame = tuple[np.ndarray, list[dict]]
"""A frame and its truth: each card's "card", "label", "corners" and "visible" (as benchmarks.judge takes them)."""


def judged(detections: Any, truth: list[dict]) -> dict[str, int]:
    """Cards of a frame's truth read right, those at least half visible, and the phantoms."""
    tally, _ = judge_frame(truth, detections)
    return {"right": tally["right"], "shown": sum(tally[v] for v in ("right", "wrong", "missed")), "phantoms": tally["phantom"]}


def drawn_frames(cards: int, size: tuple[int, int], table: tuple[float, float] = TABLE) -> list[Frame]:
    """The speed scenes (benchmarks.scenes) of one size, with their cards' truth."""
    return [(frame, truth["cards"]) for frame, truth in table_scenes(cards, size, table)]


def photo_frames(reader: CardReader, args: argparse.Namespace) -> dict[tuple[int, int], list[Frame]]:
    """Per frame size, one frame per table style of the valid photos' cards laid at PHOTO_WIDTH, with
    their truth (none without the data). The cards are cut out with the default locator, whatever
    the locator under test, so that every run reads the same frames."""
    if args.data is None:
        return {}
    items = harness.photos(args.data, "valid")
    needed = sum(cards * len(STYLES) for cards, _ in SIZES)
    cutter = CardReader(reader.classifier)
    cut = [(cut_out(cutter, path, code), code) for path, code, _ in items[:needed]]
    cards = [(card, code) for card, code in cut if card is not None]
    rng = np.random.default_rng(0)
    frames: dict[tuple[int, int], list[Frame]] = {}
    taken = 0
    for count, size in SIZES:
        frames[size] = []
        for seed, style in enumerate(STYLES):
            table, _ = render_scene(Scene((), (), style), Camera(size[0], size[1], tilt=0, view_cm=120), seed=seed)
            laid = cards[taken : taken + count]
            frame, outlines = lay_cards(table, [card for card, _ in laid], PHOTO_WIDTH[size], rng)
            truth = [{"card": code, "label": code, "corners": outline.tolist(), "visible": 1.0}
                     for (_, code), outline in zip(laid, outlines)]
            frames[size].append((frame, truth))
            taken += count
    return frames


def measure(args: argparse.Namespace) -> harness.Figures:
    """The means per frame size, kind of frame and table, and over the three tables; the stage times."""
    cv2.setNumThreads(1)
    reader = harness.make_reader(args, threads=1, work_side=args.work_side)
    photos = photo_frames(reader, args)
    rows = []
    for cards, size in SIZES:
        kinds = [("drawn", drawn_frames(cards, size)), ("drawn, large cards", drawn_frames(cards, size, CLOSE[size]))]
        if size in photos:
            kinds.append((f"photos, {PHOTO_WIDTH[size]} px cards", photos[size]))
        for kind, frames in kinds:
            results = [measure_frames(reader, [frame], args.seconds / len(frames)) | judged(reader(frame), truth)
                       for frame, truth in frames]
            whole = {key: float(np.mean([r[key] for r in results])) for key in MEASURES}
            whole |= {key: sum(r[key] for r in results) for key in COUNTS}
            for style, result in [*zip(STYLES, results), ("all three", whole)]:
                rounded = {key: round(result[key], 2) for key in MEASURES} | {key: result[key] for key in COUNTS}
                row = {"frame": f"{size[0]}x{size[1]}", "kind": kind, "table": style, "cards_on_it": cards, **rounded}
                if style == "all three":
                    row["stages"] = stage_times(reader, [frame for frame, _ in frames])
                rows.append(row)
    return {"rows": rows}


def render(figures: harness.Figures) -> list[str]:
    """A row per frame size, kind of frame and table, one for the three tables together; then the stage times."""
    lines = ["| frame | kind | table | cards on it | candidates | outlines fitted | quads read | read as none | cards reported "
             "| read right | phantoms | locate ms | whole ms | frames/s | fastest ms | frames/s at the fastest |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in figures["rows"]:
        table = f"**{row['table']}**" if row["table"] == "all three" else row["table"]
        none = f"{row['none']:.1f}" if "none" in row else "-"
        right = f"{row['right']} of {row['shown']}" if "right" in row else "-"
        read = f"{row['read']:.1f}" if "read" in row else "-"
        fitted = f"{row['fitted']:.1f}" if "fitted" in row else "-"
        fastest = f"{row['fastest_ms']:.1f} | {1000 / row['fastest_ms']:.1f}" if "fastest_ms" in row else "- | -"
        lines.append(f"| {row['frame']} | {row.get('kind', 'drawn')} | {table} | {row['cards_on_it']} | {row['candidates']:.1f} | {fitted} | {read} | "
                     f"{none} | {row['cards']:.1f} | {right} | {row.get('phantoms', '-')} | {row['locate_ms']:.1f} | {row['ms']:.1f} | "
                     f"{1000 / row['ms']:.1f} | {fastest} |")
    staged = [row for row in figures["rows"] if "stages" in row]
    if staged:
        lines += ["", "Milliseconds per frame in each stage (mean over the three tables; a separate pass):", "",
                  "| frame | kind | " + " | ".join(STAGES) + " |", "|---|---|" + "---:|" * len(STAGES)]
        for row in staged:
            lines.append(f"| {row['frame']} | {row['kind']} | " + " | ".join(f"{row['stages'][s]:.2f}" for s in STAGES) + " |")
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--seconds", type=float, default=3.0, help="reading time per frame size and kind of frame")
    cli.add_argument("--work-side", type=int, default=LocatorConfig().work_side,
                     help="long side of the copy the locator searches (default: LocatorConfig's)")
    present = (harness.DATA / "photos" / "labels.csv").is_file()
    cli.add_argument("--data", type=Path, default=harness.DATA if present else None,
                     help="the shared data folder for the photo-built frames (default: ../shared/data, left out when absent)")
    return cli


def main(argv: list[str] | None = None) -> int:
    """Time the reading of every frame size and kind, print the tables, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
