"""The pictures' own clock: how often they come, and the gaps where none came.

Every timing of the controller is in seconds on the frames' clock, so it holds from 5 to 30
pictures a second; what no timing can mend is a picture missing for as long as a move takes, or
pictures too rare to see a move in two of them. `Clock` tells both.
"""

from __future__ import annotations

import math
from collections import deque

from referee.observe.evidence import QUICKEST_MOVE

GAP = QUICKEST_MOVE
"""Seconds without a picture that can hide a whole move: the camera dropped out, or the computer
fell behind and skipped frames."""
MIN_RATE = 4.5
"""Pictures a second the loop needs to follow a hand: the quickest move (QUICKEST_MOVE) falls
across two pictures at least at 5 a second, less a tenth for a camera's jitter."""
RATE_WINDOW = 2.0
"""Seconds of pictures the rate is measured over: long enough for one slow frame not to count."""


class Clock:
    """The times of the last pictures: the gap before each, and the rate they come at."""

    def __init__(self) -> None:
        self._times: deque[float] = deque()

    def tick(self, at: float) -> float:
        """A picture taken at `at`; the seconds since the one before (0 for the first)."""
        gap = at - self._times[-1] if self._times else 0.0
        if gap < 0:  # a new source's clock: begin again
            self._times.clear()
            gap = 0.0
        self._times.append(at)
        while at - self._times[0] > RATE_WINDOW:
            self._times.popleft()
        return gap

    @property
    def rate(self) -> float | None:
        """Pictures a second over the last RATE_WINDOW, once that long has been seen."""
        times = self._times
        span = times[-1] - times[0] if times else 0.0
        if span < RATE_WINDOW * 0.75:
            return None
        return (len(times) - 1) / span

    @property
    def too_slow(self) -> bool:
        """Whether the pictures come too rarely to follow a hand."""
        rate = self.rate
        return rate is not None and rate < MIN_RATE


def needed() -> int:
    """The pictures a second to ask for, in whole numbers."""
    return math.ceil(MIN_RATE)
