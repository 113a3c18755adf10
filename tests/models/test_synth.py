"""Training material: cut-outs are found where the card lies, crops are made as the pipeline makes them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.cutout import find_card_quad
from models.sources import FACE_H, FACE_W, Face, Sources
from models.synth import _randomise_mark, jitter_quad, make_crops
from vision.crop import CROP_H, CROP_W
from vision.labels import CLASS_INDEX, CLASSES


def _drawn_face(code: str) -> np.ndarray:
    """A plain face texture: cream paper, a coloured block that differs per card."""
    face = np.full((FACE_H, FACE_W, 3), (215, 235, 245), np.uint8)
    index = CLASS_INDEX[code]
    cv2.rectangle(face, (40, 60 + index * 5), (FACE_W - 40, 200 + index * 5), (30 + index * 5, 60, 200), -1)
    return face


@pytest.fixture(scope="module")
def tiny() -> Sources:
    """Sources with three drawn faces and a Dal Negro-style mark on the 4D."""
    faces = [Face(_drawn_face(code), CLASS_INDEX[code], "drawn") for code in ("9S", "10D", "1B")]
    return Sources(faces=faces)


def test_finds_a_tilted_card_on_a_wooden_table() -> None:
    table = np.zeros((800, 600, 3), np.uint8)
    table[:] = (40, 80, 140)
    table[::9] = (30, 60, 110)
    corners = np.float32([[180, 210], [420, 190], [445, 590], [200, 610]])
    card = cv2.getPerspectiveTransform(np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]]), corners)
    face = _drawn_face("9S")
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), card, (600, 800))
    photo = np.where(mask[..., None] > 0, cv2.warpPerspective(face, card, (600, 800)), table)
    quad = find_card_quad(photo)
    assert quad is not None
    assert np.abs(quad - corners).max() < 8


def test_an_empty_table_has_no_card() -> None:
    assert find_card_quad(np.full((800, 600, 3), (40, 80, 140), np.uint8)) is None


def test_jittered_quads_stay_near_the_card() -> None:
    rng = np.random.default_rng(0)
    quad = np.float32([[100, 100], [160, 100], [160, 200], [100, 200]])
    shifts = [np.abs(jitter_quad(rng, quad) - quad).max() for _ in range(500)]
    assert np.median(shifts) < 5 and max(shifts) < 40


def test_printer_marks_are_blanked_or_swapped() -> None:
    face = np.zeros((FACE_H, FACE_W, 3), np.uint8)
    face[: FACE_H // 10] = 250  # paper at the top
    face[200:220, 100:150] = (0, 0, 255)  # a red crown in the mark box
    marked = Face(face, CLASS_INDEX["4D"], "dalnegro", (0.3, 0.4, 0.7, 0.6))
    rng = np.random.default_rng(1)
    changed = [not np.array_equal(_randomise_mark(rng, marked, []), face) for _ in range(200)]
    assert 0.6 < np.mean(changed) < 0.9  # mostly blanked, sometimes kept as printed


def test_crops_are_made_for_faces_backs_and_non_cards(tiny: Sources) -> None:
    crops, labels = make_crops(tiny, 120, seed=2)
    assert crops.shape == (120, CROP_H, CROP_W, 3)
    names = {CLASSES[i] for i in labels}
    assert {"back", "none"} <= names
    assert names - {"back", "none"} <= {"9S", "10D", "1B"}


def test_the_same_seed_makes_the_same_crops(tiny: Sources) -> None:
    first, _ = make_crops(tiny, 20, seed=7)
    again, _ = make_crops(tiny, 20, seed=7)
    assert np.array_equal(first, again)
