"""The Asso and the number cards 2-7: the suit emblems in the classic Neapolitan arrangements."""

from __future__ import annotations

from art import emblems as art
from art.draw import Drawing, affine, catmull_rom, mirrored

W, H = 605.0, 1000.0
"""A card in drawing units: CARD_ASPECT wide, 1000 tall."""

_L, _C, _R = 175.0, 302.5, 430.0


def _coin_or_cup(d: Drawing, suit: str, value: int) -> None:
    """Denari and Coppe share their layouts: 2 in a column, 3 on a diagonal, then a grid."""
    big = {2: 270, 3: 210, 4: 170, 5: 150, 6: 140, 7: 125}[value]
    if value == 2:
        spots = [(_C, 250), (_C, 750)]
    elif value == 3:
        spots = (
            [(_R, 190), (_L, 500), (_R, 810)] if suit == "D" else [(_L, 190), (_R, 500), (_L, 810)]
        )
    elif value in (4, 5):
        spots = [(_L, 170), (_R, 170), (_L, 830), (_R, 830)]
    elif value == 6:
        spots = [(x, y) for y in (160, 500, 840) for x in (_L, _R)]
    else:
        spots = [(_L, 140), (_R, 140), (_C, 320), (_L, 500), (_R, 500), (_L, 860), (_R, 860)]
    for x, y in spots:
        d.add(art.emblem(suit, big), affine((x, y)))
    if value == 5:
        d.add(art.emblem(suit, 270), affine((_C, 500)))
    elif value == 4:  # the printer's crest sits between the four; ours is a plain rosette
        d.add(art.flower(22), affine((_C, 500)))


def _swords(d: Drawing, value: int) -> None:
    """Spade: long blades tied with a ribbon (2, 3), crossed (4), half blades and a cross-bar."""
    if value == 2:
        d.add(art.sword(760), affine((200, 500), rotate=0))
        d.add(art.sword(760), affine((405, 500), rotate=180))
        d.add(
            art.ribbon([(160, 470), (200, 560), (302, 600), (405, 560), (445, 470)], 26), affine()
        )
    elif value == 3:
        d.add(art.sword(760), affine((160, 500), rotate=180))
        d.add(art.sword(760), affine((302.5, 500)))
        d.add(art.sword(760), affine((445, 500), rotate=180))
        d.add(
            art.ribbon([(120, 300), (200, 370), (302, 470), (405, 370), (485, 300)], 26), affine()
        )
    elif value == 4:
        for angle, (x, y) in (
            (-35, (200, 290)),
            (35, (405, 290)),
            (215, (200, 710)),
            (145, (405, 710)),
        ):
            # hilts out at the corners, points meeting in the garland at the centre
            d.add(art.sword(440), affine((x, y), rotate=angle + 180))
        d.add(art.flower(30), affine((W / 2, 500)))
    elif value == 5:  # two long blades, a cross-bar and the two little ink scenes of the print
        d.add(art.sword(900), affine((110, 500)))
        d.add(art.sword(900), affine((495, 500), rotate=180))
        d.add(art.sword(420), affine((W / 2, 500), rotate=90))
        d.add(art.vignette(), affine((W / 2, 300), scale=0.85))
        d.add(art.vignette(), affine((W / 2, 700), scale=0.85, rotate=180))
    else:
        for column in (140.0, W / 2, 465.0):
            d.add(art.sword(380), affine((column, 230), rotate=180))
            d.add(art.sword(380), affine((column, 770)))
        if value == 7:
            d.add(art.sword(200), affine((W / 2, 500), scale=(2.4, 2.2), rotate=90))


def _clubs(d: Drawing, value: int) -> None:
    """Bastoni: tall clubs side by side (2), a fan on a mask (3), slanted pairs, a cross-bar."""
    if value == 2:
        d.add(art.club(820), affine((205, 500), rotate=-4))
        d.add(art.club(820), affine((400, 500), rotate=4))
    elif value == 3:
        for angle, x in ((-22, 200), (0, W / 2), (22, 405)):
            d.add(art.club(760), affine((x, 470), rotate=angle))
        d.add(art.mask(), affine((W / 2, 790)))
    else:
        if value in (4, 5):
            xs = [_L - 10, _R + 10]
        else:
            xs = [130.0, W / 2, 475.0]
        tilt = 12.0 if value in (4, 5) else 8.0
        for x in xs:
            side = -1 if x < W / 2 - 1 else (1 if x > W / 2 + 1 else 0)
            fat = (2.2, 1.7) if value in (4, 5) else (1.9, 1.7)  # the pip clubs are plump teardrops
            d.add(art.club(200), affine((x, 215), scale=fat, rotate=side * tilt))
            d.add(art.club(200), affine((x, 785), scale=fat, rotate=180 - side * tilt))
        if value in (5, 7):
            d.add(art.club(200), affine((W / 2, 500), scale=(2.0, 1.9), rotate=-90 + 8))
        if value == 4:
            for x, y in ((_L - 10, 300), (_R + 10, 300), (_L - 10, 700), (_R + 10, 700)):
                d.add(art.ribbon([(x - 28, y - 8), (x, y + 6), (x + 28, y - 8)], 12), affine())


