"""One container between vision stages: the cards read in a frame as parallel arrays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from referee.cards import parse_card
from vision.labels import BACK, NONE

BACK_NAME = "Carta coperta"
"""What the listing calls a card lying face down."""


@dataclass(frozen=True)
class CardDetections:
    """Cards found in one frame; index or mask it like an array: `dets[dets.confidence > 0.9]`."""

    quad: np.ndarray
    """float32 [N, 4, 2]: ordered corners (top-left, top-right, bottom-right, bottom-left) in frame pixels."""
    label: np.ndarray
    """str [N]: the class read, a card code such as '9S', or 'back', or 'none' (not a card)."""
    confidence: np.ndarray
    """float32 [N]: calibrated probability of `label`."""
    abstain: np.ndarray
    """bool [N]: the face is up but too unsure to name."""
    tracker_id: np.ndarray | None = None
    """int [N]: the tracker's identity of each card, the same from frame to frame; -1 when untracked
    (a None given is made all -1)."""

    def __post_init__(self) -> None:
        n = len(self.quad)
        if self.tracker_id is None:
            object.__setattr__(self, "tracker_id", np.full(n, -1, np.int64))
        if self.quad.shape != (n, 4, 2) or not (
            len(self.label) == len(self.confidence) == len(self.abstain) == len(self.tracker_id) == n
        ):
            raise ValueError(
                "CardDetections arrays must be parallel: quad [N, 4, 2], label, confidence, abstain, tracker_id [N]"
            )

    @classmethod
    def empty(cls) -> CardDetections:
        """No cards."""
        return cls(
            np.zeros((0, 4, 2), np.float32), np.zeros(0, "<U4"), np.zeros(0, np.float32), np.zeros(0, bool)
        )

    @classmethod
    def joined(cls, parts: list[CardDetections]) -> CardDetections:
        """The detections of several parts, one after another (tracker ids are not kept)."""
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([part.quad for part in parts]).reshape(-1, 4, 2),
            np.concatenate([part.label for part in parts]),
            np.concatenate([part.confidence for part in parts]),
            np.concatenate([part.abstain for part in parts]),
        )

    def __len__(self) -> int:
        return len(self.quad)

    def __getitem__(self, index: Any) -> CardDetections:
        """Select detections by boolean mask, index array or slice."""
        if isinstance(index, (int, np.integer)):
            index = [index]
        return CardDetections(
            self.quad[index], self.label[index], self.confidence[index], self.abstain[index], self.tracker_id[index]
        )

    @property
    def is_card(self) -> np.ndarray:
        """Mask of detections that are cards (face up or down), not other things."""
        return self.label != NONE

    @property
    def face(self) -> np.ndarray:
        """str [N]: 'up', 'down' (the back shows) or 'none' (not a card)."""
        return np.where(self.label == BACK, "down", np.where(self.label == NONE, "none", "up"))

    @property
    def card(self) -> list[str | None]:
        """The card code of each detection, None when face down, abstaining or not a card."""
        return [
            None if skip or label in (BACK, NONE) else str(label)
            for label, skip in zip(self.label, self.abstain)
        ]

    @property
    def name(self) -> list[str | None]:
        """The Italian name of each detection ('Cavallo di Spade', 'Carta coperta'), None when unknown."""
        names: list[str | None] = []
        for code, label in zip(self.card, self.label):
            names.append(parse_card(code).italian if code else BACK_NAME if label == BACK else None)
        return names

    def records(self) -> list[dict[str, Any]]:
        """The JSON-ready form of each card: card, name, confidence, face, quad (and tracker_id once tracked)."""
        records = []
        for code, name, conf, face, quad, ident in zip(
            self.card, self.name, self.confidence, self.face, self.quad, self.tracker_id
        ):
            record: dict[str, Any] = {
                "card": code,
                "name": name,
                "confidence": round(float(conf), 4),
                "face": str(face),
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad],
            }
            if ident >= 0:
                record["tracker_id"] = int(ident)
            records.append(record)
        return records
