"""The project's own Neapolitan deck: 40 faces and a back, as SVG and as PNG at any size.

`python -m art.deck OUTDIR [--size H]` writes them all into a folder.
"""

from __future__ import annotations

import argparse
import math
import sys
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from art import emblems as art
from art.draw import Drawing, affine, rasterize, to_svg
from art.figures import court_face
from art.pips import pip_face
from referee.cards import DECK, CardError, parse_card
from vision.crop import CARD_ASPECT
from vision.io import path_reason, prepare_folder

W, H = 1000.0 * CARD_ASPECT, 1000.0
"""A card in drawing units."""

BACK = "back"
CORNER = 24.0
"""Corner radius of the printed border, in drawing units."""

_MIN_HEIGHT, _MAX_HEIGHT = 16, 4000
PROG = "python -m art.deck"
"""The deck command, as its messages name it."""


def _rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float) -> np.ndarray:
    """The outline of a rectangle with rounded corners."""
    pts = []
    for cx, cy, start in (
        (x1 - r, y0 + r, -90),
        (x1 - r, y1 - r, 0),
        (x0 + r, y1 - r, 90),
        (x0 + r, y0 + r, 180),
    ):
        for k in range(7):
            a = math.radians(start + 15 * k)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts)


def _back_art() -> Drawing:
    """The back: tumbling blue blocks inside a double frame."""
    d = Drawing(W, H)
    d.poly(_rounded_rect(30, 30, W - 30, H - 30, 20), fill=art.BLUE)
    side = 38.0
    dx, dy = side * math.sqrt(3), side * 1.5
    light, dark = (120, 160, 220), (20, 44, 110)
    for row in range(-1, int(H / dy) + 2):
        for col in range(-1, int(W / dx) + 2):
            cx = col * dx + (dx / 2 if row % 2 else 0)
            cy = row * dy
            top = [
                (cx, cy - side),
                (cx + dx / 2, cy - side / 2),
                (cx, cy),
                (cx - dx / 2, cy - side / 2),
            ]
            left = [
                (cx - dx / 2, cy - side / 2),
                (cx, cy),
                (cx, cy + side),
                (cx - dx / 2, cy + side / 2),
            ]
            d.poly(top, fill=light)
            d.poly(left, fill=dark)
    # a wide paper stroke hides the tiles' ragged edge, then a gold line and an ink line
    for inset, colour, width in ((0, art.PAPER, 92), (46, art.YELLOW, 8), (60, art.INK, 3)):
        d.poly(_rounded_rect(inset, inset, W - inset, H - inset, 16), stroke=colour, width=width)
    return d


@lru_cache(maxsize=64)
def face_drawing(label: str) -> Drawing:
    """The vector art of one card (code like '9S' or 'back'), paper and border included."""
    d = Drawing(W, H)
    d.poly([(0, 0), (W, 0), (W, H), (0, H)], fill=art.PAPER)
    if label == BACK:
        d.add(_back_art(), affine())
        return d
    card = parse_card(label)
    suit = card.suit.value
    inner = pip_face(suit, card.value) if card.value <= 7 else court_face(suit, card.value)
    # the art is laid out on a 605 x 1000 box; shrink it a little to keep clear of the border
    d.add(inner, affine((W * 0.04, H * 0.035), scale=(0.92 * W / 605, 0.93)))
    d.poly(_rounded_rect(14, 14, W - 14, H - 14, CORNER), stroke=art.INK, width=4)
    return d


def _check_height(height: int) -> None:
    if not isinstance(height, (int, np.integer)) or not _MIN_HEIGHT <= height <= _MAX_HEIGHT:
        raise ValueError(
            f"card height {height!r} is out of range: give {_MIN_HEIGHT} to {_MAX_HEIGHT} pixels"
        )


@lru_cache(maxsize=256)
def _render(label: str, height: int) -> np.ndarray:
    image = rasterize(face_drawing(label), round(height * CARD_ASPECT), height, art.PAPER)
    image.setflags(write=False)
    return image


def render_face(label: str, height: int) -> np.ndarray:
    """A card (code like '9S', or 'back') as a BGR uint8 image `height` pixels tall."""
    _check_height(height)
    key = BACK if label.strip().lower() == BACK else parse_card(label).code
    return _render(key, int(height)).copy()


def face_svg(label: str, height: float | None = None) -> str:
    """A card (code like '9S', or 'back') as a standalone SVG document."""
    key = BACK if label.strip().lower() == BACK else parse_card(label).code
    return to_svg(face_drawing(key), height)


def write_deck(outdir: Path, height: int = 400) -> int:
    """Write the 40 faces and the back as SVG and PNG named by card id; return the exit status."""
    outdir = Path(outdir)
    try:
        _check_height(height)
    except ValueError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    problem = prepare_folder(outdir)
    if problem is not None:
        print(f"{PROG}: {outdir}: {problem}", file=sys.stderr)
        return 2
    try:
        for name, label in [(card.slug, card.code) for card in DECK] + [(BACK, BACK)]:
            (outdir / f"{name}.svg").write_text(face_svg(label), encoding="utf-8")
            png = outdir / f"{name}.png"
            try:
                written = cv2.imwrite(str(png), render_face(label, height))
            except cv2.error:
                written = False
            if not written:
                raise OSError(f"could not write {png}")
    except (OSError, CardError) as error:
        reason = path_reason(error) if isinstance(error, OSError) and error.errno else str(error)
        print(f"{PROG}: cannot write the deck to {outdir}: {reason}", file=sys.stderr)
        return 2
    print(f"wrote 41 cards (SVG and {height}px PNG) to {outdir}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line: `python -m art.deck OUTDIR [--size H]`."""
    parser = argparse.ArgumentParser(prog=PROG, description="draw the project's Neapolitan deck as SVG and PNG")
    parser.add_argument("outdir", type=Path, metavar="OUTDIR")
    parser.add_argument("--size", type=int, default=400, metavar="H", help="PNG height in pixels")
    args = parser.parse_args(argv)
    return write_deck(args.outdir, height=args.size)


if __name__ == "__main__":
    sys.exit(main())
