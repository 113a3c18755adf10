"""The phone's uneven stream: a random choice of the film's frames, 8 to 12 a second, gaps of one frame
up to 0.3 s, the same for the same seed; and a phone held in a hand, whose view sways and trembles."""

from __future__ import annotations

import numpy as np
import pytest

from art.pace import BRISK
from art.sequences import FPS, shots
from benchmarks.live_hands import random_hand
from benchmarks.live_rates import (PHONE_GAP, PHONE_RATES, RATES, SWAY, SWAY_DEGREES, SWAY_HZ, TREMOR, Shake,
                                   phone_frames, variants)

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


@pytest.mark.parametrize("seed", range(10))
def test_a_hand_held_phone_s_view_sways_and_trembles_within_an_arm_s_reach(seed: int) -> None:
    shake = Shake.drawn(np.random.default_rng([seed, 0, 3]))
    moves = np.array([shake.at(i / FPS) for i in range(MINUTE)])
    x, y, turn = np.abs(moves).max(axis=0)
    assert max(x, y) <= SWAY + TREMOR and turn <= SWAY_DEGREES
    assert max(x, y) > SWAY / 4  # it does sway over a minute
    steps = np.abs(np.diff(moves[:, :2], axis=0)).max()
    sway_step = SWAY * 2 * np.pi * max(SWAY_HZ) / FPS  # the sway's quickest, over one frame
    assert 0 < steps <= 2 * TREMOR + sway_step  # from one frame to the next, a tremor and a little sway


def test_a_hand_held_phone_s_picture_is_the_table_moved_as_its_view_is_then() -> None:
    shake = Shake.drawn(np.random.default_rng([3, 0, 3]))
    table = np.zeros((720, 1280, 3), np.uint8)
    table[358:363, 638:643] = 255  # a bright spot in the middle, where the view turns about
    for at in (0.0, 1.3, 4.9):
        x, y, _ = shake.at(at)
        spot = np.argwhere(shake.moved(table, at)[..., 0] > 128).mean(axis=0)
        assert spot == pytest.approx((360 + y * 1280, 640 + x * 1280), abs=1.0)


def test_the_hand_held_variant_takes_the_phone_s_pictures_and_shakes_them() -> None:
    film = shots(random_hand(7, BRISK, "above", 0).script)[0]
    every = {v.name: v for v in variants(RATES, film, np.random.default_rng([7, 0, 3]))}
    held = every["held"]
    assert held.shake is not None and held.kept is not None and held.kept != every["phone"].kept
    assert _gaps(held.kept).max() <= PHONE_GAP
    assert all(v.shake is None for name, v in every.items() if name != "held")
    alone = variants(("phone",), film, np.random.default_rng([7, 0, 3]))[0]
    assert alone.kept == every["phone"].kept  # the phone's pictures as they were before a hand was added
