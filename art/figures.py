"""The court cards: the Fante (a standing youth), the Cavallo (a rider), the Re (a king)."""

from __future__ import annotations

from dataclasses import dataclass

from art import emblems as art
from art.draw import RGB, Drawing, affine, catmull_rom, mirrored

W, H = 605.0, 1000.0
_CX = W / 2


@dataclass(frozen=True)
class Costume:
    """The flat colours one court figure wears (after the Dal Negro print)."""

    doublet: RGB
    sleeve: RGB
    breeches: RGB
    hose: RGB
    hat: RGB
    cloak: RGB
    """The king's mantle, or the horse's saddle cloth."""


_Y, _R, _B, _G, _W = art.YELLOW, art.RED, art.BLUE, art.GREEN, (236, 232, 220)
COSTUMES = {
    ("D", 8): Costume(_R, _G, _G, _R, _R, _B),
    ("D", 9): Costume(_R, _Y, _G, _R, _Y, _Y),
    ("D", 10): Costume(_B, _Y, _G, _Y, _Y, _B),
    ("C", 8): Costume(_G, _R, _Y, _G, _G, _B),
    ("C", 9): Costume(_G, _Y, _Y, _G, _R, _B),
    ("C", 10): Costume(_B, _Y, _B, _Y, _Y, _R),
    ("S", 8): Costume(_R, _Y, _G, _W, _Y, _B),
    ("S", 9): Costume(_R, _G, _R, _R, _B, _G),
    ("S", 10): Costume(_R, _Y, _B, _Y, _Y, _B),
    ("B", 8): Costume(_Y, _B, _R, _Y, _G, _B),
    ("B", 9): Costume(_Y, _R, _R, _Y, _G, _R),
    ("B", 10): Costume(_G, _B, _G, _Y, _Y, _R),
}
GROUNDS = {"D": art.YELLOW, "C": art.RED, "S": art.BLUE, "B": art.GREEN}
"""The plinth's colour tells the suit at a glance, as in the printed deck."""


def _limb(d: Drawing, points: list[tuple[float, float]], width: float, colour: RGB) -> None:
    """A rounded limb: an ink outline under a flat colour stroke."""
    d.line(points, art.INK, width + 6)
    d.line(points, colour, width)


def _ground(d: Drawing, colour: RGB) -> None:
    """The coloured plinth the figure stands on (yellow, red, blue or green by suit)."""
    d.poly([(70, 905), (535, 905), (535, 955), (70, 955)], fill=colour, stroke=art.INK, width=4)
    for x in range(100, 520, 40):
        d.line([(x, 910), (x + 20, 950)], art.INK, 2)


def _head(d: Drawing, x: float, y: float, r: float = 44, beard: bool = False) -> None:
    """A face seen from the front, with hair and, for a king, a beard."""
    d.ellipse((x, y - r * 0.35), r * 1.05, r * 0.8, fill=art.ORANGE, stroke=art.INK, width=3)
    if beard:
        d.poly(
            catmull_rom(
                [
                    (x - r, y),
                    (x + r, y),
                    (x + r * 0.6, y + r * 1.3),
                    (x, y + r * 1.6),
                    (x - r * 0.6, y + r * 1.3),
                ],
                steps=5,
            ),
            fill=(120, 72, 40),
            stroke=art.INK,
            width=3,
        )
    d.ellipse((x, y), r * 0.85, r, fill=art.SKIN, stroke=art.INK, width=3)
    for side in (-1, 1):
        d.ellipse((x + side * r * 0.35, y - r * 0.15), r * 0.1, fill=art.INK)
    d.line([(x - r * 0.25, y + r * 0.45), (x + r * 0.25, y + r * 0.45)], art.RED, 4)


def _cap(d: Drawing, x: float, y: float, colour: RGB, r: float = 44) -> None:
    """A youth's soft cap with a feather."""
    d.poly(
        catmull_rom(
            [
                (x - r * 1.2, y - r * 0.5),
                (x - r * 0.9, y - r * 1.4),
                (x + r * 0.4, y - r * 1.6),
                (x + r * 1.3, y - r * 1.0),
                (x + r * 1.1, y - r * 0.5),
            ],
            steps=5,
        ),
        fill=colour,
        stroke=art.INK,
        width=3,
    )
    d.line(
        catmull_rom(
            [(x + r * 0.8, y - r * 1.3), (x + r * 1.6, y - r * 2.2), (x + r * 2.3, y - r * 2.0)],
            closed=False,
        ),
        art.INK,
        14,
    )
    d.line(
        catmull_rom(
            [(x + r * 0.8, y - r * 1.3), (x + r * 1.6, y - r * 2.2), (x + r * 2.3, y - r * 2.0)],
            closed=False,
        ),
        art.YELLOW,
        9,
    )


