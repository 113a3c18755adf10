"""Follow cards from frame to frame: an identity per card, and a face and name that count once stable.

`CardTracker().update(detections, at)` takes one frame's readings and gives the confirmed cards,
each with its `tracker_id`. A card's face (up or down) and its name change only after several
consecutive readings agree; a card nobody sees for a moment (a hand over it) is kept where it
was, unless it was moving (then it is in someone's hand, and its place shows empty); a reading
that disagrees with a confirmed name lowers that name's confidence.
"""

from __future__ import annotations

import statistics
from collections import Counter, deque
from dataclasses import dataclass, field, replace

import numpy as np

from referee.observation import CLOCK, UNSEEN_AFTER
from vision.detections import CardDetections
from vision.labels import BACK
from vision.locate.geometry import iou, long_sides

CONFIRM = 0.13
"""Seconds, first to last, over which consecutive readings must agree before a face or a name
counts, two readings at least: three frames at 15 fps (200 ms of picture), two at 5 or 7.5, five
at 30; the commonest misreading (one frame, while a card turns or a hand passes) never counts."""
UNNAMED = 0.46
"""Seconds a face read up with no sure name must hold before it counts unnamed (eight frames at
15 fps): a card turning up is named within that unless the reader cannot name it."""
WINDOW_READINGS = 8
"""Readings a card's confidence is judged over (about half a second at 15 fps); a new name must
also hold most of them before it replaces a confirmed one."""
TURNED_READINGS = 2
"""Readings running of the other face from which a confirmed card is being turned over, under a hand,
until the new face counts: a single misreading, the commonest, never makes a card covered."""
KEEP_UNSEEN = 1.0
"""Seconds a confirmed card is kept while nothing is read there: an arm reaching across the table
passes over a card in under a second; a card taken away is gone after that."""
TENTATIVE_MISSES = 1
"""Frames a card not yet confirmed may go unread: a card being dealt is read in most frames, a
false reading on a passing hand seldom twice in a row."""
FOLLOW = 2.0
"""Card lengths a card may move between two readings: one slid or dealt along the table, read in
frames a fraction of a second apart."""
REAPPEAR = 1.0
"""Card lengths from where it was last read within which a card out of sight may turn up again:
from under a hand it comes back where it lay, or a little along its way; a card that turns up
further off is another one."""
MISMATCH = 1.0
"""Cost added to following a card with a reading of another name, so a card of the read name nearby wins."""
MOVING = 0.1
"""Card lengths a card must shift between two readings to be moving (a resting card's outline
jitters by a few hundredths): a moving card that goes out of sight is in someone's hand, and
its place shows empty instead of keeping it."""
DRIFT_CARDS = 3
"""Confirmed cards read in two pictures running from which their median shift is the view's own (`_drift`):
a hand moves one or two cards at a time, so most cards of three or more lie still on the table."""
STILL_VIEW = np.zeros(2)
"""The view's shift where it cannot be told (`CardTracker._drift`): a card moves by all of its own."""
SIZE_WINDOW = 30
"""Readings a card's usual length is the median of: two seconds at 15 fps, so a card lifted, half
turned or outlined with a hand for a moment keeps its size."""
EDGE_ON_SHARE = 0.85
"""Share of its usual length under which a card read where it lies is seen edge-on, half turned:
the reader misnames such views (a turning 4C read 3C three frames running), so they name nothing."""
OTHER_CARD = 1.0
"""Card lengths from its last reading beyond which a reading of another face or another name is
another card, not this one turned over or named anew: a card is turned and named where it lies,
while one carried past it hides it (a back 1.8 lengths off a shown Re, a 2C carried past a 9D, in
the brisk eval_live films and the sample game's last draw)."""
TURNING = 0.25
"""Card lengths a card turned over where it lies shifts by; one that moved further is seen from
another side of the camera, where perspective alone changes its length."""


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive readings agreeing on one value (a face or a name): how many, since when."""

    value: str | None = None
    count: int = 0
    since: float = 0.0

    def then(self, value: str, at: float) -> Run:
        """The run after one more reading of `value` at `at`."""
        return Run(value, self.count + 1, self.since) if value == self.value else Run(value, 1, at)

    def held(self, at: float, seconds: float = CONFIRM) -> bool:
        """Whether the run has agreed for `seconds` up to `at`, over two readings at least."""
        return self.count >= 2 and at - self.since >= seconds - CLOCK


@dataclass(frozen=True)
class Reading:
    """One frame's reading of a card: its face, its name (None when unsure or face down), confidence."""

    face: str
    code: str | None
    label: str
    confidence: float


