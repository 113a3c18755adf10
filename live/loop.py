"""The live loop: camera frames become the referee's events, each stored at once with its photo.

frames -> `CardReader` -> `CardTracker` -> seats (`SeatFinder`) -> `TableObservation` ->
`Controller` -> the store. `TableWatcher` does one frame at a time (the `watch` command drives
it directly); `LiveLoop` runs it in a thread for the web server, feeding the table (`live.table.Table`).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.events import Event, Keep, Settle
from referee.game import Game, Phase
from referee.observe import Controller, Said
from referee.observation import CLOCK
from referee.observe.clock import GAP, MIN_RATE, Clock, needed
from referee.wording import word
from vision.annotate import CardAnnotator, SeatAnnotator
from vision.detections import CardDetections
from vision.frames import Frame, FrameSource
from vision.io import ImageError
from vision.plane import FEWEST, across, quad_areas, seen_plane
from vision.recognize import CardReader
from vision.seats import UNSURE, SeatFinder, Seats, SeatsError, typical_length
from vision.seats import observe as observe_seats
from vision.still import StillReader
from vision.track import CardTracker

from live.aim import aim_view
from live.held import Decision, Holds, mark_decisions
from live.table import Table

log = logging.getLogger("saltacavallo.live")

WARM_UP = 0.5
"""Seconds of a source's first frames the referee does not look at: the tracker confirms what
lies on the table only after a few readings, and a game resumed mid-hand must not take the empty
picture of its first frames for cards gone."""
TAPPED_SAME = 1.0
"""Pixels within which seats kept on the page are the ones the watcher has (the file keeps tenths)."""
UNSEATED = 150
"""Frames kept while the seats are not yet found (10 s at 15 frames a second): the seats found on
the deal's resting cards apply to the frames since it began, so a swap begun before the last card
has rested the finder's half second is seen from its start."""
LEANS = 0.5
"""Share of the largest card's area in the picture from which the smallest shows the table seen from above
(eval_live's views from above keep the far cards 0.8 of the near ones' length, two thirds of their area
or more; from 45 degrees a fifth or less). Below it, the camera may lean across the table, a card lying
across its picture on the far side looking flatter than any card from 53 degrees, and the locator looks for
cards that flat (`LocatorConfig.leaning`); from above, where none lies so, it does not (each sliver of the
table it would offer is a crop to classify)."""
ACROSS = 0.62
"""Least size of a card at the picture's far corner over its near one, as the cards' perspective gives it
(`vision.plane.across`), for the table to be seen from above: on eval_live's dealt tables (six hands a view)
the views from above (up to 15 degrees from straight down) keep 0.68 or more, from 30 degrees 0.56 or less,
from 45 0.52 or less. The cards of the far side alone, all alike small from a steep phone, keep LEANS of one
another's area; their perspective does not."""
STEEP = 0.4
"""Size of a card at the picture's far corner over its near one (as ACROSS) under which the phone leans past
50 degrees from straight down (0.41 on a dealt oval table's places; 45 degrees keep 0.48): past what the
classifier is measured for (eval_views tilts the valid photos 45 degrees): there no face is named
(`CardReader.steep`), and the family names each card shown by hand."""
REFIT = 3.0
"""Pixels any corner of the cards followed may move (or the cards come or go) before the table's plane the
reader reads upright on is fitted again: their outlines jitter by a pixel or two from frame to frame."""
IDLE_AFTER = 2.0
"""Seconds the picture must lie still (no part of it moved: vision.still) before frames are passed
over (IDLE_LOOK): by then the last card laid has settled (read vision.still.SETTLING times) and
been confirmed, and what the referee waits for on a still table (the deal counted, the hand settled) is
timed in seconds on the frames' clock, which holds from 5 frames a second."""
IDLE_LOOK = 0.2
"""Most seconds between the frames looked at while the table lies still: five a second, the rate every
timing of the referee holds from. A frame is passed over only when the next one, a frame interval later
on the camera's clock, still comes within IDLE_LOOK of the last one looked at: a 15 fps camera has one
frame in three looked at, a 30 fps one one in six, a camera at 5 to 7.5 fps every frame, however its
frames' times jitter. The frames passed over are looked at first when the next one has moved, so a move
is followed from its first frame, or comes after a drop-out (GAP), as the last sight of the table
before it."""
LIVE_EVERY = 0.2
"""Seconds between two live pictures sent to the page: five a second look live and spare the CPU
the JPEG encoding of every frame."""
LIVE_QUALITY = 75
"""JPEG quality of the live picture: small enough for a phone on the table's Wi-Fi."""
EVIDENCE_QUALITY = 88
"""JPEG quality of an evidence photo: kept, and looked at closely when a family disagrees."""

