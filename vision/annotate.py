"""Draw the cards read in a frame (quads, Italian names, confidences) and the players' seats."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

import cv2
import numpy as np

from vision.detections import CardDetections
from vision.io import as_bgr
from vision.seats import CARD_LENGTH, Seats


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


class SeatAnnotator:
    """Draws each seat's name under its card, and a ring with a label round the seats marked."""

    RING = 0.75
    """Ring radius in card lengths: round a card lying a little askew at its seat."""

    def __init__(self, seat: tuple[int, int, int] = (255, 255, 255),
                 mark: tuple[int, int, int] = (40, 40, 230), thickness: int | None = None) -> None:
        """Colours (BGR) of the seat names and of the marked seats; thickness scales when None."""
        self.seat, self.mark, self.thickness = seat, mark, thickness

    def annotate(self, frame: np.ndarray, seats: Seats, marked: Mapping[str, str],
                 card_length: float = CARD_LENGTH) -> np.ndarray:
        """A copy of `frame` with the seats' names, and `marked` seats ringed and labelled."""
        canvas = as_bgr(frame).copy()
        thickness = self.thickness or max(1, round(max(canvas.shape[:2]) / 400))
        scale = thickness * 0.5
        for name, (x, y) in zip(seats.names, seats.points):
            centre = (int(round(x)), int(round(y)))
            below = centre[1] + int(0.55 * card_length)
            if name in marked:
                cv2.circle(canvas, centre, int(self.RING * card_length), self.mark, thickness * 3,
                           cv2.LINE_AA)
            lines = [(_ascii(name), self.seat)]
            if name in marked:
                lines.append((_ascii(marked[name]), self.mark))
            for text, colour in lines:
                (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
                tx = int(np.clip(centre[0] - tw / 2, 0, max(0, canvas.shape[1] - tw)))
                ty = int(np.clip(below + th, th + 2, canvas.shape[0] - base))
                cv2.rectangle(canvas, (tx - 2, ty - th - 2), (tx + tw + 2, ty + base), (0, 0, 0), -1)
                cv2.putText(canvas, text, (tx, ty), cv2.FONT_HERSHEY_SIMPLEX, scale, colour,
                            thickness, cv2.LINE_AA)
                below = ty + base + 4
        return canvas


def _ascii(text: str) -> str:
    """Text OpenCV's Hershey fonts can draw: accents dropped (`può` -> `puo`)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
