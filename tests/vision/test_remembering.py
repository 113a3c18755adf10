"""A classifier that remembers the crops it read lately: a card lying still, read again in the next frame,
is not classified again; a card turned, swapped or touched is."""

from __future__ import annotations

import numpy as np
import pytest

from art.scene import Camera, Placed, Scene, render_scene
from vision.classify import ALIKE_LEVELS, BLOCK, CardClassifier, Remembering
from vision.crop import warp_card
from vision.recognize import CardReader

CAMERA = Camera(960, 540, tilt=0, view_cm=70)
READER = CardReader()


class _Counting:
    """The real classifier, counting the crops it is given."""

    def __init__(self) -> None:
        self.model: CardClassifier = READER.classifier  # type: ignore[assignment]
        self.threshold, self.path = self.model.threshold, self.model.path
        self.crops = 0

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.crops += len(crops)
        return self.model.classify(crops)


def _crop(code: str, frame_seed: int = 3) -> np.ndarray:
    """The upright crop of one card lying face up on felt, as the reader outlines it."""
    frame, _ = render_scene(Scene((), (Placed(code, True, (0.0, 0.0), 10.0),), "felt"), CAMERA, seed=frame_seed)
    read = READER(frame)
    return warp_card(frame, read.quad[list(read.label).index(code)])


def _noisy(crop: np.ndarray, seed: int) -> np.ndarray:
    """The crop as the next frame of a camera shows it: a noise of about 2 grey levels a pixel."""
    rng = np.random.default_rng(seed)
    return np.clip(crop + rng.normal(0, 2, crop.shape), 0, 255).astype(np.uint8)


def _labels(memory: Remembering, *crops: np.ndarray) -> list[int]:
    return memory.classify(np.stack(crops))[0].tolist()


@pytest.fixture(scope="module")
def sette() -> np.ndarray:
    return _crop("7D")


def test_a_card_lying_still_read_again_through_the_cameras_noise_is_not_classified_again(sette: np.ndarray) -> None:
    model = _Counting()
    memory = Remembering(model)  # type: ignore[arg-type]
    first = memory.classify(sette[None])
    for seed in range(5):
        again = memory.classify(_noisy(sette, seed)[None])
        assert [a.tolist() for a in again] == [f.tolist() for f in first]
    assert model.crops == 1 and memory.classified == 1 and memory.remembered == 5


def test_a_card_swapped_for_the_next_of_its_suit_at_the_same_place_is_classified_anew(sette: np.ndarray) -> None:
    model = _Counting()
    memory = Remembering(model)  # type: ignore[arg-type]
    sei = _crop("6D")
    assert _labels(memory, sette) != _labels(memory, sei)
    assert model.crops == 2


def test_a_finger_over_a_cards_corner_makes_its_crop_another_one(sette: np.ndarray) -> None:
    model = _Counting()
    memory = Remembering(model)  # type: ignore[arg-type]
    memory.classify(sette[None])
    touched = sette.copy()
    touched[: 2 * BLOCK, : 2 * BLOCK] = (120, 150, 200)  # a fingertip's skin over the top left corner
    memory.classify(touched[None])
    assert model.crops == 2


def test_a_reading_is_not_handed_on_from_crop_to_crop_as_the_light_drifts(sette: np.ndarray) -> None:
    model = _Counting()
    memory = Remembering(model)  # type: ignore[arg-type]
    steps = ALIKE_LEVELS // 3 + 2
    for step in range(steps):  # each frame 3 levels darker than the one before, within ALIKE_LEVELS of it
        memory.classify(np.clip(sette.astype(int) - 3 * step, 0, 255).astype(np.uint8)[None])
    assert 1 < model.crops < steps


def test_a_card_read_in_every_frame_is_remembered_through_a_flood_of_other_crops(sette: np.ndarray) -> None:
    model = _Counting()
    memory = Remembering(model, kept=8)  # type: ignore[arg-type]
    rng = np.random.default_rng(0)
    for frame in range(6):
        others = rng.integers(0, 256, (4, *sette.shape), np.uint8)  # a hand's outlines: new in every frame
        memory.classify(np.concatenate([_noisy(sette, frame)[None], others]))
    assert model.crops == 1 + 6 * 4 and memory.remembered == 5


def test_a_frame_with_no_outline_asks_nothing_of_the_model() -> None:
    model = _Counting()
    memory = Remembering(model)  # type: ignore[arg-type]
    index, confidence, abstain = memory.classify(np.zeros((0, 104, 64, 3), np.uint8))
    assert len(index) == len(confidence) == len(abstain) == 0 and model.crops == 0