Play = Callable[[Event, "str | None"], object]
"""Stores one event with the name of its evidence photo (`GameStore.play`, `Table.play`)."""


class Evidence:
    """The photos of what the referee acted on: one annotated JPEG per event, in one folder."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._count = len(list(self.folder.glob("*.jpg")))

    def name_for(self, event: Event, hand: int) -> str:
        """A new file name for the photo of `event` in hand `hand`."""
        self._count += 1
        return f"hand-{hand:02d}-{self._count:04d}-{type(event).__name__.lower()}.jpg"

    def save(self, name: str, picture: np.ndarray) -> Path:
        """Write the photo whole (a half-written file never shows under its name)."""
        path = self.folder / name
        part = path.with_name(f".{name}.part")
        ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, EVIDENCE_QUALITY])
        if not ok:
            raise OSError(f"cannot encode the evidence photo {name}")
        part.write_bytes(data.tobytes())
        part.replace(path)
        return path


def seats_from_taps(taps: Mapping[str, Any] | None, players: tuple[str, ...],
                    size: tuple[int, int]) -> Seats | None:
    """The seats a person tapped on the live picture (`Table.seats()`), in this frame's pixels."""
    if not taps or not isinstance(taps.get("players"), Mapping):
        return None
    points = taps["players"]
    width, height = taps.get("width") or size[0], taps.get("height") or size[1]
    if any(name not in points for name in players):
        return None
    sx, sy = size[0] / float(width), size[1] / float(height)
    return Seats(players, tuple((float(points[p][0]) * sx, float(points[p][1]) * sy)
                                for p in players))


def read_seats_file(path: Path, players: tuple[str, ...]) -> Seats | None:
    """The seats kept in `path` for these players, or None (no file, or another table's)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    try:
        return seats_from_taps(data, players, (int(data["width"]), int(data["height"])))
    except (KeyError, TypeError, ValueError, SeatsError):
        return None


def write_seats_file(path: Path, seats: Seats, size: tuple[int, int]) -> None:
    """Keep the seats found (the tapped seats' form: picture size and each player's point)."""
    data = {"width": size[0], "height": size[1],
            "players": {n: [round(x, 1), round(y, 1)] for n, (x, y) in zip(seats.names,
                                                                          seats.points)}}
    part = path.with_name(f".{path.name}.part")
    part.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    part.replace(path)


def _status(state: str, code: str, **params: Any) -> dict[str, Any]:
    """A camera status of the live loop's own (a code of live.words.LIVE_WORDS)."""
    return {"state": state, "message": word(code, params, "en"), "code": code, "params": params}


def _deal_seats_for(game: Game) -> tuple[tuple[str, ...], str | None]:
    """Who gets a card at the next deal in seating order, and who deals it (None: by the camera)."""
    if game.phase is Phase.CHOOSE_DEALER:
        return tuple(game.players), None
    hand = game.hand
    dealer = hand.dealer if hand is not None and hand.result is None else game.next_dealer
    return tuple(game.players), dealer


