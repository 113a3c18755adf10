"""What every frame source shares: the frame, the status in words, the error, the common face."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

log = logging.getLogger("saltacavallo.frames")

DEFAULT_FPS = 15.0
"""Frames per second given to images and to a video that does not say its own."""


@dataclass(frozen=True)
class Frame:
    """One picture from a source: BGR pixels, the time `at` on the source's clock (s), its number."""

    pixels: np.ndarray
    at: float
    index: int


class SourceState(enum.Enum):
    """Where a source stands."""

    CONNECTING = "connecting"
    LIVE = "live"
    RECONNECTING = "reconnecting"
    ENDED = "ended"
    FAILED = "failed"


@dataclass(frozen=True)
class SourceStatus:
    """A source's state and a sentence about it that a family at the table understands."""

    state: SourceState
    message: str

    def to_json(self) -> dict[str, str]:
        """The plain form the web page shows: {"state": "live", "message": "..."}."""
        return {"state": self.state.value, "message": self.message}


class SourceError(RuntimeError):
    """A source that cannot give frames, with the reason in words."""


StatusCallback = Callable[[SourceStatus], None]


class FrameSource:
    """The common face of every source: `frames()`, `status()`, `close()`, usable in a `with`."""

    description: str = "a frame source"

    def __init__(self, on_status: StatusCallback | None = None) -> None:
        self._status = SourceStatus(SourceState.CONNECTING, f"opening {self.description}")
        self._on_status = on_status

    def frames(self) -> Iterator[Frame]:
        """The frames, in order, until the source ends or is closed."""
        raise NotImplementedError

    def status(self) -> SourceStatus:
        """Where the source stands now."""
        return self._status

    def _set_status(self, state: SourceState, message: str) -> None:
        """Change the status, telling the listener only when it changed."""
        new = SourceStatus(state, message)
        if new == self._status:
            return
        self._status = new
        log.info("%s: %s (%s)", self.description, message, state.value)
        if self._on_status is not None:
            self._on_status(new)

    def close(self) -> None:
        """Stop reading; a closed source yields no more frames."""
        if self._status.state not in (SourceState.ENDED, SourceState.FAILED):
            self._set_status(SourceState.ENDED, f"{self.description} closed")

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
