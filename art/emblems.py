"""The four suit emblems of the Neapolitan pattern, drawn as vector shapes about 100 units tall."""

from __future__ import annotations

import math

from art.draw import RGB, Drawing, affine, catmull_rom, mirrored

PAPER: RGB = (250, 246, 232)
INK: RGB = (28, 24, 22)
YELLOW: RGB = (246, 196, 24)
ORANGE: RGB = (230, 120, 30)
RED: RGB = (206, 32, 38)
BLUE: RGB = (36, 78, 172)
SKYBLUE: RGB = (96, 150, 214)
GREEN: RGB = (22, 118, 58)
LEAF: RGB = (120, 176, 60)
SKIN: RGB = (246, 206, 168)
GREY: RGB = (176, 178, 184)
HORSE: RGB = (196, 168, 150)
PINK: RGB = (222, 70, 130)


def coin() -> Drawing:
    """A Denari coin: dark rims about a golden band, and a rayed sun with a face (radius 50)."""
    d = Drawing(100, 100)
    d.ellipse((0, 0), 50, fill=INK)
    d.ellipse((0, 0), 45, fill=YELLOW)
    d.ellipse((0, 0), 39, fill=INK)
    d.ellipse((0, 0), 35, fill=PAPER)
    rays = []
    for i in range(32):
        r = 33 if i % 2 == 0 else 21
        a = math.pi * i / 16
        rays.append((r * math.cos(a), r * math.sin(a)))
    d.poly(rays, fill=YELLOW, stroke=INK, width=1.4)
    d.ellipse((0, 0), 18, fill=YELLOW, stroke=INK, width=1.6)
    d.ellipse((-6, -4), 2.2, fill=INK)
    d.ellipse((6, -4), 2.2, fill=INK)
    d.line(catmull_rom([(-7, 6), (0, 10), (7, 6)], closed=False), RED, 2.0)
    return d


def cup(handles: bool = True) -> Drawing:
    """A Coppe goblet: red mouth, yellow band, green bowl, red stem and foot (100 tall)."""
    d = Drawing(100, 100)
    if handles:
        for side in (-1, 1):
            d.line(
                catmull_rom(
                    [(side * 30, -28), (side * 46, -30), (side * 48, -14), (side * 34, -2)],
                    closed=False,
                ),
                GREY,
                5,
            )
    d.poly(mirrored([(22, 34), (30, 44), (30, 50)]), fill=RED, stroke=INK, width=1.5)
    d.poly(mirrored([(6, 10), (8, 36)]), fill=RED, stroke=INK, width=1.5)
    d.ellipse((0, 20), 11, 5, fill=RED, stroke=INK, width=1.5)
    bowl = catmull_rom(mirrored([(36, -14), (33, 0), (22, 10), (8, 14)]), closed=True, steps=6)
    d.poly(bowl, fill=GREEN, stroke=INK, width=1.5)
    for x in (-18, -6, 6, 18):
        d.line([(x, -10), (x * 0.6, 10)], INK, 1.0)
    d.poly(mirrored([(38, -38), (36, -24), (37, -12)]), fill=YELLOW, stroke=INK, width=1.5)
    d.line([(-36, -22), (36, -22)], ORANGE, 2.0)
    d.ellipse((0, -38), 38, 6, fill=RED, stroke=INK, width=1.5)
    return d


def sword(length: float = 200) -> Drawing:
    """A Spade sword, point up, hilt at the bottom; `length` tip to pommel, centred on 0."""
    k = length / 200
    d = Drawing(60, length)
    d.add(_sword(), affine(scale=(k**0.6, k)))
    return d


def _sword() -> Drawing:
    """The sword at its drawn size, 200 units long."""
    length = 200
    d = Drawing(60, length)
    top, bottom = -length / 2, length / 2
    guard = bottom - 46
    d.poly(
        [(0, top), (7, top + 14), (7, guard), (-7, guard), (-7, top + 14)],
        fill=BLUE,
        stroke=INK,
        width=1.5,
    )
    d.line([(0, top + 16), (0, guard - 4)], SKYBLUE, 2.0)
    d.poly(
        catmull_rom(
            [
                (-26, guard - 4),
                (-8, guard - 2),
                (0, guard - 6),
                (8, guard - 2),
                (26, guard - 4),
                (30, guard + 4),
                (8, guard + 6),
                (0, guard + 10),
                (-8, guard + 6),
                (-30, guard + 4),
            ],
            steps=4,
        ),
        fill=YELLOW,
        stroke=INK,
        width=1.5,
    )
    for side in (-1, 1):
        d.ellipse((side * 28, guard), 6, fill=YELLOW, stroke=INK, width=1.5)
    d.poly(mirrored([(6, guard + 8), (5, bottom - 16)]), fill=ORANGE, stroke=INK, width=1.5)
    for k in range(3):
        y = guard + 14 + k * 8
        d.line([(-5, y), (5, y + 3)], INK, 1.0)
    d.ellipse((0, bottom - 9), 9, fill=YELLOW, stroke=INK, width=1.5)
    return d


def club(length: float = 200) -> Drawing:
    """A Bastoni club: a knotty cudgel, thick end up, green with a red flank and yellow leaves."""
    k = length / 200
    d = Drawing(60, length)
    d.add(_club(), affine(scale=(k**0.8, k)))
    return d


