"""The controller: a stream of table observations becomes referee events, each one narrated.

It keeps only a visual memory (the seats as the game last knew them); what the game expects
next it asks the game each time (`phase`, `is_legal`, `why_illegal`), so a person's undo or
correction between two observations is simply read back. Time is the observations' own clock.
Each phase lives in a module of its own: `deal` (the first dealer, the deal), `turns`,
`showdown` (the reveal, the dealer's draw, the settlement); a held hand waits here.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.events import Event
from referee.game import Game, Phase, RuleError
from referee.observation import TableObservation
from referee.observe.clock import GAP, Clock, needed
from referee.observe.context import Context, Said, Warning
from referee.observe.custody import Link
from referee.observe.deal import Deal, FirstDealer
from referee.observe.moment import Moment, cards_on
from referee.observe.showdown import Showdown
from referee.observe.turns import Turns
from referee.wording import Message


class Controller:
    """Turns what the camera sees into the game's events, and says what happened."""

    def __init__(self, game: Game, sink: Callable[[Event], str | None] | None = None, *,
                 dealer_known: bool = True) -> None:
        self.game = game
        self._ctx = Context(game, sink)
        self._first = FirstDealer(self._ctx, dealer_known)
        self._deal = Deal(self._ctx)
        self._turns = Turns(self._ctx)
        self._showdown = Showdown(self._ctx)
        self._now: Moment | None = None
        self._restart = True  # take the next picture as what the game already knows
        self._watched = -1  # the hand number the visual memory belongs to
        self._clock = Clock()
        self._unseen_deal = 0.0  # the longest gap in the pictures while the deal lay unplayed
        self._slow_told: tuple[int, bool] | None = None  # the hand the camera's rate was told
        # in, and whether during its turns (held) or not (warned)

    @property
    def held(self) -> Warning | None:
        """The warning holding the hand for a person, or None."""
        return self._ctx.held

    @property
    def seen(self) -> TableObservation | None:
        """The last observation shown to the controller (the table as the camera sees it now)."""
        return None if self._now is None else self._now.seen

    def hold(self, warning: Warning) -> None:
        """Hold the hand for a person with `warning` (a person's decision taken back, or a new
        question asked): the game as it stands is read, and nothing is played until it is
        released or resumed."""
        ctx = self._ctx
        ctx.held = warning
        ctx.known = ctx.stamp()
        self._restart = True

    def deal_again(self) -> None:
        """A person voided the hand in play (the game undone to before its deal): its cards must
        leave the seats before the next deal counts, and nothing holds the table."""
        ctx = self._ctx
        ctx.release()
        ctx.known = ctx.stamp()
        self._restart = True
        self._watched = -1  # the deal watched was not undone to be seen again from the table
        self._deal.cleared = False

    @property
    def rate(self) -> float | None:
        """Pictures a second the controller is shown, once a few have come (`clock.Clock`)."""
        return self._clock.rate

    def resume(self) -> None:
        """A person resolved the held warning: the table as seen next is the new starting point."""
        ctx = self._ctx
        if ctx.held is not None and self._now is not None:  # a person vouches for every card
            ctx.custody = ctx.custody.add(ctx.custody.chains, Link(self._now.at, "resumed"))
        ctx.release()
        self._restart = True

    def observe(self, seen: TableObservation) -> list[Said]:
        """Read one observation; return what happened, in order."""
        ctx = self._ctx
        ctx.begin()
        first = self._now is None
        now = Moment.first(seen) if self._now is None else self._now.then(seen)
        if ctx.stamp() != ctx.known:  # a person changed the game (undo, correction...)
            ctx.release()
            self._restart = True
            ctx.known = ctx.stamp()
        if self._restart:
            self._start(now, first)
        self._pictures(now, self._clock.tick(seen.at))
        self._guarded(now)
        ctx.end()
        self._now = now
        return ctx.out

    def finish(self) -> list[Said]:
        """The source has ended (a film or a folder of photos): a hand revealed is settled with
        the cards read, as the table would have been left to rest (held where the dealer drew a
        card never named)."""
        ctx = self._ctx
        ctx.begin()
        hand = self.game.hand
        if (ctx.held is None and hand is not None and hand.result is None and hand.revealed
                and self.game.phase in (Phase.DEALER, Phase.SETTLE)
                and self._showdown.ended(hand)):
            self._deal.cleared = False
        return ctx.out

    def _pictures(self, now: Moment, gap: float) -> None:
        """Pictures too rare, or missing for as long as a move takes: said; during the turns the
        cards' custody is lost and the hand held where a move nobody saw would matter."""
        ctx, game, hand = self._ctx, self.game, self.game.hand
        turns = (ctx.held is None and hand is not None and hand.result is None
                 and not hand.revealed and game.phase in (Phase.TURNS, Phase.DEALER))
        if self._clock.too_slow:
            number = ctx.number()
            if self._slow_told in ((number, turns), (number, True)):
                return
            self._slow_told = (number, turns)
            slow = Message("pictures.slow", {"rate": self._clock.rate or 0.0, "needed": needed()})
            if turns:
                ctx.hold(code="ask.played", params={"why": slow})
            else:
                ctx.warn(code=slow.code, params=slow.params, headed=False)  # the table's
        elif gap > GAP and turns:
            assert hand is not None
            self._turns.lost_sight(now, gap, hand)
        elif (gap > GAP and game.phase is Phase.DEAL and self._deal.cleared
              and cards_on(now.seen)):
            self._unseen_deal = max(self._unseen_deal, gap)  # a move made before it counts

    def _start(self, now: Moment, first: bool) -> None:
        """Take this picture as what the game already knows (a new or a resumed game)."""
        game = self.game
        self._restart = False
        self._unseen_deal = 0.0
        self._rebase(now)
        self._first.start()
        if game.phase is Phase.DEAL:
            self._deal.start(now, undone=self._watched == len(game.results) + 1, first=first)
        hand = game.hand
        if hand is not None and hand.result is None:
            if hand.number != self._watched:  # else what the camera read stays (corrections)
                self._showdown.read = {p: c for p, c in hand.cards.items() if c is not None}
            self._watched = hand.number

    def _rebase(self, now: Moment) -> None:
        """Judge what comes next against the table as it lies now."""
        self._turns.rebase(now.seen.seats, beside=now.seen.crowded, at=now.at)
        self._showdown.rebase(now.seen.seats)

    def _guarded(self, now: Moment) -> None:
        try:
            self._step(now)
        except RuleError as err:  # the sink refused what the game allowed a moment ago
            self._ctx.hold(code="sink.refused", params={"why": err.message}, hand=err.hand)

    def _step(self, now: Moment) -> None:
        held = self._ctx.held
        if held is not None:
            if held.release is not None and held.release(now.seen):
                self._ctx.release()
                self._rebase(now)
            return
        game = self.game
        phase, hand = game.phase, game.hand
        if phase is Phase.CHOOSE_DEALER:
            if self._first.observe(now):
                self._deal.cleared = False
        elif phase is Phase.DEAL:
            dealt = self._deal.observe(now)
            if dealt is not None:
                self._watched = len(game.results) + 1
                self._turns.begin(dealt, now.at)
                self._showdown.read = {}
                if self._unseen_deal and game.hand is not None:
                    self._turns.lost_sight(now, self._unseen_deal, game.hand)
                self._unseen_deal = 0.0
                for moment in dealt.replay:  # the turns see what happened since the deal
                    self._step(moment)
        elif phase is Phase.OVER or hand is None:
            return
        elif hand.revealed:
            if self._showdown.observe(now, hand):
                self._deal.cleared = False
        elif self._turns.observe(now, hand):
            self._showdown.reveal(now, hand, self._turns.put_aside(now, hand))
