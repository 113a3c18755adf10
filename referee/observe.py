"""The controller: a stream of table observations becomes referee events, each one narrated.

It keeps only a visual memory (the seats as the game last knew them); what the game expects
next it asks the game each time (`phase`, `is_legal`, `why_illegal`), so a person's undo or
correction between two observations is simply read back. Time is the observations' own clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card
from referee.events import ChooseDealer, Deal, Draw, Event, FaceUp, Keep, Reveal, Settle, Swap
from referee.game import Game, Hand, Phase, RuleError
from referee.observation import EMPTY, Face, SeatView, TableObservation
from referee.rules import DealerDraw, DealerSelection
from referee.walk import Stop

DEAL_STILL = 3.0
"""Seconds the table stays still, every living seat served, before the deal counts: a dealer lays
a card about every half second, and a player looks at his card before turning up a Re or a
Cavallo (about 2 s after the last card in the sample films); a turn that begins sooner (a card
leaving its seat) counts the deal at once."""
SETTLE_STILL = 4.0
"""Seconds still after the reveal before settling: the dealer looks and decides on his draw."""
UNREAD_AFTER = 2.0
"""Seconds a face-up card may go unnamed before a person is asked: the tracker needs ~0.3 s."""
MISSING_AFTER = 8.0
"""Seconds a living seat may lack its card before it is reported: longer than a swap takes."""
LIFTED = 0.25
"""Seconds a seat must stay empty to count as lifted: a card taken for a swap is gone for half a
second or more, a card the reader misses for a frame or two is not."""
SURE = 0.8
"""The least confidence in a face-up card's name the referee acts on; below, a person names it."""


@dataclass(frozen=True, slots=True)
class Said:
    """One narrated happening: its kind, the hand, its data, and the sentence in two languages."""

    kind: str
    hand: int | None
    data: Mapping[str, Any]
    text: str
    text_it: str

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


def _sure(view: SeatView) -> Card | None:
    """The face-up card's name when it is sure enough to act on."""
    if view.face is Face.UP and view.card is not None and view.confidence >= SURE:
        return view.card
    return None


def _picture(seen: TableObservation) -> tuple[tuple[str, Face, Card | None, int | None], ...]:
    """What counts as a change of the table: faces, names and identities at the seats."""
    return tuple((p, v.face, v.card, v.card_id) for p, v in sorted(seen.seats.items()))


def _touched(seen: TableObservation, player: str) -> bool:
    """Whether a seat's card is being handled: gone, with a second card beside it, or hidden."""
    return (seen.face(player) is Face.EMPTY or player in seen.crowded
            or player in seen.hidden)


def _rotated(ring: tuple[str, ...], dealer: str) -> list[str]:
    """The ring from the dealer's right round to the dealer."""
    start = ring.index(dealer) + 1
    return list(ring[start:] + ring[:start])


def _a(name: str) -> str:
    """Italian `a`, or `ad` before a vowel."""
    return f"ad {name}" if name[:1].lower() in "aeiou" else f"a {name}"


