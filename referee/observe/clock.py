"""The pictures' own clock: how often they come, and the gaps where none came.

Every timing of the controller is in seconds on the frames' clock, so it holds from 5 to 30
pictures a second; what no timing can mend is a picture missing for as long as a move takes, or
pictures too rare to see a move in two of them. `Clock` tells both.
"""

from __future__ import annotations

import math
import statistics
from collections import deque

QUICKEST_MOVE = 0.4
"""Seconds the briskest player takes to carry a card from one seat to another and let it go: two
seats covered at once for less cannot have exchanged their cards unseen."""
GAP = QUICKEST_MOVE
"""Seconds without a picture that can hide a whole move: the camera dropped out, or the computer
fell behind and skipped frames."""
MIN_RATE = 4.5
"""Pictures a second the loop needs to follow a hand: the quickest move (QUICKEST_MOVE) falls
across two pictures at least at 5 a second, less a tenth for a camera's jitter."""
RATE_OF = 15
"""Intervals between pictures the rate is measured over (their median): a second of a camera's
usual 15, which a few frames lost in a row or one drop-out do not change."""


class Clock:
    """The times between the last pictures: the gap before each, and the rate they come at."""

    def __init__(self) -> None:
        self._at: float | None = None
        self._gaps: deque[float] = deque(maxlen=RATE_OF)

    def tick(self, at: float) -> float:
        """A picture taken at `at`; the seconds since the one before (0 for the first)."""
        gap = 0.0 if self._at is None else at - self._at
        if gap < 0:  # a new source's clock: begin again
            self._gaps.clear()
            gap = 0.0
        elif self._at is not None:
            self._gaps.append(gap)
        self._at = at
        return gap

    @property
    def interval(self) -> float | None:
        """Seconds between pictures at the median of the last RATE_OF intervals, or of those that came
        (none before the second picture)."""
        return statistics.median(self._gaps) if self._gaps else None

    @property
    def rate(self) -> float | None:
        """Pictures a second at the median interval of the last RATE_OF, once that many came."""
        middle = self.interval if len(self._gaps) >= RATE_OF else None
        return 1.0 / middle if middle else None

    @property
    def too_slow(self) -> bool:
        """Whether the pictures come too rarely to follow a hand."""
        rate = self.rate
        return rate is not None and rate < MIN_RATE


def needed() -> int:
    """The pictures a second to ask for, in whole numbers."""
    return math.ceil(MIN_RATE)
