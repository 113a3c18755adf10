"""What every benchmark shares: its arguments, the card reader it measures, and its record in the results."""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnxruntime

from referee.cards import parse_card
from vision.classify import CardClassifier
from vision.locate import LocatorConfig
from vision.recognize import CardReader

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
"""The shared data folder beside the checkout (photos/labels.csv, faces/)."""
RESULTS = Path(__file__).resolve().parent / "results"
"""Where each benchmark appends its runs, one JSON line per run (`<name>.jsonl`)."""

Figures = dict[str, Any]
"""What a benchmark measured, as plain JSON values."""


def photos(data: Path, split: str) -> list[tuple[Path, str, str]]:
    """(path, card code, deck) of every photo of a split of the shared data."""
    with (data / "photos" / "labels.csv").open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["split"] == split]
    return [(data / row["file"], parse_card(row["card"]).code, row["deck"]) for row in rows]


def make_reader(args: argparse.Namespace, threads: int = 0, **locator: Any) -> CardReader:
    """The card reader under test: the benchmark's --model, `threads` onnxruntime threads, `locator` settings."""
    return CardReader(CardClassifier(args.model, threads=threads), LocatorConfig(**locator))


def machine() -> dict[str, Any]:
    """The machine a run took place on: processor, cores, load, and the versions that decide the figures."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines() if line.startswith("model name")]
        model = names[0] if names else model
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "load_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        "system": f"{platform.system()} {platform.release()} {platform.machine()}",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "opencv": cv2.__version__,
        "onnxruntime": onnxruntime.__version__,
    }


RECORDS = ("benchmarks/results", "docs/BENCHMARKS.md")
"""What benchmark runs write in the checkout: the results and the page made from them."""


def commit() -> dict[str, Any]:
    """The checkout's commit, and whether tracked files differ from it (None where git cannot tell): the
    recorded results and the page made from them are left out, since a run writes them itself."""

    def git(*words: str) -> str | None:
        try:
            done = subprocess.run(["git", *words], cwd=ROOT, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.strip() if done.returncode == 0 else None

    head = git("rev-parse", "HEAD")
    changes = git("status", "--porcelain", "--untracked-files=no", "--", ".", *(f":(exclude){path}" for path in RECORDS))
    return {"commit": head, "dirty": None if changes is None else bool(changes)}


def plain(value: Any) -> Any:
    """An argument value as JSON: a path as text, relative to the checkout when it lies inside it."""
    if not isinstance(value, Path):
        return value
    return str(value.relative_to(ROOT)) if value.is_absolute() and value.is_relative_to(ROOT) else str(value)


def record(name: str, args: argparse.Namespace, figures: Figures, started: datetime, seconds: float, folder: Path,
           checkout: dict[str, Any] | None = None) -> Path:
    """Append one run of benchmark `name` to `folder/<name>.jsonl` and return that file; `checkout`: the
    commit the run measured, taken as it started (a commit made while it ran is not what it measured)."""
    settings = {key: plain(value) for key, value in sorted(vars(args).items()) if key not in ("results", "record")}
    entry = {
        "benchmark": name,
        "at": started.isoformat(timespec="seconds"),
        "seconds": round(seconds, 1),
        **(checkout or commit()),
        "machine": machine(),
        "args": settings,
        "figures": figures,
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    with path.open("a") as handle:
        handle.write(json.dumps(entry, sort_keys=False) + "\n")
    return path


def read_results(folder: Path = RESULTS) -> list[dict[str, Any]]:
    """Every recorded run in `folder`, file by file in name order, each file in the order written."""
    runs = []
    for path in sorted(folder.glob("*.jsonl")):
        runs.extend(json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return runs


def parser(name: str, doc: str, reads: Iterable[str] = ("model",)) -> argparse.ArgumentParser:
    """The benchmark's command line with the shared arguments: those in `reads` ("model", "data") and
    where its run is recorded."""
    reads = set(reads)
    command = argparse.ArgumentParser(
        prog=f"python -m benchmarks.{name}", description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    if "data" in reads:
        command.add_argument("--data", type=Path, default=DATA, help="the shared data folder (default: ../shared/data)")
    if "model" in reads:
        command.add_argument("--model", type=Path, default=None, help="ONNX classifier (default: the shipped one)")
    command.add_argument("--results", type=Path, default=RESULTS, help="folder of the results (default: benchmarks/results)")
    command.add_argument("--no-record", dest="record", action="store_false", help="print the figures only")
    return command


def run(
    name: str,
    command: argparse.ArgumentParser,
    argv: list[str] | None,
    measure: Callable[[argparse.Namespace], Figures],
    render: Callable[[Figures], list[str]],
    check: Callable[[argparse.Namespace], str | None] = lambda args: None,
) -> int:
    """Parse the command line, measure, print the figures as Markdown and record the run; the exit
    status (2, saying why, when the data is missing or `check` finds a problem with the arguments)."""
    args = command.parse_args(argv)
    data = getattr(args, "data", None)
    problem = check(args)
    if data is not None and not (data / "photos" / "labels.csv").is_file():
        problem = f"no photo labels under {data}: pass --data"
    if problem:
        print(problem, file=sys.stderr)
        return 2
    started, checkout = datetime.now(timezone.utc), commit()
    clock = time.perf_counter()
    figures = measure(args)
    seconds = time.perf_counter() - clock
    print("\n".join(render(figures)))
    if args.record:
        path = record(name, args, figures, started, seconds, args.results, checkout)
        print(f"\nrecorded in {path}")
    return 0
