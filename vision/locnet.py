"""The learned card locator: a small ONNX net maps a downscaled frame to card and card-core maps."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.models import LOCATOR, cpu_session
from vision.quadfit import aspect_prior, fit_quad, halves, offset_quad

NET_SIDE = 512
"""Long side of the frame copy the net reads (pixels)."""
COARSE_SIDE = 192
"""Long side of a second, coarse copy: cards too big for the net at NET_SIDE (phone close-ups) fit its range there."""
BIG_CARD = 56.0
"""Short side (pixels at NET_SIDE) from which a card is taken from the coarse copy as well."""
INPUT_MULTIPLE = 16
"""The net's input sides must be multiples of this (its coarsest stride)."""
OUTPUT_STRIDE = 2
"""Input pixels per map pixel."""
SHRINK = 0.2
"""Each side of a card's core lies this fraction of the card's short side inside the card's outline."""
UPSAMPLE = 2
"""The maps are enlarged this many times before their regions are outlined."""
THRESHOLDS = (0.7, 0.9)
"""Card and core probability above which a map pixel belongs to a card, a card's core (the
training loss weighs positives 1.5 and 3 times; these give card boxes of the cards' own size)."""
CORE_GROW = 0.15
"""Each side of a found core is moved out by this fraction of its short side to give the card.
The geometric inverse of SHRINK would be a third, but the committed net's cores come out fatter
than trained (a third gives cards 27% too wide on the project's scenes), so the measured value is used."""


class LocatorModelError(RuntimeError):
    """The locator model is missing or does not match the contract."""


def _short_side(quad: np.ndarray) -> float:
    """Mean length of the quad's shorter pair of opposite sides."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def core_quad(card: np.ndarray) -> np.ndarray:
    """The core of a card quad: every side moved inward by SHRINK of the card's short side."""
    return offset_quad(card, -SHRINK * _short_side(np.asarray(card, np.float32)))


def default_locator_path() -> Path:
    """Where the shipped locator lies (vision.models.LOCATOR)."""
    return LOCATOR


