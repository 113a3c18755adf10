"""The live benchmark's photo film: a still table of valid-split photos' cards, through the whole loop."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks import harness
from benchmarks.bench_live import FPS, photo_film, run_loop
from vision.recognize import CardReader

LABELS = harness.DATA / "photos" / "labels.csv"


def test_without_the_shared_data_there_is_no_photo_film() -> None:
    assert photo_film(CardReader(), None, 1.0) is None


@pytest.mark.skipif(not LABELS.is_file(), reason=f"no shared photo data at {harness.DATA}")
def test_the_photo_film_holds_six_photo_cards_still_and_goes_through_the_loop() -> None:
    reader = CardReader()
    setup, jpegs = photo_film(reader, harness.DATA, 0.5)
    assert len(jpegs) == int(0.5 * FPS) and len(setup["players"]) == 6
    first = cv2.imdecode(np.frombuffer(jpegs[0], np.uint8), cv2.IMREAD_COLOR)
    assert first.shape == (720, 1280, 3) and len(reader(first)) >= 6
    figures = run_loop(reader, setup, jpegs)
    assert (figures["size"], figures["frames"], figures["reveals"]) == ("1280x720", len(jpegs), 0)
    # six cards lying still, read whole while the new picture settles
    assert figures["remembered"] > figures["classified"]
    # the model's calls are a part of the loop's time
    assert 0 < figures["model_ms"] < figures["ms"] and 0 < figures["model_x_decode"] < figures["x_decode"]
