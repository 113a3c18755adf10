"""Accuracy of the whole pipeline (locate, warp, classify) on the raw photos of the valid split.

    .venv/bin/python -m benchmarks.eval_valid [--data ../shared/data] [--split valid] [--model PATH]

Each photo shows one card, face up, and nothing else. A photo counts as right when the pipeline
names exactly that card and reports nothing else, abstained when it names no card (nothing
found, or every reading unsure), wrong when it names any other card, and phantom when it names
the card right but also reports a face-down card or an unsure card where none lies
(benchmarks.judge.judge_photo). Prints a table per deck, the confusion pairs and the photos not right.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from benchmarks import harness
from benchmarks.judge import PHOTO_VERDICTS, judge_photo
from vision.io import read_image

NAME = "eval_valid"


def measure(args: argparse.Namespace) -> harness.Figures:
    """Read every photo of the split; verdicts per deck, confusions, the photos not right, time per photo."""
    reader = harness.make_reader(args)
    tally: dict[str, Counter[str]] = {}
    confusions: Counter[tuple[str, str]] = Counter()
    failures: list[str] = []
    start = time.perf_counter()
    items = harness.photos(args.data, args.split)
    for path, truth, deck in items:
        detections = reader(read_image(path).pixels)
        verdict = judge_photo(truth, detections.card)
        tally.setdefault(deck, Counter())[verdict] += 1
        if verdict != "right":
            failures.append(f"{path.name}: {verdict} ({', '.join(code or '--' for code in detections.card) or 'nothing'})")
        confusions.update((truth, code) for code in detections.card if code and code != truth)
    elapsed = time.perf_counter() - start
    return {
        "split": args.split,
        "photos": len(items),
        "model": reader.classifier.path.name,
        "threshold": round(reader.classifier.threshold, 4),
        "decks": {deck: {v: counts[v] for v in PHOTO_VERDICTS} for deck, counts in sorted(tally.items())},
        "confusions": [[a, b, k] for (a, b), k in confusions.most_common()],
        "not_right": failures,
        "ms_per_photo": round(elapsed / len(items) * 1000),
    }


def render(figures: harness.Figures) -> list[str]:
    """The verdicts per deck and for all, the confusion pairs, the photos not right and the time."""
    lines = [f"Whole pipeline on the {figures['split']} split ({figures['photos']} photos, model {figures['model']}, "
             f"threshold {figures['threshold']:.4f})", "",
             "| deck | photos | right | abstained | wrong | phantom |", "|---|---:|---:|---:|---:|---:|"]
    decks = figures["decks"]
    total = {v: sum(counts[v] for counts in decks.values()) for v in PHOTO_VERDICTS}
    for deck, counts in [*decks.items(), ("**all**", total)]:
        n = sum(counts.values())
        lines.append(f"| {deck} | {n} | " + " | ".join(f"{counts[v]} ({100 * counts[v] / n:.1f}%)" for v in PHOTO_VERDICTS) + " |")
    pairs = ", ".join(f"{a} -> {b} x{k}" for a, b, k in figures["confusions"]) or "none"
    lines += ["", f"Confusion pairs (true -> named): {pairs}"]
    if figures["not_right"]:
        lines.append("Not right: " + "; ".join(figures["not_right"]))
    lines += ["", f"{figures['ms_per_photo']} ms per photo on this machine"]
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__, reads=("data", "model"))
    cli.add_argument("--split", default="valid", help="split of the photos (default: valid)")

    return cli


def main(argv: list[str] | None = None) -> int:
    """Read the split, print the tables, record the run."""
    return harness.run(NAME, command(), argv, measure, render)


if __name__ == "__main__":
    sys.exit(main())
