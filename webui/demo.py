"""The demo: the sample films played through the real live loop as a camera's pictures, each film
setting up its table, the held hands answered as a family would (`saltacavallo serve --demo`)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from referee.wording import Message
from vision.frames import Frame, FrameSource, SourceError, SourceState, VideoFile
from vision.recognize import CardReader
from vision.source import coded

from live.loop import LiveLoop
from live.way import Redeal, Unseen, Way
from webui.table import TableService
from webui.words import say

HOLD = 10.0
"""Seconds a demo film's last picture stays after the film, before the next one sets up its table:
the last verdict stays in view long enough for a newcomer to read it and look at the cards."""
NEXT_GAME = Message("demo.next_game")
"""What the table page says while a demo film's last verdict is held."""

DEMO_FILMS = ("game", "hand", "hidden", "brisk", "illegal", "stands", "oblique", "classica")
"""The sample films the demo plays, one table after another, then again from the first."""
DEMO_ANSWERS: dict[str, Way] = {"stands": Redeal(), "hidden": Unseen("Gino", "Leo", "no")}
"""How the demo answers a film's held hand (live.held.DEMO_AFTER seconds in), as a family
would: an illegal swap the family played on voids the hand; two cards exchanged under the hands
and put back the same way were not swapped."""
FILMS = Path(__file__).resolve().parent.parent / "sample_images" / "sequences"


class DemoFilms(FrameSource):
    """The sample films in real time, each announcing its table (`on_film`) before its first frame.

    The frames go through the whole pipeline like a camera's; only where they come from differs.
    """

    place = coded("place.demo")

    def __init__(self, folder: Path = FILMS, names: tuple[str, ...] = DEMO_FILMS,
                 rounds: int | None = None, hold: float = HOLD, realtime: bool = True) -> None:
        super().__init__()
        self.folder, self.names, self.rounds = folder, names, rounds
        self.hold, self.realtime = hold, realtime
        self.on_film: Callable[[Mapping[str, Any]], None] | None = None
        self.on_hold: Callable[[float], None] | None = None
        self._verdict_at = 0.0
        self._current: FrameSource | None = None
        self._closed = False
        missing = [n for n in names if not (folder / f"{n}.json").is_file()]
        if missing:
            said = {"folder": str(folder), "names": ", ".join(missing)}
            raise SourceError(say("demo.missing", said, "en"), "demo.missing", said)

    def frames(self) -> Iterator[Frame]:
        """Film after film, for `rounds` rounds (None: until closed)."""
        done = 0
        try:
            while not self._closed and (self.rounds is None or done < self.rounds):
                for name in self.names:
                    yield from self._film(name)
                    if self._closed:
                        return
                done += 1
            self._set_status(SourceState.ENDED, "demo.ended")
        finally:  # the film is let go in the thread reading it: FFmpeg must not be closed mid-read
            if self._current is not None:
                self._current.close()

    def _film(self, name: str) -> Iterator[Frame]:
        """One film, its table announced first (`on_film`), its last picture held at the end."""
        truth = json.loads((self.folder / f"{name}.json").read_text(encoding="utf-8"))
        if self.on_film is not None:
            self.on_film(truth)
        self._set_status(SourceState.LIVE, "demo.film", name=name,
                         players=", ".join(truth["players"]))
        self._current = VideoFile(self.folder / truth["video"], realtime=self.realtime)
        last = None
        for last in self._current.frames():
            if self._closed:
                return
            yield last
        if last is not None:
            yield from self._held(last, self._current.fps)

    def verdict_given(self) -> None:
        """A hand of the film in play was settled (the live loop says so): the hold counts from now."""
        self._verdict_at = time.monotonic()

    def _held(self, last: Frame, fps: float) -> Iterator[Frame]:
        """The film's last picture again, at its rate, until `hold` seconds of real time have passed
        since the film ended or, when later, since its last verdict (`on_hold` told at the start)."""
        if self.on_hold is not None:
            self.on_hold(self.hold)
        self._set_status(SourceState.LIVE, "demo.next_in", seconds=self.hold)
        began = time.monotonic()
        count = 1
        while not self._closed:
            if time.monotonic() - max(began, self._verdict_at) >= self.hold:
                return
            time.sleep(max(0.0, began + count / fps - time.monotonic()))
            yield Frame(last.pixels, last.at + count / fps, last.index + count)
            count += 1

    def close(self) -> None:
        """Stop after the frame in hand (the reading thread lets the film go)."""
        self._closed = True
        super().close()


def demo_loop(service: TableService, films: DemoFilms, answers: Mapping[str, Way] = DEMO_ANSWERS,
              reader: CardReader | None = None) -> LiveLoop:
    """The live loop on the demo's films: each film sets up its table as a host would on the Setup
    page, and its held hand is answered as `answers` says (`{}`: a person answers every one)."""
    loop = LiveLoop(service, films, reader=reader, on_verdict=films.verdict_given)

    def set_up(truth: Mapping[str, Any]) -> None:
        service.announce(None)
        service.setup(truth["players"], truth["rules"], dealer=truth["dealer"])
        loop.holds.answer = answers.get(str(truth.get("name")))
        loop.rebuild()

    films.on_film = set_up
    films.on_hold = lambda _seconds: service.announce(NEXT_GAME)
    return loop
