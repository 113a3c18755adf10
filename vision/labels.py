"""The classifier's 42 classes: the 40 faces, the card back, and not-a-card."""

from __future__ import annotations

from referee.cards import DECK

BACK = "back"
NONE = "none"
CLASSES: tuple[str, ...] = tuple(card.code for card in DECK) + (BACK, NONE)
"""Class index to label: 40 card codes (1D..10D, 1C.., 1S.., 1B..10B), then back, none."""
CLASS_INDEX = {label: i for i, label in enumerate(CLASSES)}
