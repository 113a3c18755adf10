"""A hand held for a person: what the camera saw, what the rules say, and the ways on.

`Holds` keeps the warnings the live loop's controller raises (each stored at once), follows the
one holding the hand (with the photo of the moment it was held, and the table as the camera
sees it now) and the others still open in the hand (asked of a person, the hand going on), and
carries out a person's choice of a way on (`live.ways`): the events are stored, the warning
resolved, the controller resumed where it held, and every open page told. The latest
decision can be taken back while nothing has been played since. The demo answers a held hand
by itself, as a family would, through the same call a person's tap makes.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from referee.cards import DECK, parse_card
from referee.events import Event
from referee.game import Game, RuleError
from referee.observe import Controller, Said, Warning
from referee.observe.context import worded
from referee.wording import Message, about, plain, word

from live import ways
from live.table import Table
from live.way import (ANSWERS, CorrectWay, DrawWay, HeldError, Noted, Offer, Redeal, Resolved,
                      SwapWay, Taken, TapSeats, Unseen, Way, Write, WriteForm)
from live.words import Coded, card_json

log = logging.getLogger("saltacavallo.held")

DEMO_AFTER = 10.0
"""Seconds of the film's own clock a demo's held hand waits before the demo answers it: long
enough to read the page, and counted in the film so the answer falls where the film means it."""
GOLD = (40, 178, 230)
"""What was decided by hand is drawn on the settlement's photo in the page's gold (BGR)."""

Picture = Callable[[], "np.ndarray | None"]
Save = Callable[[str, np.ndarray], object]


@dataclass
class Hold:
    """The warning holding the hand: its stored id, what was seen when it came."""

    ident: int
    warning: Warning
    moved: tuple[str, ...]
    photo: str | None
    at: float
    answer: Way | None = None
    """The demo's answer, given DEMO_AFTER seconds after `at`."""
    holding: bool = True
    """False for a warning that does not hold the hand: asked until a hand is settled."""
    after: int = 0
    """The hands settled when it was raised."""


@dataclass
class Decision:
    """A way on taken: by whom, what it played or undid, and the hold it cleared."""

    number: int
    way: Taken
    by: str
    hold: Hold
    played: int = 0
    undone: tuple[Event, ...] = ()
    mark: tuple[int, int] = (0, 0)
    then: Hold | None = None
    taken_back: bool = False
    seats: tuple[str, ...] = field(default=())
    dealer: str | None = None
    """Who deals again after a hand made void."""

    @property
    def hand(self) -> int | None:
        return self.hold.warning.hand


def stamp(game: Game) -> tuple[int, int]:
    """The game's history as it stands (anything played or undone changes it)."""
    history = game.history
    return len(history), id(history[-1]) if history else 0


