"""The speed benchmark's table scenes: a round table dealt in a 720p and a 1080p frame, one per table style."""

from __future__ import annotations

import numpy as np

from vision.art.scene import Camera, Scene, deal_to_seats, fit_camera, render_scene, round_table_seats
from vision.labels import CLASSES

STYLES = ("wood", "cloth", "felt")
SIZES = ((6, (1280, 720)), (15, (1920, 1080)))
"""Cards dealt (one per player) and frame size of the two frame sizes read."""
FACE_DOWN = 0.2
"""Chance that a player's card is dealt face down."""


def table_scenes(cards: int, size: tuple[int, int]) -> list[tuple[np.ndarray, dict]]:
    """One frame per table style with `cards` players' cards dealt round the table, and its ground
    truth (vision.art.scene.render_scene's); camera tilted 30 degrees and fitted to the deal."""
    frames = []
    for k, style in enumerate(STYLES):
        rng = np.random.default_rng(k)
        names = [f"player {i + 1}" for i in range(cards)]
        seats = round_table_seats(names)
        labels = rng.choice(40, cards, replace=False)
        hands = {name: (CLASSES[label], bool(rng.random() > FACE_DOWN)) for name, label in zip(names, labels)}
        dealt = deal_to_seats(seats, hands, rng)
        camera = fit_camera(dealt, Camera(size[0], size[1], tilt=30, yaw=float(rng.uniform(-20, 20))))
        frames.append(render_scene(Scene(seats, dealt, style), camera, seed=k))
    return frames


def table_frames(cards: int, size: tuple[int, int]) -> list[np.ndarray]:
    """The frames of `table_scenes`, without their truth."""
    return [frame for frame, _ in table_scenes(cards, size)]
