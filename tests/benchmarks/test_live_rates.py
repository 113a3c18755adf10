"""The phone's uneven stream: a random choice of the film's frames, 8 to 12 a second, gaps of one frame
up to 0.3 s, the same for the same seed."""

from __future__ import annotations

import numpy as np
import pytest

from art.pace import BRISK
from art.sequences import FPS, shots
from benchmarks.live_hands import random_hand
from benchmarks.live_rates import PHONE_GAP, PHONE_RATES, RATES, phone_frames, variants

MINUTE = 60 * FPS


def _gaps(kept: frozenset[int]) -> np.ndarray:
    return np.diff(sorted(kept)) / FPS


@pytest.mark.parametrize("seed", range(20))
def test_the_phone_s_gaps_run_from_one_frame_to_three_tenths_of_a_second(seed: int) -> None:
    kept = phone_frames(MINUTE, np.random.default_rng([seed, 0, 3]))
    gaps = _gaps(kept)
    assert min(kept) == 0 and max(kept) < MINUTE
    assert gaps.min() == pytest.approx(1 / FPS)
    assert gaps.max() <= PHONE_GAP
    assert gaps.max() > 0.2  # a minute of Wi-Fi has its stalls
    assert len(set(np.round(gaps * FPS))) >= 3  # uneven, not every other frame


@pytest.mark.parametrize("seed", range(20))
def test_the_phone_delivers_eight_to_twelve_pictures_a_second_on_average(seed: int) -> None:
    kept = phone_frames(MINUTE, np.random.default_rng([seed, 0, 3]))
    low, high = PHONE_RATES
    assert low - 0.5 <= len(kept) / 60 <= high + 0.5


def test_the_phone_s_mean_rate_varies_from_hand_to_hand() -> None:
    rates = [len(phone_frames(MINUTE, np.random.default_rng([seed, 0, 3]))) / 60 for seed in range(20)]
    assert min(rates) < 9.5 and max(rates) > 10.5


def test_the_same_seed_keeps_the_same_frames_and_another_seed_others() -> None:
    assert phone_frames(MINUTE, np.random.default_rng([5, 1, 3])) == phone_frames(MINUTE, np.random.default_rng([5, 1, 3]))
    assert phone_frames(MINUTE, np.random.default_rng([5, 1, 3])) != phone_frames(MINUTE, np.random.default_rng([6, 1, 3]))


def test_the_phone_variant_keeps_its_frames_and_leaves_the_drop_out_as_it_was() -> None:
    film = shots(random_hand(7, BRISK, "above", 0).script)[0]
    every = {v.name: v for v in variants(RATES, film, np.random.default_rng([7, 0, 3]))}
    alone = variants(("dropout",), film, np.random.default_rng([7, 0, 3]))[0]
    assert every["dropout"].gap == alone.gap
    phone = every["phone"]
    kept = [i for i in range(len(film)) if phone.keeps(i)]
    assert frozenset(kept) == phone.kept and 0 < len(kept) < len(film)
    assert _gaps(phone.kept).max() <= PHONE_GAP
    again = variants(("phone",), film, np.random.default_rng([7, 0, 3]))[0]
    assert again.kept == phone.kept