class Holds:
    """The warnings of the live loop's controller, and the held hand waiting for a person."""

    def __init__(self, service: Table) -> None:
        self.service = service
        self.controller: Controller | None = None
        self._picture: Picture = lambda: None
        self._keep: Save | None = None
        self.hold: Hold | None = None
        self.decisions: list[Decision] = []
        self.warned: dict[int, Hold] = {}
        """The open warnings that do not hold the hand, by stored id, oldest first."""
        self.answer: Way | None = None
        """What the demo answers the next hold with (None: a person answers)."""
        self._seen: list[dict[str, Any]] | None = None
        service.desk = self
        service.on_resolve(self._resolved)
        service.on_new_game(lambda _game: self.reset())

    def follow(self, controller: Controller, picture: Picture | None = None,
               keep: Save | None = None) -> None:
        """Follow this controller's holds; `picture` gives the moment's annotated photo and
        `keep(name, picture)` keeps it beside the evidence."""
        self.controller = controller
        self._picture = picture or (lambda: None)
        self._keep = keep
        self.hold = None

    def reset(self) -> None:
        """A new game: nothing held, nothing decided."""
        self.hold = None
        self.decisions = []
        self.warned = {}

    # -- what the controller says -------------------------------------------------------------

    def told(self, said: Sequence[Said], at: float) -> None:
        """After one observation (under the table's lock): every warning stored, the held hand
        followed, the table seen now passed on, and the demo's answer given when due."""
        controller, service = self.controller, self.service
        assert controller is not None
        held = controller.held
        moved: tuple[str, ...] = ()
        found = None
        for line in said:
            if line.kind == "swap" and line.data.get("legal") is False:
                moved = (str(line.data["from"]), str(line.data["to"]))
            if line.kind == "warning":
                ident = service.warn(line.text, line.hand, line.code or None, line.params)
                if held is not None and line.text == held.message:
                    found = ident
                else:
                    self.warned[ident] = Hold(ident, Warning(
                        line.text, line.text_it, line.hand, None, line.code, line.params),
                        _about(line.params), None, at, holding=False,
                        after=len(controller.game.results))
        hold = self.hold
        if hold is not None and held is not hold.warning:  # the cards were put back, or a
            self._let_go(hold)  # person changed the game on the Storico page
        if held is not None and (hold is None or held is not hold.warning):
            if found is None:  # told before as a warning: the same one holds the hand now
                found = next((i for i, w in self.warned.items()
                              if w.warning.message == held.message), None)
            if found is None:
                found = service.warn(held.message, held.hand, held.code or None, held.params)
            self.warned.pop(found, None)
            self.hold = Hold(found, held, moved or _named(held.params), self._photo(held.hand),
                             at, self.answer)
            self._seen = None
            service.changed()
        elif self.hold is not None:
            seen = ways.seen_cards(controller.game, controller.seen)
            if seen != self._seen:
                self._seen = seen
                service.changed()
        hold = self.hold
        if hold is not None and hold.answer is not None and at - hold.at >= DEMO_AFTER:
            answer, hold.answer = hold.answer, None
            try:
                service.decide(hold.ident, answer, by="demo")
            except (RuleError, Coded) as error:  # a hold the film did not mean: a person's
                log.warning("the demo did not answer the held hand: %s", error)

    def _photo(self, hand: int | None) -> str | None:
        picture = self._picture()
        if picture is None or self._keep is None:
            return None
        name = f"held-{hand or 0:02d}-{len(self.decisions) + 1:04d}.jpg"
        try:
            self._keep(name, picture)
        except OSError as error:
            log.error("the photo of the held hand was not written: %s", error)
            return None
        return name

    def _let_go(self, hold: Hold) -> None:
        """The hold ended without a person's choice: its warning is resolved as such."""
        self.hold = None
        store = self.service.store
        if store is not None and any(w.get("id") == hold.ident for w in store.warnings(open_only=True)):
            self.service.resolve(hold.ident, json.dumps({"by": "camera", "way": "released"}))

    def _resolved(self, ident: int, how: str) -> None:
        """A warning resolved on the Storico page: the held one resumes the hand."""
        self.warned.pop(ident, None)
        hold = self.hold
        if hold is None or hold.ident != ident or self.controller is None:
            return
        self.hold = None
        with self.service.lock:
            self.controller.resume()
        self._decided(Resolved(how), "person", hold)

    # -- a person's choice ------------------------------------------------------------------

    def asked(self) -> Hold | None:
        """The newest open warning asking a person while no hand is held (none settled since
        it was raised): the page offers its ways on."""
        return next((w for w in reversed(self.warned.values()) if self._asking(w)), None)

    def _asking(self, warning: Hold | None) -> bool:
        """Whether `warning` (one not holding the hand) is asked of a person now."""
        return (warning is not None and self.hold is None and self.controller is not None
                and warning.after == len(self.controller.game.results))

    def offered(self, hold: Hold | None = None) -> list[Offer]:
        """The ways on from the held hand now (or from the warning `hold`)."""
        hold, controller = hold or self.hold, self.controller
        assert hold is not None and controller is not None
        warning = hold.warning
        return ways.offered(controller.game, warning.code, warning.params, hold.moved,
                            controller.seen, hold.holding)

    def decide(self, ident: int, way: Way, by: str = "person") -> Decision:
        """Take a way on from held hand `ident`, or from the warning `ident` asked (under the
        table's lock): its events stored, the warning resolved, the controller resumed; a
        HeldError when no such hand is held or warning asked or the way is not offered, the
        game's RuleError when it refuses the events."""
        controller, service = self.controller, self.service
        hold = self.hold if self.hold is not None else self.warned.get(ident)
        if hold is None or hold.ident != ident or controller is None or not (
                hold.holding or self._asking(hold)):
            raise HeldError("held.none", id=ident)
        if not ways.matching(way, self.offered(hold)):
            raise HeldError("held.way")
        game = controller.game
        over = hold.holding and hold.warning.code in ways.OVER
        events = ways.events_for(game, way, over)
        undone = ways.since_deal(game) if isinstance(way, Redeal) else []
        if hold.holding:  # resolved here: not taken for a resolution on the Storico page
            self.hold = None
        else:
            del self.warned[ident]
        service.resolve(ident, json.dumps({"by": by, **way.to_json()}, ensure_ascii=False))
        for event in events:
            service.play(event)
        for _ in undone:
            service.undo()
        then = None
        if isinstance(way, Redeal):
            controller.deal_again()
        elif isinstance(way, Unseen) and way.answer == "yes":
            then = self._ask_put_back(hold, way.a, way.b)
        elif hold.holding:  # a warning's events are read back by the controller itself
            controller.resume()
        return self._decided(way, by, hold, len(events), tuple(undone), then)

    def _ask_put_back(self, hold: Hold, a: str, b: str) -> Hold:
        """The two cards were exchanged under the hands, which the game does not allow: the
        hand stays held until they are put back (the camera cannot see that either)."""
        assert self.controller is not None
        number = hold.warning.hand
        text, text_it, code, params = worded(number, "swap.put_back", {"a": a, "b": b})
        warning = Warning(text, text_it, number, None, code, params)
        ident = self.service.warn(text, number, code, params)
        self.controller.hold(warning)
        self.hold = Hold(ident, warning, (a, b), hold.photo, hold.at)
        return self.hold

    def _decided(self, way: Taken, by: str, hold: Hold, played: int = 0,
                 undone: tuple[Event, ...] = (), then: Hold | None = None) -> Decision:
        assert self.controller is not None
        game = self.controller.game
        decision = Decision(len(self.decisions) + 1, way, by, hold, played, undone,
                            stamp(game), then, seats=_seats(way, hold),
                            dealer=game.next_dealer if isinstance(way, Redeal) else None)
        self.decisions.append(decision)
        self.service.changed()
        return decision

    def take_back(self, number: int) -> None:
        """Take back decision `number`, the latest, while nothing was played since: its events
        undone (or the hand's events played again), the hand held as it was."""
        controller, service = self.controller, self.service
        decision = self.decisions[-1] if self.decisions else None
        if (decision is None or decision.number != number or decision.taken_back
                or controller is None):
            raise HeldError("decision.none", id=number)
        if isinstance(decision.way, Resolved) or stamp(controller.game) != decision.mark:
            raise HeldError("decision.late")
        then = decision.then
        if then is not None and self.hold is then:
            self.hold = None
            service.resolve(then.ident, json.dumps({"by": "person", "way": "taken_back"}))
        for _ in range(decision.played):
            service.undo()
        for event in decision.undone:
            service.play(event)
        warning = decision.hold.warning
        ident = service.warn(warning.message, warning.hand, warning.code or None, warning.params)
        again = replace(decision.hold, ident=ident, answer=None)
        if again.holding:
            controller.hold(warning)
            self.hold = again
        else:
            self.warned[ident] = again
        decision.taken_back = True
        service.changed()

    # -- what the pages show ----------------------------------------------------------------

    def state(self, game: Game, language: str = "it") -> dict[str, Any]:
        """The held hand, the latest decision and each hand's decisions, for the page state in
        `language`."""
        return {"held": self._held_json(game, self.hold, language),
                "asked": self._held_json(game, self.asked(), language),
                "decided": self._decided_json(game, language),
                "decisions": self.by_hand(language)}

    def by_hand(self, language: str = "it") -> dict[int, list[dict[str, str]]]:
        """Every hand's decisions standing, in words of `language`."""
        found: dict[int, list[dict[str, str]]] = {}
        for decision in self.decisions:
            if not decision.taken_back and decision.hand is not None:
                found.setdefault(decision.hand, []).append(_words(decision, language))
        return found

    def decided_in(self, hand: int) -> list[Decision]:
        """The decisions standing in hand `hand` (drawn on its settlement's photo)."""
        return [d for d in self.decisions if d.hand == hand and not d.taken_back]

    def _held_json(self, game: Game, hold: Hold | None, language: str) -> dict[str, Any] | None:
        controller = self.controller
        if hold is None or controller is None:
            return None
        warning = hold.warning
        rule = ways.rule(game, warning.code, warning.params) if hold.holding else None
        offered = self.offered(hold)
        demo = None
        if hold.answer is not None:
            what = _way_message(hold.answer)
            params = {"seconds": DEMO_AFTER, "what": what}
            demo = {"text": word("demo.answers", params, language)}
        return {
            "id": hold.ident, "hand": warning.hand, "code": warning.code,
            "params": plain(warning.params),
            "text": _capital(about(warning.hand, word(warning.code, warning.params, language),
                                    language)),
            "rule": None if rule is None else {"text": _capital(rule.words(language))},
            "photo": f"/evidence/{hold.photo}" if hold.photo else None,
            "seen": [{**seat, "name": _name(seat["card"], language)}
                     for seat in ways.seen_cards(game, controller.seen)],
            "ways": [{**way.to_json(), **_way_words(way, language)} for way in offered],
            "demo": demo, "holding": hold.holding,
            "deck": [_name(card.code, language) for card in DECK]
            if any(isinstance(way, WriteForm) for way in offered) else [],
        }

    def _decided_json(self, game: Game, language: str) -> dict[str, Any] | None:
        decision = self.decisions[-1] if self.decisions else None
        if decision is None or decision.taken_back:
            return None
        return {"number": decision.number, "hand": decision.hand, "way": decision.way.to_json(),
                "by": decision.by, **_words(decision, language),
                "undoable": not isinstance(decision.way, Resolved) and stamp(game) == decision.mark}


