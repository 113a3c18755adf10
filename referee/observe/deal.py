"""Before the turns: the first dealer chosen by face-up cards, and the deal seen landing.

The deal counts from the moment every living seat holds its card (the moment before a player's card
was taken up and laid back, once one was). Its event is played once the table rests, or as soon as
a turn begins (a card leaving its seat, a card turned up that is no Re or Cavallo); then the moments
since the deal are shown to the turns again, so a swap begun right after the last card landed is
seen whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.cards import Card
from referee.events import ChooseDealer, Deal as DealEvent, FaceUp
from referee.observation import CLOCK, Face, SeatView, TableObservation
from referee.observe.context import Context
from referee.observe.evidence import Gathering, exchangeable
from referee.observe.moment import Moment, away, cards_on, known, remember, rotated, sure, touched
from referee.wording import Message, first_dealer_card

DEAL_STILL = 3.2
"""Seconds the table rests, every living seat served, before the deal is told without a turn
begun: a player turns up a Re or a Cavallo as it lands, beginning within 2 s at the slowest
table; turning it under his hand takes up to 0.6 s, the reader names it about 0.3 s later (a
slow camera's frame and the tracker's confirmation), and a card can be seen at its place up to
0.3 s before the dealer's hand has let it go. A turn begun sooner counts the deal at once."""

LAID = 1.0
"""Seconds a face-down card must lie at a seat, the same card all along, to have been dealt there: a
card carried past a seat, or held at it a moment by the dealer's hand, moves on within that."""

OWN_LAST = 3.0
"""Seconds after the last other seat's card lands within which the dealer's own card, dealt last,
lies read at his seat: at the slowest table the next card comes up to 2 s after the last, dealing
it takes 0.6 s, and the reader confirms a card about 0.3 s after it lands. Past that his card lies
where the camera does not read it (against the stock, on a busy cloth)."""

MISDEALT = 1
"""Cards no Re or Cavallo that may lie face up at a deal counted without a turn begun (dealt face up
by mistake: a person sees it). A table showing more is being revealed: a seat's card read only then
(unread at its place all along, on a busy cloth) left its deal and turns unseen, and a deal counted
from it would settle the reveal as if nobody had moved. So is a table where such a card lay face
down at its seat before: a card dealt face up by mistake lands face up, one seen face down first was
turned over."""


class FirstDealer:
    """Cards dealt face up one by one until the rule's card names the first dealer."""

    def __init__(self, ctx: Context, dealer_known: bool) -> None:
        self.ctx = ctx
        self.dealer_known = dealer_known
        self.faces: dict[str, Card] = {}

    def start(self) -> None:
        self.faces = {p: c for p, c in self.ctx.game.face_up}

    def observe(self, now: Moment) -> bool:
        """Play the face-up cards seen; True once the first dealer is known."""
        ctx, game = self.ctx, self.ctx.game
        if self.dealer_known:
            return False  # a person names the first dealer
        fresh: dict[str, Card] = {}
        for player in game.players:
            view = now.view(player)
            card = sure(view)
            if card is not None and self.faces.get(player) != card:
                fresh[player] = card
            elif view.face is Face.UP and card is None:
                ctx.unread(player, now)
        while fresh and game.dealer is None:
            due = game.current_player
            player = due if due in fresh else next(iter(fresh))
            card = fresh.pop(player)
            self.faces[player] = card
            event = FaceUp(player, card)
            refused = game.refusal(event)
            if refused is not None:
                ctx.warn(code="face_up.refused", params={"why": refused.message},
                         hand=refused.hand)
                continue
            ctx.play(event)
            ctx.say("face_up", {"player": player, "card": card.code},
                    Message("told.face_up", {"player": player, "card": card.code}), None)
        if game.dealer is None:
            return False
        ctx.say("dealer", {"dealer": game.dealer}, Message("told.first_dealer", {
            "dealer": game.dealer, "card": first_dealer_card(game.rules.dealer_selection)}), None)
        return True


