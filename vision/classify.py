"""The card classifier: the shipped ONNX model read with onnxruntime, with calibrated abstention."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.crop import CROP_H, CROP_W
from vision.labels import CLASSES
from vision.models import CARDS, cpu_session


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
