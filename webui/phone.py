"""The phone as the table's camera: what its page is shown to aim it (the places in view, the cards
read), and what the table hears of it besides its pictures (their size, the light, its battery)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from referee.cards import parse_card
from vision.io import ImageError, decode_image
from vision.legibility import unreadable

from live.words import card_json

SIZES = (1280, 1120, 960)
"""Long sides the phone page sends its pictures at, stepped down one at a time when the link is slow.
The last is the floor: the project's films are 960x540, and the one filmed by a phone leaning at the
table's edge (40 degrees, far cards about half as long as the near ones) is narrated exactly as its
truth there (tests/live/test_watch.py); nothing smaller is measured, and a far card of a table of 8
(0.25% of the picture) is 28 px wide at 540p, under half the classifier's 64 px crop already."""
SLOW_MS = 1000 // 5
"""Milliseconds a picture may take on the link (the answer's time less the server's wait) before the
page steps its size down: slower, the link alone holds the camera under the 5 pictures a second the
referee needs (referee.observe.clock.MIN_RATE)."""
FAST_MS = 100
"""Milliseconds under which the pictures must all travel for the page to step its size up again: one
step up (1.3 times the bytes) then still comes well within SLOW_MS."""
PACE_WAIT = 1.0
"""Seconds a picture's request waits for the live loop to take it before it is answered: the page
sends the next one then, at the pace the loop keeps (a loop busier than that loses nothing by it)."""

LIGHT_EVERY = 1.0
"""Seconds between two measures of the light and focus on the phone's pictures (a decoding each)."""
LIGHT_AGREE = 3
"""Measures in a row that must agree before the word on the light changes: a hand passing over the
camera, or a moment out of focus, is no news."""
LOW_BATTERY = 0.2
"""Battery level under which the page asks for the phone to be plugged in (unless it charges)."""


def aim_in(aim: Mapping[str, Any] | None, language: str) -> dict[str, Any] | None:
    """The view to aim by as the phone page draws it: each card read named in `language`."""
    if aim is None:
        return None
    return {**aim, "cards": [{**c, "card": card_json(parse_card(c["card"]), language)
                              if c["card"] else None} for c in aim["cards"]]}


class PhoneWatch:
    """What the table hears of the phone camera page with each picture: its size, whether the page
    stepped it down for a slow link, the battery, and the light measured on the pictures."""

    def __init__(self) -> None:
        self.light: str | None = None
        self._measures: deque[str | None] = deque(maxlen=LIGHT_AGREE)
        self._measured_at = -LIGHT_EVERY

    def heard(self, jpeg: bytes, size: tuple[int, int], said: Mapping[str, str],
              now: float | None = None) -> dict[str, Any]:
        """The phone's report for the Live page after one picture of `size` and what its page said
        with it (`battery` 0 to 1, `charging` and `slow` 0 or 1; a value not understood is left out)."""
        now = time.monotonic() if now is None else now
        if now - self._measured_at >= LIGHT_EVERY:
            self._measured_at = now
            self._measure(jpeg)
        report: dict[str, Any] = {"width": size[0], "height": size[1],
                                  "slow": said.get("slow") == "1", "light": self.light}
        try:
            battery = float(said["battery"])
        except (KeyError, ValueError):
            battery = None
        if battery is not None and 0.0 <= battery <= 1.0:
            charging = said.get("charging") == "1"
            report.update(battery=round(battery * 100), charging=charging,
                          battery_low=battery < LOW_BATTERY and not charging)
        return report

    def _measure(self, jpeg: bytes) -> None:
        try:
            pixels = decode_image(jpeg).pixels
        except ImageError:
            return
        self._measures.append(unreadable(pixels))
        if len(self._measures) == LIGHT_AGREE and len(set(self._measures)) == 1:
            self.light = self._measures[0]
