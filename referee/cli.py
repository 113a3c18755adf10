"""The referee's subcommands: `saltacavallo replay FILE`."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_commands(subparsers: Any) -> None:
    """Register `replay FILE` on the top-level parser's subcommands."""
    replay = subparsers.add_parser("replay", help="replay a hand record (JSON) and print the tally")
    replay.add_argument("file", metavar="FILE", help="the hand record to replay")
    replay.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    """Replay the record in `args.file`; 0 on success, 2 on a bad record."""
    print("saltacavallo replay: the referee is being written", file=sys.stderr)
    return 2