def _about(params: Mapping[str, Any]) -> tuple[str, ...]:
    """The seats a warning that does not hold the hand is about (marked on the photo)."""
    return (str(params["player"]),) if "player" in params else _named(params)


def _named(params: Mapping[str, Any]) -> tuple[str, ...]:
    """The seats a hold's parameters name (two covered together, cards moved between)."""
    if "a" in params and "b" in params:
        return (str(params["a"]), str(params["b"]))
    return tuple(str(p) for p in params.get("players", ()))


def _seats(way: Taken, hold: Hold) -> tuple[str, ...]:
    """The seats a decision is about (marked on the photo)."""
    match way:
        case SwapWay(player, target):
            return (player, target)
        case Unseen(a, b):
            return (a, b)
        case Write(cards):
            return tuple(player for player, _ in cards)
        case DrawWay(player) | CorrectWay(player):
            return (player,)
    return hold.moved


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _name(code: str | None, language: str) -> dict[str, str] | None:
    return None if code is None else card_json(parse_card(code), language)


def _way_message(way: Offer | Way) -> Message:
    """A way on as the button says it."""
    match way:
        case SwapWay(player, target):
            return Message("way.swap", {"player": player, "target": target})
        case Unseen(a, b, answer):
            code = {"yes": "way.unseen_yes", "no": "way.unseen_no"}.get(answer or "", "way.unseen")
            return Message(code, {"a": a, "b": b})
        case DrawWay(player, card) | CorrectWay(player, card):
            code = "way.draw" if isinstance(way, DrawWay) else "way.correct"
            return Message(code, {"player": player, "card": card.code})
        case Redeal():
            return Message("way.redeal")
        case Write() | WriteForm():
            return Message("way.write")
        case Noted():
            return Message("way.noted")
        case TapSeats():
            return Message("way.seats")
    return Message("way.continue")


