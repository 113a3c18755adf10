"""The card classifier: the shipped ONNX model read with onnxruntime, with calibrated abstention."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.crop import CROP_H, CROP_W
from vision.labels import CLASSES
from vision.models import CARDS, cpu_session

BLOCK = 8
"""Side (pixels) of the square blocks of a crop two crops are compared on."""
ALIKE_LEVELS = 8
"""Largest difference (levels of any colour) between two crops' means over any one of their blocks for the
second to take the first's reading: a card lying still, read again in the next frame, differs by the
camera's noise and its outline's jitter of under a pixel; the next card of its suit laid in its place, or
a fingertip over its corner, changes whole blocks by tens of levels (tests/vision/test_remembering.py)."""
REMEMBERED = 0.9
"""Confidence from which a reading is remembered: an unsure one (a back or no card at 0.55, say) may tip
the other way in the next frame's noise, and the loop counts on such second looks."""
BLOCKS = (CROP_H // BLOCK) * (CROP_W // BLOCK) * 3
"""Block means a crop is compared on, each colour of each block."""
KEPT = 128
"""Crops a `Remembering` classifier keeps, the latest read or matched: the cards of a table of eight and
every other outline read round them in the last frames."""


class ModelError(RuntimeError):
    """The classifier model is missing or does not match the contract."""


def default_model_path() -> Path:
    """Where the shipped classifier lies (vision.models.CARDS)."""
    return CARDS


class CardClassifier:
    """Name upright card crops: one onnxruntime call per frame over all its crops."""

    def __init__(self, model_path: Path | None = None, threads: int = 0, threshold: float | None = None) -> None:
        """Load the model; `threads` 0 lets onnxruntime choose, `threshold` overrides the tuned one."""
        path = Path(model_path) if model_path else default_model_path()
        if not path.is_file():
            raise ModelError(f"no card classifier at {path}: the model file is missing")
        try:
            self.session = cpu_session(path, threads)
        except Exception as error:  # onnxruntime raises its own untyped errors for bad files
            raise ModelError(f"cannot load the card classifier {path}: {error}") from error
        meta = self.session.get_modelmeta().custom_metadata_map
        classes = tuple(meta.get("classes", ",".join(CLASSES)).split(","))
        if classes != CLASSES:
            raise ModelError(f"{path} was trained for other classes than vision.labels.CLASSES")
        self.temperature = float(meta.get("temperature", 1.0))
        self.threshold = float(meta.get("abstain_threshold", 0.5)) if threshold is None else threshold
        self.path = path

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Calibrated class probabilities [N, 42] for BGR uint8 crops [N, CROP_H, CROP_W, 3]."""
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        if crops.shape[1:] != (CROP_H, CROP_W, 3):
            raise ValueError(f"crops must be [N, {CROP_H}, {CROP_W}, 3] BGR, not {crops.shape}")
        batch = np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32)
        batch *= 1.0 / 255.0
        (logits,) = self.session.run(["logits"], {"crops": batch})
        scaled = logits / self.temperature
        scaled -= scaled.max(axis=1, keepdims=True)
        exp = np.exp(scaled)
        return exp / exp.sum(axis=1, keepdims=True)

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class index, calibrated confidence and abstention for each crop."""
        probs = self.probabilities(crops)
        index = probs.argmax(axis=1)
        confidence = probs[np.arange(len(probs)), index].astype(np.float32)
        is_face = index < 40
        return index, confidence, is_face & (confidence < self.threshold)


class Remembering:
    """A classifier for the frames of one camera that remembers the crops it read lately, surely
    (`REMEMBERED`): a crop alike one of them (`ALIKE_LEVELS`: a card lying still, read again in the next frame)
    takes that one's reading, and only the others are classified, in one call. A reading is never passed
    on from crop to crop: each is compared with the crop the model read."""

    def __init__(self, classifier: CardClassifier, kept: int = KEPT) -> None:
        self.classifier, self.kept = classifier, kept
        self.threshold, self.path = classifier.threshold, classifier.path
        self._blocks = np.zeros((0, BLOCKS), np.uint8)
        self._means = np.zeros((0, 3), np.float32)
        self._reading: tuple[np.ndarray, ...] = _unread(0)
        """Each remembered crop's class index, confidence and abstention."""
        self._used = np.zeros(0, np.int64)
        self._calls = 0
        self.classified = self.remembered = 0
        """Crops the model read, and crops that took a reading remembered (a benchmark's count)."""

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class index, calibrated confidence and abstention for each crop, as `CardClassifier.classify`."""
        self._calls += 1
        blocks = _blocks_of(crops)
        means = _means_of(blocks)
        nearest = np.array([self._alike(row, mean) for row, mean in zip(blocks, means)], np.int64)
        known, new = nearest >= 0, np.flatnonzero(nearest < 0)
        reading = _unread(len(crops))
        for mine, remembered in zip(reading, self._reading):
            mine[known] = remembered[nearest[known]]
        self._used[nearest[known]] = self._calls
        if len(new):
            for mine, read in zip(reading, self.classifier.classify(crops[new])):
                mine[new] = read
            sure = new[reading[1][new] >= REMEMBERED]
            self._remember(blocks[sure], means[sure], tuple(part[sure] for part in reading))
        self.classified += len(new)
        self.remembered += int(known.sum())
        return reading

    def _alike(self, blocks: np.ndarray, mean: np.ndarray) -> int:
        """The remembered crop most alike a crop's blocks, within ALIKE_LEVELS at every block; -1 for none. Only
        those whose mean colour lies within ALIKE_LEVELS of the crop's are compared block by block."""
        near = np.flatnonzero((np.abs(self._means - mean) <= ALIKE_LEVELS).all(axis=1))
        if not len(near):
            return -1
        unlike = cv2.absdiff(self._blocks[near], np.broadcast_to(blocks, (len(near), BLOCKS))).max(axis=1)
        best = int(unlike.argmin())
        return int(near[best]) if unlike[best] <= ALIKE_LEVELS else -1

    def _remember(self, blocks: np.ndarray, means: np.ndarray, reading: tuple[np.ndarray, ...]) -> None:
        """Keep the crops just read and, of the others, those used last, `kept` in all."""
        keep = np.argsort(-self._used, kind="stable")[: max(0, self.kept - len(blocks))]

        def kept(old: np.ndarray, new: np.ndarray) -> np.ndarray:
            return np.concatenate([old[keep], new])[-self.kept:]

        self._blocks, self._means = kept(self._blocks, blocks), kept(self._means, means)
        self._reading = tuple(kept(old, new) for old, new in zip(self._reading, reading))
        self._used = kept(self._used, np.full(len(blocks), self._calls))


def _unread(count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class index, confidence and abstention for `count` crops, to be filled in."""
    return np.zeros(count, np.int64), np.zeros(count, np.float32), np.zeros(count, bool)


def _blocks_of(crops: np.ndarray) -> np.ndarray:
    """Each crop's mean colour over each of its BLOCK x BLOCK pixel blocks, flat [N, BLOCKS]."""
    count = len(crops)
    if not count:
        return np.zeros((0, BLOCKS), np.uint8)
    tall = crops.reshape(count * CROP_H, CROP_W, 3)  # one resize for all: no block straddles two crops
    size = (CROP_W // BLOCK, count * CROP_H // BLOCK)
    return cv2.resize(tall, size, interpolation=cv2.INTER_AREA).reshape(count, BLOCKS)


def _means_of(blocks: np.ndarray) -> np.ndarray:
    """Each crop's mean colour [N, 3] from its blocks."""
    return blocks.reshape(len(blocks), BLOCKS // 3, 3).mean(axis=1, dtype=np.float32)
