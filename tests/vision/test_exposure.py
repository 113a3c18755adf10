"""Exposure: a frame is brightened only when even its white card stock shows dark."""

from __future__ import annotations

import numpy as np

from vision.exposure import MOST_GAIN, TARGET, gain_for

DARK_CLOTH = 100
CARD_WHITE = 245


def _cloth_with_cards(cards: int, side: int = 50) -> np.ndarray:
    """A 1280x720 dark cloth with `cards` white squares of `side` pixels along its middle."""
    frame = np.full((720, 1280, 3), DARK_CLOTH, np.uint8)
    for i in range(cards):
        x = 100 + 120 * i
        frame[335 : 335 + side, x : x + side] = CARD_WHITE
    return frame


def test_a_few_far_cards_on_a_dark_cloth_are_not_burned_out() -> None:
    # one far card's face is a fifth of a percent of the frame: the frame's brightest 1% is the cloth
    assert gain_for(_cloth_with_cards(1)) == 1.0
    assert gain_for(_cloth_with_cards(3)) == 1.0


def test_a_frame_dark_all_over_is_brightened_up_to_white_card_stock() -> None:
    dim = (_cloth_with_cards(3) * 0.4).astype(np.uint8)
    assert gain_for(dim) == TARGET / int(CARD_WHITE * 0.4)


def test_a_glint_on_a_dim_table_does_not_keep_it_dark() -> None:
    dim = (_cloth_with_cards(3) * 0.4).astype(np.uint8)
    dim[10:14, 10:14] = 255  # a lamp caught in a glass: 16 pixels
    assert gain_for(dim) == TARGET / int(CARD_WHITE * 0.4)


def test_a_dark_table_in_the_dark_stays_dark() -> None:
    assert gain_for(np.full((720, 1280, 3), 8, np.uint8)) == MOST_GAIN
