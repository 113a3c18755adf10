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
a live source keeps the newest frame (`eval_live.Watch`); `held` is the phone's page from a phone held in a
hand over the table, not propped: its pictures come as `phone`'s, and the view sways and trembles with the
hand (`Shake`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from art.sequences import FPS, Shot

RATES = ("15", "phone", "7.5", "5", "dropout", "third", "held")
"""The variants, by name: frames a second, a phone's uneven stream, the camera's rate with a drop-out, the
camera's rate read by a slow computer, or a phone's uneven stream from a hand."""
EVERY = {"15": 1, "phone": 1, "7.5": 2, "5": 3, "dropout": 1, "third": 1, "held": 1}
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
SWAY = 0.012
"""Share of the picture's long side a hand-held phone's view drifts by, at most, each way: an arm held out
over a table sways by about a degree over seconds (some 15 pixels of a 1280x720 picture)."""
SWAY_HZ = (0.15, 0.5)
"""Slowest and quickest sways of the arm, a second (two are drawn per axis)."""
SWAY_DEGREES = 0.6
"""Degrees the view turns by, at most, each way, as the wrist rolls with the sway."""
TREMOR = 0.0015
"""Share of the picture's long side the hand's tremor shakes the view by, at most, each way (two pixels of
a 1280x720 picture)."""
TREMOR_HZ = (8.0, 12.0)
"""A hand's physiological tremor, a second."""


@dataclass(frozen=True)
class Shake:
    """How a hand-held phone's view moves over a film: per axis (x, y, turn) two slow sways and a tremor, each
    a sine of its own frequency and phase; `at(t)` gives the picture's displacement then."""

    sway_hz: np.ndarray
    """[3, 2] frequencies of the two sways, per axis."""
    tremor_hz: np.ndarray
    """[3] the tremor's frequency, per axis."""
    phases: np.ndarray
    """[3, 3] phases (radians) of the two sways and the tremor, per axis."""

    @classmethod
    def drawn(cls, rng: np.random.Generator) -> Shake:
        return cls(rng.uniform(*SWAY_HZ, size=(3, 2)), rng.uniform(*TREMOR_HZ, size=3),
                   rng.uniform(0.0, 2 * np.pi, size=(3, 3)))

    def at(self, seconds: float) -> tuple[float, float, float]:
        """The view's displacement at `seconds`: x and y as shares of the long side, and its turn in degrees;
        the two sways together reach SWAY (SWAY_DEGREES) at most, the tremor TREMOR (none on the turn)."""
        hz = np.concatenate([self.sway_hz, self.tremor_hz[:, None]], axis=1)
        waves = np.sin(2 * np.pi * hz * seconds + self.phases)  # [3, 3]
        sway = waves[:, :2].mean(axis=1)
        x, y, turn = sway * np.array([SWAY, SWAY, SWAY_DEGREES]) + waves[:, 2] * np.array([TREMOR, TREMOR, 0.0])
        return float(x), float(y), float(turn)

    def moved(self, frame: np.ndarray, seconds: float) -> np.ndarray:
        """The picture the hand-held phone takes at `seconds` of the table `frame` shows from a steady phone."""
        height, width = frame.shape[:2]
        x, y, turn = self.at(seconds)
        side = max(width, height)
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), turn, 1.0)
        matrix[:, 2] += (x * side, y * side)
        return cv2.warpAffine(frame, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


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
    shake: Shake | None = None
    """How the view moves with the hand holding the phone; None for a phone or camera standing still."""

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
    phone, hand = rng.spawn(2)  # streams of their own: the others' draws stay as they were, whatever is asked

    def variant(name: str) -> Variant:
        gap = dropout_gap(shots, rng) if name == "dropout" else range(0)
        if name == "held":  # the phone's pictures, from a hand
            return Variant(name, EVERY[name], gap, phone_frames(len(shots), hand), shake=Shake.drawn(hand))
        kept = phone_frames(len(shots), phone) if name == "phone" else None
        return Variant(name, EVERY[name], gap, kept, SLOWER.get(name, 0.0))

    return [variant(name) for name in names]
