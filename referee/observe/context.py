"""What the controller's phases share: the game, the sink its events go to, and the narration."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from referee.events import Event, Keep
from referee.game import Game, Phase
from referee.observation import Face, TableObservation
from referee.observe.custody import Custody
from referee.observe.moment import MISSING_AFTER, UNREAD_AFTER, Moment


@dataclass(frozen=True, slots=True)
class Said:
    """One narrated happening: its kind, the hand, its data, and the sentence in two languages."""

    kind: str
    hand: int | None
    data: Mapping[str, Any]
    text: str
    text_it: str
    custody: Custody | None = field(default=None, compare=False)
    """For a settle or a hold: the cards' custody the verdict rests on (`watch --json`)."""

    def to_json(self) -> dict[str, Any]:
        """The line `--json` prints: `{"event": kind, "hand": n, **data}`."""
        return {"event": self.kind, "hand": self.hand, **self.data}


@dataclass(frozen=True, slots=True)
class Warning:  # the interface's name, though it shadows the builtin here
    """Something a person must look at: the message in two languages and the hand it holds."""

    message: str
    message_it: str
    hand: int | None
    release: Callable[[TableObservation], bool] | None = field(default=None, compare=False)


class Context:
    """The game the phases referee, where its events go, what was said and what holds the hand."""

    def __init__(self, game: Game, sink: Callable[[Event], str | None] | None) -> None:
        self.game = game
        self._sink = sink if sink is not None else self._into_game
        self.held: Warning | None = None
        self.out: list[Said] = []
        self.warned: set[str] = set()
        self.custody = Custody()  # the face-down cards' chains since the deal
        self._since: dict[str, float] = {}
        self._lasting: set[str] = set()
        self.known = self.stamp()

    def begin(self) -> None:
        """A new observation: nothing said yet, no condition lasting yet."""
        self.out = []
        self._lasting = set()

    def end(self) -> None:
        """The conditions not seen in this observation start again."""
        self._since = {k: v for k, v in self._since.items() if k in self._lasting}

    def stamp(self) -> tuple[int, int]:
        """The game's history as it stands (a person's undo or correction changes it)."""
        history = self.game.history
        return len(history), id(history[-1]) if history else 0

    def _into_game(self, event: Event) -> str | None:
        self.game.play(event)
        return None

    def play(self, event: Event) -> str | None:
        """Play one event through the sink; the name of its evidence photo, if any."""
        evidence = self._sink(event)
        self.known = self.stamp()
        return evidence

    def release(self) -> None:
        """Let the held warning go; told again if it happens again."""
        if self.held is not None:
            self.warned.discard(self.held.message)
        self.held = None

    # -- narration -----------------------------------------------------------------------------

    def number(self) -> int:
        """The number of the hand being played, or of the next one."""
        hand = self.game.hand
        if hand is not None and hand.result is None:
            return hand.number
        return len(self.game.results) + 1

    def say(self, kind: str, data: Mapping[str, Any], text: str, text_it: str,
            hand: int | None = -1) -> None:
        number = self.number() if hand == -1 else hand
        rests = self.custody if kind == "settle" and self.custody.chains else None
        self.out.append(Said(kind, number, dict(data), text, text_it, rests))

    def warn(self, message: str, message_it: str, hand: int | None = -1) -> bool:
        """Narrate a warning once (True the first time)."""
        if message in self.warned:
            return False
        self.warned.add(message)
        self.say("warning", {"message": message}, message, message_it, hand)
        return True

    def hold(self, message: str, message_it: str,
             release: Callable[[TableObservation], bool] | None = None) -> None:
        """Hold the hand for a person: nothing is played until `resume()` or `release`."""
        if self.warn(message, message_it) and self.custody.chains:
            self.out[-1] = replace(self.out[-1], custody=self.custody)
        self.held = Warning(message, message_it, self.number(), release)

    def lasts(self, key: str, at: float, after: float) -> bool:
        """Whether a condition seen now has lasted `after` seconds (call it while it holds)."""
        self._lasting.add(key)
        return at - self._since.setdefault(key, at) >= after

    # -- what every phase may say --------------------------------------------------------------

    def keep(self, player: str) -> None:
        self.play(Keep(player))
        self.say("keep", {"player": player}, f"{player} keeps", f"{player} tiene la carta")

    def keep_until(self, player: str | None) -> None:
        """Everyone due before `player` (everyone left, for None) kept his card."""
        game = self.game
        while game.phase is Phase.TURNS and game.current_player != player:
            due = game.current_player
            assert due is not None
            self.keep(due)

    def unread(self, player: str, now: Moment) -> None:
        """A face-up card unnamed for UNREAD_AFTER is put to a person."""
        view = now.view(player)
        if not self.lasts(f"unread {player}", now.at, UNREAD_AFTER):
            return
        number = self.number() if self.game.dealer is not None else None
        guess = f" (it reads {view.card.code} at {view.confidence:.2f})" if view.card else ""
        head = f"hand {number}: " if number is not None else ""
        capo = f"mano {number}: " if number is not None else ""
        self.warn(f"{head}{player}'s face-up card cannot be read{guess}: name it by hand",
                  f"{capo}la carta scoperta di {player} non si legge: indicatela a mano", number)

    def missing(self, player: str, now: Moment) -> None:
        """A living seat without its card for MISSING_AFTER is reported."""
        if now.seen.face(player) is Face.EMPTY and self.lasts(f"missing {player}", now.at,
                                                              MISSING_AFTER):
            number = self.number()
            self.warn(f"hand {number}: {player}'s card is missing from {player}'s seat",
                      f"mano {number}: manca la carta di {player}")

    def dead_seats(self, now: Moment) -> None:
        """A card at a dead player's seat is reported (he gets no card and takes no turn)."""
        game = self.game
        number = self.number()
        for player in game.players:
            if game.lives[player] <= 0 and now.seen.face(player) is not Face.EMPTY:
                self.warn(f"hand {number}: a card lies at {player}'s seat, but {player} is dead "
                          "and gets no card",
                          f"mano {number}: c'è una carta al posto di {player}, che è morto e "
                          "non riceve carte")