@dataclass
class _Track:
    """A card followed over frames, with its confirmed face and name and the readings behind them."""

    id: int
    quad: np.ndarray
    seen_at: float
    lengths: deque[float]
    """The card's length in its recent readings, in pixels."""
    centre: np.ndarray = field(init=False)
    """The centre of `quad`: asked for per card per frame, so kept with it."""
    size: float = 0.0
    """The card's usual length: the median of its recent lengths (a card lifted for a frame looks
    larger), kept as each reading comes since every match and reading asks for it."""
    face: str | None = None
    code: str | None = None
    misses: int = 0
    moving: bool = False
    """Whether the card moved between its last two readings: out of sight then, it is being carried."""
    readings: deque[Reading] = field(default_factory=lambda: deque(maxlen=WINDOW_READINGS))
    face_run: Run = Run()
    """The readings running of a face other than the confirmed one."""
    name_run: Run = Run()

    def __post_init__(self) -> None:
        self.centre = self.quad.mean(axis=0)

    def read(self, reading: Reading, quad: np.ndarray, centre: np.ndarray, length: float, at: float,
             drift: np.ndarray = STILL_VIEW) -> None:
        """Take a reading: follow the card to `quad` (its `centre` and `length` measured with the frame's
        other readings at once), and let a face or name that held long enough count.

        A card turned face up counts once its name too has held (or, read unsure throughout, after
        WINDOW_READINGS of them), so it is not shown unnamed for the frames its name needs.
        """
        if self.lengths:
            shift = float(np.linalg.norm(centre - self.centre))
            self.moving = float(np.linalg.norm(centre - self.centre - drift)) > MOVING * self.size
            if shift < TURNING * self.size and length < EDGE_ON_SHARE * self.size:
                reading = replace(reading, code=None)  # seen edge-on where it lies: its face counts, not its name
        self.quad, self.centre, self.seen_at, self.misses = quad, centre, at, 0
        self.lengths.append(length)
        self.size = float(statistics.median(self.lengths))  # numpy's median costs ten times more on thirty floats
        self.readings.append(reading)
        self.face_run = Run() if reading.face == self.face else self.face_run.then(reading.face, at)
        if reading.face == "down":
            self.name_run = Run()
        elif reading.code is not None:
            self.name_run = self.name_run.then(reading.code, at)
        name = self.name_run.value if self.name_run.held(at) else None
        run = self.face_run
        if run.value == "down" and run.held(at):
            self.face, self.code, self.face_run = "down", None, Run()
        elif run.value == "up" and (run.held(at, UNNAMED) or (run.held(at) and name is not None)):
            self.face, self.code, self.face_run = "up", name, Run()
        elif self.face == "up" and name is not None and name != self.code:
            named = Counter(r.code for r in self.readings if r.face == "up" and r.code is not None)
            if self.code is None or named[name] > named[self.code]:
                self.code = name

    @property
    def label(self) -> str:
        """The class the card is shown with: 'back', its name, or the likeliest name when unsure."""
        if self.face == "down":
            return BACK
        if self.code is not None:
            return self.code
        named = Counter(r.label for r in self.readings if r.face == "up")
        return named.most_common(1)[0][0] if named else BACK

    @property
    def confidence(self) -> float:
        """The share of the recent readings of its face that read it so, weighted by their confidence."""
        same_face = [r for r in self.readings if r.face == self.face]
        if not same_face:
            return 0.0
        label = self.label
        return sum(r.confidence for r in same_face if r.label == label) / len(same_face)


