"""The judge of a frame's readings against the cards that truly lie in it (the scene compositor's truth).

Every true card at least SHOWS visible counts once: right when exactly its card (or a face-down
card, for a back) is read on it, wrong when another card is named on it, missed otherwise; a
reading whose centre lies on no card at all is a phantom. An unsure face reading ("?") on a card
neither names nor misses it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import cv2
import numpy as np

from vision.detections import CardDetections
from vision.labels import BACK

SHOWS = 0.5
"""Least visible fraction of a card that it must be read at."""
UNSURE = "?"
"""The label a face reading without a name is judged by."""


def on_card(corners: Sequence[Sequence[float]], point: tuple[float, float]) -> bool:
    """Whether a point lies on the card with these corners."""
    return cv2.pointPolygonTest(np.array(corners, np.float32).reshape(-1, 1, 2), point, False) > 0


def labels_and_centres(detections: CardDetections) -> tuple[list[str], list[tuple[float, float]]]:
    """Each reading's judged label (its card code, BACK face down, UNSURE) and its quad's centre."""
    labels = [code or (BACK if face == "down" else UNSURE) for code, face in zip(detections.card, detections.face)]
    centres = [(float(x), float(y)) for x, y in (quad.mean(axis=0) for quad in detections.quad)]
    return labels, centres


def judge_frame(truth: Sequence[dict], detections: CardDetections) -> tuple[Counter[str], list[str]]:
    """Tally one frame's readings against its true cards ("card", "label", "corners", "visible" each):
    counts of right, wrong, missed and phantom, and a note on each reading that was not right."""
    labels, centres = labels_and_centres(detections)
    tally: Counter[str] = Counter()
    notes = []
    for card in truth:
        if card["visible"] < SHOWS:
            continue
        read = [label for label, centre in zip(labels, centres) if on_card(card["corners"], centre)]
        named = [label for label in read if label != UNSURE]
        expected = card["label"]
        if named == [expected]:
            tally["right"] += 1
            continue
        verdict = "wrong" if any(label != expected for label in named) else "missed"
        tally[verdict] += 1
        notes.append(f"{verdict} {card['card']}{'' if expected != BACK else ' (face down)'}: read {read or 'nothing'}")
    for label, centre in zip(labels, centres):
        if not any(on_card(card["corners"], centre) for card in truth):
            tally["phantom"] += 1
            notes.append(f"phantom {label} at ({centre[0]:.0f}, {centre[1]:.0f})")
    return tally, notes


PHOTO_VERDICTS = ("right", "abstained", "wrong", "phantom")
"""The verdicts on a one-card photo (see judge_photo)."""


def judge_photo(truth: str, cards: Sequence[str | None]) -> str:
    """The verdict on the readings of a photo showing one card face up and nothing else (its codes,
    None for face-down or unsure ones): right (that card, nothing else), abstained (no card named),
    wrong (any other card named) or phantom (that card, and also a reading where nothing lies).

    A photo carries no true corners, so every reading lies on its one card; judged by judge_frame
    its other readings would go unnoticed, and that is what this verdict counts."""
    named = [code for code in cards if code]
    if not named:
        return "abstained"
    if named != [truth]:
        return "wrong"
    return "right" if len(cards) == 1 else "phantom"
