"""How fast people play: the pause before each move, how soon the cards are collected, how quick a move is.

The sample films keep their fixed, calm timings (`FILMED`); generated hands draw each pause at
random within a pace a family really plays at: brisk, usual or slow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Pace:
    """A pace of play: each range is (shortest, longest) seconds, drawn from uniformly."""

    name: str
    pause: tuple[float, float] | None
    """Before each move (the next card dealt, a swap, a draw); None: the sample films' own pauses."""
    collect: tuple[float, float] | None
    """From the last card turned (or the dealer's draw shown) to the cards being collected."""
    speed: float = 1.0
    """Move durations over the sample films' (below 1: quicker hands)."""
    react: tuple[float, float] = (1.5, 3.0)
    """From an illegal swap to its undoing: the family reads the warning on the phone."""
    peek: tuple[float, float] = (0.6, 1.2)
    """How long a player holds his face-down card lifted to look under it."""

    def __post_init__(self) -> None:
        for name in ("pause", "collect", "react", "peek"):
            span = getattr(self, name)
            if span is not None and not 0 <= span[0] <= span[1]:
                raise ValueError(f"pace {self.name}: {name} {span} is not a range of seconds")
        if self.speed <= 0:
            raise ValueError(f"pace {self.name}: speed {self.speed} must be above 0")

    @property
    def filmed(self) -> bool:
        """Whether this is the sample films' fixed timing (nothing drawn at random)."""
        return self.pause is None

    def wait(self, rng: np.random.Generator, filmed: float) -> float:
        """The pause before the next move: the sample films' `filmed` seconds, or one drawn in the pace."""
        return filmed if self.pause is None else float(rng.uniform(*self.pause))

    def moving(self, filmed: float) -> float:
        """How long a move takes that lasts `filmed` seconds in the sample films."""
        return filmed * self.speed

    def collect_after(self, rng: np.random.Generator) -> float:
        """Seconds from the last card shown to the collection (the sample films: 4.5, their settle holds)."""
        return 4.5 if self.collect is None else float(rng.uniform(*self.collect))

    def draw(self, rng: np.random.Generator, span: tuple[float, float]) -> float:
        """Seconds drawn within `span` (react, peek), or the span's middle for the sample films."""
        return (span[0] + span[1]) / 2 if self.pause is None else float(rng.uniform(*span))


FILMED = Pace("filmed", None, None)
"""The four sample films' fixed timings: 0.3-1.5 s between moves, 4.5 s still before the settlement."""
BRISK = Pace("brisk", (0.2, 0.4), (1.0, 1.5), speed=0.7, react=(1.0, 2.0), peek=(0.4, 0.8))
"""A family that knows the game: the next move 0.2-0.4 s after the last, cards collected 1-1.5 s after the reveal."""
USUAL = Pace("usual", (0.5, 1.0), (2.5, 3.5))
"""Most tables: 0.5-1 s between moves, the cards collected about 3 s after the reveal."""
SLOW = Pace("slow", (1.0, 2.0), (5.0, 7.0), speed=1.2, react=(2.0, 4.0), peek=(0.8, 1.6))
"""Grandparents and children: 1-2 s between moves, the cards left about 6 s after the reveal."""
PACES = {pace.name: pace for pace in (BRISK, USUAL, SLOW)}
"""The paces generated hands are played at, by name."""
