"""The vision subcommands: `recognize` (cards in photos) and `deck` (draw the project's deck)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register `recognize` and `deck` on the top-level parser."""
    recognize = commands.add_parser("recognize", help="name the cards in photos of a table")
    recognize.add_argument("images", nargs="+", metavar="IMAGE", help="photos to read")
    recognize.add_argument("--json", action="store_true", help="one JSON line per image")
    recognize.add_argument("--annotate", type=Path, metavar="DIR", help="write annotated copies here")
    recognize.set_defaults(run=_run_recognize)

    deck = commands.add_parser("deck", help="draw the project's Neapolitan deck as SVG and PNG")
    deck.add_argument("outdir", type=Path, metavar="OUTDIR")
    deck.add_argument("--size", type=int, default=400, metavar="H", help="PNG height in pixels")
    deck.set_defaults(run=_run_deck)


def _run_recognize(args: argparse.Namespace) -> int:
    from vision.recognize import run_recognize

    return run_recognize(args.images, as_json=args.json, annotate_dir=args.annotate)


def _run_deck(args: argparse.Namespace) -> int:
    from art.deck import write_deck

    return write_deck(args.outdir, height=args.size)
