"""The table PIN: every change needs it; a wrong one is refused, and repeated ones wait longer."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from live.words import Coded

PIN_DIGITS = 4
"""Four digits: typed on a phone by grandparents; the growing wait keeps guessing slow."""

FREE_TRIES = 3
"""Wrong PINs forgiven before the waits start (a finger slips on a phone keyboard)."""

MAX_WAIT = 60.0
"""The longest wait between two tries, in seconds (10,000 PINs then take about a week)."""

FORGET_AFTER = 15 * 60.0
"""A client's wrong tries are forgotten after this many quiet seconds."""


class PinRefused(Coded):
    """A change refused: no PIN, a wrong PIN (403), or too many wrong PINs (429, with a wait);
    a code of webui.words, its English as `message`."""

    def __init__(self, status: int, code: str, wait: float = 0.0, **params: Any) -> None:
        super().__init__(code, **params)
        self.status, self.message, self.wait = status, str(self), wait


@dataclass
class _Tries:
    wrong: int = 0
    last: float = 0.0


def new_pin() -> str:
    """A random table PIN."""
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def check_pin_text(pin: str) -> str:
    """A PIN chosen with --pin: 4 to 12 digits."""
    if not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12):
        raise ValueError(f"the PIN must be 4 to 12 digits, not {pin!r}")
    return pin


class PinGuard:
    """Checks the table PIN per client; after FREE_TRIES wrong ones each try waits twice longer."""

    def __init__(self, pin: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._pin = pin.encode()
        self._clock = clock
        self._tries: dict[str, _Tries] = {}
        self._lock = threading.Lock()

    def check(self, client: str, given: str | None) -> None:
        """Return if `given` is the PIN; else raise PinRefused (403, or 429 while waiting)."""
        now = self._clock()
        with self._lock:
            self._forget(now)
            tries = self._tries.get(client)
            if tries is not None:
                wait = self._wait(tries) - (now - tries.last)
                if wait > 0:
                    raise PinRefused(429, "pin.wait", wait, seconds=wait)
            if given is None or given == "":
                raise PinRefused(403, "pin.needed")
            if hmac.compare_digest(given.encode(), self._pin):
                self._tries.pop(client, None)
                return
            tries = self._tries.setdefault(client, _Tries())
            tries.wrong += 1
            tries.last = now
            raise PinRefused(403, "pin.wrong")

    @staticmethod
    def _wait(tries: _Tries) -> float:
        if tries.wrong < FREE_TRIES:
            return 0.0
        return min(MAX_WAIT, 2.0 ** (tries.wrong - FREE_TRIES))

    def _forget(self, now: float) -> None:
        for client in [c for c, t in self._tries.items() if now - t.last > FORGET_AFTER]:
            del self._tries[client]