class LocatorNet:
    """The locator net read with onnxruntime: frame in, card quads out (before refinement)."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        """Load the model with `threads` onnxruntime threads (one suits a frame-by-frame reader)."""
        if not path.is_file():
            raise LocatorModelError(f"no card locator at {path}")
        try:
            self.session = cpu_session(path, threads)
        except Exception as error:  # onnxruntime raises its own untyped errors for bad files
            raise LocatorModelError(f"cannot load the card locator {path}: {error}") from error
        meta = self.session.get_modelmeta().custom_metadata_map
        inputs, outputs = self.session.get_inputs(), self.session.get_outputs()
        if [i.name for i in inputs] != ["frames"] or [o.name for o in outputs] != ["maps"]:
            raise LocatorModelError(f"{path} does not map 'frames' to 'maps'")
        if int(meta.get("output_stride", -1)) != OUTPUT_STRIDE or abs(float(meta.get("shrink", -1)) - SHRINK) > 1e-6:
            raise LocatorModelError(f"{path} was trained for another output stride or core shrink")
        self.path = path

    def input_size(self, width: int, height: int, side: int = NET_SIDE) -> tuple[int, int]:
        """The net's input (width, height) for a frame: long side `side`, both sides multiples of INPUT_MULTIPLE."""
        scale = side / max(width, height)
        w, h = (max(INPUT_MULTIPLE, round(length * scale / INPUT_MULTIPLE) * INPUT_MULTIPLE) for length in (width, height))
        return w, h

    def maps(self, frame: np.ndarray, side: int = NET_SIDE) -> np.ndarray:
        """Card and core probabilities [2, h, w] for a BGR frame read at long side `side`, at 1/OUTPUT_STRIDE of that."""
        return self._run(cv2.resize(frame, self.input_size(frame.shape[1], frame.shape[0], side), interpolation=cv2.INTER_AREA))

    def _run(self, small: np.ndarray) -> np.ndarray:
        """Card and core probabilities for a BGR image already at the net's input size."""
        batch = np.ascontiguousarray(small[None, ..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32)
        batch *= 1.0 / 255.0
        (logits,) = self.session.run(["maps"], {"frames": batch})
        return 1.0 / (1.0 + np.exp(-logits[0]))

    def quads(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Card quads [N, 4, 2] in frame pixels, best first, and their scores (mean map probability).

        The frame is read at NET_SIDE, and at COARSE_SIDE for cards too big for the first reading.
        """
        small = cv2.resize(frame, self.input_size(frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_AREA)
        found = self._quads(frame.shape, self._run(small))
        least = BIG_CARD * max(frame.shape[:2]) / NET_SIDE
        coarse = self.maps(small, COARSE_SIDE)  # from the first copy: shrinking the whole frame again costs more than the net
        found += [(s, q) for s, q in self._quads(frame.shape, coarse) if _short_side(q) >= least]
        found.sort(key=lambda item: -item[0])
        if not found:
            return np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32)
        return np.stack([q for _, q in found]).astype(np.float32), np.array([s for s, _ in found], np.float32)

    def _quads(self, shape: tuple[int, ...], probabilities: np.ndarray, min_core: float = 2.0) -> list[tuple[float, np.ndarray]]:
        """Scored card quads (pixels of a frame of this shape) from one reading's maps of the frame.

        Each core gives its card grown back from it. Each card region gives its own box, the
        closer fit when a card's core comes out patchy (a busy face), and when the box has the
        proportions of two cards touching side by side or end to end, its two halves as well.
        """
        h, w = probabilities.shape[1:]
        stretch = np.float32([shape[1] / (w * OUTPUT_STRIDE), shape[0] / (h * OUTPUT_STRIDE)])
        found: list[tuple[float, np.ndarray]] = []
        for channel in (1, 0):
            # outlines traced on a map enlarged UPSAMPLE times follow a tilted card closer than the map's blocks
            smooth = cv2.resize(probabilities[channel], (w * UPSAMPLE, h * UPSAMPLE), interpolation=cv2.INTER_LINEAR)
            mask = (smooth > THRESHOLDS[channel]).astype(np.uint8)
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            for contour in contours:
                (cx, cy), (bw, bh), angle = cv2.minAreaRect(contour.reshape(-1, 2).astype(np.float32))
                # the contour runs through the outermost pixels' centres: the region reaches half a pixel further
                short, ratio = min(bw, bh) + 1, (min(bw, bh) + 1) / (max(bw, bh) + 1)
                if short < min_core * UPSAMPLE:
                    continue
                box = cv2.boxPoints(((cx, cy), (bw + 1, bh + 1), angle)).astype(np.float32)
                x, y, bw_, bh_ = cv2.boundingRect(contour)
                score = float(smooth[y : y + bh_, x : x + bw_][mask[y : y + bh_, x : x + bw_] > 0].mean())
                if channel == 1:
                    quads = [offset_quad(box, CORE_GROW * _short_side(box))]
                else:  # a lone card's region fits it closest: ranked first
                    score += 0.5
                    quads = ([box] if ratio > 0.45 else []) + (halves(box) if 0.25 < ratio < 0.36 or 0.68 < ratio < 0.95 else [])
                    if short >= 6 * UPSAMPLE:  # its straightest runs, when something not a card (a finger, a cloth's flake) joins it
                        fitted = fit_quad(contour)
                        quads += [] if fitted is None or aspect_prior(fitted) <= 0 else [fitted]
                found += [(score, (((quad + 0.5) / UPSAMPLE) * OUTPUT_STRIDE) * stretch - 0.5) for quad in quads]
        return found


@lru_cache(maxsize=4)
def load_locator(path: Path, threads: int = 1) -> LocatorNet:
    """The locator net at `path`, loaded once per path and thread count."""
    return LocatorNet(path, threads)
