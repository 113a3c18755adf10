"""The speed benchmark's table scenes: a round table dealt in a 720p and a 1080p frame, one per table style,
its cards small (the whole table in view) or large (the players close together, as a phone held over them sees it)."""

from __future__ import annotations

import numpy as np

from art.scene import Camera, Scene, deal_to_seats, fit_camera, render_scene, round_table_seats
from vision.labels import CLASSES

STYLES = ("wood", "cloth", "felt")
SIZES = ((6, (1280, 720)), (15, (1920, 1080)))
"""Cards dealt (one per player) and frame size of the two frame sizes read."""
TABLE = (34.0, 22.0)
"""Half axes (cm) of the oval the seats lie on: the cards' short side is about 60 px at 720p, 80 px at 1080p."""
CLOSE = {(1280, 720): (11.0, 7.0), (1920, 1080): (22.0, 14.0)}
"""Half axes (cm) of a close table per frame size: cards of about 130-150 px at 720p, 110-115 px at 1080p
(issue 15: a phone over a table of four to six shows 120-200 px at 720p, 90-130 px at 1080p)."""
FACE_DOWN = 0.2
"""Chance that a player's card is dealt face down."""


def table_scenes(cards: int, size: tuple[int, int], table: tuple[float, float] = TABLE) -> list[tuple[np.ndarray, dict]]:
    """One frame per table style with `cards` players' cards dealt round an oval of half axes `table`
    (cm), and its ground truth (art.scene.render_scene's); camera tilted 30 degrees and fitted to the deal."""
    frames = []
    for k, style in enumerate(STYLES):
        rng = np.random.default_rng(k)
        names = [f"player {i + 1}" for i in range(cards)]
        seats = round_table_seats(names, table)
        labels = rng.choice(40, cards, replace=False)
        hands = {name: (CLASSES[label], bool(rng.random() > FACE_DOWN)) for name, label in zip(names, labels)}
        dealt = deal_to_seats(seats, hands, rng)
        camera = fit_camera(dealt, Camera(size[0], size[1], tilt=30, yaw=float(rng.uniform(-20, 20))))
        frames.append(render_scene(Scene(seats, dealt, style), camera, seed=k))
    return frames


def table_frames(cards: int, size: tuple[int, int], table: tuple[float, float] = TABLE) -> list[np.ndarray]:
    """The frames of `table_scenes`, without their truth."""
    return [frame for frame, _ in table_scenes(cards, size, table)]
