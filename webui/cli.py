"""The `saltacavallo` command: each package registers its own subcommands."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every package's subcommands."""
    parser = argparse.ArgumentParser(
        prog="saltacavallo",
        description="Table companion for Saltacavallo (L'Asso che fugge).",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    from referee import cli as referee_cli
    from live import watch
    from vision import cli as vision_cli
    from webui import serve

    referee_cli.add_commands(commands)
    vision_cli.add_commands(commands)
    serve.add_commands(commands)
    watch.add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.run(args) or 0)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as other commands do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit's flush fails silently
        return 1


if __name__ == "__main__":
    sys.exit(main())
