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
from referee.wording import Message, about


@dataclass(frozen=True, slots=True)
class Said:
    """One narrated happening: its kind, the hand, its data, and the sentence in two languages;
    for a warning its `code` and `params` too (`referee.wording`), to be worded anew."""

    kind: str
    hand: int | None
    data: Mapping[str, Any]
    text: str
    text_it: str
    custody: Custody | None = field(default=None, compare=False)
    """For a settle or a hold: the cards' custody the verdict rests on (`watch --json`)."""
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The line `--json` prints: `{"event": kind, "hand": n, **data}`."""
        return {"event": self.kind, "hand": self.hand, **self.data}

    def words(self, language: str = "en") -> str:
        """The sentence in `language` ("it" or "en")."""
        return self.text_it if language == "it" else self.text


@dataclass(frozen=True, slots=True)
class Warning:  # the interface's name, though it shadows the builtin here
    """Something a person must look at: the message in two languages and the hand it holds,
    and the same as a code with parameters (`referee.wording`)."""

    message: str
    message_it: str
    hand: int | None
    release: Callable[[TableObservation], bool] | None = field(default=None, compare=False)
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def words(self, language: str = "en") -> str:
        """The message in `language` ("it" or "en"), its hand first."""
        return self.message_it if language == "it" else self.message


Worded = tuple[str, str, str, dict[str, Any]]
"""A happening's English and Italian sentences, its code and its parameters."""


def worded(hand: int | None, code: str, params: Mapping[str, Any] | None,
           headed: bool = True) -> Worded:
    """A happening's sentences in English and Italian (about `hand`, `hand 2: ...`, when
    `headed`), its code and its parameters (`referee.wording`)."""
    message = Message(code, dict(params or {}))
    head = hand if headed else None
    return (about(head, message.words("en")), about(head, message.words("it"), "it"), code,
            dict(message.params))


class Context:
    """The game the phases referee, where its events go, what was said and what holds the hand."""

    def __init__(self, game: Game, sink: Callable[[Event], str | None] | None) -> None:
        self.game = game
        self._sink = sink if sink is not None else self._into_game
        self.held: Warning | None = None
        self.out: list[Said] = []
        self.warned: set[str] = set()  # this hand's warnings told, and the unread cards asked about
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

    def say(self, kind: str, data: Mapping[str, Any], told: Message, hand: int | None = -1
            ) -> None:
        """Narrate a happening, `told` by its code and parameters (`referee.wording`)."""
        number = self.number() if hand == -1 else hand
        rests = self.custody if kind == "settle" and self.custody.chains else None
        text, text_it, code, params = worded(number, told.code, told.params, headed=False)
        self.out.append(Said(kind, number, dict(data), text, text_it, rests, code, params))

    def warn(self, *, code: str, params: Mapping[str, Any] | None = None, hand: int | None = -1,
             headed: bool = True) -> bool:
        """Narrate a warning once (True the first time), by its `code` and `params`
        (`referee.wording`, worded here with the hand first when `headed`)."""
        number = self.number() if hand == -1 else hand
        return self._warn(number, worded(number, code, params, headed))

    def _warn(self, number: int | None, said: Worded) -> bool:
        message, message_it, code, params = said
        if message in self.warned:
            return False
        self.warned.add(message)
        self.out.append(Said("warning", number, {"message": message}, message, message_it, None,
                             code, params))
        return True

    def hold(self, release: Callable[[TableObservation], bool] | None = None, *, code: str,
             params: Mapping[str, Any] | None = None, hand: int | None = -1) -> None:
        """Hold the hand for a person: nothing is played until `resume()` or `release`. Told by
        its `code` and `params` (`referee.wording`)."""
        number = self.number() if hand == -1 else hand
        said = worded(number, code, params)
        if self._warn(number, said) and self.custody.chains:
            self.out[-1] = replace(self.out[-1], custody=self.custody)
        self.held = Warning(said[0], said[1], number, release, said[2], said[3])

    def lasts(self, key: str, at: float, after: float) -> bool:
        """Whether a condition seen now has lasted `after` seconds (call it while it holds)."""
        self._lasting.add(key)
        return at - self._since.setdefault(key, at) >= after

    # -- what every phase may say --------------------------------------------------------------

    def keep(self, player: str) -> None:
        self.play(Keep(player))
        self.say("keep", {"player": player}, Message("told.keep", {"player": player}))

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
        asked = f"unread {player} {view.card.code if view.card is not None else '?'}"
        if asked in self.warned:
            return  # asked once, however the guess's confidence wavers from frame to frame
        self.warned.add(asked)
        number = self.number() if self.game.dealer is not None else None
        if view.card is None:
            self.warn(hand=number, code="card.unread", params={"player": player})
        else:
            self.warn(hand=number, code="card.unread_guess", params={
                "player": player, "card": view.card.code, "confidence": float(view.confidence)})

    def missing(self, player: str, now: Moment) -> None:
        """A living seat without its card for MISSING_AFTER is reported."""
        if now.seen.face(player) is Face.EMPTY and self.lasts(f"missing {player}", now.at,
                                                              MISSING_AFTER):
            self.warn(code="seat.missing", params={"player": player})

    def dead_seats(self, now: Moment) -> None:
        """A card at a dead player's seat is reported (he gets no card and takes no turn)."""
        game = self.game
        for player in game.players:
            if game.lives[player] <= 0 and now.seen.face(player) is not Face.EMPTY:
                self.warn(code="seat.dead", params={"player": player})
