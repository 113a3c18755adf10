"""The shipped classifier honours the pipeline's contract and reads real card faces."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort
import pytest

from models.evaluate import softmax, to_input
from models.sources import label_of
from vision.crop import CROP_H, CROP_W, warp_card
from vision.labels import CLASSES
from vision.models import CARDS

MODEL = CARDS
DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


@pytest.fixture(scope="module")
def session() -> ort.InferenceSession:
    """Open the committed model once."""
    return ort.InferenceSession(str(MODEL), providers=["CPUExecutionProvider"])


def _face_crop(image: np.ndarray) -> np.ndarray:
    """Warp a whole flat face image to a classifier crop, as the pipeline would."""
    h, w = image.shape[:2]
    return warp_card(image, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))


def test_model_is_small_enough_to_ship() -> None:
    assert MODEL.stat().st_size <= 5 * 1024 * 1024


def test_input_is_a_batch_of_rgb_crops_and_output_is_42_logits(session: ort.InferenceSession) -> None:
    (crops,) = session.get_inputs()
    (logits,) = session.get_outputs()
    assert crops.name == "crops" and crops.type == "tensor(float)"
    assert crops.shape[1:] == [3, CROP_H, CROP_W] and not isinstance(crops.shape[0], int)
    assert logits.name == "logits" and logits.shape[1] == len(CLASSES) == 42
    for n in (1, 6):
        out = session.run(["logits"], {"crops": np.random.default_rng(n).random((n, 3, CROP_H, CROP_W), np.float32)})[0]
        assert out.shape == (n, 42)


def test_metadata_carries_classes_temperature_and_threshold(session: ort.InferenceSession) -> None:
    meta = session.get_modelmeta().custom_metadata_map
    assert meta["classes"].split(",") == list(CLASSES)
    assert meta["classes"].split(",")[:3] == ["1D", "2D", "3D"] and meta["classes"].endswith("back,none")
    assert 0.2 < float(meta["temperature"]) < 10
    assert 0.3 <= float(meta["abstain_threshold"]) < 1


@pytest.mark.parametrize("code", ["1D", "4D", "7C", "9S", "10B", "back"])
def test_reads_the_project_deck_upright_and_upside_down(session: ort.InferenceSession, code: str) -> None:
    deck = pytest.importorskip("art.deck")
    crop = _face_crop(deck.render_face(code, 400))
    logits = session.run(["logits"], {"crops": to_input(np.stack([crop, crop[::-1, ::-1]]))})[0]
    assert [CLASSES[i] for i in logits.argmax(axis=1)] == [code, code]


def test_reads_nearly_every_dal_negro_and_modiano_face(session: ort.InferenceSession) -> None:
    if not (DATA / "faces").is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    paths = sorted((DATA / "faces").glob("*/[a-z]*-[0-9][0-9].jpg"))
    crops = np.stack([_face_crop(cv2.imread(str(p))) for p in paths])
    meta = session.get_modelmeta().custom_metadata_map
    probs = softmax(session.run(["logits"], {"crops": to_input(crops)})[0], float(meta["temperature"]))
    expected = np.array([label_of(p.stem) for p in paths])
    assert len(paths) == 80
    assert (probs.argmax(axis=1) == expected).mean() >= 0.95


def test_an_empty_table_is_not_a_card(session: ort.InferenceSession) -> None:
    wood = np.zeros((CROP_H, CROP_W, 3), np.uint8)
    wood[:] = (40, 90, 150)
    wood[::6] = (30, 70, 120)
    logits = session.run(["logits"], {"crops": to_input(wood[None])})[0]
    assert CLASSES[int(logits.argmax())] == "none"
