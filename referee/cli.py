"""The referee's subcommands: `saltacavallo replay FILE`."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from referee.game import RuleError
from referee.record import RecordError, read_record, render_output, replay, replay_output


def add_commands(subparsers: Any) -> None:
    """Register `replay FILE` on the top-level parser's subcommands."""
    command = subparsers.add_parser(
        "replay", help="replay a hand record (JSON) and print the tally",
        description="Replay a hand record (RULES.md) and print every hand, the lives and the pot "
        "as JSON; a record that breaks a rule exits with status 2.")
    command.add_argument("file", metavar="FILE", type=Path, help="the hand record to replay")
    command.set_defaults(run=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    """Replay the record in `args.file`; 0 on success, 2 on a bad record or a broken rule."""
    path: Path = args.file
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        print(f"saltacavallo replay: cannot read {path}: {err}", file=sys.stderr)
        return 2
    try:
        game = replay(read_record(text))
    except RecordError as err:
        print(f"saltacavallo replay: {path}: {err}", file=sys.stderr)
        return 2
    except RuleError as err:
        print(err, file=sys.stderr)
        return 2
    try:
        print(render_output(replay_output(game)), flush=True)
    except BrokenPipeError:
        # The reader (`| head`) has gone: silence the final flush, as Python's docs advise.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