def _ace(d: Drawing, suit: str) -> None:
    """The four big aces: the ring of Denari, the urn of Coppe, the wreathed sword and club."""
    if suit == "D":
        _ace_of_coins(d)
    elif suit == "C":
        _ace_of_cups(d)
    elif suit == "S":
        _ace_of_swords(d)
    else:
        _ace_of_clubs(d)


def _ace_of_swords(d: Drawing) -> None:
    """The Asso di Spade: a great red-hilted sword, a banded serpent wound about it."""
    sword = Drawing(W, H)
    sword.poly(
        [(0, -450), (34, -400), (30, -160), (-30, -160), (-34, -400)],
        fill=art.BLUE,
        stroke=art.INK,
        width=4,
    )
    sword.line([(0, -400), (0, -170)], art.SKYBLUE, 8)
    sword.poly(mirrored([(30, -140), (32, 380)]), fill=art.RED, stroke=art.INK, width=4)
    for y in range(-110, 380, 55):
        sword.line([(-28, y), (28, y + 22)], art.YELLOW, 7)
    guard = catmull_rom(
        [
            (-120, -175),
            (-40, -165),
            (0, -185),
            (40, -165),
            (120, -175),
            (130, -140),
            (40, -130),
            (0, -110),
            (-40, -130),
            (-130, -140),
        ],
        steps=4,
    )
    sword.poly(guard, fill=art.YELLOW, stroke=art.INK, width=4)
    for side in (-1, 1):
        sword.ellipse((side * 128, -158), 22, fill=art.YELLOW, stroke=art.INK, width=4)
    sword.ellipse((0, 415), 36, fill=art.SKYBLUE, stroke=art.INK, width=4)
    sword.ellipse((0, 415), 14, fill=art.YELLOW, stroke=art.INK, width=3)
    d.add(sword, affine((W / 2, 500), scale=(1.0, 0.95), rotate=24))
    snake = [
        (175, 140),
        (250, 230),
        (190, 350),
        (300, 450),
        (210, 570),
        (340, 660),
        (260, 780),
        (390, 870),
    ]
    curve = catmull_rom(snake, closed=False)
    d.line(curve, art.INK, 56)
    d.line(curve, art.GREEN, 48)
    for i in range(4, len(curve) - 4, 9):
        d.ellipse(tuple(curve[i]), 15, 12, fill=art.BLUE, stroke=art.INK, width=3)
        d.ellipse(tuple(curve[i]), 5, fill=art.YELLOW)
    d.ellipse(snake[0], 38, 24, fill=art.BLUE, stroke=art.INK, width=4, angle=35)
    d.ellipse((snake[0][0] - 12, snake[0][1] - 6), 7, fill=art.YELLOW, stroke=art.INK, width=2)


def _ace_of_clubs(d: Drawing) -> None:
    """The Asso di Bastoni: one great club sprouting yellow leaves, curling pink at its foot."""
    place = affine((W / 2 + 30, 470), scale=(2.9, 4.3), rotate=16)
    leaves = Drawing(W, H)
    for y, side in ((-55, -1), (-20, -1), (15, -1), (50, -1), (-35, 1), (30, 1)):
        edge = 19 - (y + 52) * 0.06
        tip = (side * (edge + 26), y - 14)
        leaves.ellipse(
            ((side * edge + tip[0]) / 2, (y + tip[1]) / 2),
            17,
            6,
            fill=art.YELLOW,
            stroke=art.INK,
            width=0.8,
            angle=side * -28,
        )
        leaves.line([(side * edge, y), tip], art.ORANGE, 0.8)
    d.add(leaves, place)
    d.add(art.club(200), place)
    curl = [(280, 895), (170, 870), (140, 780), (210, 740), (260, 800)]
    d.line(catmull_rom(curl, closed=False), art.INK, 48)
    d.line(catmull_rom(curl, closed=False), art.PINK, 40)
    d.ellipse((330, 830), 60, 26, fill=art.GREEN, stroke=art.INK, width=3, angle=-30)
    d.line([(290, 855), (375, 805)], art.LEAF, 4)


