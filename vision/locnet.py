"""The learned card locator: a small ONNX net maps a downscaled frame to card and card-core maps."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.quadfit import offset_quad

NET_SIDE = 512
"""Long side of the frame copy the net reads (pixels)."""
INPUT_MULTIPLE = 16
"""The net's input sides must be multiples of this (its coarsest stride)."""
OUTPUT_STRIDE = 2
"""Input pixels per map pixel."""
SHRINK = 0.2
"""Each side of a card's core lies this fraction of the card's short side inside the card's outline."""
CORE_THRESHOLD = 0.5
"""Core probability above which a map pixel belongs to a card's core."""


class LocatorModelError(RuntimeError):
    """The locator model is missing or does not match the contract."""


def _short_side(quad: np.ndarray) -> float:
    """Mean length of the quad's shorter pair of opposite sides."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


def core_quad(card: np.ndarray) -> np.ndarray:
    """The core of a card quad: every side moved inward by SHRINK of the card's short side."""
    return offset_quad(card, -SHRINK * _short_side(np.asarray(card, np.float32)))


def card_from_core(core: np.ndarray) -> np.ndarray:
    """The card quad a core quad was shrunk from (the inverse of `core_quad`)."""
    return offset_quad(core, SHRINK / (1 - 2 * SHRINK) * _short_side(np.asarray(core, np.float32)))


def default_locator_path() -> Path:
    """Where the shipped locator lies: `locator.onnx` in the `models` package."""
    import models

    folders = [Path(entry) for entry in getattr(models, "__path__", []) if Path(entry).is_dir()]
    for folder in folders:
        if (folder / "locator.onnx").is_file():
            return folder / "locator.onnx"
    return (folders[0] if folders else Path(__file__).resolve().parent.parent / "models") / "locator.onnx"


class LocatorNet:
    """The locator net read with onnxruntime: frame in, card quads out (before refinement)."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        """Load the model with `threads` onnxruntime threads (one suits a frame-by-frame reader)."""
        if not path.is_file():
            raise LocatorModelError(f"no card locator at {path}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as error:  # onnxruntime raises its own untyped errors for bad files
            raise LocatorModelError(f"cannot load the card locator {path}: {error}") from error
        meta = self.session.get_modelmeta().custom_metadata_map
        inputs, outputs = self.session.get_inputs(), self.session.get_outputs()
        if [i.name for i in inputs] != ["frames"] or [o.name for o in outputs] != ["maps"]:
            raise LocatorModelError(f"{path} does not map 'frames' to 'maps'")
        if int(meta.get("output_stride", -1)) != OUTPUT_STRIDE or abs(float(meta.get("shrink", -1)) - SHRINK) > 1e-6:
            raise LocatorModelError(f"{path} was trained for another output stride or core shrink")
        self.path = path

    def input_size(self, width: int, height: int) -> tuple[int, int]:
        """The net's input (width, height) for a frame: long side NET_SIDE, both sides multiples of INPUT_MULTIPLE."""
        scale = NET_SIDE / max(width, height)
        return tuple(max(INPUT_MULTIPLE, round(side * scale / INPUT_MULTIPLE) * INPUT_MULTIPLE) for side in (width, height))  # type: ignore[return-value]

    def maps(self, frame: np.ndarray) -> np.ndarray:
        """Card and core probabilities [2, h, w] for a BGR frame, at 1/OUTPUT_STRIDE of the net's input."""
        size = self.input_size(frame.shape[1], frame.shape[0])
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        batch = np.ascontiguousarray(small[None, ..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32)
        batch *= 1.0 / 255.0
        (logits,) = self.session.run(["maps"], {"frames": batch})
        return 1.0 / (1.0 + np.exp(-logits[0]))

    def quads(self, frame: np.ndarray, min_core: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
        """Card quads [N, 4, 2] in frame pixels, one per core in the map, and each core's mean probability."""
        probabilities = self.maps(frame)
        core = (probabilities[1] > CORE_THRESHOLD).astype(np.uint8)
        contours, _ = cv2.findContours(core, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        h, w = core.shape
        sx, sy = frame.shape[1] / (w * OUTPUT_STRIDE), frame.shape[0] / (h * OUTPUT_STRIDE)
        quads, scores = [], []
        for contour in contours:
            (cx, cy), (bw, bh), angle = cv2.minAreaRect(contour.reshape(-1, 2).astype(np.float32))
            if max(bw, bh) + 1 < min_core:
                continue
            # the contour runs through the outermost pixels' centres: the region reaches half a pixel further
            box = cv2.boxPoints(((cx, cy), (bw + 1, bh + 1), angle)).astype(np.float32)
            card = (card_from_core(box) + 0.5) * OUTPUT_STRIDE
            quads.append(card * np.float32([sx, sy]) - 0.5)
            x, y, bw_, bh_ = cv2.boundingRect(contour)
            scores.append(float(probabilities[1, y : y + bh_, x : x + bw_][core[y : y + bh_, x : x + bw_] > 0].mean()))
        if not quads:
            return np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32)
        return np.stack(quads).astype(np.float32), np.array(scores, np.float32)


@lru_cache(maxsize=4)
def load_locator(path: Path, threads: int = 1) -> LocatorNet:
    """The locator net at `path`, loaded once per path and thread count."""
    return LocatorNet(path, threads)
