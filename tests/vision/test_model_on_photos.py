"""The committed model through the whole pipeline on real phone photos of decks it never saw."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from art.scene import Camera, Scene, render_scene
from benchmarks.eval_views import tilted_about  # the benchmark's own tilted view
from referee.cards import parse_card
from vision.classify import CardClassifier, default_model_path
from vision.io import decode_image, read_image
from vision.recognize import CardReader

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
LABELS = DATA / "photos" / "labels.csv"

pytestmark = [
    pytest.mark.skipif(not LABELS.is_file(), reason=f"no shared photo data at {DATA}"),
    pytest.mark.skipif(not default_model_path().is_file(), reason="no committed model at vision/weights/cards.onnx"),
]


def _valid_sample(every: int = 3) -> list[tuple[Path, str]]:
    """Every third photo of the valid split (both decks, all suits): (path, card code)."""
    with LABELS.open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["split"] == "valid"]
    return [(DATA / row["file"], parse_card(row["card"]).code) for row in rows[::every]]


def test_every_third_valid_photo_is_read_as_its_card_and_nothing_else() -> None:
    reader = CardReader(CardClassifier(threads=1))
    not_right = []
    for path, code in _valid_sample():
        cards = list(reader(read_image(path).pixels).card)
        if cards != [code]:
            not_right.append(f"{path.name} ({code}): read {cards}")
    assert not_right == []  # each photo's one card, and nothing else


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



@pytest.mark.parametrize("name, axis", [("gaia-spade-05", 70.5), ("gaia-bastoni-06", 60.5), ("gaia-denari-09", 79.3)])
def test_a_card_photographed_with_the_phone_tilted_45_degrees_is_read(name: str, axis: float) -> None:
    """Their outlines' hull-point quads cut across a corner; the box round the hull keeps the whole card."""
    path = DATA / "photos" / "valid" / f"{name}.jpg"
    code = {p.stem: c for p, c in _valid_sample(every=1)}[name]
    reader = CardReader(CardClassifier(threads=1))
    assert [card for card in reader(tilted_about(read_image(path).pixels, np.radians(axis))).card if card] == [code]

def test_real_cards_60_px_wide_on_a_checked_cloth_are_read() -> None:
    """Cut out of the photos, their paper edges are soft: stretches of their outline beside a white
    check show no crisp edge, which the locator must bridge."""
    reader = CardReader(CardClassifier(threads=1))
    table, _ = render_scene(Scene((), (), "cloth"), Camera(1280, 720, tilt=0, view_cm=120), seed=0)
    frame, rng = table.copy(), np.random.default_rng(0)
    laid = []
    for k, (path, code) in enumerate(_valid_sample(every=6)[:12]):
        photo = read_image(path).pixels
        quad = reader(photo).quad[0]
        upright = cv2.getPerspectiveTransform(quad, np.float32([[0, 0], [60, 0], [60, 99], [0, 99]]))
        card = cv2.warpPerspective(photo, upright, (60, 99), flags=cv2.INTER_AREA)
        turn = cv2.getRotationMatrix2D((30, 49.5), float(rng.uniform(0, 360)), 1.0)
        turn[:, 2] += (160 + 190 * (k % 6) - 30, 200 + 260 * (k // 6) - 49.5)
        warped = cv2.warpAffine(card, turn, (1280, 720))
        inside = cv2.warpAffine(np.full((99, 60), 255, np.uint8), turn, (1280, 720)) > 127
        frame[inside] = warped[inside]
        laid.append((code, cv2.transform(np.float32([[[30, 49.5]]]), turn)[0, 0]))
    detections = reader(frame)
    near = [[c for c, q in zip(detections.card, detections.quad) if np.linalg.norm(q.mean(axis=0) - centre) < 25] for _, centre in laid]
    assert near == [[code] for code, _ in laid]
    assert len(detections) == len(laid)  # and no square of the cloth read as a card