class CardTracker:
    """Keeps an identity for each card over frames and confirms what it shows; one per camera."""

    def __init__(self) -> None:
        self._tracks: list[_Track] = []
        self._next_id = 1
        self._overlaps: dict[bytes, float] = {}
        """The overlap of each card with the reading it was compared with in the frame before, by their
        outlines: a card lying still is read with the same outline frame after frame."""

    def update(self, detections: CardDetections, at: float) -> CardDetections:
        """Take one frame's readings (at `at` s on the source's clock); return the confirmed cards."""
        detections = detections[detections.is_card]
        readings = [
            Reading(str(face), code, str(label), float(conf))
            for face, code, label, conf in zip(
                detections.face, detections.card, detections.label, detections.confidence
            )
        ]
        centres, lengths = detections.quad.mean(axis=1), long_sides(detections.quad)
        matched = self._match(detections, readings, centres)
        taken_tracks = {t for t, _ in matched}
        taken_readings = {d for _, d in matched}
        drift = self._drift(matched, centres)
        for t, d in matched:
            self._tracks[t].read(readings[d], detections.quad[d].copy(), centres[d], float(lengths[d]), at, drift)
        kept: list[_Track] = []
        for t, track in enumerate(self._tracks):
            if t not in taken_tracks:
                track.misses += 1
                if track.face is None:
                    if track.misses > TENTATIVE_MISSES:
                        continue
                    track.face_run = track.name_run = Run()  # its readings must run unbroken
                elif at - track.seen_at > KEEP_UNSEEN:
                    continue
            kept.append(track)
        for d, reading in enumerate(readings):
            if d in taken_readings:
                continue
            track = _Track(self._next_id, detections.quad[d].copy(), at, deque(maxlen=SIZE_WINDOW))
            self._next_id += 1
            track.read(reading, track.quad, centres[d], float(lengths[d]), at)
            kept.append(track)
        self._tracks = kept
        return self.confirmed()

    def _drift(self, matched: list[tuple[int, int]], centres: np.ndarray) -> np.ndarray:
        """How the view itself moved since the picture before: the median shift of the confirmed cards read in
        both (DRIFT_CARDS at least), or none with fewer. A phone held in a hand sways every card alike, and a
        card moves on the table only as much as it moves off that (`_Track.moving`): one swayed with the rest,
        unread for a moment, still lies where it was."""
        shifts = [centres[d] - self._tracks[t].centre for t, d in matched
                  if self._tracks[t].face is not None and not self._tracks[t].misses]
        return np.median(np.array(shifts), axis=0) if len(shifts) >= DRIFT_CARDS else STILL_VIEW

    def _match(self, detections: CardDetections, readings: list[Reading],
               centres: np.ndarray) -> list[tuple[int, int]]:
        """Pairs (track, reading), confirmed cards first, then closest first: overlap and distance in
        card lengths, names agreeing. A card already confirmed is followed before a candidate is
        (a second outline of a moving card would otherwise start a rival that takes its place)."""
        if not self._tracks or not readings:
            self._overlaps = {}
            return []
        gaps = np.linalg.norm(centres[None] - np.array([track.centre for track in self._tracks])[:, None], axis=2)
        reach = np.array([(FOLLOW if not track.misses else REAPPEAR) * track.size for track in self._tracks])
        overlaps: dict[bytes, float] = {}
        pairs: list[tuple[bool, float, int, int]] = []
        for t, d in np.argwhere(gaps <= reach[:, None]):
            track, reading = self._tracks[t], readings[d]
            if track.face == "up" and reading.face == "down" and track.misses:
                continue  # a card turned down is seen turning; a back beside a vanished face is another card
            away = float(gaps[t, d]) / track.size
            renamed = track.face == "up" and None not in (track.code, reading.code) and reading.code != track.code
            if (renamed or track.face not in (None, reading.face)) and away > OTHER_CARD:
                continue
            outlines = track.quad.tobytes() + detections.quad[d].tobytes()
            known = self._overlaps.get(outlines)
            overlap = overlaps[outlines] = iou(track.quad, detections.quad[d]) if known is None else known
            cost = away - overlap + (MISMATCH if renamed else 0.0)
            pairs.append((track.face is None, cost, int(t), int(d)))
        self._overlaps = overlaps
        pairs.sort()
        used_tracks: set[int] = set()
        used_readings: set[int] = set()
        matched: list[tuple[int, int]] = []
        for _, _, t, d in pairs:
            if t not in used_tracks and d not in used_readings:
                used_tracks.add(t)
                used_readings.add(d)
                matched.append((t, d))
        return matched

    def unseen(self, at: float, after: float = UNSEEN_AFTER) -> frozenset[int]:
        """The ids of confirmed cards under a hand: kept but not read for `after` seconds up to `at`, or
        read TURNED_READINGS times running with the other face, not yet confirmed (being turned over:
        its confirmed face no longer shows, and the new one does not count yet)."""
        return frozenset(t.id for t in self._tracks if t.face is not None and (
            (t.misses and at - t.seen_at >= after) or t.face_run.count >= TURNED_READINGS))

    def confirmed(self) -> CardDetections:
        """The cards whose face has been confirmed, by id: those out of sight for a moment included,
        unless they were moving (carried off: kept to be known again, but not shown)."""
        tracks = sorted((t for t in self._tracks if t.face is not None and not (t.misses and t.moving)),
                        key=lambda t: t.id)
        if not tracks:
            return CardDetections.empty()
        return CardDetections(
            np.stack([t.quad for t in tracks]).astype(np.float32),
            np.array([t.label for t in tracks], "<U4"),
            np.array([t.confidence for t in tracks], np.float32),
            np.array([t.face == "up" and t.code is None for t in tracks]),
            np.array([t.id for t in tracks], np.int64),
        )
