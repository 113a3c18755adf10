"""The turns: swaps seen as the cards move, the dealer's blind draw, and what must not move.

A seat is *touched* when empty, crowded or hidden. Nothing is decided while a lifted card is
still touched; once every lifted card lies again, what changed is one swap, a blind draw, a
player's look at his own card (nothing), or cards moved otherwise (the hand is held).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from referee.cards import Card
from referee.events import Draw, Swap
from referee.game import Hand
from referee.observation import EMPTY, Face, SeatView, TableObservation
from referee.observe.context import Context
from referee.observe.deal import Dealt
from referee.observe.moment import LIFTED, Moment, away, sure, touched
from referee.rules import DealerDraw
from referee.walk import Stop

CLOCK = 1e-6
"""Seconds of rounding in the frames' clock (frame times are sums and ratios of floats)."""
SETTLED = 0.2
"""Seconds the cards of a move must lie let go before the move is judged: where a swap's cards
cross, both can lie near their own seats for a frame, then go on their way."""
CARRIED = 0.15
"""Seconds a seat whose card was seen on its way must have been handled for that card to count as
carried off: taken for a swap, however briskly, a card leaves its seat handled while one hand
takes it and the other card comes; a resting card's identity lent for a frame to a stray reading
beside it (a back 1.4 card lengths from Sara's in brisk-oblique-003) leaves it so for no longer."""
SHOWN_GONE = 1.0
"""Seconds a Re or Cavallo shown at the deal may read otherwise, no card being handled, before
the hand is held: a card slid past it covers it, and the reader names it again half a second
after (the tracker may lend it the passing card's back meanwhile)."""


def lie_again(test: Callable[[TableObservation], bool]) -> Callable[[TableObservation], bool]:
    """`test` holding for SETTLED: cards put back lie let go (a put-back's cards cross too)."""
    since: float | None = None

    def settled(seen: TableObservation) -> bool:
        nonlocal since
        if not test(seen):
            since = None
            return False
        since = seen.at if since is None else since
        return seen.at - since >= SETTLED - CLOCK

    return settled


def back_at(base: Mapping[str, SeatView], seats: list[str]) -> Callable[[TableObservation], bool]:
    """Whether each of these seats holds again the face-down card it held before, let go."""
    return lie_again(lambda seen: all(seen.face(p) is Face.DOWN and seen.seats[p].card_id ==
                                      base[p].card_id for p in seats))


def lifted_again(a: str, b: str, handling: Callable[[TableObservation, str], bool] = touched
                 ) -> Callable[[TableObservation], bool]:
    """Whether both seats have been handled again at once, one at least seen empty then, and
    put back and let go (cards with no identity, or one the tracker kept under the hands); the
    tail of the swap, one seat flickering after the other, is not its undoing. `handling` tells
    a seat being handled (the turns', which know the stock lying by the dealer's card)."""
    handled = False

    def back(seen: TableObservation) -> bool:
        nonlocal handled
        handled = handled or (handling(seen, a) and handling(seen, b)
                              and Face.EMPTY in (seen.face(a), seen.face(b)))
        return handled and all(seen.face(p) is Face.DOWN and not handling(seen, p)
                               for p in (a, b))

    return lie_again(back)


def exchanged(was: Mapping[str, int | None],
              now: Mapping[str, int | None]) -> list[tuple[str, str]]:
    """The pairs of these seats whose cards' identities were exchanged between `was` and `now`."""
    seats = list(was)
    return [(a, b) for i, a in enumerate(seats) for b in seats[i + 1:]
            if None not in (was[a], was[b]) and now.get(a) == was[b] and now.get(b) == was[a]]


def shown_at(owner: str, card: Card) -> Callable[[TableObservation], bool]:
    """Whether the card shown at the deal is face up at its owner's seat again."""
    return lambda seen: sure(seen.seats.get(owner, EMPTY)) == card


def past_cavalli(hand: Hand, player: str, other: str) -> bool:
    """Whether only Cavalli lie between `player` and `other` on his right: the swap he meant."""
    ring = hand.ring
    at = ring.index(player)
    between = [ring[(at + step) % len(ring)] for step in range(1, len(ring))]
    between = between[: between.index(other)]
    return all(p in hand.shown and hand.shown[p].is_horse for p in between)