def _club() -> Drawing:
    """The club at its drawn size, 200 units long."""
    d = Drawing(60, 200)
    s = 1.0
    outline = [
        (0, -100),
        (18, -94),
        (27, -74),
        (26, -40),
        (19, 0),
        (13, 40),
        (10, 74),
        (12, 92),
        (0, 100),
        (-12, 92),
        (-9, 74),
        (-11, 40),
        (-16, 0),
        (-22, -40),
        (-24, -74),
        (-18, -94),
    ]
    pts = catmull_rom(outline, steps=5) * (1, s)
    d.poly(pts, fill=GREEN, stroke=INK, width=1.8)
    flank = [
        (0, -100),
        (18, -94),
        (27, -74),
        (26, -40),
        (19, 0),
        (13, 40),
        (10, 74),
        (4, 76),
        (5, 40),
        (8, 0),
        (10, -40),
        (8, -80),
    ]
    d.poly(catmull_rom(flank, steps=5) * (1, s), fill=RED, stroke=INK, width=1.2)
    for k in range(6):
        y = (-78 + k * 24) * s
        half = 9 - k * 0.8
        d.poly(
            [(0, y - 7 * s), (half, y + 6 * s), (0, y + 2 * s), (-half, y + 6 * s)],
            fill=YELLOW,
            stroke=INK,
            width=1.0,
        )
    for y, side in ((-52, -1), (-8, 1), (34, -1)):
        x = side * (19 - (y + 52) * 0.06)
        d.ellipse((x, y * s), 5, 4, fill=GREEN, stroke=INK, width=1.2)
    return d


def ribbon(points: list[tuple[float, float]], width: float = 14) -> Drawing:
    """A red ribbon following a curve (used to tie swords and clubs)."""
    d = Drawing(100, 100)
    curve = catmull_rom(points, closed=False)
    d.line(curve, INK, width + 3)
    d.line(curve, RED, width)
    return d


def flower(radius: float = 14) -> Drawing:
    """A small red-and-yellow flower with green leaves (the 4 of Spade's knot)."""
    d = Drawing(100, 100)
    for a in (30, 150, 210, 330):
        d.ellipse(
            (radius * 1.4 * math.cos(math.radians(a)), radius * 1.4 * math.sin(math.radians(a))),
            radius * 1.1,
            radius * 0.45,
            fill=GREEN,
            stroke=INK,
            width=1.0,
            angle=a,
        )
    for i in range(5):
        t = 2 * math.pi * i / 5
        d.ellipse(
            (radius * 0.55 * math.cos(t), radius * 0.55 * math.sin(t)),
            radius * 0.5,
            fill=RED,
            stroke=INK,
            width=1.0,
        )
    d.ellipse((0, 0), radius * 0.35, fill=YELLOW, stroke=INK, width=1.0)
    return d


def mask() -> Drawing:
    """The grotesque golden mask that holds the fan of the 3 of Bastoni."""
    d = Drawing(100, 100)
    for side in (-1, 1):
        d.ellipse((side * 62, -10), 40, 16, fill=LEAF, stroke=INK, width=2, angle=side * 20)
    d.ellipse((0, 0), 62, 72, fill=YELLOW, stroke=INK, width=3)
    for side in (-1, 1):
        d.ellipse((side * 22, -18), 12, 9, fill=PAPER, stroke=INK, width=2)
        d.ellipse((side * 22, -18), 5, fill=INK)
        d.line([(side * 8, -40), (side * 36, -36)], INK, 4)
    d.poly([(0, -14), (10, 14), (-10, 14)], fill=ORANGE, stroke=INK, width=2)
    d.ellipse((0, 38), 24, 10, fill=RED, stroke=INK, width=2)
    return d


def vignette() -> Drawing:
    """A little ink scene of the 5 of Spade: a huntsman with his horn and a running hound."""
    d = Drawing(240, 170)
    for k in range(5):
        d.line([(-110 + k * 8, 62 + k * 3), (110 - k * 10, 62 + k * 3)], INK, 1.6)
    d.line([(-95, 60), (-92, -20)], INK, 6)
    d.ellipse((-92, -40), 26, 30, fill=INK)
    d.ellipse((10, -58), 12, fill=INK)
    d.poly([(-4, -44), (24, -44), (28, 8), (-8, 8)], fill=INK)
    d.line([(0, 8), (-10, 58)], INK, 7)
    d.line([(22, 8), (30, 58)], INK, 7)
    d.line([(20, -36), (50, -50), (70, -44)], INK, 5)
    d.poly([(64, -50), (84, -60), (80, -36)], fill=INK)
    d.ellipse((70, 30), 30, 10, fill=INK, angle=-8)
    d.ellipse((102, 20), 9, 7, fill=INK)
    for x0, x1 in ((50, 38), (60, 66), (84, 76), (92, 104)):
        d.line([(x0, 34), (x1, 54)], INK, 3.5)
    d.line([(42, 28), (24, 16)], INK, 3)
    return d


def emblem(suit: str, size: float = 100) -> Drawing:
    """The suit's emblem scaled to about `size` units tall, centred on 0 (D, C, S or B)."""
    d = Drawing(size, size)
    if suit == "D":
        d.add(coin(), affine(scale=size / 100))
    elif suit == "C":
        d.add(cup(), affine(scale=size / 100))
    elif suit == "S":
        d.add(sword(200), affine(scale=size / 200))
    else:
        d.add(club(200), affine(scale=size / 200))
    return d
