"""Table surfaces made by code (wood, cloth, felt) or laid from a photo, seen through a camera, and the room's light."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TABLE_STYLES = ("wood", "cloth", "felt")
"""The surfaces the compositor can lay: planked wood, a checked tablecloth, card-table baize."""

_NOISE_EXTENT = 800.0  # cm of table covered by the noise textures, centred on the origin


def plane_coordinates(
    inverse: np.ndarray, width: int, height: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Table-plane x, y (cm) under every frame pixel, and each pixel's footprint in cm."""
    xs, ys = np.meshgrid(
        np.arange(width, dtype=np.float32) + 0.5, np.arange(height, dtype=np.float32) + 0.5
    )
    w = inverse[2, 0] * xs + inverse[2, 1] * ys + inverse[2, 2]
    tx = (inverse[0, 0] * xs + inverse[0, 1] * ys + inverse[0, 2]) / w
    ty = (inverse[1, 0] * xs + inverse[1, 1] * ys + inverse[1, 2]) / w
    tx, ty = tx.astype(np.float32), ty.astype(np.float32)
    along_x = np.hypot(np.gradient(tx, axis=1), np.gradient(ty, axis=1))
    along_y = np.hypot(np.gradient(tx, axis=0), np.gradient(ty, axis=0))
    # the coarser direction decides what detail a pixel can still show
    return tx, ty, np.maximum(along_x, along_y).astype(np.float32)


def _noise(rng: np.random.Generator, cells: tuple[int, int], size: int = 1024) -> np.ndarray:
    """Smooth value noise in [0, 1] over the noise extent: `cells` random values per axis (x, y)."""
    grid = rng.random((cells[1], cells[0])).astype(np.float32)
    return cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC)


def _sample(field: np.ndarray, tx: np.ndarray, ty: np.ndarray) -> np.ndarray:
    """Read a noise field at table coordinates (bilinear, mirrored beyond its extent)."""
    scale = field.shape[1] / _NOISE_EXTENT
    mx = ((tx + _NOISE_EXTENT / 2) * scale).astype(np.float32)
    my = ((ty + _NOISE_EXTENT / 2) * scale).astype(np.float32)
    return cv2.remap(field, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)


def _wave(t: np.ndarray, period: float, footprint: np.ndarray) -> np.ndarray:
    """A sine of the given period in cm, faded out where pixels are too coarse to show it."""
    fade = np.clip(period / (4 * footprint) - 0.5, 0, 1)
    return np.sin(2 * np.pi * t / period) * fade


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: np.ndarray) -> np.ndarray:
    """Blend two BGR colours by t in [0, 1] per pixel."""
    a_, b_ = np.array(a, np.float32), np.array(b, np.float32)
    return a_ + (b_ - a_) * np.clip(t, 0, 1)[..., None]


def _wood(rng: np.random.Generator, tx: np.ndarray, ty: np.ndarray, fp: np.ndarray) -> np.ndarray:
    tones = [
        ((40, 78, 128), (78, 130, 190)),
        ((30, 56, 96), (60, 100, 150)),
        ((70, 120, 170), (120, 175, 215)),
    ]
    dark, light = tones[rng.integers(len(tones))]
    plank = rng.uniform(10, 18)
    index = np.floor(ty / plank)
    offsets = rng.normal(0, 0.12, 512).astype(np.float32)
    tone = offsets[(index.astype(np.int64) % 512)]
    warp = _sample(_noise(rng, (24, 24)), tx, ty) * 5.0
    grain = _wave(ty + warp + index * 3.1, rng.uniform(0.7, 1.3), fp)
    streaks = _sample(_noise(rng, (90, 1400)), tx + index * 37.0, ty) - 0.5
    t = 0.55 + 0.18 * grain + 0.6 * streaks + tone
    image = _mix(dark, light, t)
    seam = np.abs((ty / plank) - np.round(ty / plank)) * plank
    gap = np.clip(1.0 - (seam - 0.08) / np.maximum(fp, 0.02), 0, 1) * 0.65
    return image * (1 - gap[..., None])


def _cloth(rng: np.random.Generator, tx: np.ndarray, ty: np.ndarray, fp: np.ndarray) -> np.ndarray:
    colours = [(40, 40, 200), (150, 70, 30), (50, 120, 40), (40, 130, 210)]
    ink = colours[rng.integers(len(colours))]
    check = rng.uniform(1.5, 3.0)
    sx = 0.5 + 0.5 * np.tanh(_wave(tx, 2 * check, fp) * 6)
    sy = 0.5 + 0.5 * np.tanh(_wave(ty, 2 * check, fp) * 6)
    weave = 0.04 * _wave(tx + ty, 0.25, fp) + 0.04 * _wave(tx - ty, 0.25, fp)
    cover = 0.45 * sx + 0.45 * sy
    image = _mix((236, 240, 242), ink, cover)
    mottle = _sample(_noise(rng, (60, 60)), tx, ty) - 0.5
    return image * (1 + weave + 0.08 * mottle)[..., None]


