"""A classifier training run's folder: the synthesis code's version and the names of its crop caches."""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The project's root, which the synthesis code's paths are relative to."""
SYNTHESIS_CODE = (
    "models/synth.py", "models/textures.py", "models/sources.py", "models/cutout.py", "vision/crop.py",
    "art/draw.py", "art/deck.py", "art/emblems.py", "art/pips.py",
    "art/figures.py",
)
"""The files whose code decides what the synthetic crops look like. Any edit to them, even one that
changes nothing, names a new crop cache: the committed model is reproduced from the cache `dd4e818add`."""


def synthesis_version() -> str:
    """A short digest of the synthesis code, so that a cache made by older code is never reused."""
    digest = hashlib.sha256()
    for name in SYNTHESIS_CODE:
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()[:10]


def train_cache(run: Path, seed: int, crops: int, version: str) -> Path:
    """The run's cache of `crops` training crops drawn with `seed` by synthesis code `version`."""
    return run / f"train-{seed}-{crops}-{version}.npz"


def heldout_cache(run: Path, seed: int, version: str) -> Path:
    """The run's cache of held-out crops (the training seed's) drawn by synthesis code `version`."""
    return run / f"heldout-{seed}-{version}.npz"
