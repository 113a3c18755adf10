"""Accuracy of the whole pipeline (locate, warp, classify) on the raw photos of the valid split.

    .venv/bin/python benchmarks/eval_valid.py [--data ../shared/data] [--split valid] [--model PATH]

Each photo shows one card, face up, and nothing else. A photo counts as right when the pipeline
names exactly that card and reports nothing else, abstained when it names no card (nothing
found, or every reading unsure), wrong when it names any other card, and phantom when it names
the card right but also reports a face-down card or an unsure card where none lies. Prints a
table per deck, the confusion pairs and the photos not right.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from pathlib import Path

from referee.cards import parse_card
from vision.classify import CardClassifier
from vision.io import read_image
from vision.locate import LocatorConfig
from vision.recognize import CardReader

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def photos(data: Path, split: str) -> list[tuple[Path, str, str]]:
    """(path, card code, deck) of every photo of a split."""
    with (data / "photos" / "labels.csv").open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["split"] == split]
    return [(data / row["file"], parse_card(row["card"]).code, row["deck"]) for row in rows]


VERDICTS = ("right", "abstained", "wrong", "phantom")


def judge(truth: str, cards: list[str | None]) -> str:
    """The verdict on the readings of a one-card photo (codes, None for face-down or unsure ones)."""
    named = [code for code in cards if code]
    if not named:
        return "abstained"
    if named != [truth]:
        return "wrong"
    return "right" if len(cards) == 1 else "phantom"


def main(argv: list[str] | None = None) -> int:
    """Run the pipeline over the split and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--split", default="valid")
    parser.add_argument("--model", type=Path, default=None, help="ONNX model (default: the shipped one)")
    parser.add_argument("--locator", choices=("cues", "net"), default="cues", help="locator method (default: cues)")
    args = parser.parse_args(argv)
    if not (args.data / "photos" / "labels.csv").is_file():
        print(f"no photo labels under {args.data}: pass --data", file=sys.stderr)
        return 2
    reader = CardReader(CardClassifier(args.model), LocatorConfig(method=args.locator))
    tally: dict[str, Counter[str]] = {}
    confusions: Counter[tuple[str, str]] = Counter()
    failures: list[str] = []
    start = time.perf_counter()
    items = photos(args.data, args.split)
    for path, truth, deck in items:
        detections = reader(read_image(path).pixels)
        named = [code for code in detections.card if code]
        verdict = judge(truth, detections.card)
        tally.setdefault(deck, Counter())[verdict] += 1
        if verdict != "right":
            failures.append(f"{path.name}: {verdict} ({', '.join(code or '--' for code in detections.card) or 'nothing'})")
        for code in named:
            if code != truth:
                confusions[(truth, code)] += 1
    elapsed = time.perf_counter() - start
    print(f"Whole pipeline on the {args.split} split ({len(items)} photos, model {reader.classifier.path.name}, "
          f"threshold {reader.classifier.threshold:.4f})\n")
    print("| deck | photos | right | abstained | wrong | phantom |")
    print("|---|---:|---:|---:|---:|---:|")
    total: Counter[str] = Counter()
    for deck, counts in sorted(tally.items()) + [("**all**", None)]:
        counts = counts if counts is not None else total
        n = sum(counts.values())
        if deck != "**all**":
            total.update(counts)
        cells = " | ".join(f"{counts[v]} ({100 * counts[v] / n:.1f}%)" for v in VERDICTS)
        print(f"| {deck} | {n} | {cells} |")
    print("\nConfusion pairs (true -> named): " + (", ".join(
        f"{a} -> {b} x{k}" for (a, b), k in confusions.most_common()) or "none"))
    if failures:
        print("Not right: " + "; ".join(failures))
    print(f"\n{elapsed / len(items) * 1000:.0f} ms per photo on this machine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
