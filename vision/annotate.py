"""Draw the cards read in a frame: quads, Italian names and confidences."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detections import CardDetections
from vision.io import as_bgr


class CardAnnotator:
    """Annotator with its settings fixed at creation; `annotate(frame, detections)` returns a copy."""

    def __init__(
        self,
        known: tuple[int, int, int] = (60, 200, 60),
        unsure: tuple[int, int, int] = (0, 170, 255),
        face_down: tuple[int, int, int] = (220, 120, 40),
        thickness: int | None = None,
    ) -> None:
        """Colours (BGR) for named cards, abstentions and face-down cards; thickness scales with the frame when None."""
        self.known, self.unsure, self.face_down, self.thickness = known, unsure, face_down, thickness

    def annotate(self, frame: np.ndarray, detections: CardDetections) -> np.ndarray:
        """Return a copy of `frame` with each card's outline, name and confidence drawn on it."""
        canvas = as_bgr(frame).copy()
        thickness = self.thickness or max(1, round(max(canvas.shape[:2]) / 400))
        scale = thickness * 0.45
        for quad, code, name, conf, face in zip(
            detections.quad, detections.card, detections.name, detections.confidence, detections.face
        ):
            colour = self.face_down if face == "down" else self.known if code else self.unsure
            cv2.polylines(canvas, [np.round(quad).astype(np.int32)], True, colour, thickness, cv2.LINE_AA)
            cv2.circle(canvas, tuple(int(v) for v in np.round(quad[0])), thickness * 2, colour, -1)
            text = f"{name or '?'} {conf:.0%}"
            (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
            x = int(np.clip(quad[:, 0].min(), 0, max(0, canvas.shape[1] - tw)))
            y = int(np.clip(quad[:, 1].min() - base - 2, th + 2, canvas.shape[0] - base))
            cv2.rectangle(canvas, (x, y - th - 2), (x + tw, y + base), colour, -1)
            cv2.putText(canvas, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness, cv2.LINE_AA)
        return canvas
