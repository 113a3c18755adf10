"""The committed model through the whole pipeline on real phone photos of decks it never saw."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import parse_card
from vision.classify import CardClassifier, default_model_path
from vision.io import decode_image, read_image
from vision.recognize import CardReader

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
LABELS = DATA / "photos" / "labels.csv"

pytestmark = [
    pytest.mark.skipif(not LABELS.is_file(), reason=f"no shared photo data at {DATA}"),
    pytest.mark.skipif(not default_model_path().is_file(), reason="no committed model at models/cards.onnx"),
]


def _valid_sample(every: int = 3) -> list[tuple[Path, str]]:
    """Every third photo of the valid split (both decks, all suits): (path, card code)."""
    with LABELS.open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["split"] == "valid"]
    return [(DATA / row["file"], parse_card(row["card"]).code) for row in rows[::every]]


def test_the_valid_photos_are_read_right_and_never_misnamed() -> None:
    reader = CardReader(CardClassifier(threads=1))
    right, wrong = [], []
    sample = _valid_sample()
    for path, code in sample:
        named = [card for card in reader(read_image(path).pixels).card if card]
        (right if named == [code] else wrong if named else []).append(f"{path.name}: {named}")
    assert not wrong, f"misnamed: {wrong}"
    assert len(right) >= 0.9 * len(sample), f"only {len(right)} of {len(sample)} read"


@pytest.mark.parametrize("name", ["gaia-coppe-01", "gaia-spade-02", "gaia-denari-05"])
def test_a_photo_taken_in_a_dim_room_is_read_like_the_bright_one(name: str) -> None:
    """These three were not found at all before frames were brightened."""
    path = DATA / "photos" / "valid" / f"{name}.jpg"
    code = {p.stem: c for p, c in _valid_sample(every=1)}[name]
    light = read_image(path).pixels.astype(np.float32) * 0.3
    noisy = np.clip(light + np.random.default_rng(0).normal(0, 4.0, light.shape), 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, 50])
    reader = CardReader(CardClassifier(threads=1))
    assert [card for card in reader(decode_image(jpeg.tobytes()).pixels).card if card] == [code]


@pytest.mark.parametrize("name", ["gaia-denari-10", "gaia-coppe-06", "gaia-spade-08"])
def test_an_out_of_focus_close_up_is_found_on_a_second_coarser_look(name: str) -> None:
    """Blurred, these cards' soft outlines were not found at all on the usual 640 px copy."""
    path = DATA / "photos" / "valid" / f"{name}.jpg"
    code = {p.stem: c for p, c in _valid_sample(every=1)}[name]
    blurred = cv2.GaussianBlur(read_image(path).pixels, (0, 0), 2.5)
    reader = CardReader(CardClassifier(threads=1))
    assert [card for card in reader(blurred).card if card] == [code]
