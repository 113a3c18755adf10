"""The demo's films: each ends on its last picture, held so that its verdict can be read."""

from __future__ import annotations

import time

import numpy as np

from webui.demo import DemoFilms

HAND_FRAMES = 342
"""Frames of the sample film `hand` (sample_images/sequences/hand.json)."""


def test_a_film_ends_on_its_last_picture_held_in_real_time_and_announced() -> None:
    films = DemoFilms(names=("hand",), rounds=1, hold=0.6, realtime=False)
    told: list[float] = []
    films.on_hold = told.append
    frames = list(films.frames())
    held = frames[HAND_FRAMES:]
    assert told == [0.6] and len(frames) > HAND_FRAMES
    assert len(held) >= 0.6 * 15 - 1  # the film's own rate, 15 frames a second
    last = frames[HAND_FRAMES - 1]
    assert all(np.array_equal(f.pixels, last.pixels) for f in held)
    assert [f.at for f in held] == sorted(f.at for f in held) and held[0].at > last.at
    assert films.status().message == "the demo films have ended"


def test_a_verdict_given_during_the_hold_is_held_as_long_again() -> None:
    films = DemoFilms(names=("hand",), rounds=1, hold=0.6, realtime=False)
    began: list[float] = []
    films.on_hold = lambda _seconds: began.append(time.monotonic())
    verdict = None
    for frame in films.frames():
        if began and verdict is None and time.monotonic() - began[0] >= 0.3:
            films.verdict_given()  # as the live loop does when the referee settles the hand
            verdict = time.monotonic()
    ended = time.monotonic()
    assert verdict is not None and ended - verdict >= 0.6 and ended - began[0] >= 0.9


def test_the_demo_answers_only_its_held_films_and_names_their_seats() -> None:
    from art.sequences import HIDDEN, STANDS
    from live.way import Redeal, Unseen
    from webui.demo import DEMO_ANSWERS, DEMO_FILMS

    assert set(DEMO_ANSWERS) == {STANDS.name, HIDDEN.name} <= set(DEMO_FILMS)
    assert not STANDS.hands[0].put_back and DEMO_ANSWERS["stands"] == Redeal()
    assert HIDDEN.hands[0].hidden and HIDDEN.hands[0].put_back  # exchanged and back: no swap
    assert DEMO_ANSWERS["hidden"] == Unseen(*HIDDEN.hands[0].illegal, "no")
