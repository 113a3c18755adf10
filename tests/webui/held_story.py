"""A table told as stories (the referee tests' notation), its holds on the held hand's desk.

`StoryTable(table)` drives a `Controller` on the table service's game, each line shown to it as
a camera at 15 pictures a second would, under the table's lock, and hands what it says to a
`live.held.Holds`, exactly as the live loop does with a camera's frames.
"""

from __future__ import annotations

import numpy as np

from referee.observation import TableObservation
from referee.observe import DEAL_STILL, Controller, Said, Warning
from referee.observe.context import worded
from referee.wording import Message
from live.held import Holds
from webui.table import TableService

FPS = 15
EMPTY4 = "Anna - Bruno - Carla - Dario -"
WALLED = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4"
"""Dario deals; Bruno shows the Re di Coppe: Anna may not swap, Carla may swap with Dario."""
PAST_THE_WALL = [(7.0, "Anna - Bruno 10C#2 Carla - Dario down#4"),
                 (8.0, "Anna down#3 Bruno 10C#2 Carla down#1 Dario down#4")]
"""Anna swaps with Carla past Bruno's wall: held (swap.undo)."""
UNDER_THE_HANDS = [(7.0, "Anna down#1~ Bruno 10C#2 Carla down#3~ Dario down#4"),
                   (8.0, WALLED), (8.4, WALLED)]
"""Anna's and Carla's cards covered together for a second: held (swap.unseen)."""
FACES = "Anna 5S#3 Bruno 10C#2 Carla 3D#1 Dario 6B#4"
"""The reveal after Anna's and Carla's cards were exchanged: Carla's Tre di Denari pays."""

WALL = Message("walk.wall", {"player": "Anna", "jumps": [], "blocker": "Bruno", "card": "10C"})
"""Why Anna may not swap after the deal told by WALLED."""
RAISED_PARAMS = {
    "card.unread": {"player": "Carla"},
    "card.unread_guess": {"player": "Carla", "card": "3D", "confidence": 0.42},
    "seat.missing": {"player": "Carla"},
    "seats.off": {"players": ["Carla"]},
    "seat.dead": {"player": "Carla"},
    "face_up.refused": {"why": Message("face_up.twice", {"card": "3D"})},
    "deal.refused": {"why": Message("deal.twice", {"card": "3D"})},
    "reveal.refused": {"why": Message("reveal.drew", {"player": "Dario", "card": "3D",
                                                      "held": "7B"})},
    "draw.refused": {"why": Message("draw.not_dealer", {"player": "Carla"})},
    "draw.unseen": {"dealer": "Dario"},
    "cards.two_seats": {"card": "3D", "first": "Anna", "second": "Carla"},
    "card.reads_otherwise": {"player": "Carla", "card": "3D", "read": "5S"},
    "sink.refused": {"why": Message("turn.other", {"player": "Carla", "action": "swap",
                                                   "due": "Anna"})},
    "shown.moved": {"owner": "Bruno", "card": "10C"},
    "shown.moved_to": {"owner": "Bruno", "card": "10C", "seat": "Carla"},
    "shown.late": {"player": "Carla", "card": "9S"},
    "moves.not_one_swap": {"players": ["Anna", "Carla", "Dario"]},
    "moves.not_followed": {"players": ["Anna", "Carla", "Dario"]},
    "swap.undo": {"why": WALL},
    "draw.undo": {"why": Message("draw.not_now", {"dealer": "Dario"})},
    "sight.lost": {"gap": 1.5},
    "swap.unseen": {"a": "Anna", "b": "Carla"},
    "swap.unread": {"a": "Anna", "b": "Carla"},
    "swap.put_back": {"a": "Anna", "b": "Carla"},
    "pictures.slow": {"rate": 3.0, "needed": 5},
    "ask.played": {"why": Message("pictures.slow", {"rate": 3.0, "needed": 5})},
}
"""Parameters for every code the live loop raises (referee.wording.RAISED), at WALLED's table."""


def _seats(line: str) -> dict[str, str]:
    words = line.split()
    return {name: view.rstrip("~") for name, view in zip(words[::2], words[1::2], strict=True)}


def observation(at: float, line: str) -> TableObservation:
    words = line.split()
    hidden = tuple(n for n, v in zip(words[::2], words[1::2], strict=True) if v.endswith("~"))
    return TableObservation.of(at, _seats(line), hidden=hidden)


class StoryTable:
    """The table's game told line by line, its holds on a desk the pages read."""

    def __init__(self, table: TableService, picture: bool = True) -> None:
        self.table = table
        self.holds = Holds(table)
        self.controller = Controller(table.game, self._store)
        self.photos: dict[str, np.ndarray] = {}
        frame = np.full((90, 160, 3), 90, np.uint8)
        self.holds.follow(self.controller, (lambda: frame) if picture else None, self._keep)
        self.last: tuple[float, str] | None = None

    def _store(self, event) -> None:
        self.table.play(event)
        return None

    def _keep(self, name: str, picture: np.ndarray) -> None:
        self.photos[name] = picture
        import cv2

        ok, data = cv2.imencode(".jpg", picture)
        assert ok
        (self.table.evidence_dir / name).write_bytes(data.tobytes())

    def tell(self, story: list[tuple[float, str]]) -> list[dict]:
        """Show each line, held until the next, at FPS; all that was said, as JSON lines."""
        said = []
        for at, line in story:
            if self.last is not None:
                start, held = self.last
                k = 1
                while start + k / FPS < at - 1e-9:
                    said += self._show(start + k / FPS, held)
                    k += 1
            said += self._show(at, line)
            self.last = (at, line)
        return said

    def _show(self, at: float, line: str) -> list[dict]:
        with self.table.lock:
            lines = self.controller.observe(observation(at, line))
            self.holds.told(lines, at)
        return [line.to_json() for line in lines]

    def raise_code(self, code: str, holding: bool, at: float) -> None:
        """Raise `code` (with RAISED_PARAMS) as the controller does, holding the hand or only
        warning, and hand it to the desk as the live loop does."""
        game = self.table.game
        hand = game.hand
        number = hand.number if hand is not None and hand.result is None else len(
            game.results) + 1
        text, text_it, code, params = worded(number, code, RAISED_PARAMS[code])
        with self.table.lock:
            if holding:
                self.controller.hold(Warning(text, text_it, number, None, code, params))
            self.holds.told([Said("warning", number, {"message": text}, text, text_it, None,
                                  code, params)], at)

    def dealt(self) -> None:
        """Dario deals, Bruno shows the Re di Coppe."""
        said = self.tell([(0.0, EMPTY4), (1.0, WALLED), (1.0 + DEAL_STILL, WALLED)])
        assert said[0]["event"] == "deal"
