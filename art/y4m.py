"""A drawn film as YUV4MPEG2, the raw video Chromium's fake camera plays
(`--use-fake-device-for-media-stream --use-file-for-fake-video-capture=FILM.y4m`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np


def write_y4m(frames: Iterable[np.ndarray], path: Path, fps: int) -> int:
    """Write BGR frames of one size as 4:2:0 YUV4MPEG2 at `fps`; how many were written."""
    count = 0
    with path.open("wb") as out:
        for frame in frames:
            height, width = frame.shape[:2]
            if count == 0:
                out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
            out.write(b"FRAME\n" + cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes())
            count += 1
    return count


def film_frames(film: Path, light: float = 1.0) -> Iterable[np.ndarray]:
    """The frames of a film (a sample film's .mp4), each under `light` (1: as drawn, less: a dimmer room)."""
    capture = cv2.VideoCapture(str(film))
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                return
            yield frame if light == 1.0 else (frame * light).astype(np.uint8)
    finally:
        capture.release()
