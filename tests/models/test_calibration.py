"""Abstention is tuned so that a wrong answer is rarer than an abstention."""

from __future__ import annotations

import numpy as np

from models.evaluate import choose_threshold, score, softmax
from vision.labels import CLASS_INDEX

NINE_S, TEN_D, NONE = CLASS_INDEX["9S"], CLASS_INDEX["10D"], CLASS_INDEX["none"]


def _probs(rows: list[tuple[int, float]]) -> np.ndarray:
    """Probability rows with `p` on one class and the rest spread evenly."""
    out = np.full((len(rows), 42), 0.0)
    for i, (label, p) in enumerate(rows):
        out[i] = (1 - p) / 41
        out[i, label] = p
    return out


def test_an_unsure_face_abstains_but_an_unsure_none_still_answers() -> None:
    probs = _probs([(NINE_S, 0.99), (NINE_S, 0.6), (NONE, 0.6)])
    result = score(probs, np.array([NINE_S, NINE_S, NONE]), threshold=0.8)
    assert (result.right, result.abstained, result.wrong) == (2, 1, 0)


def test_threshold_rises_until_the_confident_mistakes_are_rarer_than_abstentions() -> None:
    # 200 sure 9S, one 10D misread as 9S at 0.7, two unsure right answers at 0.65
    rows = [(NINE_S, 0.99)] * 200 + [(NINE_S, 0.7)] + [(TEN_D, 0.65)] * 2
    labels = np.array([NINE_S] * 200 + [TEN_D] + [TEN_D] * 2)
    threshold = choose_threshold(_probs(rows), labels)
    assert 0.7 < threshold <= 0.99
    assert score(_probs(rows), labels, threshold).wrong == 0


def test_lower_temperature_sharpens_confidence() -> None:
    logits = np.array([[2.0, 1.0] + [0.0] * 40])
    assert softmax(logits, 0.5).max() > softmax(logits, 1.0).max() > softmax(logits, 2.0).max()
