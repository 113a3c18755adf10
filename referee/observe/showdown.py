"""The reveal, the dealer's draw after it, and the end of the hand.

The hand ends at whichever comes first: the table resting SETTLE_STILL, the revealed cards
leaving their seats (the collection: settled at once with the cards read, the dealer keeping),
or the end of a film or a folder (`Controller.finish`). A dealer seen drawing a card the camera
never named does not keep: the hand is held and the table asked what he holds.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.cards import Card
from referee.events import Draw, Reveal, Settle
from referee.game import Hand, Phase
from referee.observation import CLOCK, EMPTY, Face, SeatView
from referee.observe.context import Context
from referee.observe.moment import Moment, away, known, sure, touched
from referee.rules import DealerDraw
from referee.wording import Message

SETTLE_STILL = 2.5
"""Seconds the table rests after the reveal before the hand is settled: the dealer decides on
his draw and reaches for his card within 2 s of the last card turned at the slowest tables, and
his card is seen leaving about 0.3 s into the move. A collection settles sooner."""
SWEPT = 3
"""Revealed cards, the dealer's aside, from which every one of them out of sight at once is the
collection: an arm reaching past covers a card, two at a close table, never every card round
it, while the hands pushing the cards to the middle cover each; on a busy cloth a card on its
way is not read, and only stays out of sight."""
SWEEP = 0.2
"""Seconds every revealed card stays out of sight at once before that is the collection: with
the tracker's UNSEEN_AFTER, 0.4 s unread, the briskest move's length; a picture caught
blurred or dark, which reads no card at all, is followed by one that reads them again."""


class Showdown:
    """From the reveal to the settlement: the dealer's draw, misreadings, the collection."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.read: dict[str, Card] = {}  # the cards as the camera read them at the reveal
        self.rebase({})

    def rebase(self, seats: Mapping[str, SeatView]) -> None:
        """Judge what follows against these seats."""
        self._base = dict(seats)
        self._lifted: set[str] = set()
        self._swept: float | None = None  # since when every revealed card has been out of sight
        self._drawing = False  # the dealer is seen drawing, and his draw is not read yet
        self._left = False  # the dealer's own card seen leaving his seat (his seat empty, or aside)
        self._unread = False  # ... and then a draw of his seen and not read: asked, not kept
        self._otherwise: dict[str, Card] = {}  # per seat, the card it read last, unlike the one played

    def reveal(self, now: Moment, hand: Hand, aside: SeatView | None = None) -> None:
        """Every seat shows its face, the dealer's perhaps `aside` (put aside to draw): once all
        are named surely, everyone still due keeps. (A face unnamed is asked about by the turns,
        `Turns.observe`, from the moment it shows.)"""
        ctx, game = self.ctx, self.ctx.game
        cards: dict[str, Card] = {}
        for player in hand.ring:
            view = aside if aside is not None and player == hand.dealer else now.view(player)
            card = known(view, hand.shown.get(player))
            if card is not None:
                cards[player] = card
        if len(cards) < len(hand.ring) or self._twice(cards, hand.number):
            return
        ctx.keep_until(None)
        if game.rules.dealer_draw is DealerDraw.BLIND and hand.dealer_due:
            ctx.keep(hand.dealer)  # no blind draw was seen
        event = Reveal(cards)
        refused = game.refusal(event)
        if refused is not None:
            ctx.hold(code="reveal.refused", params={"why": refused.message}, hand=refused.hand)
            return
        ctx.play(event)
        self.read = dict(cards)
        self.rebase(now.seen.seats)
        if aside is not None:
            self._lifted.add(hand.dealer)  # his card has left his seat: what lies there is drawn
            self._drawing = self._left = self._unread = True
        faces = {p: c.code for p, c in cards.items()}
        ctx.say("reveal", {"cards": faces}, Message("told.reveal", {"hand": hand.number,
                                                                   "faces": faces}))

    def _twice(self, cards: Mapping[str, Card], number: int) -> bool:
        """Whether one card is read at two seats (reported, never guessed)."""
        holders: dict[Card, str] = {}
        for player, card in cards.items():
            if card in holders:
                self.ctx.warn(code="cards.two_seats", params={
                    "card": card.code, "first": holders[card], "second": player}, hand=number)
                return True
            holders[card] = player
        return False

    def observe(self, now: Moment, hand: Hand) -> bool:
        """Watch one moment after the reveal; True once the hand is settled."""
        if self._collected(now, hand):
            return self.ended(hand)
        ctx, game = self.ctx, self.ctx.game
        dealer = hand.dealer
        ready = True
        cards: dict[str, Card] = {}
        for player in hand.ring:
            view = now.view(player)
            card = known(view, hand.shown.get(player))
            if view.face is not Face.UP or view.card_id != self._base.get(player, EMPTY).card_id:
                self._lifted.add(player)  # the card at this seat was taken up or replaced
            if card is None:
                ready = False
                if view.face is Face.UP:
                    ctx.unread(player, now)
                else:
                    ctx.missing(player, now)
                continue
            cards[player] = card
        self._follow_draw(now, hand)
        if self._twice(cards, hand.number):
            return False
        others = {c for p, c in self.read.items() if p != dealer}
        for player, card in cards.items():
            held, read = hand.cards.get(player), self.read.get(player)
            if card == read or card == held:
                self._otherwise.pop(player, None)
                continue
            if player == dealer and game.phase is Phase.DEALER and dealer in self._lifted:
                if card in others:
                    ready = False  # another player's card passing over his seat: no draw
                    continue
                event = Draw(dealer, card)
                refused = game.refusal(event)
                if refused is not None:
                    ctx.hold(code="draw.refused", params={"why": refused.message},
                             hand=refused.hand)
                    return False
                ctx.play(event)
                self.read[dealer] = card
                ctx.say("draw", {"player": dealer, "card": card.code},
                        Message("told.draw", {"dealer": dealer, "card": card.code}))
            elif held is None:
                ctx.play(Reveal({player: card}))
                self.read[player] = card
            elif held == read:
                ready = False
                self._otherwise[player] = card
                ctx.warn(code="card.reads_otherwise", params=self._reads_otherwise(player, card),
                         hand=hand.number)
        if ready and now.still >= SETTLE_STILL:
            self.settle(hand)
            return True
        return False

    def _collected(self, now: Moment, hand: Hand) -> bool:
        """Whether the revealed cards are leaving their seats, the dealer's aside (his own card
        leaving may be his draw): one seen away from its seat, two seats emptied at once, one
        empty for LIFTED (a hand reaching past a card can hide it for a frame), or every one of
        them, SWEPT at least, out of sight at once for SWEEP. While the dealer, due, is handling his
        seat (`touched`: his card under his hand, taken up, or a second card beside it) or is drawing,
        only a card seen away or every card out of sight: his arm reaching for his card or for the
        stock covers his neighbours' cards (their outlines cut by it look moved, and the tracker drops
        them as carried), and on a busy cloth a card under it reads as no card."""
        seen = now.seen
        gone = away(seen)
        revealed = [p for p in hand.ring if p != hand.dealer
                    and self._base.get(p, EMPTY).face is Face.UP]
        if any(self._base[p].card_id in gone for p in revealed
               if self._base[p].card_id is not None):
            return True
        empty = [p for p in revealed if seen.face(p) is Face.EMPTY]
        unseen = [p for p in revealed if p in seen.hidden or seen.face(p) is Face.EMPTY]
        if len(unseen) < max(len(revealed), SWEPT):
            self._swept = None
        elif self._swept is None:
            self._swept = now.at
        reaching = self._drawing or (self.ctx.game.phase is Phase.DEALER and touched(seen, hand.dealer))
        emptied = not reaching and (len(empty) > 1 or any(now.lifted(p) for p in empty))
        return emptied or (self._swept is not None and now.at - self._swept >= SWEEP - CLOCK)

    def _follow_draw(self, now: Moment, hand: Hand) -> None:
        """Note whether the dealer, due, is drawing before the gathering has begun (no other
        revealed card seen away from its seat): his own card seen put aside, or a card not his
        own and not named (face down, or face up and unsure) at his seat once his card left it.
        His draw is unread once his card was seen put aside, or his seat seen empty before such
        a card lay there: one laid over his own card is another's gathered over it, or his own
        misread. His own card back at his seat, and none seen aside, is no draw."""
        if self.ctx.game.phase is not Phase.DEALER:
            return
        dealer, seen = hand.dealer, now.seen
        view, own = now.view(dealer), self._base.get(dealer, EMPTY)
        mine = self.read.get(dealer)
        others = {self._base[p].card_id for p in hand.ring if p != dealer and p in self._base}
        if others & away(seen):
            return  # the gathering has begun
        aside = (own.card_id is not None and own.card_id in away(seen)) or \
            any(sure(other) is not None and sure(other) == mine for other in seen.elsewhere)
        back = (view.card_id is not None and view.card_id == own.card_id) or \
            (sure(view) is not None and sure(view) == mine)
        drawn = (dealer in self._lifted and view.face is not Face.EMPTY and sure(view) is None
                 and view.card_id not in others)
        if aside:
            # his card lies at no seat (a deck holds each card once): whatever lies at his seat
            # is another card, though the tracker lent it his card's identity where it landed
            self._lifted.add(dealer)
        if aside or (drawn and not back):
            self._drawing = True
            self._unread = self._unread or aside or self._left
        elif back:
            self._drawing = self._left = self._unread = False
        self._left = self._left or aside or view.face is Face.EMPTY

    def ended(self, hand: Hand) -> bool:
        """The hand is over on the table (collected, or the film has ended): settled with the
        cards read, True; held, False, while the dealer's draw was seen and never read (he does
        not keep: what he holds is asked), or a card whose last reading named another card than
        the one played (`card.reads_otherwise`)."""
        if self.ctx.game.phase is Phase.DEALER and self._drawing and self._unread:
            self.ctx.hold(code="draw.unseen", params={"dealer": hand.dealer})
            return False
        for player, card in self._otherwise.items():  # read otherwise as the cards left: which
            # reading is right only a person can tell, so neither is settled
            self.ctx.hold(code="card.reads_otherwise", params=self._reads_otherwise(player, card),
                          hand=hand.number)
            return False
        self.settle(hand)
        return True

    def _reads_otherwise(self, player: str, card: Card) -> dict[str, str]:
        read = self.read.get(player)
        return {"player": player, "card": card.code, "read": read.code if read else "?"}

    def settle(self, hand: Hand) -> None:
        """Settle the hand, the dealer keeping if he has not drawn, and narrate who pays."""
        ctx, game = self.ctx, self.ctx.game
        if game.phase is Phase.DEALER:
            ctx.keep(hand.dealer)
        evidence = ctx.play(Settle())
        result = hand.result
        assert result is not None
        losers = list(result.losers)
        said = {"hand": result.number, "dealer": game.next_dealer, "losers": losers,
                "pot": result.pot}
        told = (Message("told.void", said) if result.void else Message("told.nobody_pays", said)
                if not losers else Message("told.pays", said) if len(losers) == 1
                else Message("told.pay", said))
        ctx.say("settle", {"losers": losers, "lives": dict(result.lives), "pot": result.pot,
                           "evidence": evidence}, told, result.number)
        ctx.warned = set()
        self.read = {}
