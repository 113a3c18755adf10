"""The frames a live loop is given of one filmed hand: all of them, fewer, or none for a while.

One filming at the camera's FPS serves every variant, each frame keeping its true time (i / FPS):
`15` is every frame; `7.5` and `5` keep every second or third frame, as a slow computer that cannot
keep up drops the rest; `dropout` is every frame but those of DROPOUT seconds during a turn, as a
phone's stream stalls on the table's Wi-Fi, the loop seeing the clock jump when frames come again;
`phone` is the phone camera page's pictures over HTTPS on the table's Wi-Fi: PHONE_RATES frames a second
on average (one mean per hand), arriving unevenly, the gap between two pictures anything from one frame
of the camera's to PHONE_GAP seconds; `third` is every frame offered to a loop running on a third of one
core (a Pi-class board, or an old laptop's core shared with two busy programs): each frame takes the loop
SLOWER times the processor time it took here, and the frames that come meanwhile wait, the newest only, as
a live source keeps the newest frame (`eval_live.Watch`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from art.sequences import FPS, Shot

RATES = ("15", "phone", "7.5", "5", "dropout", "third")
"""The variants, by name: frames a second, a phone's uneven stream, the camera's rate with a drop-out, or
the camera's rate read by a slow computer."""
EVERY = {"15": 1, "phone": 1, "7.5": 2, "5": 3, "dropout": 1, "third": 1}
"""Frames of the camera's each variant keeps one of."""
DROPOUT = 2.0
"""Seconds without a frame: a stalled stream, long enough to hide a whole swap."""
MOVES = ("illegal", "put-back", "swap")
"""Phases of the film in which two cards slide between seats: where a drop-out hurts most."""
TURNS = ("peek", "turns", "draw")
"""Phases of the turns a drop-out falls in when the hand has no swap."""
FALLBACKS = ((MOVES, False), (TURNS, False), (TURNS, True), (("reveal",), False))
"""Where a drop-out begins, the first that the film holds: a swap sliding, a peek or the dealer's draw
being made, a pause of the turns, a player turning his card at the reveal."""
PHONE_RATES = (8.0, 12.0)
"""Frames a second a phone's page delivers on average over the table's Wi-Fi: a hand's mean, drawn uniformly."""
PHONE_GAP = 0.3
"""The longest gap, in seconds, between two pictures from the phone."""
SLOWER = {"third": 3.0}
"""How many times the processor time a frame takes here it takes the loop on a slow computer: a third of
one core."""


@dataclass(frozen=True)
class Variant:
    """Which of a film's frames one live loop is given."""

    name: str
    every: int = 1
    gap: range = range(0)
    """Frame indices dropped all at once (a drop-out), empty for none."""
    kept: frozenset[int] | None = None
    """The only frame indices given (a phone's uneven stream), None for every `every`-th."""
    slower: float = 0.0
    """On a slow computer, how many times the processor time a frame takes here it takes there (SLOWER); 0
    for a loop that keeps up with every frame it is given."""

    def keeps(self, index: int) -> bool:
        """Whether the loop is given frame `index`."""
        if self.kept is not None:
            return index in self.kept
        return index % self.every == 0 and index not in self.gap


def _runs(indices: list[int]) -> list[list[int]]:
    """Consecutive frame indices grouped into runs."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def dropout_gap(shots: Sequence[Shot], rng: np.random.Generator) -> range:
    """DROPOUT seconds of frames starting while a swap is being made (one of the film's swaps at random,
    in the first half of its slide); in a hand without a swap, while another turn is taken (FALLBACKS)."""
    frames = round(DROPOUT * FPS)
    for phases, still in FALLBACKS:
        runs = _runs([i for i, shot in enumerate(shots) if shot.phase in phases and shot.still is still])
        if runs:
            run = runs[int(rng.integers(len(runs)))]
            start = run[int(rng.integers(max(1, len(run) // 2)))]
            return range(start, start + frames)
    return range(0)


def _gap_odds(mean: float, longest: int) -> np.ndarray:
    """Odds of a gap of 1..`longest` frames, falling geometrically (a short gap likelier than a long one),
    whose mean is `mean` frames."""
    sizes = np.arange(1, longest + 1)

    def odds(ratio: float) -> np.ndarray:
        weights = ratio ** (sizes - 1)
        return weights / weights.sum()

    low, high = 1e-9, 1e3  # the mean grows with the ratio, from 1 frame towards `longest`
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if float(odds(middle) @ sizes) < mean else (low, middle)
    return odds((low + high) / 2)


def phone_frames(count: int, rng: np.random.Generator) -> frozenset[int]:
    """The frames of a film of `count` the phone's page delivers: the first, then each after a gap of one
    frame up to PHONE_GAP seconds, the gaps averaging a rate drawn from PHONE_RATES."""
    rate = float(rng.uniform(*PHONE_RATES))
    longest = int(PHONE_GAP * FPS + 1e-9)
    odds = _gap_odds(FPS / rate, longest)
    kept, index = [], 0
    while index < count:
        kept.append(index)
        index += 1 + int(rng.choice(longest, p=odds))
    return frozenset(kept)


def variants(names: Sequence[str], shots: Sequence[Shot], rng: np.random.Generator) -> list[Variant]:
    """The variants asked for, by name, of a film with these shots."""
    unknown = [name for name in names if name not in RATES]
    if unknown:
        raise ValueError(f"unknown frame rates {unknown}: choose from {', '.join(RATES)}")
    phone = rng.spawn(1)[0]  # a stream of its own: the drop-out's draws stay as they were, whatever is asked
    return [Variant(name, EVERY[name], dropout_gap(shots, rng) if name == "dropout" else range(0),
                    phone_frames(len(shots), phone) if name == "phone" else None, SLOWER.get(name, 0.0))
            for name in names]