def _crown(d: Drawing, x: float, y: float, r: float = 44) -> None:
    """A king's golden crown with five points and red stones."""
    top, base = y - r * 2.1, y - r * 0.7
    pts = [(x - r, base), (x - r * 1.05, top + r * 0.2)]
    for k in range(5):
        px = x - r + k * r * 0.5
        pts += [(px, top), (px + r * 0.25, top + r * 0.55)]
    pts += [(x + r * 1.05, top + r * 0.2), (x + r, base)]
    d.poly(pts, fill=art.YELLOW, stroke=art.INK, width=4)
    d.line([(x - r, base - 8), (x + r, base - 8)], art.RED, 10)
    for k in range(5):
        d.ellipse((x - r + k * r * 0.5, top), 7, fill=art.RED, stroke=art.INK, width=2)


def _body(d: Drawing, c: Costume, x: float, shoulders: float, hem: float, feet: float) -> None:
    """A standing figure's legs, puffed breeches and doublet (no head, no arms)."""
    for side in (-1, 1):
        _limb(d, [(x + side * 34, hem - 20), (x + side * 40, feet - 20)], 42, c.hose)
        d.ellipse((x + side * 52, feet - 6), 36, 16, fill=art.INK)
    breeches = catmull_rom(
        mirrored([(50, hem - 80), (92, hem - 20), (70, hem + 30), (20, hem + 20)]), steps=5
    )
    d.poly([(px + x, py) for px, py in breeches], fill=c.breeches, stroke=art.INK, width=4)
    torso = mirrored([(70, shoulders), (80, shoulders + 40), (60, hem - 60), (78, hem)])
    d.poly([(px + x, py) for px, py in torso], fill=c.doublet, stroke=art.INK, width=4)
    d.line([(x - 64, hem - 70), (x + 64, hem - 70)], art.YELLOW, 16)
    for k in range(4):
        d.ellipse((x, shoulders + 40 + k * 40), 7, fill=art.YELLOW, stroke=art.INK, width=2)
    d.ellipse((x, shoulders - 4), 52, 18, fill=art.PAPER, stroke=art.INK, width=3)


def _fante(d: Drawing, suit: str, c: Costume) -> None:
    """A youth standing with his suit's emblem raised in his right hand."""
    x, shoulders, hem, feet = _CX + 30, 320, 600, 900
    _body(d, c, x, shoulders, hem, feet)
    _limb(
        d,
        [(x - 70, shoulders + 20), (x - 130, shoulders - 20), (x - 160, shoulders - 110)],
        36,
        c.sleeve,
    )
    _limb(
        d,
        [(x + 70, shoulders + 20), (x + 100, shoulders + 130), (x + 90, shoulders + 230)],
        36,
        c.sleeve,
    )
    d.ellipse((x - 160, shoulders - 120), 20, fill=art.SKIN, stroke=art.INK, width=3)
    d.ellipse((x + 90, shoulders + 240), 18, fill=art.SKIN, stroke=art.INK, width=3)
    _head(d, x, 235)
    _cap(d, x, 235, c.hat)
    hand = (x - 160, shoulders - 120)
    if suit == "S":
        d.add(art.sword(380), affine((hand[0], hand[1] - 120)))
    elif suit == "B":
        d.add(art.club(330), affine((hand[0], hand[1] - 100), rotate=-10))
    else:
        d.add(art.emblem(suit, 130), affine((hand[0] + 5, hand[1] - 80)))


def _re(d: Drawing, suit: str, c: Costume) -> None:
    """A crowned, bearded king in a long cloak, his emblem beside him."""
    x, shoulders, hem, feet = _CX, 330, 640, 900
    cloak = mirrored([(70, shoulders - 10), (150, shoulders + 200), (190, feet - 20), (200, feet)])
    d.poly([(px + x, py) for px, py in cloak], fill=c.cloak, stroke=art.INK, width=4)
    _body(d, c, x, shoulders, hem, feet)
    _limb(
        d,
        [(x - 70, shoulders + 20), (x - 110, shoulders + 140), (x - 90, shoulders + 250)],
        38,
        c.sleeve,
    )
    _limb(
        d,
        [(x + 70, shoulders + 20), (x + 130, shoulders + 110), (x + 180, shoulders + 160)],
        38,
        c.sleeve,
    )
    d.ellipse((x - 90, shoulders + 260), 20, fill=art.SKIN, stroke=art.INK, width=3)
    d.ellipse((x + 185, shoulders + 165), 20, fill=art.SKIN, stroke=art.INK, width=3)
    d.line([(x - 90, shoulders + 200), (x - 90, shoulders + 420)], art.INK, 20)
    d.line([(x - 90, shoulders + 200), (x - 90, shoulders + 420)], art.YELLOW, 14)
    collar = catmull_rom(
        mirrored(
            [
                (40, shoulders - 12),
                (105, shoulders + 10),
                (96, shoulders + 60),
                (40, shoulders + 70),
            ]
        ),
        steps=4,
    )
    d.poly([(px + x, py) for px, py in collar], fill=art.YELLOW, stroke=art.INK, width=4)
    for k in range(-2, 3):
        d.ellipse((x + k * 36, shoulders + 40 - abs(k) * 4), 5, fill=art.INK)
    _head(d, x, 240, beard=True)
    _crown(d, x, 240)
    if suit == "S":
        d.add(art.sword(400), affine((x + 190, shoulders - 20)))
    elif suit == "B":
        d.add(art.club(360), affine((x + 195, shoulders), rotate=8))
    else:
        d.add(art.emblem(suit, 120), affine((W - 105, 120)))