class Turns:
    """From the deal to the reveal: every move judged against the table as it last lay."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rebase({})

    def rebase(self, seats: Mapping[str, SeatView], shown_from: Mapping[str, float] = {},
               beside: frozenset[str] = frozenset()) -> None:
        """Judge the next moves against these seats; `beside`: the seats a second card lay by
        already (the stock by the dealer's card at a close table), no hand at work."""
        self._base = dict(seats)
        self._beside = beside
        self._lifted: set[str] = set()
        self._emptied: set[str] = set()
        self._away: dict[str, float] = {}  # per seat handled now, the seconds it stood empty
        self._flown: set[str] = set()  # the lifted seats whose card was seen on its way
        self._spans: dict[str, tuple[float, float]] = {}  # per lifted seat, first and last handled
        self._strays: set[int] = set()  # cards of no seat's seen on their way meanwhile
        self._aside: set[int] = set()  # the cards lying at no seat before the lifting began
        self._in_reveal = False  # the lifting began with a card dealt face down showing
        self._before: set[str] = set()  # the seats handled in the moment before
        self._quiet: float | None = None  # since when the lifted cards have lain let go
        self._laid: TableObservation | None = None  # the table as they lay then
        self._shown_from = dict(shown_from)  # a shown card read after the deal's own moment

    def begin(self, dealt: Dealt) -> None:
        """A deal was just played."""
        self.rebase(dealt.base, dealt.shown_from, dealt.beside)

    def observe(self, now: Moment, hand: Hand) -> bool:
        """Watch one moment of the turns; True when every seat shows its face (the reveal)."""
        revealed = all(now.seen.face(p) is Face.UP for p in hand.ring)
        if revealed and self._lifted and self._laid is not None:
            self._judge(self._laid, hand, set())  # the last move, judged as it lay
            if self.ctx.held is not None:
                return False
        if self._shown_moved(now, hand) or self._turned_late(now, hand):
            return False
        if revealed:
            return True
        self._moves(now, hand)
        for player in hand.ring:
            self.ctx.missing(player, now)
        self.ctx.dead_seats(now)
        return False

    def _touched(self, seen: TableObservation, player: str) -> bool:
        """Whether a seat's card is being handled, a second card lying by it since the deal aside."""
        if player in self._beside and player in seen.crowded:
            return seen.face(player) is Face.EMPTY or player in seen.hidden
        return touched(seen, player)

    def _shown_moved(self, now: Moment, hand: Hand) -> bool:
        """Whether a Re or Cavallo shown at the deal is not where it was: then nothing else is
        judged, and after SHOWN_GONE with no card being handled the hand is held (a card slid
        past it covers it for a moment)."""
        seen = now.seen
        for owner, card in hand.shown.items():
            if now.at < self._shown_from.get(owner, now.at):
                continue  # a moment replayed from before the card was turned up
            view = now.view(owner)
            elsewhere = [p for p in hand.ring if p != owner and sure(seen.seats.get(p, EMPTY))
                         == card]
            named = sure(view)
            if not elsewhere and view.face is not Face.DOWN and (named in (None, card)):
                continue
            handled = any(self._touched(seen, p) for p in hand.ring if p != owner)
            if handled or not self.ctx.lasts(f"moved {owner}", now.at, SHOWN_GONE):
                if handled:
                    continue  # the moves are judged meanwhile
                return True
            kind = "Re" if card.is_wall else "Cavallo"
            where = f" and lies at {elsewhere[0]}'s seat" if elsewhere else ""
            self.ctx.hold(
                f"hand {hand.number}: {owner}'s {card.italian} shown at the deal has moved"
                f"{where} (a {kind} that moved): put it back face up, or undo to the deal",
                f"mano {hand.number}: il {card.italian} di {owner}, scoperto alla distribuzione, "
                "si è mosso: rimettetelo scoperto al suo posto, o annullate fino alla "
                "distribuzione",
                shown_at(owner, card))
            return True
        return False

    def _turned_late(self, now: Moment, hand: Hand) -> bool:
        """A Re or Cavallo turned up after the deal: the walls were told without it."""
        for player in hand.ring:
            card = sure(now.view(player))
            if (card is None or not card.shows or player in hand.shown
                    or card in hand.shown.values()  # a shown card that moved: told as such
                    or (player == hand.dealer and hand.drawn_unknown)):
                continue
            self.ctx.hold(
                f"hand {hand.number}: {player} turns up the {card.italian} after the deal: a Re "
                "or a Cavallo is shown at once, so the walls were told without it; undo to the "
                "deal and deal it again",
                f"mano {hand.number}: {player} scopre il {card.italian} dopo la distribuzione: "
                "va mostrato subito; annullate fino alla distribuzione")
            return True
        return False

    def _moves(self, now: Moment, hand: Hand) -> None:
        """Swaps and the dealer's blind draw, once every lifted card has been put down and let go
        for SETTLED (or another card is taken meanwhile: the next move has begun)."""
        seen, base = now.seen, self._base
        flying = away(seen)
        handled = {p for p in hand.ring if base.get(p, EMPTY).face is Face.DOWN
                   and self._touched(seen, p)}
        turning = any(base.get(p, EMPTY).face is Face.DOWN and seen.face(p) is Face.UP
                      for p in hand.ring)
        for player in self._lifted:
            self._spells(player, now)
        if self._lifted and not handled & self._lifted:
            self._quiet = now.at if self._quiet is None else self._quiet
            if (now.at - self._quiet < SETTLED - CLOCK and not handled and not turning
                    and not self._crossed(seen)):
                self._laid = seen
                return  # a card just laid may be taken up again: a swap's cards cross
            self._judge(self._laid if turning and self._laid else seen, hand, handled)
            if self.ctx.held is not None:
                return
        else:
            self._quiet = None
        if handled and not self._lifted:
            # once a card dealt face down shows, the moves are over: a seat emptied and filled
            # again with its own card is that card being turned over where it lies
            self._in_reveal = any(seen.face(p) is Face.UP and p not in hand.shown
                                  for p in hand.ring)
        for player in handled | self._before:
            first, _ = self._spans.get(player, (now.at, now.at))
            self._spans[player] = (first, now.at)  # handled until now, or until this moment
        self._before = handled
        for player in handled:
            if player not in self._lifted:
                self._lifted.add(player)
                self._spells(player, now)
            if self._base[player].card_id in flying:  # seen on its way: taken, however briskly
                self._emptied.add(player)
                self._flown.add(player)
        if handled:
            known = {view.card_id for view in base.values()}
            # a card taken under a hand, seen again on its way (not one put aside before, such as
            # the dealer's old card after his draw)
            self._strays |= flying - known - self._aside
        if not self._lifted:
            self._aside = flying
            self._judge(seen, hand, set())  # nothing handled: an identity changed at rest

    def _spells(self, player: str, now: Moment) -> None:
        """A lifted seat's empty spells add up while its card is handled."""
        away = self._away.get(player, 0.0) + now.spell.get(player, 0.0)
        self._away[player] = away
        since = now.empty_from.get(player)
        if away + (now.at - since if since is not None else 0.0) >= LIFTED:
            self._emptied.add(player)

    def _handled_for(self, player: str) -> float:
        """Seconds from the first to the last moment a lifted seat was seen handled."""
        first, last = self._spans.get(player, (0.0, 0.0))
        return last - first

    def _crossed(self, seen: TableObservation) -> bool:
        """Whether two lifted cards lie at each other's seats: the swap done, however they go on."""
        was = {p: self._base[p].card_id for p in sorted(self._lifted)}
        now = {p: seen.seats[p].card_id if seen.face(p) is Face.DOWN else None
               for p in self._lifted}
        return bool(exchanged(was, now))

    def _judge(self, seen: TableObservation, hand: Hand, busy: set[str]) -> None:
        """What the lifted cards did, the table as it lies now; `busy` seats, handled for the
        next move, keep the card they held before it."""
        base = self._base
        down = [p for p in hand.ring if p not in busy
                and base.get(p, EMPTY).face is Face.DOWN and seen.face(p) is Face.DOWN]
        was = {p: base[p].card_id for p in down}
        ids = {p: seen.seats[p].card_id for p in down}
        changed = [p for p in down if was[p] is not None and ids[p] is not None
                   and was[p] != ids[p]]
        crossed = exchanged({p: was[p] for p in changed}, ids)
        lifted = [p for p in down if p in self._lifted]
        flown = [p for p in lifted if p in self._flown and self._handled_for(p) >= CARRIED]
        if len(lifted) > 2 and len(flown) == 2 and set(changed) <= set(flown):
            lifted = flown  # the two cards seen on their way; a third seat only went unread
        handled_long = [p for p in lifted if self._handled_for(p) >= LIFTED]
        if len(lifted) > 2 and len(handled_long) == 2 and set(changed) <= set(handled_long):
            lifted = handled_long  # the two cards taken; an arm only passed over a third
        emptied, strays = self._emptied, self._strays
        taken = [p for p in lifted if p in emptied or self._handled_for(p) >= LIFTED]
        if len(changed) == 1 and taken == changed and ids[changed[0]] not in was.values():
            # one seat holds a new card; another under a hand for a frame or two was brushed by
            # the arm that brought it (the dealer's blind draw), not taken in a swap
            lifted = taken
        revealing = self._in_reveal
        blind = self.ctx.game.rules.dealer_draw is DealerDraw.BLIND
        self._lifted, self._emptied, self._away, self._flown = set(), set(), {}, set()
        self._spans, self._strays, self._in_reveal = {}, set(), False
        self._quiet, self._laid = None, None
        if len(crossed) == 1 and len(changed) == 2:
            self._swap_seen(*crossed[0], hand, crossed=True)
        elif len(lifted) == 2 and set(changed) <= set(lifted) and not revealing and (
                emptied & set(lifted) or strays):
            # two seats touched at once (one seen empty, the other empty, with a second card
            # beside it, or under a hand; or both under hands while a card was seen on its
            # way) and settled again: a swap, whatever ids came back (a tracker can exchange
            # two cards' identities where their paths cross, or lose one under the hands); an
            # arm over two cards empties neither and carries no card
            self._swap_seen(lifted[0], lifted[1], hand, crossed=False)
        elif (changed == [hand.dealer] and ids[hand.dealer] not in was.values()
              and (blind or self._put_aside(seen, base[hand.dealer]))):
            if not hand.drew:
                self._draw_seen(hand)
            # else the card he drew, read anew as it settles (the pile lay at his seat a moment)
        elif len(changed) > 1 or (changed and ids[changed[0]] in was.values()):
            names = ", ".join(changed)
            self.ctx.hold(f"hand {hand.number}: cards moved between {names}, not as one swap: "
                          "put them back, or resolve it by hand",
                          f"mano {hand.number}: carte spostate tra {names}, non come uno "
                          "scambio: rimettetele a posto, o risolvete a mano",
                          back_at(base, changed))
        # else nothing, or one player's look at his own card (it may come back a new identity)
        if self.ctx.held is None:
            self._base = {p: base.get(p, EMPTY) if p in busy else view
                          for p, view in seen.seats.items()}

    @staticmethod
    def _put_aside(seen: TableObservation, old: SeatView) -> bool:
        """Whether the dealer's old card lies aside, seen away from every seat: where he may not
        draw yet, a card only looked at comes back to his seat, perhaps with a new identity.
        (Where he may, a new card at his seat is his blind draw: the card he puts aside lies
        by the stock, where the reader does not tell it from the pile.)"""
        aside = [view for view in seen.elsewhere if view.face is Face.DOWN]
        return any(view.card_id == old.card_id for view in aside) if old.card_id is not None \
            else bool(aside)

    def _swap_seen(self, a: str, b: str, hand: Hand, crossed: bool) -> None:
        """Two face-down cards exchanged: the first player due who may swap with the other did.

        `crossed`: the cards' identities were seen exchanged, so the cards going back to their
        seats undoes an illegal swap; else both seats lifted again and put back undo it.

        A keep leaves nothing to see, so when both may swap with each other (only Cavalli
        between them either way) the swap is the earlier player's; the cards end the same.
        """
        ctx, game = self.ctx, self.ctx.game
        due = list(hand.order[hand.pos:])
        for player in [p for p in due if p in (a, b)]:
            other = b if player == a else a
            if hand.target(player, game.rules).target == other:
                ctx.keep_until(player)
                ctx.play(Swap(player, other))
                ctx.say("swap", {"from": player, "to": other, "legal": True},
                        f"{player} swaps with {other}", f"{player} scambia con {other}")
                return
        movers = sorted((p for p in due if p in (a, b)),
                        key=lambda p: not past_cavalli(hand, p, b if p == a else a))
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
        ctx.say("swap", {"from": player, "to": other, "legal": False},
                f"{player} swaps with {other}: not allowed",
                f"{player} scambia con {other}: non è permesso")
        release = back_at(self._base, [a, b]) if crossed else lifted_again(a, b, self._touched)
        ctx.hold(message + " (undo the swap on the table)",
                 message_it + " (rifate lo scambio al contrario)", release)

    def _draw_seen(self, hand: Hand) -> None:
        """The dealer's face-down card put aside and replaced before the reveal: a blind draw."""
        ctx, game = self.ctx, self.ctx.game
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
            ctx.keep_until(None)
            ctx.play(Draw(dealer))
            ctx.say("draw", {"player": dealer, "card": None},
                    f"{dealer} draws blind from the stock", f"{dealer} pesca alla cieca dal mazzo")
            return
        ctx.hold(message + " (put his card back)", message_it + " (rimettete la sua carta)",
                 back_at(self._base, [dealer]))
