"""The reader reads a frame's quads outside in and leaves a surely named card's parts unread."""

from __future__ import annotations

import numpy as np

from benchmarks.scenes import CLOSE, STYLES, table_scenes  # the speed benchmark's close table
from vision.classify import CardClassifier
from vision.labels import NONE
from vision.locate import locate_cards
from vision.recognize import CardReader, resolve_overlaps


class CountingClassifier(CardClassifier):
    """The shipped classifier, counting the crops it is given."""

    crops = 0

    def classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Count, then classify as the shipped classifier does."""
        self.crops += len(crops)
        return super().classify(crops)


def test_a_big_cards_pips_are_not_read_and_the_table_reads_as_when_every_quad_is() -> None:
    frame, truth = table_scenes(6, (1280, 720), CLOSE[(1280, 720)])[STYLES.index("felt")]
    classifier = CountingClassifier()
    reader = CardReader(classifier)
    found, read = reader(frame), classifier.crops
    every = reader.read_quads(frame, locate_cards(frame))
    assert read < classifier.crops - read  # fewer crops than reading every quad the locator gives
    alone = resolve_overlaps(every[every.label != NONE])
    assert sorted(found.label) == sorted(alone.label)
    assert found.quad.tobytes() == alone.quad.tobytes()  # the same quads, in the locator's order
    assert set(found.label) <= {card["label"] for card in truth["cards"]}