def _felt(rng: np.random.Generator, tx: np.ndarray, ty: np.ndarray, fp: np.ndarray) -> np.ndarray:
    colours = [(50, 110, 30), (40, 90, 20), (110, 60, 20), (40, 40, 130)]
    base = np.array(colours[rng.integers(len(colours))], np.float32)
    mottle = _sample(_noise(rng, (40, 40)), tx, ty) - 0.5
    fibre = _sample(_noise(rng, (700, 700)), tx, ty) - 0.5
    shade = 1 + 0.18 * mottle + 0.25 * fibre * np.clip(0.06 / fp, 0, 1)
    return base * shade[..., None]


def table_surface(
    style: str, rng: np.random.Generator, tx: np.ndarray, ty: np.ndarray, footprint: np.ndarray
) -> np.ndarray:
    """The table as seen in the frame (float32 BGR, 0-255), given each pixel's table coordinates."""
    painters = {"wood": _wood, "cloth": _cloth, "felt": _felt}
    if style not in painters:
        raise ValueError(f"unknown table style {style!r}: choose one of {', '.join(TABLE_STYLES)}")
    return painters[style](rng, tx, ty, footprint).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Surface:
    """A photo of a real table's surface, nothing on it, and how many cm of table one of its pixels covers."""

    pixels: np.ndarray
    """BGR, uint8; laid mirrored beyond its edges, as far as the table reaches."""
    cm_per_pixel: float
    name: str = "photo"

    def __post_init__(self) -> None:
        if self.pixels.ndim != 3 or self.pixels.shape[2] != 3 or min(self.pixels.shape[:2]) < 2:
            raise ValueError(f"surface {self.name}: a BGR picture is needed, not an array of shape {self.pixels.shape}")
        if not self.cm_per_pixel > 0:
            raise ValueError(f"surface {self.name}: {self.cm_per_pixel} cm a pixel must be above 0")


def _mirrored(coordinate: np.ndarray, length: int) -> np.ndarray:
    """A pixel coordinate folded into [0, length - 1] by mirroring at every edge, however far it lies."""
    period = 2 * (length - 1)
    folded = np.mod(coordinate, period)
    return np.where(folded > length - 1, period - folded, folded).astype(np.float32)


def photo_surface(surface: Surface, tx: np.ndarray, ty: np.ndarray, footprint: np.ndarray) -> np.ndarray:
    """A photographed surface laid on the table (float32 BGR, 0-255): its middle at the table's centre,
    mirrored beyond its edges, each frame pixel read from the level of detail its footprint can show."""
    levels = [surface.pixels.astype(np.float32)]
    while min(levels[-1].shape[:2]) >= 32:
        levels.append(cv2.pyrDown(levels[-1]))
    # level k has 2**k times the photo's cm a pixel: blend the two whose scale brackets the footprint
    level = np.clip(np.log2(np.maximum(footprint / surface.cm_per_pixel, 1e-6)), 0, len(levels) - 1)
    image = np.zeros((*tx.shape, 3), np.float32)
    for k, picture in enumerate(levels):
        weight = np.clip(1 - np.abs(level - k), 0, 1)
        if not weight.any():
            continue
        scale = surface.cm_per_pixel * 2**k
        h, w = picture.shape[:2]
        mx = _mirrored(tx / scale + (w - 1) / 2, w)
        my = _mirrored(ty / scale + (h - 1) / 2, h)
        image += cv2.remap(picture, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101) * weight[..., None]
    return image


def light_field(
    rng: np.random.Generator, width: int, height: int, strength: float = 1.0
) -> np.ndarray:
    """A lamp's pool of light with vignetting and a colour cast, as a per-pixel BGR gain."""
    xs, ys = np.meshgrid(
        np.linspace(-1, 1, width, dtype=np.float32), np.linspace(-1, 1, height, dtype=np.float32)
    )
    cx, cy = rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.4)
    spread = rng.uniform(0.6, 1.3)
    pool = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * spread**2))
    vignette = 1 - 0.18 * (xs**2 + ys**2)
    gain = (0.62 + 0.5 * strength * pool) * vignette
    warmth = rng.uniform(-0.08, 0.12)
    tint = np.array([1 - warmth, 1.0, 1 + warmth * 0.6], np.float32)
    return gain[..., None] * tint