def _horse(d: Drawing, saddle: RGB) -> None:
    """A walking horse facing left, with mane, tail and a saddle cloth."""
    for top, knee, hoof in (
        ((205, 650), (200, 770), (190, 885)),
        ((245, 660), (290, 760), (250, 840)),
        ((425, 660), (450, 770), (430, 885)),
        ((465, 650), (505, 760), (485, 870)),
    ):
        _limb(d, [top, knee, hoof], 28, art.HORSE)
        d.ellipse((hoof[0] - 6, hoof[1] + 6), 20, 11, fill=art.INK)
    tail = catmull_rom([(485, 570), (530, 610), (545, 700), (520, 800)], closed=False)
    d.line(tail, art.INK, 34)
    d.line(tail, (110, 80, 60), 26)
    body = [
        (170, 560),
        (270, 520),
        (430, 525),
        (495, 575),
        (490, 660),
        (400, 695),
        (240, 695),
        (175, 650),
    ]
    d.poly(catmull_rom(body, steps=6), fill=art.HORSE, stroke=art.INK, width=4)
    neck = [(170, 620), (150, 520), (165, 440), (200, 395), (250, 470), (270, 560)]
    d.poly(catmull_rom(neck, steps=5), fill=art.HORSE, stroke=art.INK, width=4)
    d.poly([(178, 400), (186, 345), (205, 398)], fill=art.HORSE, stroke=art.INK, width=3)
    head = [
        (205, 395),
        (195, 430),
        (150, 480),
        (118, 525),
        (92, 520),
        (85, 495),
        (125, 430),
        (165, 390),
    ]
    d.poly(catmull_rom(head, steps=5), fill=art.HORSE, stroke=art.INK, width=4)
    d.ellipse((160, 425), 8, 6, fill=art.INK)
    d.ellipse((100, 505), 5, fill=art.INK)
    d.line(
        catmull_rom([(200, 392), (240, 420), (262, 480), (272, 545)], closed=False),
        (110, 80, 60),
        18,
    )
    d.line([(205, 400), (120, 500), (230, 470)], art.RED, 5)
    d.poly([(255, 505), (425, 515), (440, 655), (265, 660)], fill=saddle, stroke=art.INK, width=4)
    d.line([(262, 655), (436, 650)], art.YELLOW, 12)


def _cavallo(d: Drawing, suit: str, c: Costume) -> None:
    """A rider on a walking horse, his emblem raised above the horse's head."""
    _horse(d, c.cloak)
    x = 340
    _limb(d, [(x, 500), (x - 20, 600), (x - 10, 720)], 40, c.hose)
    d.ellipse((x - 12, 732), 32, 14, fill=art.INK)
    torso = mirrored([(58, 300), (66, 340), (50, 470), (64, 520)])
    d.poly([(px + x, py) for px, py in torso], fill=c.doublet, stroke=art.INK, width=4)
    d.line([(x - 52, 455), (x + 52, 455)], art.YELLOW, 14)
    d.ellipse((x, 296), 44, 15, fill=art.PAPER, stroke=art.INK, width=3)
    _limb(d, [(x + 55, 320), (x + 70, 400), (x + 30, 460)], 32, c.sleeve)
    _limb(d, [(x - 55, 320), (x - 110, 280), (x - 140, 200)], 32, c.sleeve)
    d.ellipse((x - 142, 190), 18, fill=art.SKIN, stroke=art.INK, width=3)
    _head(d, x, 235, r=40)
    _cap(d, x, 235, c.hat, r=40)
    hand = (x - 142, 190)
    if suit == "S":
        d.add(art.sword(300), affine((hand[0], hand[1] - 90), rotate=-15))
    elif suit == "B":
        d.add(art.club(250), affine((hand[0] - 10, hand[1] - 55), rotate=-20))
    else:
        d.add(art.emblem(suit, 115), affine((hand[0], hand[1] - 70)))


def court_face(suit: str, value: int) -> Drawing:
    """The art of a Fante (8), Cavallo (9) or Re (10) of a suit (no background, no border)."""
    d = Drawing(W, H)
    costume = COSTUMES[(suit, value)]
    _ground(d, GROUNDS[suit])
    figure = Drawing(W, H)
    {8: _fante, 9: _cavallo, 10: _re}[value](figure, suit, costume)
    # as in the printed deck, the horses of Coppe and Spade walk to the right
    mirror = value == 9 and suit in "CS"
    d.add(figure, affine((W, 0), scale=(-1, 1)) if mirror else affine())
    return d
