"""The web page's card faces: the 41 SVG files webui serves, drawn by `face_svg` and committed.

`python -m art.page_cards` draws them again into webui/static/cards (or the folder given).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from art.deck import BACK, face_svg
from referee.cards import DECK
from vision.io import path_reason, prepare_folder

PAGE_CARDS = Path(__file__).resolve().parents[1] / "webui" / "static" / "cards"
"""Where the page's cards lie: the runtime serves these files and never draws."""
PROG = "python -m art.page_cards"
"""The command, as its messages name it."""


def page_cards() -> dict[str, str]:
    """Each card file's name (`9S.svg`, `10D.svg`, `back.svg`) and the SVG it holds."""
    return {f"{label}.svg": face_svg(label) for label in [card.code for card in DECK] + [BACK]}


def write_page_cards(folder: Path = PAGE_CARDS) -> int:
    """Write the page's 41 card files into `folder`; the exit status, any problem said in one line."""
    problem = prepare_folder(folder)
    if problem is None:
        try:
            for name, svg in page_cards().items():
                (folder / name).write_text(svg, encoding="utf-8")
        except OSError as error:
            problem = path_reason(error)
    if problem is not None:
        print(f"{PROG}: {folder}: {problem}", file=sys.stderr)
        return 2
    print(f"wrote 41 cards to {folder}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line: `python -m art.page_cards [FOLDER]`."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=PAGE_CARDS, metavar="FOLDER")
    return write_page_cards(parser.parse_args(argv).folder)


if __name__ == "__main__":
    sys.exit(main())
