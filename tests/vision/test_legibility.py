"""Legibility: a picture too dark or too blurred to read cards says so; a dim or soft one that still
reads does not."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.legibility import edge_blur, unreadable

FILMS = Path(__file__).resolve().parents[2] / "sample_images" / "sequences"


@pytest.fixture(scope="module")
def reveal() -> np.ndarray:
    """The sample hand's table at its reveal: five cards face up on wood, 960x540."""
    film = cv2.VideoCapture(str(FILMS / "hand.mp4"))
    film.set(cv2.CAP_PROP_POS_FRAMES, 323)
    ok, frame = film.read()
    film.release()
    assert ok
    return frame


def dimmed(frame: np.ndarray, light: float) -> np.ndarray:
    """The room's light down to `light`, a phone's sensor noise and its JPEG."""
    noisy = frame * light + np.random.default_rng(0).normal(0, 3.0, frame.shape)
    ok, data = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, 70])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@pytest.mark.parametrize(("light", "said"), [(1.0, None), (0.3, None), (0.12, None),
                                              (0.05, "dark"), (0.02, "dark")])
def test_too_dark_is_said_only_where_the_cards_go_unread(reveal, light, said) -> None:
    assert unreadable(dimmed(reveal, light)) == said


@pytest.mark.parametrize(("sigma", "said"), [(0.0, None), (1.5, None), (2.0, None),
                                              (4.0, "blurred"), (6.0, "blurred")])
def test_too_blurred_is_said_only_where_the_cards_go_unread(reveal, sigma, said) -> None:
    soft = cv2.GaussianBlur(reveal, (0, 0), sigma) if sigma else reveal
    assert unreadable(soft) == said


@pytest.mark.parametrize("sigma", [1.0, 2.0, 3.0])
def test_the_blur_is_measured_in_pixels_of_a_picture_960_wide(reveal, sigma) -> None:
    # the same blur at 720p reads as at 540p: the measure is taken at 960 wide
    large = cv2.resize(reveal, (1280, 720), interpolation=cv2.INTER_CUBIC)
    assert edge_blur(cv2.GaussianBlur(reveal, (0, 0), sigma)) == pytest.approx(sigma, abs=0.4)
    assert edge_blur(cv2.GaussianBlur(large, (0, 0), sigma * 4 / 3)) == pytest.approx(sigma, abs=0.45)


def test_a_bare_cloth_says_nothing_of_the_blur() -> None:
    cloth = np.full((540, 960, 3), 90, np.uint8)
    assert edge_blur(cloth) is None and unreadable(cloth) is None
