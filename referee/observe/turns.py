"""The turns: swaps seen as the cards move, the dealer's blind draw, and what must not move.

A seat is *touched* when empty, crowded or hidden. Nothing is decided while a lifted card is
still touched; once every lifted card lies again, what changed is one swap, a blind draw, a
player's look at his own card (nothing), or cards moved otherwise (the hand is held).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from referee.cards import Card
from referee.game import Game, Hand, RuleError
from referee.observation import CLOCK, EMPTY, Face, SeatView, TableObservation
from referee.observe.classify import Judgement, Kind, classify
from referee.observe.context import Context
from referee.observe.custody import Custody, Link
from referee.observe.deal import Dealt
from referee.observe.evidence import Evidence, Gathering, exchangeable, exchanged
from referee.observe.moment import LIFTED, Moment, away, known, sure, touched
from referee.rules import DealerDraw
from referee.wording import Message

SETTLED = 0.2
"""Seconds the cards of a move must lie let go before the move is judged: where a swap's cards
cross, both can lie near their own seats for a frame, then go on their way."""
SHOWN_GONE = 1.0
"""Seconds a Re or Cavallo shown at the deal may read otherwise, no card being handled, before
the hand is held: a card slid past it covers it, and the reader names it again half a second
after (the tracker may lend it the passing card's back meanwhile)."""
ASTRAY_SECONDS = 2.0
"""Seconds a card turned up at the reveal may lie at no player's place while a place shows no card,
before the hand is held: a player turning his card over lays it back where it lay within a second,
and a card that stays away means the places named are not where the cards lie."""


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


def back_at(base: Mapping[str, SeatView], seats: list[str],
            handling: Callable[[TableObservation, str], bool]) -> Callable[[TableObservation], bool]:
    """Whether each of these seats holds again the face-down card it held before, let go, and every other
    seat handled since holds again the card it held then (`_Others`). `handling` tells a seat being
    handled (the turns', which know the stock lying by the dealer's card)."""
    others = _Others(seats, handling)
    others.lay({p: view.card_id for p, view in base.items() if p not in seats})

    def back(seen: TableObservation) -> bool:
        others.see(seen)
        return all(seen.face(p) is Face.DOWN and seen.seats[p].card_id == base[p].card_id
                   for p in seats) and others.as_they_lay(seen)

    return lie_again(back)


def lifted_again(a: str, b: str, handling: Callable[[TableObservation, str], bool] = touched
                 ) -> Callable[[TableObservation], bool]:
    """Whether both seats have been handled again at once, one at least seen empty then, and
    put back and let go (cards with no identity, or one the tracker kept under the hands), every
    other seat handled meanwhile holding again the card it held before (`_Others`); the
    tail of the swap, one seat flickering after the other, is not its undoing. `handling` tells
    a seat being handled (the turns', which know the stock lying by the dealer's card)."""
    handled = False
    others = _Others([a, b], handling)

    def back(seen: TableObservation) -> bool:
        nonlocal handled
        both = handling(seen, a) and handling(seen, b)
        if not handled and not both:  # the other cards as they lie before the two are handled at once
            others.lay({p: view.card_id for p, view in seen.seats.items() if p not in (a, b)}, seen.at)
        handled = handled or (both and Face.EMPTY in (seen.face(a), seen.face(b)))
        if not handled:
            return False
        others.see(seen)
        if not all(seen.face(p) is Face.DOWN and not handling(seen, p) for p in (a, b)):
            return False
        if others.as_they_lay(seen):
            return True
        handled = False  # swaps with other players, not the undoing: the two must be handled again
        return False

    return lie_again(back)


class _Others:
    """The cards of the seats but an illegal swap's two, and which of those seats have been handled since they
    lay (`lay`): an illegal swap is undone between its two seats alone. A family playing on after the
    warning makes other swaps, one of the two with a third player and the other with a fourth, which
    handle the third and fourth seats too, and their cards do not come back; an arm that brushes a third
    card off its place on the way lays the same card back. A card with no identity cannot be seen to
    come back, nor can a face-down card out of sight (under a hand, or gone and not seen on its way)
    long enough to be exchanged: the tracker lends a card laid where another lay unseen that one's
    identity, and backs look alike."""

    def __init__(self, seats: list[str], handling: Callable[[TableObservation, str], bool]) -> None:
        self.seats, self.handling = set(seats), handling
        self.cards: dict[str, int | None] = {}
        self.handled: set[str] = set()
        self.unseen: dict[str, float] = {}  # per seat handled, the seconds its card lay out of sight
        self._at: float | None = None  # when the picture before was taken

    def lay(self, cards: Mapping[str, int | None], at: float | None = None) -> None:
        """The other seats' cards (identities) as they lie now, in the picture taken at `at`; none handled
        since."""
        self.cards, self.handled, self.unseen, self._at = dict(cards), set(), {}, at

    def see(self, seen: TableObservation) -> None:
        """Note the other seats handled in this observation, and how long each one's card is out of sight:
        from the picture before, as the turns count cards covered at once."""
        on_its_way = away(seen)
        for p in seen.seats:
            if p in self.seats or not self.handling(seen, p):
                continue
            self.handled.add(p)
            hidden = p in seen.hidden or (seen.face(p) is Face.EMPTY and self.cards.get(p) not in on_its_way)
            if hidden and self._at is not None:
                self.unseen[p] = self.unseen.get(p, 0.0) + seen.at - self._at
        self._at = seen.at

    def as_they_lay(self, seen: TableObservation) -> bool:
        """Whether every other seat handled since holds again the card it held (face down, or a Re or Cavallo
        shown), let go, and never lay out of sight long enough to be exchanged."""
        return all(self.cards.get(p) is not None and seen.seats[p].card_id == self.cards[p]
                   and not self.handling(seen, p) and not exchangeable(self.unseen.get(p, 0.0))
                   for p in self.handled)


def may_swap(game: Game, a: str, b: str) -> bool:
    """Whether the game would let `a` and `b` exchange their cards now, everyone due before the
    swapper keeping."""
    try:
        game.find_swap(a, b)
    except RuleError:
        return False
    return True


def shown_at(owner: str, card: Card) -> Callable[[TableObservation], bool]:
    """Whether the card shown at the deal is face up at its owner's seat again."""
    return lambda seen: sure(seen.seats.get(owner, EMPTY)) == card


class Turns:
    """From the deal to the reveal: every move judged against the table as it last lay."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rebase({})

    def rebase(self, seats: Mapping[str, SeatView], shown_from: Mapping[str, float] = {},
               beside: frozenset[str] = frozenset(), at: float | None = None) -> None:
        """Judge the next moves against these seats, as seen at `at`; `beside`: the seats a
        second card lay by already (the stock by the dealer's card at a close table), no hand
        at work."""
        self._base = dict(seats)
        self._beside = beside
        self._shown_from = dict(shown_from)  # a shown card read after the deal's own moment
        self._aside: set[int] = set()  # the cards lying at no seat before the handling began
        self._down_aside = 0  # how many of them lay face down
        self._dealers_face: Card | None = None  # the name the dealer's card was read with face up
        self._before = at  # when the picture before this one was taken
        self._rested()

    def _rested(self) -> None:
        """The table lies let go: the next handling gathers its evidence anew."""
        self._gathering = Gathering()
        self._lifted: set[str] = set()
        self._away: dict[str, float] = {}  # per seat handled now, the seconds it stood empty
        self._in_reveal = False  # the handling began with a card dealt face down showing
        self._quiet: float | None = None  # since when the lifted cards have lain let go
        self._laid: TableObservation | None = None  # the table as they lay then

    def begin(self, dealt: Dealt, at: float) -> None:
        """A deal was just played, at `at`: every card dealt face down lies in view."""
        # the first moment replayed, or the next, counts from the deal's
        self.rebase(dealt.base, dealt.shown_from, dealt.beside, at=dealt.at)
        self.ctx.custody = Custody.dealt(
            (p for p, view in dealt.base.items() if view.face is Face.DOWN), at)
        hand = self.ctx.game.hand
        unread, covered = ([pair for pair in pairs if all(dealt.base[p].face is Face.DOWN for p in pair)]
                           for pairs in (dealt.unread, dealt.covered))
        if hand is not None and (unread or covered):  # cards that may have been exchanged before the deal counted
            self._at = dealt.at
            self._unseen_swaps(unread, "swap.unread")
            if self.ctx.held is None:
                self._unseen_swaps(covered)

    def lost_sight(self, now: Moment, gap: float, hand: Hand) -> None:
        """No picture for `gap` seconds: every face-down card's custody is lost; where the
        game would not allow an exchange of two of them, the hand is held and the table asked."""
        down = [p for p in hand.ring if self._base.get(p, EMPTY).face is Face.DOWN]
        ctx = self.ctx
        ctx.custody = ctx.custody.add(down, Link(now.at, "gap", seen=False))
        forbidden = [(a, b) for i, a in enumerate(down) for b in down[i + 1:]
                     if not may_swap(ctx.game, a, b)]
        if forbidden:
            ctx.hold(code="sight.lost", params={"gap": gap})

    def observe(self, now: Moment, hand: Hand) -> bool:
        """Watch one moment of the turns; True when every seat shows its face (the reveal), the
        dealer's perhaps already put aside (`put_aside`)."""
        before, self._before = self._before, now.at
        mine = now.seen.seats.get(hand.dealer, EMPTY)
        if mine.face is Face.UP and mine.card is not None:
            self._dealers_face = mine.card
        aside = self.put_aside(now, hand)
        for player in hand.ring:  # a face up unnamed is asked after UNREAD_AFTER, whatever moves meanwhile
            if now.seen.face(player) is Face.UP and known(now.view(player), hand.shown.get(player)) is None:
                self.ctx.unread(player, now)
        revealed = aside is not None or all(now.seen.face(p) is Face.UP for p in hand.ring)
        if revealed and self._lifted and self._laid is not None:
            self._judge(self._laid, hand, set())  # the last move, judged as it lay
            if self.ctx.held is not None:
                return False
        if self._shown_moved(now, hand) or (aside is None and self._turned_late(now, hand)):
            return False
        if aside is None and self._astray(now, hand):
            return False
        if revealed:
            return True
        self._moves(now, hand, before)
        for player in hand.ring:
            self.ctx.missing(player, now)
        self.ctx.dead_seats(now)
        return False

    def _astray(self, now: Moment, hand: Hand) -> bool:
        """At the reveal each card must lie at its own player's place: every place but some shows its
        face, and as many faces lie at no place as places show none, for ASTRAY_SECONDS. Then the places are
        not where the cards lie (or a card was laid far from its place) and the hand is held until
        every place shows its face."""
        seen = now.seen
        empty = [p for p in hand.ring if seen.face(p) is Face.EMPTY]
        astray = [view for view in seen.elsewhere if view.face is Face.UP]
        if not empty or len(astray) < len(empty) or any(
                seen.face(p) is not Face.UP for p in hand.ring if p not in empty):
            return False
        if not self.ctx.lasts("astray", now.at, ASTRAY_SECONDS):
            return False
        ring = hand.ring
        self.ctx.hold(code="seats.off", params={"players": empty},
                      release=lambda table: all(table.face(p) is Face.UP for p in ring))
        return True

    def put_aside(self, now: Moment, hand: Hand) -> SeatView | None:
        """The dealer's own card, dealt face down, lying aside face up and named while every other
        card shows: he turned it up and put it aside to draw after the reveal quicker than the
        camera saw it at his seat. It is his card at the reveal, and what lies at his seat now
        (a Re or a Cavallo among them) is his draw, not a card shown late. It is his when the
        tracker kept its identity, or when it bears the name his card was read with, unsure,
        face up at his seat (a deck holds each card once): carried briskly, a card goes out of
        sight and is known anew. Never read at his seat (turned over under his hand as he set it
        aside), it is his when it came to lie aside while his seat was handled."""
        dealer, seen = hand.dealer, now.seen
        dealt = self._base.get(dealer, EMPTY)
        if (self.ctx.game.rules.dealer_draw is DealerDraw.BLIND or dealt.face is not Face.DOWN
                or dealt.card_id is None
                or any(seen.face(p) is not Face.UP for p in hand.ring if p != dealer)):
            return None
        handled = self._dealers_face is None and (dealer in self._lifted or self._touched(seen, dealer))
        return next((view for view in seen.elsewhere if sure(view) is not None
                     and (view.card_id == dealt.card_id or sure(view) == self._dealers_face
                          or (handled and view.card_id not in self._aside))), None)

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
            self.ctx.hold(code="shown.moved_to" if elsewhere else "shown.moved",
                          params={"owner": owner, "card": card.code,
                                  "seat": elsewhere[0] if elsewhere else None},
                          release=shown_at(owner, card))
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
            self.ctx.hold(code="shown.late", params={"player": player, "card": card.code})
            return True
        return False

    def _moves(self, now: Moment, hand: Hand, before: float | None) -> None:
        """Swaps and the dealer's blind draw, once every lifted card has been put down and let go
        for SETTLED (or another card is taken meanwhile: the next move has begun). Seats first seen
        handled together may have been since just after the picture `before`."""
        seen, base, gathering = now.seen, self._base, self._gathering
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
            gathering = self._gathering
        else:
            self._quiet = None
        if handled and not self._lifted:
            # once a card dealt face down shows, the moves are over: a seat emptied and filled
            # again with its own card is that card being turned over where it lies
            self._in_reveal = any(seen.face(p) is Face.UP and p not in hand.shown
                                  for p in hand.ring)
        gathering.covered(handled, now.at, before)
        for player in handled:
            if player not in self._lifted:
                self._lifted.add(player)
                self._spells(player, now)
            if self._base[player].card_id in flying:  # seen on its way: taken, however briskly
                gathering.emptied.add(player)
                gathering.flown.add(player)
        if handled:
            known = {view.card_id for view in base.values()}
            # a card taken under a hand, seen again on its way (not one put aside before, such as
            # the dealer's old card after his draw)
            gathering.strays = gathering.strays or bool(flying - known - self._aside)
        if not self._lifted:
            self._aside = flying
            self._down_aside = sum(view.face is Face.DOWN for view in seen.elsewhere)
            self._judge(seen, hand, set())  # nothing handled: an identity changed at rest

    def _spells(self, player: str, now: Moment) -> None:
        """A lifted seat's empty spells add up while its card is handled."""
        away = self._away.get(player, 0.0) + now.spell.get(player, 0.0)
        self._away[player] = away
        since = now.empty_from.get(player)
        if away + (now.at - since if since is not None else 0.0) >= LIFTED:
            self._gathering.emptied.add(player)

    def _crossed(self, seen: TableObservation) -> bool:
        """Whether two lifted cards lie at each other's seats: the swap done, however they go on."""
        was = {p: self._base[p].card_id for p in sorted(self._lifted)}
        now = {p: seen.seats[p].card_id if seen.face(p) is Face.DOWN else None
               for p in self._lifted}
        return bool(exchanged(was, now))

    def _evidence(self, seen: TableObservation, hand: Hand, busy: set[str]) -> Evidence:
        """What the lifted cards did, the table as it lies now; `busy` seats, handled for the
        next move, keep the card they held before it."""
        base = self._base
        down = [p for p in hand.ring if p not in busy
                and base.get(p, EMPTY).face is Face.DOWN and seen.face(p) is Face.DOWN]
        return self._gathering.fold(
            {p: base[p].card_id for p in down}, {p: seen.seats[p].card_id for p in down},
            revealing=self._in_reveal, dealer=hand.dealer,
            blind=self.ctx.game.rules.dealer_draw is DealerDraw.BLIND,
            put_aside=self._put_aside(seen, base.get(hand.dealer, EMPTY).card_id))

    def _judge(self, seen: TableObservation, hand: Hand, busy: set[str]) -> None:
        """Classify what the lifted cards did and play it; the table as it lies is the new base."""
        base = self._base
        self._at = seen.at
        evidence = self._evidence(seen, hand, busy)
        judgement = classify(evidence)
        self._rested()
        self._act(judgement, evidence, hand, base)
        if self.ctx.held is None:
            self._base = {p: base.get(p, EMPTY) if p in busy else view
                          for p, view in seen.seats.items()}

    def _act(self, judgement: Judgement, evidence: Evidence, hand: Hand,
             base: Mapping[str, SeatView]) -> None:
        """Play what was judged, as the game allows it; hold the hand where it is unclear."""
        kind, seats = judgement.kind, judgement.seats
        if kind is Kind.SWAP:
            self._swap_seen(*seats, crossed=judgement.crossed)
        elif kind is Kind.DRAW:
            if not hand.drew:  # else the card he drew, read anew as it settles
                self._draw_seen(hand)
        elif kind is Kind.UNCLEAR:  # cards put back are told by their identities only where those followed
            if set(seats) <= set(evidence.changed):  # the moves: else a person says
                self.ctx.hold(code="moves.not_one_swap", params={"players": list(seats)},
                              release=back_at(base, list(seats), self._touched))
            else:
                self.ctx.hold(code="moves.not_followed", params={"players": list(seats)})
            return
        # a look, or cards covered together: each pair's unseen exchange asked of the game
        if self.ctx.held is None:
            moved = seats if kind is Kind.SWAP else ()
            self._unseen_swaps(evidence.covered_with(moved))

    def _unseen_swaps(self, pairs: list[tuple[str, str]], code: str = "swap.unseen") -> None:
        """Seats covered at once, long enough to exchange their cards unseen (or one unread while the
        other left: `code` says which): where the game would not allow that swap, the hand is held and
        the table asked."""
        for a, b in pairs:
            self.ctx.custody = self.ctx.custody.pair(a, b, self._at, "covered", seen=False)
            if not may_swap(self.ctx.game, a, b):
                self.ctx.hold(code=code, params={"a": a, "b": b})
                return

    def _put_aside(self, seen: TableObservation, old: int | None) -> bool:
        """Whether the dealer's old card (identity `old`) lies aside, away from every seat: seen
        there by its identity, or more cards lying there face down than before the handling
        began (the tracker may lend his new card the old one's identity where it lay, and the
        old one a new identity on its way). Where he may not draw yet, a card only looked at
        comes back to his seat, perhaps with a new identity. (Where he may, a new card at his
        seat is his blind draw: the card he puts aside lies by the stock, where the reader may
        not tell it from the pile.)"""
        aside = [view for view in seen.elsewhere if view.face is Face.DOWN]
        return (any(view.card_id == old for view in aside) if old is not None else bool(aside)) \
            or len(aside) > self._down_aside

    def _swap_seen(self, a: str, b: str, crossed: bool) -> None:
        """Two face-down cards exchanged: the first player due who may swap with the other did.

        `crossed`: the cards' identities were seen exchanged, so the cards going back to their
        seats undoes an illegal swap; else both seats lifted again and put back undo it.

        A keep leaves nothing to see, so when both may swap with each other (only Cavalli
        between them either way) the swap is the earlier player's; the cards end the same.
        """
        ctx = self.ctx
        try:
            swap = ctx.game.find_swap(a, b)
        except RuleError as refused:
            why, player = refused.message, refused.player or a
        else:
            player, other = swap.player, b if swap.player == a else a
            ctx.keep_until(player)
            ctx.play(swap)
            ctx.custody = ctx.custody.pair(player, other, self._at, "swap")
            ctx.say("swap", {"from": player, "to": other, "legal": True},
                    Message("told.swap", {"player": player, "other": other}))
            return
        other = b if player == a else a
        ctx.say("swap", {"from": player, "to": other, "legal": False},
                Message("told.swap_refused", {"player": player, "other": other}))
        release = back_at(self._base, [a, b], self._touched) if crossed else lifted_again(a, b, self._touched)
        ctx.hold(code="swap.undo", params={"why": why}, release=release)

    def _draw_seen(self, hand: Hand) -> None:
        """The dealer's face-down card put aside and replaced before the reveal: a blind draw."""
        ctx, dealer = self.ctx, hand.dealer
        try:
            draw = ctx.game.find_draw(dealer)
        except RuleError as refused:
            why = refused.message
        else:
            ctx.keep_until(None)
            ctx.play(draw)
            ctx.custody = ctx.custody.add([dealer], Link(self._at, "draw"))
            ctx.say("draw", {"player": dealer, "card": None},
                    Message("told.draw_blind", {"dealer": dealer}))
            return
        ctx.hold(code="draw.undo", params={"why": why}, release=back_at(self._base, [dealer], self._touched))
