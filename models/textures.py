"""Procedural textures: table tops, card-back patterns and card-like clutter, drawn with numpy."""

from __future__ import annotations

import cv2
import numpy as np


def _colour(rng: np.random.Generator, low: int = 0, high: int = 256) -> np.ndarray:
    """Draw one random BGR colour with channels in [low, high)."""
    return rng.integers(low, high, 3).astype(np.float32)


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    """Return value noise in [0, 1] with features about `cell` pixels wide."""
    small = rng.random((max(h // cell, 1) + 2, max(w // cell, 1) + 2)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Draw a random table top: plain cloth, wood, marble, checks, dots, grid paper or lace."""
    kind = rng.integers(7)
    base = _colour(rng, 20, 240)
    out = np.empty((h, w, 3), np.float32)
    out[:] = base
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 1:  # wood: warped stripes
        warp = _smooth_noise(rng, h, w, max(w // 4, 2)) * rng.uniform(5, 30)
        period = rng.uniform(4, 20)
        grain = (np.sin((xx + warp) / period) + 1) / 2
        dark = base * rng.uniform(0.5, 0.8)
        out = out * (1 - grain[..., None] * 0.6) + dark * grain[..., None] * 0.6
    elif kind == 2:  # marble: turbulent veins
        turb = sum(_smooth_noise(rng, h, w, max(w // s, 2)) / s for s in (2, 4, 8, 16))
        vein = np.abs(np.sin((xx * rng.uniform(0.01, 0.05) + yy * rng.uniform(0.01, 0.05)) + turb * 6))
        out = out * (0.6 + 0.4 * vein[..., None])
    elif kind == 3:  # checked tablecloth
        period = rng.uniform(6, 40)
        check = ((xx // period + yy // period) % 2)[..., None]
        out = out * (1 - check) + _colour(rng) * check
    elif kind == 4:  # polka dots or stars
        period, radius = rng.uniform(8, 40), rng.uniform(1, 5)
        dots = ((xx % period - period / 2) ** 2 + (yy % period - period / 2) ** 2) < radius**2
        out[dots] = _colour(rng, 150, 256)
    elif kind == 5:  # grid paper
        period = rng.uniform(5, 20)
        lines = (xx % period < 1) | (yy % period < 1)
        out[:] = _colour(rng, 190, 256)
        out[lines] *= rng.uniform(0.6, 0.9)
    elif kind == 6:  # lace: white rings on a darker cloth
        out[:] = _colour(rng, 0, 120)
        for _ in range(int(h * w / rng.uniform(150, 600))):
            centre = (int(rng.integers(w)), int(rng.integers(h)))
            cv2.circle(out, centre, int(rng.integers(2, 9)), _colour(rng, 200, 256).tolist(), 1)
    grain = _smooth_noise(rng, h, w, max(int(rng.integers(2, 30)), 2)) - 0.5
    out += grain[..., None] * rng.uniform(0, 60)
    return out.clip(0, 255).astype(np.uint8)


def card_back(rng: np.random.Generator, h: int = 400, w: int = 242) -> np.ndarray:
    """Draw a random card-back design: a white border around a repeating coloured pattern."""
    ink, paper = _colour(rng, 0, 200), _colour(rng, 180, 256)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(6, 24)
    kind = rng.integers(4)
    if kind == 0:  # diagonal lattice
        pattern = ((xx + yy) % period < period / 3) | ((xx - yy) % period < period / 3)
    elif kind == 1:  # checks
        pattern = (xx // period + yy // period) % 2 == 0
    elif kind == 2:  # dots
        pattern = ((xx % period - period / 2) ** 2 + (yy % period - period / 2) ** 2) < (period / 3) ** 2
    else:  # stripes
        pattern = (xx * np.cos(rng.uniform(0, np.pi)) + yy) % period < period / 2
    out = np.where(pattern[..., None], ink, paper)
    if rng.random() < 0.5:  # a second colour washed over half of the pattern
        out = np.where((pattern ^ ((xx // (period * 2)) % 2 == 0))[..., None], out, out * 0.6 + _colour(rng) * 0.4)
    margin = int(w * rng.uniform(0.03, 0.1))
    framed = np.empty_like(out)
    framed[:] = paper if rng.random() < 0.7 else 255
    framed[margin : h - margin, margin : w - margin] = out[margin : h - margin, margin : w - margin]
    return framed.clip(0, 255).astype(np.uint8)


def clutter(rng: np.random.Generator, h: int = 400, w: int = 250) -> np.ndarray:
    """Draw a card-like non-card: a paper note, a phone, a coaster or a box, filling the image."""
    kind = rng.integers(4)
    out = np.empty((h, w, 3), np.float32)
    if kind == 0:  # paper note with lines of text
        out[:] = _colour(rng, 200, 256)
        for y in range(int(h * 0.1), int(h * 0.9), int(rng.integers(10, 30))):
            length = int(w * rng.uniform(0.3, 0.85))
            cv2.line(out, (int(w * 0.08), y), (int(w * 0.08) + length, y), _colour(rng, 0, 100).tolist(), 2)
    elif kind == 1:  # phone: dark frame, glossy screen
        out[:] = _colour(rng, 0, 60)
        screen = _smooth_noise(rng, h, w, w // 2)[..., None] * _colour(rng)
        out[int(h * 0.06) : int(h * 0.94), int(w * 0.05) : int(w * 0.95)] = screen[int(h * 0.06) : int(h * 0.94), int(w * 0.05) : int(w * 0.95)]
    elif kind == 2:  # coaster: concentric rings
        out[:] = _colour(rng)
        for radius in range(int(w * 0.45), 4, -int(rng.integers(6, 20))):
            cv2.circle(out, (w // 2, h // 2), radius, _colour(rng).tolist(), -1)
    else:  # printed box: blocks of colour and a logo-like blob
        out[:] = _colour(rng)
        for _ in range(int(rng.integers(2, 6))):
            x0, y0 = int(rng.integers(w)), int(rng.integers(h))
            cv2.rectangle(out, (x0, y0), (x0 + int(rng.integers(20, w)), y0 + int(rng.integers(20, h // 2))), _colour(rng).tolist(), -1)
    return out.clip(0, 255).astype(np.uint8)


def gingham(rng: np.random.Generator, h: int, w: int, period: float) -> np.ndarray:
    """Draw a gingham cloth: paper-white and one colour, half-tone bands crossing at full tone."""
    light, ink = _colour(rng, 200, 256), _colour(rng, 0, 200)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = ((yy // period) % 2)[..., None]
    down = ((xx // period) % 2)[..., None]
    tone = np.float32(rng.uniform(0.35, 0.6))
    mix = np.maximum(across, down) * tone + across * down * (1 - tone)
    return (light * (1 - mix) + ink * mix).astype(np.uint8)