class TableWatcher:
    """One frame at a time: read the cards, follow them, place them at seats, referee the table."""

    def __init__(self, game: Game, play: Play | None = None, *, reader: CardReader | None = None,
                 seats: Seats | None = None, evidence: Evidence | None = None,
                 dealer_known: bool = True,
                 on_seats: Callable[[Seats, tuple[int, int]], None] | None = None,
                 decided: Callable[[int], list[Decision]] | None = None) -> None:
        self.game = game
        self._play_event = play or (lambda event, _photo: game.play(event))
        self.reader = reader or CardReader()
        self.still = StillReader(self.reader)
        """Reads each frame where the picture changed (a benchmark counts what it read)."""
        self.still.reader.locator = replace(self.still.reader.locator, leaning=True)  # until seen otherwise (_lean)
        self.tracker = CardTracker()
        players, dealer = _deal_seats_for(game)
        self.finder = SeatFinder(players, dealer, seats)
        self.evidence = evidence
        self._on_seats = on_seats
        self._decided = decided
        self.controller = Controller(game, self._record, dealer_known=dealer_known)
        self._cards = CardAnnotator()
        self._seat_marks = SeatAnnotator()
        self._frame: Frame | None = None
        self._first_at: float | None = None
        self._tracked = CardDetections.empty()
        self._planed: np.ndarray | None = None  # the corners the reader's plane was fitted on, sorted
        self._looked_at: float | None = None
        self._passed: list[Frame] = []  # the frames passed over since the last one looked at
        self._came = Clock()  # every frame given, looked at or passed over
        self._unseated: deque[tuple[CardDetections, float, frozenset[int]]] = deque(
            maxlen=UNSEATED)
        self.asked: str | None = None
        """The reason the table was asked to tap the places for (`unsure`), until they are known."""

    @property
    def seats(self) -> Seats | None:
        """The seats, once found or given."""
        return self.finder.seats

    @property
    def cards(self) -> CardDetections:
        """The cards followed in the last frame looked at."""
        return self._tracked

    @property
    def rate(self) -> float | None:
        """Pictures a second the loop keeps up with: every one it is given, looked at or passed over
        while the table lies still (`referee.observe.clock.Clock`)."""
        return self._came.rate

    def step(self, frame: Frame) -> list[Said]:
        """Take one frame; return what happened on the table, in order (nothing for a picture that could
        not be decoded: it is skipped, as a source skips one)."""
        return [said for due in self.due(frame) for said in self._look(due)]

    def due(self, frame: Frame) -> list[Frame]:
        """The frames to look at now that `frame` came, in order. While the table lies still
        (IDLE_AFTER), a frame is passed over (none) when the next one will still come within IDLE_LOOK
        of the last one looked at; the next is looked at, after those passed over when it has moved or
        comes after a drop-out."""
        self._came.tick(frame.at)
        if self._passes_over(frame):
            self._passed.append(frame)
            return []
        passed = [early for early in self._passed if early.at < frame.at]  # not an earlier source's
        self._passed = []
        # after a drop-out they are the last sight of the table before it: the gap the referee measures
        # (referee.observe.clock.GAP) begins at the last of them, not at the frame looked at before them
        dropped = self._looked_at is not None and frame.at - self._looked_at > GAP
        return passed + [frame] if passed and (dropped or self._moved(frame)) else [frame]

    def _passes_over(self, frame: Frame) -> bool:
        """Whether a frame is passed over: the table lies still (IDLE_AFTER), and the next frame, one
        interval of the camera's clock later, will still come within IDLE_LOOK of the last looked at."""
        looked = self._looked_at
        if looked is None or frame.at <= looked or not self.still.at_rest(looked, IDLE_AFTER):
            return False
        interval = self._came.interval
        return interval is not None and frame.at + interval <= looked + IDLE_LOOK + CLOCK

    def _moved(self, frame: Frame) -> bool:
        try:
            return self.still.moved(frame)
        except ImageError:
            return True  # skipped when it is read: the frames passed over are looked at

    def finish(self) -> list[Said]:
        """The source has ended (a film, a folder): what the referee still settles, once the frames
        passed over are looked at; a deal whose places are not named by then asks for them."""
        passed, self._passed = self._passed, []
        said = [said for due in passed for said in self._look(due)]
        self.finder.ended()  # a deal whose places were never named is asked to tap them
        return said + self._ask_seats() + self.controller.finish()

    def _look(self, frame: Frame) -> list[Said]:
        """Read one frame due and referee what it shows."""
        detections = self.read(frame)
        return [] if detections is None else self.advance(frame, detections)

    def read(self, frame: Frame) -> CardDetections | None:
        """The cards in a frame, read where the picture changed (StillReader), the places of the cards
        followed so far looked at closely; None for a picture that could not be decoded."""
        self._looked_at = frame.at
        try:
            return self.still.read(frame, self._tracked, self._pile())
        except ImageError as error:
            log.warning("a picture could not be read (%s); skipped", error)
            return None

    def _lean(self) -> None:
        """Find the cards lying across the picture seen flat (`LocatorConfig.leaning`) unless the table is
        seen from above: with FEWEST cards followed or more, the smallest at LEANS of the largest or more
        (of more than FEWEST + 1, the second smallest), and their perspective carried across the picture
        keeping ACROSS or more. Under STEEP, no face is named. The reader reads each card upright on the
        table's plane those cards show (`CardReader.plane`), fitted again when one of them came, went or moved.
        While fewer are, or they lie in a row, the locator is kept as it was (leaning at first: the first
        deal's cards on the far side must be found as they come)."""
        if len(self._tracked) < FEWEST or self._frame is None:
            return
        height, width = self._frame.pixels.shape[:2]
        perspective = across(self._tracked.quad, width, height)
        if perspective is None:  # cards in a row (the far side's, from a steep phone) tell nothing across it
            return
        areas = np.sort(quad_areas(self._tracked.quad))
        smallest = areas[1] if len(areas) > FEWEST + 1 else areas[0]  # of many, one may be a card under a hand
        leaning = bool(smallest < LEANS * areas[-1] or perspective < ACROSS)
        reader = self.still.reader
        reader.steep = perspective < STEEP
        where = np.sort(self._tracked.quad.reshape(-1, 8), axis=0)
        if self._planed is None or where.shape != self._planed.shape or np.abs(where - self._planed).max() > REFIT:
            reader.plane, self._planed = seen_plane(self._tracked.quad), where
        if reader.locator.leaning != leaning:
            reader.locator = replace(reader.locator, leaning=leaning)

    def _pile(self) -> np.ndarray | None:
        """The quad of the deck where it lies at the stock (`SeatFinder.pile`): the dealer lays his own card
        against it (`CloseLooks`); None where no card lies there."""
        return self.finder.pile(self._tracked)

    def advance(self, frame: Frame, detections: CardDetections) -> list[Said]:
        """Take one frame already read (`read(frame)`): follow, seat and referee its cards."""
        if frame.decoded:  # a frame not decoded showed the table as the last one decoded: pictured by it
            self._frame = frame
        self._tracked = self.tracker.update(detections, frame.at)
        self._lean()
        if self._first_at is None:
            self._first_at = frame.at
        before = self.finder.seats
        seats = self.finder.update(self._tracked, frame.at, self.tracker.unseen(frame.at, after=0.0))
        now = (self._tracked, frame.at, self.tracker.unseen(frame.at))
        if seats is None:
            self._unseated.append(now)  # seen again once the deal has shown where the seats are
            return self._ask_seats()
        if seats is not before and self._on_seats is not None:
            self._on_seats(seats, frame.size)
        said = []
        for tracked, at, unseen in [*self._unseated, now]:
            if at - self._first_at >= WARM_UP:
                said += self.controller.observe(observe_seats(tracked, seats, at, unseen))
        self._unseated.clear()
        return said

    @property
    def unsure(self) -> str | None:
        """Why the places are not named while every player's card lies (`SeatFinder.unsure`, a code of
        live.words and vision.seats): the hand waits for a person to tap each place on the Setup page's picture; None once
        the seats are known."""
        return self.finder.unsure if self.finder.seats is None else None

    def give_seats(self, seats: Seats) -> None:
        """Seats a person tapped on the Setup page's picture: the table is seated by them from the next frame on."""
        self.finder.give(seats)

    def _ask_seats(self) -> list[Said]:
        """A warning, once until the places are known, when the deal's places cannot be named surely (the deal
        is judged once, and stays unsure until a person taps the places)."""
        why = self.unsure
        if why is None or self.asked is not None:
            return []
        self.asked = why
        text = word(why, {}, "en")
        return [Said("warning", len(self.game.results) + 1, {"message": text}, text, word(why, {}, "it"),
                     None, why, {})]

    def picture(self, marked: Mapping[str, str] | None = None) -> np.ndarray | None:
        """The last frame with every confirmed card named and the seats drawn on it."""
        if self._frame is None:
            return None
        canvas = self._cards.annotate(self._frame.pixels, self._tracked)
        if self.seats is not None:
            canvas = self._seat_marks.annotate(canvas, self.seats, marked or {},
                                               typical_length(self._tracked))
        return canvas

    def _record(self, event: Event) -> str | None:
        """The controller's sink: store the event with a photo of the frame that showed it."""
        hand = self.game.hand
        number = hand.number if hand is not None and hand.result is None else len(
            self.game.results) + 1
        name = None
        if self.evidence is not None and self._frame is not None and not isinstance(event, Keep):
            name = self.evidence.name_for(event, number)
        self._play_event(event, name)  # the tally first: a photo that cannot be written loses nothing
        if name is not None:
            marked: dict[str, str] = {}
            decisions: list[Decision] = []
            if isinstance(event, Settle) and self.game.results:
                # drawn once for readers of every language: a sign, not words
                marked = {p: "-1" for p in self.game.results[-1].losers}
                decisions = self._decided(number) if self._decided is not None else []
            picture = self.picture(marked)
            assert picture is not None and self.evidence is not None
            if decisions and self.seats is not None:  # what a person decided in this hand
                picture = mark_decisions(picture, dict(zip(self.seats.names, self.seats.points)),
                                         decisions, typical_length(self._tracked))
            try:
                self.evidence.save(name, picture)
            except OSError as error:
                log.error("the evidence photo %s was not written: %s", name, error)
        return name