def _way_words(way: Offer, language: str) -> dict[str, Any]:
    """A way's button in `language` (and, for the question, its two answers)."""
    said: dict[str, Any] = {"text": _way_message(way).words(language)}
    if isinstance(way, Unseen):
        for answer in ANSWERS:
            said[answer] = {"text": _way_message(replace(way, answer=answer)).words(language)}
    if isinstance(way, Redeal):
        said["note"] = {"text": word("way.redeal_note", {}, language)}
    return said


def _decision_message(decision: Decision) -> Message:
    """What a decision did, in one sentence."""
    match decision.way:
        case SwapWay(player, target):
            return Message("decided.swap", {"player": player, "target": target})
        case Unseen(a, b, answer):
            code = "decided.unseen_yes" if answer == "yes" else "decided.unseen_no"
            return Message(code, {"a": a, "b": b})
        case Redeal():
            return Message("decided.redeal", {"dealer": decision.dealer or ""})
        case Write(cards):
            said = ", ".join(f"{p} {parse_card(str(c)).italian}" for p, c in cards)
            return Message("decided.write", {"cards": said})
        case Resolved(how):
            return Message("decided.resolved", {"how": how})
        case DrawWay(player, card) | CorrectWay(player, card):
            code = "decided.draw" if isinstance(decision.way, DrawWay) else "decided.correct"
            return Message(code, {"player": player, "card": card.code})
        case Noted():
            return Message("decided.noted")
    return Message("decided.continue")