class Controller:
    """Turns what the camera sees into the game's events, and says what happened."""

    def __init__(self, game: Game, sink: Callable[[Event], str | None] | None = None, *,
                 dealer_known: bool = True) -> None:
        self.game = game
        self._sink = sink if sink is not None else self._into_game
        self._dealer_known = dealer_known
        self._held: Warning | None = None
        self._out: list[Said] = []
        self._last: TableObservation | None = None
        self._changed_at = 0.0
        self._base: dict[str, SeatView] | None = None  # None: take the next picture as it is
        self._lifted: set[str] = set()
        self._emptied: set[str] = set()
        self._empty_from: dict[str, float] = {}  # per empty seat, since when
        self._spell: dict[str, float] = {}
        self._away: dict[str, float] = {}  # per seat handled now, the seconds it stood empty
        self._cleared = False
        self._full: TableObservation | None = None
        self._read: dict[str, Card] = {}
        self._faces: dict[str, Card] = {}
        self._warned: set[str] = set()
        self._since: dict[str, float] = {}
        self._lasting: set[str] = set()
        self._watched = -1  # the hand number the visual memory belongs to
        self._known = self._stamp()

    # -- the interface -------------------------------------------------------------------------

    @property
    def held(self) -> Warning | None:
        """The warning holding the hand for a person, or None."""
        return self._held

    def resume(self) -> None:
        """A person resolved the held warning: the table as seen next is the new starting point."""
        self._release()
        self._base = None

    def _release(self) -> None:
        """Let the held warning go; told again if it happens again."""
        if self._held is not None:
            self._warned.discard(self._held.message)
        self._held = None

    def finish(self) -> list[Said]:
        """The source has ended (a film or a folder of photos): a hand revealed and read is settled
        with the cards read, as the table would have been left still."""
        self._out = []
        hand = self.game.hand
        if (self._held is None and self._last is not None and hand is not None
                and hand.result is None and hand.revealed and self._ready(self._last, hand)):
            self._settle(hand)
        return self._out

    def observe(self, seen: TableObservation) -> list[Said]:
        """Read one observation; return what happened, in order."""
        self._out = []
        self._lasting = set()
        if self._last is None or _picture(seen) != _picture(self._last):
            self._changed_at = seen.at
        empty = {p for p, view in seen.seats.items() if view.face is Face.EMPTY}
        self._spell = {p: seen.at - since for p, since in self._empty_from.items()
                       if p not in empty}  # the seats filled again now, and how long they were empty
        self._empty_from = {p: self._empty_from.get(p, seen.at) for p in empty}
        if self._stamp() != self._known:  # a person changed the game (undo, correction...)
            self._release()
            self._base = None
            self._known = self._stamp()
        if self._base is None:
            self._start(seen)
        try:
            self._step(seen)
        except RuleError as err:  # the sink refused what the game allowed a moment ago
            self._hold(str(err), f"{err} (rifiutato)")
        self._since = {k: v for k, v in self._since.items() if k in self._lasting}
        self._last = seen
        return self._out

    # -- the loop ------------------------------------------------------------------------------

    def _step(self, seen: TableObservation) -> None:
        held = self._held
        if held is not None:
            if held.release is not None and held.release(seen):
                self._release()
                self._base = dict(seen.seats)
                self._lifted, self._away = set(), {}
            return
        phase = self.game.phase
        hand = self.game.hand
        if phase is Phase.CHOOSE_DEALER:
            self._watch_face_up(seen)
        elif phase is Phase.DEAL:
            self._watch_deal(seen)
        elif phase is Phase.OVER or hand is None:
            return
        elif hand.revealed:
            self._watch_showdown(seen, hand)
        else:
            self._watch_turns(seen, hand)

    def _start(self, seen: TableObservation) -> None:
        """Take this picture as what the game already knows (a new or a resumed game)."""
        game = self.game
        self._base = dict(seen.seats)
        self._lifted, self._away = set(), {}
        self._full = None
        self._faces = {p: c for p, c in game.face_up}
        hand = game.hand
        if game.phase is Phase.DEAL:
            if self._watched == len(game.results) + 1:
                self._cleared = True  # the deal watched was undone: its cards are on the table
            elif self._last is None:
                # before anything is played the cards at the seats are this deal's (seats found
                # automatically are found on them); later they may be the last hand's
                fresh = not game.history or game.history == [ChooseDealer(str(game.dealer))]
                self._cleared = fresh or not self._cards_on(seen)
        if hand is not None and hand.result is None:
            if hand.number != self._watched:  # else what the camera read stays (corrections)
                self._read = {p: c for p, c in hand.cards.items() if c is not None}
            self._watched = hand.number

    def _stamp(self) -> tuple[int, int]:
        history = self.game.history
        return len(history), id(history[-1]) if history else 0

    def _into_game(self, event: Event) -> str | None:
        self.game.play(event)
        return None

    def _play(self, event: Event) -> str | None:
        evidence = self._sink(event)
        self._known = self._stamp()
        return evidence

    # -- narration -----------------------------------------------------------------------------

    def _number(self) -> int:
        hand = self.game.hand
        if hand is not None and hand.result is None:
            return hand.number
        return len(self.game.results) + 1

    def _say(self, kind: str, data: Mapping[str, Any], text: str, text_it: str,
             hand: int | None = -1) -> None:
        number = self._number() if hand == -1 else hand
        self._out.append(Said(kind, number, dict(data), text, text_it))

    def _warn(self, message: str, message_it: str, hand: int | None = -1) -> bool:
        """Narrate a warning once (True the first time)."""
        if message in self._warned:
            return False
        self._warned.add(message)
        self._say("warning", {"message": message}, message, message_it, hand)
        return True

    def _hold(self, message: str, message_it: str,
              release: Callable[[TableObservation], bool] | None = None) -> None:
        """Hold the hand for a person: nothing is played until `resume()` or `release`."""
        self._warn(message, message_it)
        self._held = Warning(message, message_it, self._number(), release)

    def _lasts(self, key: str, at: float, after: float) -> bool:
        """Whether a condition seen now has lasted `after` seconds (call it while it holds)."""
        self._lasting.add(key)
        return at - self._since.setdefault(key, at) >= after

    def _keep(self, player: str) -> None:
        self._play(Keep(player))
        self._say("keep", {"player": player}, f"{player} keeps", f"{player} tiene la carta")

    def _keep_until(self, player: str | None) -> None:
        """Everyone due before `player` (everyone left, for None) kept his card."""
        game = self.game
        while game.phase is Phase.TURNS and game.current_player != player:
            due = game.current_player
            assert due is not None
            self._keep(due)

    # -- choosing the first dealer -------------------------------------------------------------

    def _watch_face_up(self, seen: TableObservation) -> None:
        game = self.game
        if self._dealer_known:
            return  # a person names the first dealer
        fresh: dict[str, Card] = {}
        for player in game.players:
            view = seen.seats.get(player, EMPTY)
            card = _sure(view)
            if card is not None and self._faces.get(player) != card:
                fresh[player] = card
            elif view.face is Face.UP and card is None:
                self._unread(player, seen)
        while fresh and game.dealer is None:
            due = game.current_player
            player = due if due in fresh else next(iter(fresh))
            card = fresh.pop(player)
            self._faces[player] = card
            event = FaceUp(player, card)
            why = game.why_illegal(event)
            if why is not None:
                self._warn(why, f"carta scoperta fuori regola: {why}", None)
                continue
            self._play(event)
            self._say("face_up", {"player": player, "card": card.code},
                      f"{player} gets the {card.italian} face up",
                      f"{player} riceve il {card.italian} scoperto", None)
        if game.dealer is not None:
            matta = game.rules.dealer_selection is DealerSelection.RE_DI_DENARI
            what, cosa = ("the Re di Denari", "il Re di Denari") if matta else (
                "the second Denari", "il secondo Denari")
            self._say("dealer", {"dealer": game.dealer},
                      f"{game.dealer} gets {what} and deals first",
                      f"{game.dealer} riceve {cosa} e fa le carte", None)
            self._cleared = False

    # -- the deal ------------------------------------------------------------------------------

    @staticmethod
    def _cards_on(seen: TableObservation) -> bool:
        return any(view.face is not Face.EMPTY for view in seen.seats.values())

    def _watch_deal(self, seen: TableObservation) -> None:
        game = self.game
        if not self._cleared:
            if self._cards_on(seen):
                return  # the last hand's cards are still on the table
            self._cleared = True
            self._warned = set()
        living = game.alive()
        self._dead_seats(seen)
        if all(seen.face(p) is not Face.EMPTY for p in living):
            unread = [p for p in living if seen.face(p) is Face.UP
                      and _sure(seen.seats[p]) is None]
            for player in unread:
                self._unread(player, seen)
            if unread:
                return
            self._full = seen
            if seen.at - self._changed_at >= DEAL_STILL:
                self._commit_deal(seen)
        elif self._full is not None and self._turn_begun(seen, self._full, living):
            full = self._full
            self._commit_deal(full)  # a face-down card left its seat: the turns have begun
            hand = game.hand
            if hand is not None and hand.result is None:
                self._watch_turns(seen, hand)

    def _lifted_for(self, player: str, seen: TableObservation) -> bool:
        """Whether the seat is, or was until now, empty for LIFTED seconds (its card taken, not
        misread)."""
        since = self._empty_from.get(player)
        return (since is not None and seen.at - since >= LIFTED) or \
            self._spell.get(player, 0.0) >= LIFTED

    def _turn_begun(self, seen: TableObservation, full: TableObservation,
                    living: list[str]) -> bool:
        """Whether a face-down card dealt has left its seat for a swap.

        Two seats emptied at once, or a player's card seen on its way, or another seat handled
        too (emptied, a card beside it, or under a hand while this one stays empty a while): a
        card that only vanishes may be being turned up where it lies (a Re or a Cavallo shown
        at the deal). The dealer's place counts only with another seat handled, since the stock
        lies there and can pass in and out of the place.
        """
        dealer = self.game.next_dealer
        gone = [p for p in living if full.face(p) is Face.DOWN and seen.face(p) is Face.EMPTY]
        players = [p for p in gone if p != dealer]
        others = [p for p in living if p not in gone and p != dealer]
        if len(gone) > 1 or (dealer in gone and any(_touched(seen, p) for p in others)):
            return True
        if not players:
            return False
        flying = {view.card_id for view in seen.elsewhere if view.card_id is not None}
        player = players[0]
        if full.seats[player].card_id in flying or any(p in seen.crowded for p in others):
            return True
        covered = [p for p in others + [dealer] if p is not None and p in seen.hidden]
        return bool(covered) and self._lifted_for(player, seen)

    def _dead_seats(self, seen: TableObservation) -> None:
        """A card at a dead player's seat is reported (he gets no card and takes no turn)."""
        game = self.game
        number = self._number()
        for player in game.players:
            if game.lives[player] <= 0 and seen.face(player) is not Face.EMPTY:
                self._warn(f"hand {number}: a card lies at {player}'s seat, but {player} is dead "
                           "and gets no card",
                           f"mano {number}: c'è una carta al posto di {player}, che è morto e "
                           "non riceve carte")

    def _commit_deal(self, seen: TableObservation) -> None:
        game = self.game
        living = game.alive()
        event = Deal({p: _sure(seen.seats.get(p, EMPTY)) for p in living})
        why = game.why_illegal(event)
        if why is not None:
            self._warn(why, f"carte da controllare: {why}")
            return
        self._play(event)
        hand = game.hand
        assert hand is not None
        self._watched = hand.number
        self._base = dict(seen.seats)
        self._lifted, self._away = set(), {}
        self._read = {}
        self._full = None
        self._say("deal", {"dealer": hand.dealer}, f"Hand {hand.number}: {hand.dealer} deals",
                  f"Mano {hand.number}: {hand.dealer} fa le carte")
        for player in _rotated(hand.ring, hand.dealer):
            card = hand.shown.get(player)
            if card is None:
                continue
            role, ruolo = ("a wall", "fa da muro") if card.is_wall else (
                "jumped", "viene saltato")
            self._say("shown", {"player": player, "card": card.code},
                      f"{player} shows the {card.italian}: {role}",
                      f"{player} ha il {card.italian}: {ruolo}")
        for player in hand.order:
            found = hand.target(player, game.rules)
            self._say("target", {"player": player, "target": found.target,
                                 "reason": found.reason()}, found.reason(), found.reason_it())

    # -- the turns -----------------------------------------------------------------------------

    def _watch_turns(self, seen: TableObservation, hand: Hand) -> None:
        if self._shown_moved(seen, hand) or self._turned_late(seen, hand):
            return
        if all(seen.face(p) is Face.UP for p in hand.ring):
            self._reveal(seen, hand)
            return
        self._watch_moves(seen, hand)
        self._missing(seen, hand)
        self._dead_seats(seen)

    def _shown_moved(self, seen: TableObservation, hand: Hand) -> bool:
        """A Re or Cavallo shown at the deal that is no longer where it was: hold the hand."""
        for owner, card in hand.shown.items():
            view = seen.seats.get(owner, EMPTY)
            elsewhere = [p for p in hand.ring if p != owner and _sure(seen.seats.get(p, EMPTY))
                         == card]
            named = _sure(view)
            if not elsewhere and view.face is not Face.DOWN and (named in (None, card)):
                continue
            kind = "Re" if card.is_wall else "Cavallo"
            where = f" and lies at {elsewhere[0]}'s seat" if elsewhere else ""
            self._hold(
                f"hand {hand.number}: {owner}'s {card.italian} shown at the deal has moved"
                f"{where} (a {kind} that moved): put it back face up, or undo to the deal",
                f"mano {hand.number}: il {card.italian} di {owner}, scoperto alla distribuzione, "
                "si è mosso: rimettetelo scoperto al suo posto, o annullate fino alla "
                "distribuzione",
                self._shown_at(owner, card))
            return True
        return False

    @staticmethod
    def _shown_at(owner: str, card: Card) -> Callable[[TableObservation], bool]:
        """Whether the card shown at the deal is face up at its owner's seat again."""
        return lambda seen: _sure(seen.seats.get(owner, EMPTY)) == card

    def _turned_late(self, seen: TableObservation, hand: Hand) -> bool:
        """A Re or Cavallo turned up after the deal: the walls were told without it."""
        for player in hand.ring:
            card = _sure(seen.seats.get(player, EMPTY))
            if (card is None or not card.shows or player in hand.shown
                    or (player == hand.dealer and hand.drawn_unknown)):
                continue
            self._hold(
                f"hand {hand.number}: {player} turns up the {card.italian} after the deal: a Re "
                "or a Cavallo is shown at once, so the walls were told without it; undo to the "
                "deal and deal it again",
                f"mano {hand.number}: {player} scopre il {card.italian} dopo la distribuzione: "
                "va mostrato subito; annullate fino alla distribuzione")
            return True
        return False

    def _missing(self, seen: TableObservation, hand: Hand) -> None:
        for player in hand.ring:
            if seen.face(player) is Face.EMPTY and self._lasts(f"missing {player}", seen.at,
                                                               MISSING_AFTER):
                self._warn(f"hand {hand.number}: {player}'s card is missing from {player}'s seat",
                           f"mano {hand.number}: manca la carta di {player}")

    def _unread(self, player: str, seen: TableObservation) -> None:
        view = seen.seats.get(player, EMPTY)
        if not self._lasts(f"unread {player}", seen.at, UNREAD_AFTER):
            return
        number = self._number() if self.game.dealer is not None else None
        guess = f" (it reads {view.card.code} at {view.confidence:.2f})" if view.card else ""
        head = f"hand {number}: " if number is not None else ""
        capo = f"mano {number}: " if number is not None else ""
        self._warn(f"{head}{player}'s face-up card cannot be read{guess}: name it by hand",
                   f"{capo}la carta scoperta di {player} non si legge: indicatela a mano", number)

    def _watch_moves(self, seen: TableObservation, hand: Hand) -> None:
        """Swaps and the dealer's blind draw, once every lifted card has been put down."""
        base = self._base
        assert base is not None
        for player in hand.ring:
            if _touched(seen, player) and base.get(player, EMPTY).face is Face.DOWN:
                self._lifted.add(player)
            if player in self._lifted:  # the seat's empty spells add up while its card is handled
                away = self._away.get(player, 0.0) + self._spell.get(player, 0.0)
                self._away[player] = away
                since = self._empty_from.get(player)
                if away + (seen.at - since if since is not None else 0.0) >= LIFTED:
                    self._emptied.add(player)
        if any(_touched(seen, p) for p in self._lifted):
            return  # cards in flight, one brought to the other's place, or hands over them
        down = [p for p in hand.ring
                if base.get(p, EMPTY).face is Face.DOWN and seen.face(p) is Face.DOWN]
        was = {p: base[p].card_id for p in down}
        now = {p: seen.seats[p].card_id for p in down}
        changed = [p for p in down if was[p] is not None and now[p] is not None
                   and was[p] != now[p]]
        crossed = [(a, b) for i, a in enumerate(changed) for b in changed[i + 1:]
                   if now[a] == was[b] and now[b] == was[a]]
        lifted = [p for p in down if p in self._lifted]
        emptied = self._emptied
        self._lifted, self._emptied, self._away = set(), set(), {}
        if len(crossed) == 1 and len(changed) == 2:
            self._swap_seen(*crossed[0], seen, hand, crossed=True)
        elif len(lifted) == 2 and set(changed) <= set(lifted) and emptied & set(lifted):
            # two seats touched at once (one seen empty, the other empty, with a second card
            # beside it, or under a hand) and settled again: a swap, whatever ids came back (a
            # tracker can exchange two cards' identities where their paths cross, or lose one
            # under the hands); an arm over two cards empties neither
            self._swap_seen(lifted[0], lifted[1], seen, hand, crossed=False)
        elif changed == [hand.dealer] and now[hand.dealer] not in was.values():
            self._draw_seen(seen, hand)
        elif len(changed) > 1 or (changed and now[changed[0]] in was.values()):
            names = ", ".join(changed)
            self._hold(f"hand {hand.number}: cards moved between {names}, not as one swap: "
                       "put them back, or resolve it by hand",
                       f"mano {hand.number}: carte spostate tra {names}, non come uno scambio: "
                       "rimettetele a posto, o risolvete a mano",
                       self._back_at(base, changed))
        if self._held is None:
            self._base = dict(seen.seats)

    @staticmethod
    def _back_at(base: Mapping[str, SeatView],
                 seats: list[str]) -> Callable[[TableObservation], bool]:
        """Whether each of these seats holds again the face-down card it held before."""
        return lambda seen: all(seen.face(p) is Face.DOWN and seen.seats[p].card_id ==
                                base[p].card_id for p in seats)

    def _swap_seen(self, a: str, b: str, seen: TableObservation, hand: Hand,
                   crossed: bool) -> None:
        """Two face-down cards exchanged: the first player due who may swap with the other did.

        `crossed`: the cards' identities were seen exchanged, so the cards going back to their
        seats undoes an illegal swap; else both seats lifted again and put back undo it.

        A keep leaves nothing to see, so when both may swap with each other (only Cavalli
        between them either way) the swap is the earlier player's; the cards end the same.
        """
        game = self.game
        due = list(hand.order[hand.pos:])
        for player in [p for p in due if p in (a, b)]:
            other = b if player == a else a
            if hand.target(player, game.rules).target == other:
                self._keep_until(player)
                self._play(Swap(player, other))
                self._say("swap", {"from": player, "to": other, "legal": True},
                          f"{player} swaps with {other}", f"{player} scambia con {other}")
                return
        movers = sorted((p for p in due if p in (a, b)),
                        key=lambda p: not self._past_cavalli(hand, p, b if p == a else a))
        player = (movers or [p for p in (a, b) if p == hand.dealer] or [a])[0]
        other = b if player == a else a
        found = hand.target(player, game.rules)
        if player in due and found.stop is not Stop.TARGET:
            message = f"hand {hand.number}: {found.reason()}"
            message_it = f"mano {hand.number}: {found.reason_it()}"
        elif player in due:
            message = f"hand {hand.number}: {player} cannot swap with {other}: {found.reason()}"
            message_it = (f"mano {hand.number}: {player} non può scambiare con {other}: "
                          f"{found.reason_it()}")
        else:
            message = game.why_illegal(Swap(player, other)) or f"{player} cannot swap now"
            message_it = f"mano {hand.number}: {player} non può scambiare con {other} ora"
        self._say("swap", {"from": player, "to": other, "legal": False},
                  f"{player} swaps with {other}: not allowed",
                  f"{player} scambia con {other}: non è permesso")
        base = self._base
        assert base is not None
        if crossed:
            release = self._back_at(base, [a, b])
        else:
            release = self._lifted_again(a, b)
        self._hold(message + " (undo the swap on the table)",
                   message_it + " (rifate lo scambio al contrario)", release)

    @staticmethod
    def _past_cavalli(hand: Hand, player: str, other: str) -> bool:
        """Whether only Cavalli lie between `player` and `other` on his right: the swap he meant."""
        ring = hand.ring
        at = ring.index(player)
        between = [ring[(at + step) % len(ring)] for step in range(1, len(ring))]
        between = between[: between.index(other)]
        return all(p in hand.shown and hand.shown[p].is_horse for p in between)

    @staticmethod
    def _lifted_again(a: str, b: str) -> Callable[[TableObservation], bool]:
        """Whether both seats have been lifted again and put back (cards with no identity)."""
        lifted: set[str] = set()

        def back(seen: TableObservation) -> bool:
            lifted.update(p for p in (a, b) if seen.face(p) is Face.EMPTY)
            return lifted == {a, b} and all(seen.face(p) is Face.DOWN for p in (a, b))

        return back

    def _draw_seen(self, seen: TableObservation, hand: Hand) -> None:
        """The dealer's face-down card replaced before the reveal: a blind draw."""
        game = self.game
        dealer = hand.dealer
        if game.rules.dealer_draw is not DealerDraw.BLIND:
            message = (f"hand {hand.number}: {dealer} cannot draw before the reveal "
                       "(dealer_draw after_reveal: he draws after seeing every card)")
            message_it = (f"mano {hand.number}: {dealer} non può pescare prima che tutti "
                          "scoprano la carta")
        elif not hand.dealer_moves:
            message = game.why_illegal(Draw(dealer)) or f"{dealer} cannot draw"
            message_it = f"mano {hand.number}: {dealer} non può pescare"
        else:
            self._keep_until(None)
            self._play(Draw(dealer))
            self._say("draw", {"player": dealer, "card": None},
                      f"{dealer} draws blind from the stock",
                      f"{dealer} pesca alla cieca dal mazzo")
            return
        base = self._base
        assert base is not None
        self._hold(message + " (put his card back)", message_it + " (rimettete la sua carta)",
                   self._back_at(base, [dealer]))

    # -- the reveal and the showdown -----------------------------------------------------------

    def _reveal(self, seen: TableObservation, hand: Hand) -> None:
        game = self.game
        cards: dict[str, Card] = {}
        for player in hand.ring:
            card = _sure(seen.seats[player])
            if card is None:
                self._unread(player, seen)
            else:
                cards[player] = card
        if len(cards) < len(hand.ring) or self._twice(cards, hand.number):
            return
        self._keep_until(None)
        if game.rules.dealer_draw is DealerDraw.BLIND and hand.dealer_due:
            self._keep(hand.dealer)  # no blind draw was seen
        event = Reveal(cards)
        why = game.why_illegal(event)
        if why is not None:
            self._hold(why, f"mano {hand.number}: le carte scoperte non tornano: {why}")
            return
        self._play(event)
        self._read = dict(cards)
        self._base = dict(seen.seats)
        self._lifted, self._away = set(), {}
        shown = ", ".join(f"{p} {c.code}" for p, c in cards.items())
        self._say("reveal", {"cards": {p: c.code for p, c in cards.items()}},
                  f"Hand {hand.number}: everyone reveals: {shown}",
                  f"Mano {hand.number}: tutti scoprono: {shown}")

    def _twice(self, cards: Mapping[str, Card], number: int) -> bool:
        """Whether one card is read at two seats (reported, never guessed)."""
        holders: dict[Card, str] = {}
        for player, card in cards.items():
            if card in holders:
                self._warn(f"hand {number}: the same card {card.code} at two seats: "
                           f"{holders[card]} and {player}",
                           f"mano {number}: la stessa carta {card.code} a due posti: "
                           f"{holders[card]} e {player}")
                return True
            holders[card] = player
        return False

    def _watch_showdown(self, seen: TableObservation, hand: Hand) -> None:
        """After the reveal: the dealer's draw, misreadings, and the settlement once still."""
        game = self.game
        dealer = hand.dealer
        ready = True
        cards: dict[str, Card] = {}
        for player in hand.ring:
            view = seen.seats.get(player, EMPTY)
            card = _sure(view)
            base = self._base.get(player, EMPTY) if self._base else EMPTY
            if view.face is not Face.UP or view.card_id != base.card_id:
                self._lifted.add(player)  # the card at this seat was taken up or replaced
            if card is None:
                ready = False
                if view.face is Face.UP:
                    self._unread(player, seen)
                elif view.face is Face.EMPTY and self._lasts(f"missing {player}", seen.at,
                                                             MISSING_AFTER):
                    self._warn(f"hand {hand.number}: {player}'s card is missing from "
                               f"{player}'s seat",
                               f"mano {hand.number}: manca la carta di {player}")
                continue
            cards[player] = card
        if self._twice(cards, hand.number):
            return
        for player, card in cards.items():
            held, read = hand.cards.get(player), self._read.get(player)
            if card == read or card == held:
                continue
            if player == dealer and game.phase is Phase.DEALER and dealer in self._lifted:
                event = Draw(dealer, card)
                why = game.why_illegal(event)
                if why is not None:
                    self._hold(why, f"mano {hand.number}: pescata da controllare: {why}")
                    return
                self._play(event)
                self._read[dealer] = card
                self._say("draw", {"player": dealer, "card": card.code},
                          f"{dealer} draws the {card.italian}",
                          f"{dealer} pesca il {card.italian}")
            elif held is None:
                self._play(Reveal({player: card}))
                self._read[player] = card
            elif held == read:
                ready = False
                self._warn(f"hand {hand.number}: {player}'s card now reads {card.code}, but "
                           f"{read.code if read else '?'} was read at the reveal: correct it if "
                           "it is so", f"mano {hand.number}: la carta di {player} ora si legge "
                           f"{card.code}, ma allo scoprire era {read.code if read else '?'}: "
                           "correggetela se è così")
        if ready and seen.at - self._changed_at >= SETTLE_STILL:
            self._settle(hand)

    @staticmethod
    def _ready(seen: TableObservation, hand: Hand) -> bool:
        """Whether every seat of the hand shows a card named surely."""
        return all(_sure(seen.seats.get(p, EMPTY)) is not None for p in hand.ring)

    def _settle(self, hand: Hand) -> None:
        game = self.game
        if game.phase is Phase.DEALER:
            self._keep(hand.dealer)
        evidence = self._play(Settle())
        result = hand.result
        assert result is not None
        losers = list(result.losers)
        if result.void:
            says = f"Hand {result.number} is void: nobody pays, {game.next_dealer} deals again"
            dice = f"Mano {result.number} nulla: nessuno paga, {game.next_dealer} rifà le carte"
        elif not losers:
            says = f"Hand {result.number}: only Re and Cavalli, nobody pays"
            dice = f"Mano {result.number}: solo Re e Cavalli, nessuno paga"
        else:
            who = " and ".join(losers)
            says = f"Hand {result.number}: {who} {'pays' if len(losers) == 1 else 'pay'} a life"
            dice = (f"Mano {result.number}: {' e '.join(losers)} "
                    f"{'paga' if len(losers) == 1 else 'pagano'} una vita")
        says += f"; pot {result.pot}"
        dice += f"; piatto {result.pot}"
        self._say("settle", {"losers": losers, "lives": dict(result.lives), "pot": result.pot,
                             "evidence": evidence}, says, dice, result.number)
        self._cleared = False
        self._warned = set()
        self._read = {}