def watch_frames(watcher: TableWatcher, frames: Iterator[Frame]) -> Iterator[Said]:
    """Every happening of a stream of frames, as it happens."""
    for frame in frames:
        yield from watcher.step(frame)


class LiveLoop:
    """The web server's live loop: a frame source read in a thread, the table service fed.

    The service is the game's only writer: events, warnings and the live picture go through it,
    and the controller reads the game under the service's lock.
    """

    def __init__(self, service: Table, source: FrameSource, seats: Seats | None = None,
                 reader: CardReader | None = None,
                 on_verdict: Callable[[], None] | None = None) -> None:
        self.service = service
        self.source = source
        self._given_seats = seats
        self.reader = reader or CardReader()
        self._watcher: TableWatcher | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._last_picture = 0.0
        self._last_aim = 0.0
        self._rebuild = True
        self._tapped = False
        """Seats were kept on the page since the last frame: tapped ones reach the watcher."""
        self._on_verdict = on_verdict
        """Told when a hand is settled or a held hand decided (the demo holds its last picture by it)."""
        self.holds = Holds(service)
        service.on_new_game(lambda _game: self._new_game())
        service.on_seats(self._seats_kept)

    def start(self) -> LiveLoop:
        """Read the source in a thread of its own."""
        self._thread = threading.Thread(target=self._run, name="live-loop", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop reading and close the source."""
        self._stop.set()
        self.source.close()
        if self._thread is not None:
            self._thread.join(timeout)

    def _new_game(self) -> None:
        self._rebuild = True

    def rebuild(self) -> None:
        """Watch the table afresh from the next frame (a new table set up in the loop's own thread)."""
        self._rebuild = True

    def _watcher_for(self, frame: Frame) -> TableWatcher | None:
        game = self.service.game
        if game is None:
            return None
        if self._rebuild or self._watcher is None or self._watcher.game is not game:
            width, height = frame.size
            seats = self._given_seats or seats_from_taps(self.service.seats(), tuple(game.players),
                                                         (width, height))
            evidence = Evidence(self.service.evidence_dir)
            dealer_known = game.dealer is not None
            try:
                self._watcher = TableWatcher(game, self.service.play, reader=self.reader,
                                             seats=seats, evidence=evidence,
                                             dealer_known=dealer_known, on_seats=self._keep_seats,
                                             decided=self.holds.decided_in)
            except SeatsError as error:
                self.service.camera_status(_status("failed", "seats.failed", error=str(error)))
                return None
            with self.service.lock:
                self.holds.follow(self._watcher.controller, self._watcher.picture, evidence.save)
            self._rebuild = False
        return self._watcher

    def _seats_kept(self) -> None:
        self._tapped = True

    def _take_taps(self, watcher: TableWatcher, size: tuple[int, int]) -> None:
        """Seats tapped on the Setup page's picture seat the table from now on, unless they are the ones it has."""
        self._tapped = False
        tapped = seats_from_taps(self.service.seats(), tuple(watcher.game.players), size)
        if tapped is None:
            return
        have = watcher.seats
        if have is None or have.names != tapped.names or np.abs(
                np.subtract(have.points, tapped.points)).max() > TAPPED_SAME:
            watcher.give_seats(tapped)

    def _seated(self, watcher: TableWatcher) -> None:
        """Once the places are known, the warnings that asked for them are resolved (under the table's lock)."""
        if watcher.asked is None or watcher.seats is None:
            return
        watcher.asked = None
        store = self.service.store
        for warning in store.warnings(open_only=True) if store is not None else []:
            if warning.get("code") in UNSURE:
                self.service.resolve(warning["id"], json.dumps({"by": "camera", "way": "seats"}))

    def _keep_seats(self, seats: Seats, size: tuple[int, int]) -> None:
        """Seats found at the deal are kept, so the page shows them and a restart reuses them."""
        try:
            self.service.set_seats(size[0], size[1], dict(zip(seats.names, seats.points)))
        except ValueError as error:  # a seat found off the picture's edge: keep looking
            log.warning("the seats found were not kept: %s", error)

    @staticmethod
    def _rate(watcher: TableWatcher | None) -> dict[str, Any]:
        """The pictures a second the loop keeps up with, whole, and the least it needs when
        that is too few (the Live page shows both)."""
        rate = watcher.rate if watcher is not None else None
        if rate is None:
            return {}
        low = {"needed": needed()} if rate < MIN_RATE else {}
        return {"rate": round(rate), **low}

    def _run(self) -> None:
        try:
            for frame in self.source.frames():
                if self._stop.is_set():
                    break
                self._one(frame)
            if not self._stop.is_set() and self._watcher is not None:
                with self.service.lock:
                    self._watcher.finish()
        except Exception as error:  # the loop must say why it stopped, never die silently
            log.exception("the live loop stopped")
            self.service.camera_status(_status("failed", "loop.stopped", error=str(error)))
            return
        self.service.camera_status(self.source.status().to_json())

    def _one(self, frame: Frame) -> None:
        watcher = self._watcher_for(frame)
        self.service.camera_status({**self.source.status().to_json(), **self._rate(watcher)})
        if watcher is None:
            return
        if self._tapped:
            self._take_taps(watcher, frame.size)
        for due in watcher.due(frame):
            self._look(watcher, due)
        now = time.monotonic()
        if now - self._last_aim >= LIVE_EVERY:  # the phone page aims the camera by it
            self._last_aim = now
            self.service.show_aim(aim_view(watcher.seats, frame.size, watcher.cards,
                                           len(watcher.game.players), watcher.still.reader.steep))
        # drawn only for someone who looks (and once, so that a page opening finds a picture)
        if now - self._last_picture >= LIVE_EVERY and (not self._last_picture or self.service.watched()):
            self._last_picture = now
            picture = watcher.picture()
            if picture is not None:
                ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, LIVE_QUALITY])
                if ok:
                    self.service.show_frame(data.tobytes())

    def _look(self, watcher: TableWatcher, frame: Frame) -> None:
        """One frame read, then followed, seated and refereed under the service's lock."""
        detections = watcher.read(frame)
        if detections is None:
            return
        with self.service.lock:
            settled, decided = len(watcher.game.results), len(self.holds.decisions)
            said = watcher.advance(frame, detections)
            self.holds.told(said, frame.at)
            self._seated(watcher)
            outcome = (len(watcher.game.results) > settled
                       or len(self.holds.decisions) > decided)  # a verdict, or a held hand's
            if outcome and self._on_verdict is not None:
                self._on_verdict()
