"""The vision subcommand: `recognize` (cards in photos)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register `recognize` on the top-level parser."""
    recognize = commands.add_parser("recognize", help="name the cards in photos of a table")
    recognize.add_argument("images", nargs="+", metavar="IMAGE", help="photos to read")
    recognize.add_argument("--json", action="store_true", help="one JSON line per image")
    recognize.add_argument("--annotate", type=Path, metavar="DIR", help="write annotated copies here")
    recognize.set_defaults(run=_run_recognize)


def _run_recognize(args: argparse.Namespace) -> int:
    from vision.recognize import run_recognize

    return run_recognize(args.images, as_json=args.json, annotate_dir=args.annotate)
