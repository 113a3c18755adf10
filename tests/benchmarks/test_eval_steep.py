"""The steep view's judge in brief: each face read is judged named and as the classifier read it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks import eval_steep
from vision.detections import CardDetections


def card(x: float, width: float, length: float) -> list[list[float]]:
    return [[x, 0.0], [x + width, 0.0], [x + width, length], [x, length]]


def test_each_face_is_judged_in_its_group_as_named_and_as_the_classifier_read_it() -> None:
    # a small far six abstained though read as another, a flat face named right, a face named wrong,
    # and a reading on no card
    truth = [{"label": "6D", "corners": card(0, 64, 34)}, {"label": "7B", "corners": card(200, 300, 60)},
             {"label": "2C", "corners": card(600, 60, 100)}]
    read = CardDetections(np.array([card(0, 64, 34), card(200, 300, 60), card(600, 60, 100), card(900, 60, 100)],
                                   np.float32),
                          np.array(["6B", "7B", "3C", "1S"]), np.array([0.99, 0.97, 0.95, 0.95], np.float32),
                          np.array([True, False, False, False]))
    tally = eval_steep.judge_faces(truth, read)
    assert tally == {("small", "abstained"): 1, ("small", "read wrong"): 1,
                     ("flat", "right"): 1, ("flat", "read right"): 1,
                     ("other", "wrong"): 1, ("other", "read wrong"): 1, ("other", "phantom"): 1}


def test_without_the_photos_the_study_refuses(tmp_path: Path, capsys) -> None:
    assert eval_steep.main(["--photos", str(tmp_path), "--no-record"]) == 2
    assert "no photo labels" in capsys.readouterr().err
