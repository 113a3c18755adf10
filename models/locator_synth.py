"""Synthesise the card locator's training tiles: table frames drawn at the net's input scale, with card maps."""

from __future__ import annotations

import math

import cv2
import numpy as np

from models import textures
from models.sources import Sources
from models.synth import BACK_INDEX, _camera, _light, _table, _texture_for
from vision.crop import CARD_ASPECT
from vision.labels import CLASSES
from vision.locnet import OUTPUT_STRIDE, core_quad
from vision.art.scene import CARD_W_CM, Camera, Placed, Scene, _hand, _project, render_scene, round_table_seats

TILE = (320, 224)
"""Width and height of a training tile in net-input pixels (a part of a frame downscaled to 512 px)."""
CARD_PIXELS = (6.0, 150.0)
"""Range of card widths in net-input pixels: 15 px to 375 px cards in a 1280 px frame, and phone close-ups."""


def _card_width(rng: np.random.Generator) -> float:
    """A frame's typical card width in net-input pixels, log-uniform, most often 10-40 px."""
    lo, hi = np.log(CARD_PIXELS)
    return float(np.exp(rng.uniform(lo, hi) if rng.random() < 0.3 else rng.uniform(np.log(9.0), np.log(45.0))))


def targets(shape: tuple[int, int], quads: list[np.ndarray], visible: list[np.ndarray]) -> np.ndarray:
    """The two maps [2, h/stride, w/stride] (card, core) for cards with these quads and visibility masks."""
    h, w = shape[0] // OUTPUT_STRIDE, shape[1] // OUTPUT_STRIDE
    maps = np.zeros((2, h, w), np.uint8)
    for quad, mask in zip(quads, visible):
        seen = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA) > 0.5
        core = np.zeros((h, w), np.uint8)
        cv2.fillPoly(core, [np.round(((core_quad(quad) + 0.5) / OUTPUT_STRIDE - 0.5) * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
        maps[0] |= seen
        maps[1] |= seen & (core > 0)
    return maps


def _inside(quad: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether any of the quad lies inside a frame of this shape."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    return bool(hi[0] > 0 and hi[1] > 0 and lo[0] < shape[1] and lo[1] < shape[0])


# --- frames from the project's scene compositor ---------------------------------------------


def _layout(rng: np.random.Generator, count: int) -> list[tuple[float, float, float]]:
    """Card centres (cm) and angles: a ring of seats, a row of touching cards, a fanned pile or a scatter."""
    kind = rng.integers(4)
    step = CARD_W_CM + rng.uniform(-0.3, 1.0) * (kind == 1)
    spots = []
    for i in range(count):
        if kind == 0:
            phi = 2 * math.pi * i / count
            x, y = 34 * math.cos(phi), 22 * math.sin(phi)
            spots.append((x + rng.normal(0, 1.5), y + rng.normal(0, 1.5), math.degrees(math.atan2(-x, y)) + rng.normal(0, 10)))
        elif kind == 1:  # touching side by side, a little askew
            spots.append(((i - count / 2) * step, rng.normal(0, 0.3), rng.normal(0, 2)))
        elif kind == 2:  # a fanned or spread pile: each card partly over the last
            spots.append((i * rng.uniform(1.5, 4.0), rng.normal(0, 1.0), i * rng.uniform(-15, 15)))
        else:
            spots.append((rng.uniform(-30, 30), rng.uniform(-20, 20), rng.uniform(0, 360)))
    return spots


def scene_tile(rng: np.random.Generator, size: tuple[int, int] = TILE) -> tuple[np.ndarray, np.ndarray]:
    """A tile from `vision.art.scene`: wood, cloth or felt, tilted camera, hands, coins; BGR frame and maps."""
    count = int(rng.integers(1, 10))
    spots = _layout(rng, count)
    cards = tuple(
        Placed(
            CLASSES[int(rng.integers(40))],
            bool(rng.random() < 0.75),
            (x, y),
            angle,
            cover=float(rng.uniform(0.1, 0.45)) if rng.random() < 0.08 else 0.0,
        )
        for x, y, angle in spots
    )
    names = [f"p{i}" for i in range(4)]
    seats = round_table_seats(names)
    coins = {name: int(rng.integers(1, 4)) for name in names if rng.random() < 0.3}
    style = ("wood", "cloth", "felt")[int(rng.integers(3))]
    tilt = float(rng.uniform(0, 50))
    view = CARD_W_CM * size[0] / _card_width(rng) * (1 - tilt / 150)
    pick = spots[int(rng.integers(count))]
    target = (pick[0] + rng.normal(0, 8), pick[1] + rng.normal(0, 8))
    camera = Camera(size[0], size[1], tilt=tilt, yaw=float(rng.uniform(-180, 180)), view_cm=view, target=target)
    scene = Scene(seats, cards, style, coins, light=float(rng.uniform(0.7, 1.2)))
    frame, truth = render_scene(scene, camera, seed=int(rng.integers(1 << 30)))
    homography = camera.homography()
    quads = [np.array(card["corners"], np.float32) for card in truth["cards"]]
    masks = [_polygon_mask(quad, frame.shape) for quad in quads]
    for i, card in enumerate(cards):  # what lies over card i: later cards and every hand
        covers = [masks[j] for j in range(i + 1, len(cards))]
        covers += [_polygon_mask(_project(homography, piece), frame.shape) for c in cards if c.cover > 0 for piece in _hand(c)]
        for cover in covers:
            masks[i] = masks[i] * (1 - cover)
    frame = _camera(rng, frame)
    return frame, targets(frame.shape[:2], quads, masks)


def _polygon_mask(polygon: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """An anti-aliased float mask of a polygon in a frame of this shape."""
    mask = np.zeros(shape[:2], np.float32)
    cv2.fillPoly(mask, [np.round(np.asarray(polygon) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    return mask


# --- composites of real card cut-outs ---------------------------------------------------------


def _paste(canvas: np.ndarray, texture: np.ndarray, quad: np.ndarray, rounded: float = 0.05) -> np.ndarray:
    """Warp a texture onto quad (rounded corners), cast a soft shadow; return the pasted alpha mask."""
    h, w = canvas.shape[:2]
    th, tw = texture.shape[:2]
    alpha = np.zeros((th, tw), np.uint8)
    r = max(int(tw * rounded), 1)
    cv2.rectangle(alpha, (r, 0), (tw - r, th), 255, -1)
    cv2.rectangle(alpha, (0, r), (tw, th - r), 255, -1)
    for cx, cy in ((r, r), (tw - r, r), (r, th - r), (tw - r, th - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1)
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(texture, matrix, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(alpha, matrix, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    width = float(np.linalg.norm(quad[1] - quad[0]))
    shadow = cv2.GaussianBlur(np.roll(mask, (1, 1), axis=(0, 1)), (0, 0), max(0.05 * width, 0.6)) * 0.35
    canvas *= 1 - shadow[..., None]
    canvas[:] = canvas * (1 - mask[..., None]) + warped * mask[..., None]
    return mask


def _card_quad(
    rng: np.random.Generator, width: float, centre: np.ndarray, angle: float, slant: float, aspect: float = CARD_ASPECT
) -> np.ndarray:
    """A card's (or a card-like thing's) corners: a little keystone, as a tilted camera makes."""
    h = width / aspect
    local = np.array([[-width / 2, -h / 2], [width / 2, -h / 2], [width / 2, h / 2], [-width / 2, h / 2]], np.float32)
    local[:2, 0] *= 1 - slant  # the far end looks narrower
    local[:2, 1] *= 1 - slant / 2
    local += rng.normal(0, 0.015 * width, (4, 2))
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32)
    return (local @ turn.T + centre).astype(np.float32)


def _distractor(rng: np.random.Generator, canvas: np.ndarray, width: float) -> np.ndarray:
    """Lay a thing that is not a card (phone, note, coaster, box, sheet of paper); return its mask."""
    h, w = canvas.shape[:2]
    centre = np.array([rng.uniform(0, w), rng.uniform(0, h)], np.float32)
    kind = rng.integers(3)
    if kind == 0:  # a round coaster or a coin
        radius = width * rng.uniform(0.3, 1.2)
        mask = np.zeros((h, w), np.float32)
        cv2.circle(mask, (int(centre[0]), int(centre[1])), int(radius), 1.0, -1, cv2.LINE_AA)
        colour = rng.integers(0, 256, 3).astype(np.float32)
        canvas[:] = canvas * (1 - mask[..., None]) + colour * mask[..., None]
        return mask
    scale = rng.uniform(1.5, 3.5) if kind == 1 else rng.uniform(0.7, 1.4)
    texture = np.full((400, 283, 3), rng.integers(215, 256), np.uint8) if kind == 1 else textures.clutter(rng)
    aspect = 1 / 1.414 if kind == 1 else rng.uniform(0.45, 0.75)
    quad = _card_quad(rng, width * scale, centre, rng.uniform(0, 2 * np.pi), rng.uniform(0, 0.15), aspect)
    return _paste(canvas, texture.astype(np.float32), quad, rounded=0.08)


def _skin(rng: np.random.Generator, canvas: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A hand over one end of a card: a skin-coloured blob with an arm leaving the frame; its mask."""
    h, w = canvas.shape[:2]
    width = float(np.linalg.norm(quad[1] - quad[0]))
    end = (quad[2] + quad[3]) / 2 if rng.random() < 0.5 else (quad[0] + quad[1]) / 2
    out = end - quad.mean(axis=0)
    out /= max(float(np.linalg.norm(out)), 1e-6)
    mask = np.zeros((h, w), np.float32)
    tip = end - out * width * rng.uniform(0.1, 0.5)
    far = tip + out * width * 6
    cv2.line(mask, tuple(int(v) for v in tip), tuple(int(v) for v in far), 1.0, max(int(width * rng.uniform(0.6, 1.0)), 2), cv2.LINE_AA)
    colour = np.array([rng.uniform(60, 150), rng.uniform(90, 180), rng.uniform(150, 240)], np.float32)
    canvas[:] = canvas * (1 - mask[..., None]) + colour * mask[..., None]
    return mask


def composite_tile(rng: np.random.Generator, sources: Sources, size: tuple[int, int] = TILE) -> tuple[np.ndarray, np.ndarray]:
    """A tile of real card cut-outs and backs on real, procedural or gingham tables, with non-cards."""
    w, h = size
    width = _card_width(rng)
    roll = rng.random()
    if roll < 0.3:
        canvas = textures.gingham(rng, h, w, width * rng.uniform(0.2, 1.6))
        canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.2))
    else:
        canvas = _table(rng, sources, h, w)
    canvas = canvas.astype(np.float32)
    quads: list[np.ndarray] = []
    masks: list[np.ndarray] = []

    def lay(mask: np.ndarray) -> None:
        for i in range(len(masks)):
            masks[i] = masks[i] * (1 - mask)

    for _ in range(int(rng.integers(0, 3))):
        lay(_distractor(rng, canvas, width))
    start = np.array([rng.uniform(0, w), rng.uniform(0, h)], np.float32)
    heading = rng.uniform(0, 2 * np.pi)
    pile = rng.random()
    slant = rng.uniform(0, 0.2)
    for k in range(int(rng.integers(1, 12))):
        card_w = width * rng.uniform(0.85, 1.15)
        if pile < 0.35:  # touching or overlapping neighbours along a line
            gap = rng.uniform(0.3, 1.05)
            centre = start + k * gap * width * np.array([math.cos(heading), math.sin(heading)], np.float32)
            angle = heading + rng.normal(0, 0.08) + (math.pi / 2 if rng.random() < 0.1 else 0.0)
        else:
            centre = np.array([rng.uniform(0, w), rng.uniform(0, h)], np.float32)
            angle = rng.uniform(0, 2 * np.pi)
        quad = _card_quad(rng, card_w, centre, angle, slant)
        if not _inside(quad, (h, w)):
            continue
        label = BACK_INDEX if rng.random() < 0.25 else -1
        texture = _texture_for(rng, sources, label)
        mask = _paste(canvas, texture.astype(np.float32), quad)
        lay(mask)
        quads.append(quad)
        masks.append(mask)
        if rng.random() < 0.08:
            lay(_skin(rng, canvas, quad))
    if rng.random() < 0.3:
        lay(_distractor(rng, canvas, width))
    frame = canvas.clip(0, 255).astype(np.uint8)
    frame = _camera(rng, _light(rng, frame, np.float32([w / 2, h / 2]), width))
    return frame, targets((h, w), quads, masks)


def make_tiles(sources: Sources, count: int, seed: int, size: tuple[int, int] = TILE) -> tuple[np.ndarray, np.ndarray]:
    """Draw `count` tiles (uint8 [count, h, w, 3] BGR) and their maps (uint8 [count, 2, h/s, w/s]) from one seed."""
    rng = np.random.default_rng(seed)
    w, h = size
    frames = np.empty((count, h, w, 3), np.uint8)
    maps = np.empty((count, 2, h // OUTPUT_STRIDE, w // OUTPUT_STRIDE), np.uint8)
    for i in range(count):
        use_scene = rng.random() < 0.45 or not sources.faces
        frames[i], maps[i] = scene_tile(rng, size) if use_scene else composite_tile(rng, sources, size)
    return frames, maps