def _ace_of_coins(d: Drawing) -> None:
    """The Asso di Denari: an eagle-held upper ring over a wide golden lower ring."""
    d.ellipse((W / 2, 690), 225, 200, stroke=art.INK, width=58)
    d.ellipse((W / 2, 690), 225, 200, stroke=art.YELLOW, width=48)
    d.ellipse((W / 2, 690), 175, 150, stroke=art.INK, width=4)
    d.ellipse((W / 2, 360), 190, stroke=art.INK, width=64)
    d.ellipse((W / 2, 360), 190, stroke=art.RED, width=54)
    d.ellipse((W / 2, 360), 190, stroke=art.YELLOW, width=14)
    for side in (-1, 1):
        cx = W / 2 + side * 150
        body = [
            (cx, 90),
            (cx + side * 70, 130),
            (cx + side * 80, 230),
            (cx + side * 30, 330),
            (cx - side * 20, 260),
            (cx - side * 40, 150),
        ]
        d.poly(catmull_rom(body, steps=5), fill=art.RED, stroke=art.INK, width=4)
        wing = [(cx + side * 10, 130), (cx + side * 95, 95), (cx + side * 85, 200)]
        d.poly(wing, fill=art.YELLOW, stroke=art.INK, width=3)
        d.ellipse((cx - side * 30, 80), 34, 28, fill=art.YELLOW, stroke=art.INK, width=3)
        d.poly(
            [(cx - side * 60, 78), (cx - side * 90, 92), (cx - side * 58, 96)],
            fill=art.ORANGE,
            stroke=art.INK,
            width=2,
        )
        d.ellipse((cx - side * 36, 72), 5, fill=art.INK)
        claws = [(cx + side * 40, 330), (cx + side * 70, 470), (cx + side * 50, 560)]
        d.line(catmull_rom(claws, closed=False), art.INK, 30)
        d.line(catmull_rom(claws, closed=False), art.RED, 22)
    d.ellipse((W / 2, 690), 150, 126, stroke=art.YELLOW, width=6)


def _ace_of_cups(d: Drawing) -> None:
    """The Asso di Coppe: a tall lidded urn with a red rim, blue belly and silver handles."""
    cx = W / 2
    for side in (-1, 1):
        handle = [
            (cx + side * 150, 330),
            (cx + side * 265, 350),
            (cx + side * 250, 520),
            (cx + side * 160, 560),
        ]
        d.line(catmull_rom(handle, closed=False), art.INK, 34)
        d.line(catmull_rom(handle, closed=False), art.GREY, 26)
    d.poly(
        [(x + cx, y) for x, y in mirrored([(110, 880), (140, 930), (140, 950)])],
        fill=art.RED,
        stroke=art.INK,
        width=4,
    )
    d.poly(
        [(x + cx, y) for x, y in mirrored([(40, 770), (60, 880)])],
        fill=art.YELLOW,
        stroke=art.INK,
        width=4,
    )
    belly = catmull_rom(mirrored([(190, 440), (200, 560), (150, 700), (60, 780)]), steps=6)
    d.poly([(x + cx, y) for x, y in belly], fill=art.GREEN, stroke=art.INK, width=4)
    d.poly(
        [(x + cx, y) for x, y in mirrored([(196, 470), (200, 560)])],
        fill=art.YELLOW,
        stroke=art.INK,
        width=3,
    )
    d.poly(
        [(x + cx, y) for x, y in mirrored([(180, 330), (196, 450)])],
        fill=art.BLUE,
        stroke=art.INK,
        width=4,
    )
    for x in (-120, -70, 70, 120):  # the belly's gadroons
        d.line([(cx + x, 575), (cx + x * 0.55, 740)], art.INK, 3)
    for side in (-1, 1):  # golden acanthus leaves either side of the mask
        d.ellipse(
            (cx + side * 80, 610), 48, 20, fill=art.YELLOW, stroke=art.INK, width=3, angle=side * 30
        )
    d.ellipse((cx, 615), 46, 52, fill=art.YELLOW, stroke=art.INK, width=3)
    for side in (-1, 1):
        d.ellipse((cx + side * 17, 600), 8, 6, fill=art.PAPER, stroke=art.INK, width=2)
        d.ellipse((cx + side * 17, 600), 3, fill=art.INK)
    d.poly([(cx, 605), (cx + 8, 628), (cx - 8, 628)], fill=art.ORANGE, stroke=art.INK, width=2)
    d.ellipse((cx, 645), 14, 6, fill=art.RED, stroke=art.INK, width=2)
    d.poly(
        [(x + cx, y) for x, y in mirrored([(150, 260), (180, 330)])],
        fill=art.RED,
        stroke=art.INK,
        width=4,
    )
    lid = catmull_rom(mirrored([(150, 260), (120, 200), (40, 170)]), steps=6)
    d.poly([(x + cx, y) for x, y in lid], fill=art.YELLOW, stroke=art.INK, width=4)
    d.ellipse((cx, 140), 26, 40, fill=art.GREEN, stroke=art.INK, width=4)
    d.ellipse((cx, 92), 12, fill=art.RED, stroke=art.INK, width=3)


def pip_face(suit: str, value: int) -> Drawing:
    """The art of an Asso or a number card 2-7 (no background, no border)."""
    d = Drawing(W, H)
    if value == 1:
        _ace(d, suit)
    elif suit in "DC":
        _coin_or_cup(d, suit, value)
    elif suit == "S":
        _swords(d, value)
    else:
        _clubs(d, value)
    return d
