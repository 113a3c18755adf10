"""The shipped ONNX models: where they lie (package data of `vision`) and how they are opened."""

from __future__ import annotations

from pathlib import Path

import onnxruntime as ort

WEIGHTS = Path(__file__).resolve().parent / "weights"
"""The folder of the shipped models; `python -m models.train` writes here."""
CARDS = WEIGHTS / "cards.onnx"
"""The card classifier (42 classes: 40 faces, a card back, not a card)."""


def cpu_session(path: Path, threads: int = 0) -> ort.InferenceSession:
    """An onnxruntime session on the CPU with `threads` threads inside an operator (0: onnxruntime chooses)."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