def _words(decision: Decision, language: str) -> dict[str, str]:
    """A decision's sentence in `language`, the demo's said to be the demo's."""
    message = _decision_message(decision)
    if decision.by == "demo":
        message = Message("decided.by_demo", {"what": message})
    return {"text": _capital(about(decision.hand, message.words(language), language))}


# -- the settlement's photo ------------------------------------------------------------------

def mark_decisions(picture: np.ndarray, points: Mapping[str, tuple[float, float]],
                   decisions: Sequence[Decision], length: float) -> np.ndarray:
    """`picture` with what was decided by hand drawn on it, a sign for readers of every
    language: a gold frame and a raised hand in the corner; a two-headed arrow between two
    seats a swap was decided between (crossed out where a person said there was none); a gold
    ring round every other seat a decision names."""
    if not decisions:
        return picture
    canvas = picture.copy()
    height, width = canvas.shape[:2]
    thick = max(2, round(min(width, height) / 180))
    cv2.rectangle(canvas, (thick // 2, thick // 2), (width - 1 - thick // 2,
                                                     height - 1 - thick // 2), GOLD, thick * 2)
    _raised_hand(canvas, (width - 12 * thick, 12 * thick), 6 * thick)
    ring = max(8, round(length * 0.7))
    for decision in decisions:
        seats = [s for s in decision.seats if s in points]
        way = decision.way
        if isinstance(way, SwapWay | Unseen) and len(seats) == 2:
            a, b = (tuple(round(v) for v in points[s]) for s in seats)
            cv2.arrowedLine(canvas, a, b, GOLD, thick, cv2.LINE_AA, tipLength=0.12)
            cv2.arrowedLine(canvas, b, a, GOLD, thick, cv2.LINE_AA, tipLength=0.12)
            if isinstance(way, Unseen) and way.answer == "no":
                mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
                arm = ring // 2
                for dx, dy in ((arm, arm), (arm, -arm)):
                    cv2.line(canvas, (mid[0] - dx, mid[1] - dy), (mid[0] + dx, mid[1] + dy),
                             GOLD, thick * 2, cv2.LINE_AA)
            continue
        for seat in seats:
            x, y = points[seat]
            cv2.circle(canvas, (round(x), round(y)), ring, GOLD, thick, cv2.LINE_AA)
    return canvas


def _raised_hand(canvas: np.ndarray, centre: tuple[int, int], size: int) -> None:
    """A raised open hand, filled gold on a dark disc: decided by a person."""
    x, y = centre
    cv2.circle(canvas, (x, y), round(size * 1.5), (30, 30, 30), -1, cv2.LINE_AA)
    palm = np.array([[x - size * 0.55, y - size * 0.1], [x + size * 0.55, y - size * 0.1],
                     [x + size * 0.5, y + size * 0.8], [x - size * 0.5, y + size * 0.8]],
                    np.int32)
    cv2.fillConvexPoly(canvas, palm, GOLD, cv2.LINE_AA)
    finger = max(1, round(size * 0.16))
    for i, reach in enumerate((0.75, 1.0, 1.0, 0.85)):
        fx = round(x - size * 0.42 + i * size * 0.28)
        cv2.line(canvas, (fx, round(y)), (fx, round(y - size * reach)), GOLD, finger * 2,
                 cv2.LINE_AA)
    cv2.line(canvas, (round(x + size * 0.5), round(y + size * 0.3)),
             (round(x + size * 0.95), round(y - size * 0.2)), GOLD, finger * 2, cv2.LINE_AA)