@dataclass(frozen=True, slots=True)
class Dealt:
    """A deal just played: the seats as dealt, when each shown card was first read, and the
    moments since the deal that the turns have yet to see."""

    base: dict[str, SeatView]
    shown_from: dict[str, float]
    replay: list[Moment] = field(default_factory=list)
    beside: frozenset[str] = frozenset()
    """The seats a second card lay by as dealt (the stock by the dealer's card)."""
    at: float = 0.0
    """When the deal counts from: the moment every card lay served, before the moments replayed."""
    unread: tuple[tuple[str, str], ...] = ()
    """Pairs of seats (unread, left) whose cards may have been exchanged before the deal counted: the
    first's card lay unread at its seat while the second's left its seat (`Deal._left_unread`)."""
    covered: tuple[tuple[str, str], ...] = ()
    """Pairs of seats whose cards, both laid, lay under the hands at once long enough to be exchanged,
    one of them gone from its seat, before the moment the deal counts from (`Deal._left_unread`)."""


class Deal:
    """The last hand's cards leave; the new cards land at every living seat; the deal counts."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.cleared = False
        self._full: Moment | None = None  # the last moment every seat held its card as dealt
        self._since: list[Moment] = []  # the moments after it
        self._shown: dict[str, tuple[SeatView, float]] = {}  # each Re or Cavallo seen face up
        self._waiting: list[Moment] = []  # every seat filled, a card face up not yet named: since
        self._looked = False  # a player's card was taken up and laid back since `_full`: it stays
        self._forget_table()

    def _forget_table(self) -> None:
        """Forget what the seats showed: the table cleared, or the deal is watched anew."""
        self._down: set[str] = set()  # the seats seen holding a face-down card since the table cleared
        self._unread: set[tuple[str, str]] = set()  # (unread, left): see _left_unread
        self._covered: dict[tuple[str, str], float] = {}  # two laid cards under the hands at once, since when noted
        self._lying: dict[str, tuple[int | None, float]] = {}  # per seat, its face-down card and since when
        self._laid: dict[str, float] = {}  # per seat where a face-down card has lain LAID since the table cleared, since when
        self._handled = Gathering()  # the laid cards under a hand while a seat's card lies unread

    def start(self, now: Moment, undone: bool, first: bool) -> None:
        """Watch the deal from this moment (a new or resumed game, a person's change)."""
        self._full, self._since, self._shown, self._waiting = None, [], {}, []
        self._looked = False
        self._forget_table()
        game = self.ctx.game
        if undone:
            self.cleared = True  # the deal watched was undone: its cards are on the table
        elif first:
            # before anything is played the cards at the seats are this deal's (seats found
            # automatically are found on them); later they may be the last hand's
            fresh = not game.history or game.history == [ChooseDealer(str(game.dealer))]
            self.cleared = fresh or not cards_on(now.seen)

    def observe(self, now: Moment) -> Dealt | None:
        """Watch one moment of the deal; the deal once it is played."""
        ctx, seen = self.ctx, now.seen
        if not self.cleared:
            if cards_on(seen):
                return None  # the last hand's cards are still on the table
            self.cleared = True
            ctx.warned = set()
            self._forget_table()
        living = ctx.game.alive()
        ctx.dead_seats(now)
        named = {p: known(now.view(p), self._shown[p][0].card if p in self._shown else None)
                 for p in living}
        for player, card in named.items():
            if card is not None and card.shows and player not in self._shown:
                self._shown[player] = (now.view(player), now.at)
        filled = all(seen.face(p) is not Face.EMPTY for p in living)
        unread = [p for p in living if seen.face(p) is Face.UP and named[p] is None]
        for player in unread:
            ctx.unread(player, now)
        full = self._full
        bare = not any(p in seen.hidden for p in living)  # no hand over a card dealt
        self._left_unread(seen, living)
        self._down |= {p for p in living if seen.face(p) is Face.DOWN}
        revealed = sum(c is not None and not c.shows for c in named.values())
        turned = any(c is not None and not c.shows and p in self._down for p, c in named.items())
        walls_only = not revealed
        served = filled and not unread and walls_only
        if served and full is None and self._waiting and self._swapped(
                now, self._waiting[0], living, self._waiting[1:]):
            # the cards were handled while a card shown was being named: the deal counts from
            # the first moment every seat was filled, and the turns are shown what was seen since
            return self._play(self._waiting[0], [*self._waiting[1:], now])
        if served and (bare or full is None):
            if full is not None and self._swapped(now, full, living, self._since):
                return self._play(full, [*self._since, now])  # a swap done between two looks
            rests = bare and now.still >= DEAL_STILL - CLOCK
            if full is not None and (self._looked or self._laid_back(now, full, living, self._since)):
                # a player took up his card and laid it back: a look, or a swap (or the dealer's
                # draw) half seen between two pictures. The deal counts from before it, when it
                # counts (a Re or a Cavallo may yet be turned up), and the turns judge what it was
                self._looked = True
                remember(self._since, now)
                return self._play(full, self._since) if rests else None
            # the deal counts from the first moment every card lies served, a hand over one or
            # not (a player takes a look at once); the turns are shown every moment after it
            self._full, self._since = now, []
            return self._play(now) if rests else None
        if full is None:
            if filled and not unread and revealed <= MISDEALT and not turned \
                    and now.still >= DEAL_STILL - CLOCK:
                return self._play(now)  # a card dealt face up by mistake: a person sees it
            if self._waiting or (filled and bare and walls_only):
                remember(self._waiting, now)  # every card lay: what follows is the turns' to judge
            return None
        remember(self._since, now)
        if unread:
            return None  # a card being turned up: its name decides the walls
        if revealed or self._turn_begun(now, full, living):
            return self._play(full, self._since)
        return None

    def _left_unread(self, seen: TableObservation, living: list[str]) -> None:
        """Note each card that lay face down at its seat for LAID and has left it, or lain under a
        hand for as long as an exchange takes, while another seat's card lies there unread: the
        two may be exchanged with nobody seeing it. Note too two such cards under the hands at once
        for as long as an exchange takes, one gone from its seat: a family begins to swap while the
        dealer's own card, by the stock, is not yet read. The turns ask the game whether such an
        exchange was allowed (`Turns.begin`)."""
        for player in living:
            view = seen.seats.get(player)
            if view is None or view.face is not Face.DOWN:
                self._lying.pop(player, None)
                continue
            card, since = self._lying.setdefault(player, (view.card_id, seen.at))
            if card != view.card_id:
                self._lying[player] = (view.card_id, seen.at)
            elif seen.at - since >= LAID - CLOCK:
                self._laid.setdefault(player, since)
        unread = self._unread_seats(seen, living)
        under = {p for p in self._laid if p in living and touched(seen, p)}
        self._handled.covered(unread | under, seen.at)
        for player in under:
            gone = seen.face(player) is Face.EMPTY
            together = {other: self._handled.together.get(frozenset((other, player)), 0.0) for other in unread | under}
            self._unread |= {(other, player) for other in unread if other != player and (
                gone or exchangeable(together[other]))}
            if gone:
                for other in under - {player}:
                    if exchangeable(together[other]):
                        self._covered.setdefault((min(other, player), max(other, player)), seen.at)

    def _unread_seats(self, seen: TableObservation, living: list[str]) -> set[str]:
        """The seats showing no card whose card lies there unread: the dealer deals round in order,
        so a seat before one where a card has lain, and his own seat, dealt last, once OWN_LAST has
        passed since every other seat's card landed."""
        dealer = self.ctx.game.next_dealer
        if dealer is None or dealer not in living:
            return set()
        order = rotated(tuple(living), dealer)
        bare = [p for p in order if seen.face(p) is Face.EMPTY and p not in self._laid]
        last = max((k for k, p in enumerate(order) if p in self._laid), default=-1)
        unread = {p for p in bare if order.index(p) < last}
        others = [self._laid[p] for p in order[:-1] if p in self._laid]
        if dealer in bare and len(others) == len(order) - 1 and seen.at - max(others) >= OWN_LAST - CLOCK:
            unread.add(dealer)
        return unread

    def _swapped(self, now: Moment, full: Moment, living: list[str],
                 since: list[Moment]) -> bool:
        """Whether the cards lie as dealt again after two seats were handled: two face-down
        cards with other identities now, two seats emptied on the way, or two covered at once
        for as long as an exchange takes, from `full` through the moments `since` to `now` (the
        turns judge what they did)."""
        was, seen = full.seen, now.seen
        moved = [p for p in living if was.face(p) is Face.DOWN and seen.face(p) is Face.DOWN
                 and None not in (was.seats[p].card_id, seen.seats[p].card_id)
                 and was.seats[p].card_id != seen.seats[p].card_id]
        emptied = {p for m in since for p in living
                   if was.face(p) is Face.DOWN and m.seen.face(p) is Face.EMPTY}
        covered = Gathering()  # two cards under the hands at once, long enough to be exchanged
        for moment in [full, *since, now]:
            covered.covered({p for p in living if was.face(p) is Face.DOWN
                             and touched(moment.seen, p)}, moment.at)
        return (len(moved) >= 2 or len(emptied) >= 2
                or any(exchangeable(s) for s in covered.together.values()))

    def _laid_back(self, now: Moment, full: Moment, living: list[str], since: list[Moment]) -> bool:
        """Whether a player's card dealt face down was taken up from its seat (empty for LIFTED)
        and lies face down there again: a turn was played (a look, a swap half seen), for the
        turns to judge. A card turned up where it lies, a Re or a Cavallo shown at the deal,
        comes back face up; the dealer's place does not count, the stock passing in and out of
        it as he deals."""
        dealer = self.ctx.game.next_dealer
        return any(p != dealer and full.seen.face(p) is Face.DOWN and now.seen.face(p) is Face.DOWN
                   and any(m.lifted(p) for m in [*since, now]) for p in living)

    def _turn_begun(self, now: Moment, full: Moment, living: list[str]) -> bool:
        """Whether a face-down card dealt has left its seat for a swap.

        Two seats emptied at once, or a player's card seen on its way, or another seat handled
        too (emptied, a card beside it, or under a hand while this one stays empty a while), or
        two cards under the hands while a card is seen on its way: a card that only vanishes
        may be being turned up where it lies (a Re or a Cavallo shown at the deal). The dealer's place counts only with another seat handled, since the stock
        lies there and can pass in and out of the place.
        """
        seen, was = now.seen, full.seen
        dealer = self.ctx.game.next_dealer
        gone = [p for p in living if was.face(p) is Face.DOWN and seen.face(p) is Face.EMPTY]
        players = [p for p in gone if p != dealer]
        others = [p for p in living if p not in gone and p != dealer]
        if len(gone) > 1 or (dealer in gone and any(touched(seen, p) for p in others)):
            return True
        under = [p for p in others if was.face(p) is Face.DOWN and p in seen.hidden]
        if len(under) > 1 and away(seen):
            return True  # two cards under the hands, and a card on its way between them
        if not players:
            return False
        player = players[0]
        if was.seats[player].card_id in away(seen) or any(p in seen.crowded for p in others):
            return True
        covered = [p for p in others + [dealer] if p is not None and p in seen.hidden]
        return bool(covered) and now.lifted(player)

    def _play(self, dealt: Moment, replay: list[Moment] | None = None) -> Dealt | None:
        """Play the deal as `dealt` shows it, with every Re and Cavallo shown since."""
        ctx, game = self.ctx, self.ctx.game
        living = game.alive()
        base = dict(dealt.seen.seats)
        cards = {p: sure(dealt.view(p)) for p in living}
        shown_from: dict[str, float] = {}
        for player, (view, at) in self._shown.items():
            if player in cards and cards[player] is None and base[player].face is not Face.EMPTY:
                cards[player], base[player], shown_from[player] = view.card, view, at
        event = DealEvent(cards)
        refused = game.refusal(event)
        if refused is not None:
            ctx.warn(code="deal.refused", params={"why": refused.message}, hand=refused.hand)
            return None
        ctx.play(event)
        unread = tuple(sorted(self._unread))
        # those after the moment the deal counts from are the turns' to judge, shown them again
        covered = tuple(sorted(pair for pair, at in self._covered.items() if at <= dealt.at + CLOCK))
        self._full, self._since, self._shown, self._waiting = None, [], {}, []
        self._looked = False
        self._unread, self._covered = set(), {}
        hand = game.hand
        assert hand is not None
        ctx.say("deal", {"dealer": hand.dealer},
                Message("told.deal", {"hand": hand.number, "dealer": hand.dealer}))
        for player in rotated(hand.ring, hand.dealer):
            card = hand.shown.get(player)
            if card is None:
                continue
            shown = {"player": player, "card": card.code}
            ctx.say("shown", shown, Message("told.wall", shown) if card.is_wall
                    else Message("told.jumped", shown))
        for player in hand.order:
            found = hand.target(player, game.rules)
            ctx.say("target", {"player": player, "target": found.target,
                               "reason": found.reason()}, found.message())
        return Dealt(base, shown_from, list(replay or []), dealt.seen.crowded, dealt.at, unread, covered)
