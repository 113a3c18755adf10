"""The game as a state machine with a history: `play(event)`, `undo()`, `outcome()`."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from referee.cards import DECK, Card, Suit
from referee.events import (
    ChooseDealer,
    Correct,
    Deal,
    Draw,
    Event,
    FaceUp,
    Join,
    Keep,
    Leave,
    Reveal,
    Revive,
    Settle,
    Swap,
)
from referee.rules import (
    DealerDraw,
    DealerRotation,
    DealerSelection,
    FinalTwo,
    Revival,
    Rules,
    find_rules,
)
from referee.view import ListView
from referee.walk import Stop, SwapTarget, swap_target
from referee.wording import Message, about

MIN_PLAYERS, MAX_PLAYERS = 3, 20
_NO_CARD: Any = object()


def _a_name(name: object) -> bool:
    """Whether `name` can name a player (`?` stands for an unseen card in records)."""
    return isinstance(name, str) and bool(name.strip()) and name != "?" and name.isprintable()


def _named(name: object) -> str:
    """A name as a message shows it: quoted when it could not be a player's (a line break...)."""
    return name if isinstance(name, str) and _a_name(name) else repr(name)


def _past_cavalli(hand: Hand, player: str, other: str) -> bool:
    """Whether only Cavalli lie between `player` and `other` on his right: the swap he meant."""
    ring = hand.ring
    at = ring.index(player)
    between = [ring[(at + step) % len(ring)] for step in range(1, len(ring))]
    between = between[: between.index(other)]
    return all(p in hand.shown and hand.shown[p].is_horse for p in between)


class RuleError(ValueError):
    """An event the rules forbid: the rule as a code with parameters (`message`), the hand and
    the player; `str()` is the English sentence, `words(language)` any language's."""

    def __init__(self, code: str, params: Mapping[str, Any] | None = None,
                 hand: int | None = None, player: str | None = None) -> None:
        self.message = Message(code, dict(params or {}))
        self.rule = self.message.words("en")
        super().__init__(about(hand or None, self.rule))
        self.hand, self.player = hand, player

    @property
    def code(self) -> str:
        """The rule's code (a key of `referee.wording.WORDS`)."""
        return self.message.code

    @property
    def params(self) -> Mapping[str, Any]:
        """The values the rule names."""
        return self.message.params

    def words(self, language: str = "en") -> str:
        """The refusal in `language`, its hand first: `mano 1: Anna non può scambiare: ...`."""
        return about(self.hand or None, self.message.words(language), language)


class Phase(enum.Enum):
    """What the game waits for."""

    CHOOSE_DEALER = "choose_dealer"
    DEAL = "deal"
    TURNS = "turns"
    DEALER = "dealer"
    REVEAL = "reveal"
    SETTLE = "settle"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end: one winner, or (under `final_two = split`) two survivors and no winner."""

    winner: str | None
    survivors: tuple[str, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class HandResult:
    """One settled hand, as the replay prints it."""

    number: int
    dealer: str
    swaps: tuple[tuple[str, str], ...]
    final: dict[str, Card]
    losers: tuple[str, ...]
    void: bool
    lives: dict[str, int]
    pot: int


class Hand:
    """The hand in play: who shows what, whose turn it is, where every card lies."""

    __slots__ = (
        "number", "dealer", "ring", "shown", "order", "pos", "cards", "swaps", "seen",
        "dealer_moves", "dealer_done", "drew", "drawn_unknown", "revealed", "result", "_targets",
    )

    def __init__(self, number: int, dealer: str, ring: tuple[str, ...],
                 cards: dict[str, Card | None], seen: set[Card]) -> None:
        self.number, self.dealer, self.ring, self.cards = number, dealer, ring, cards
        self.shown = {p: c for p, c in cards.items() if c is not None and c.shows}
        start = ring.index(dealer) + 1
        in_turn = ring[start:] + ring[:start]
        self.order = tuple(p for p in in_turn[:-1] if p not in self.shown)
        self.pos = 0
        self.swaps: list[tuple[str, str]] = []
        self.seen = seen
        self.dealer_moves = dealer not in self.shown
        self.dealer_done = self.drew = self.drawn_unknown = self.revealed = False
        self.result: HandResult | None = None
        self._targets: dict[str, SwapTarget] = {}

    @property
    def dealer_due(self) -> bool:
        """Whether the dealer still has his move to make (keep or draw)."""
        return self.dealer_moves and not self.dealer_done

    def target(self, player: str, rules: Rules) -> SwapTarget:
        """The player's swap target, walked once and kept (shown cards never move)."""
        found = self._targets.get(player)
        if found is None:
            found = swap_target(player, self.ring, self.shown, self.dealer, rules)
            self._targets[player] = found
        return found


def seated(players: Sequence[str]) -> tuple[str, ...]:
    """The players of a table in seating order, or the RuleError that says why they cannot sit at one:
    MIN_PLAYERS to MAX_PLAYERS distinct names."""
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError("table.size", {"low": MIN_PLAYERS, "high": MAX_PLAYERS, "count": len(names)})
    for name in names:
        if not _a_name(name):
            raise RuleError("table.no_name", {"name": repr(name)})
    if len(set(names)) != len(names):
        raise RuleError("table.same_name")
    return names


class Game:
    """A game of Saltacavallo: the table, the rules, and every event so far."""

    def __init__(
        self, players: Sequence[str], rules: Rules | str = "napoli", lives: int | None = None
    ) -> None:
        names = seated(players)
        self.first_players = names
        self.rules = find_rules(rules)
        start = self.rules.lives if lives is None else lives
        if isinstance(start, bool) or not isinstance(start, int) or start < 1:
            raise RuleError("table.lives", {"lives": repr(start)})
        self.start_lives = start
        # The rules never change during a game: the two switches read at every event, read once.
        self._blind = self.rules.dealer_draw is DealerDraw.BLIND
        self._until_short = self.rules.dealer_rotation is DealerRotation.UNTIL_STOCK_SHORT
        # Each event has a check (raises RuleError, changes nothing, returns what it found)
        # and an application of what the check found: `is_legal` runs the check alone.
        self._handlers: dict[type[Any], tuple[Callable[[Any], Any], Callable[[Any, Any], None]]] = {
            FaceUp: (self._check_face_up, self._face_up),
            ChooseDealer: (self._check_choose_dealer, self._choose_dealer),
            Deal: (self._check_deal, self._deal), Keep: (self._check_keep, self._keep),
            Swap: (self._check_swap, self._swap), Draw: (self._check_draw, self._draw),
            Reveal: (self._check_reveal, self._reveal), Settle: (self._check_settle, self._settle),
            Revive: (self._check_revive, self._revive),
            Correct: (self._check_correct, self._correct),
            Join: (self._check_join, self._join), Leave: (self._check_leave, self._leave),
        }
        self._history: list[Event] = []
        self._results: list[HandResult] = []
        self._face_ups: list[tuple[str, Card]] = []
        self._history_view = ListView(self._history)
        self._results_view = ListView(self._results)
        self._face_ups_view = ListView(self._face_ups)
        self._reset()

    def _reset(self) -> None:
        self._seat_players(self.first_players)
        self._lives = dict.fromkeys(self._players, self.start_lives)
        self._handed = False
        self._joined: set[str] = set()  # since the last deal
        self._left: set[str] = set()
        self._pot = 0
        self._dealer: str | None = None
        self._face_ups.clear()
        self._hand: Hand | None = None
        self._results.clear()
        self._outcome: Outcome | None = None
        self._last_void = False
        self._stock_used = 0
        self._stock_seen: set[Card] = set()

    # -- the state only events change, read-only from outside -----------------------------------

    @property
    def history(self) -> ListView[Event]:
        """Every event played, in order."""
        return self._history_view

    @property
    def results(self) -> ListView[HandResult]:
        """Every settled hand, in order."""
        return self._results_view

    @property
    def face_up(self) -> ListView[tuple[str, Card]]:
        """The cards dealt face up to choose the first dealer: (player, card), in order."""
        return self._face_ups_view

    @property
    def lives(self) -> Mapping[str, int]:
        """Each seated player's lives, in seating order (0 for the dead)."""
        return MappingProxyType(self._lives)

    @property
    def players(self) -> tuple[str, ...]:
        """The seated players, dead or alive, in seating order (counterclockwise)."""
        return self._players

    @property
    def dealer(self) -> str | None:
        """The dealer of the hand in play or the last one (the first dealer before any deal)."""
        return self._dealer

    @property
    def pot(self) -> int:
        """The lives paid so far."""
        return self._pot

    @property
    def hand(self) -> Hand | None:
        """The hand in play or just settled; None before the first deal."""
        return self._hand

    # -- the public state machine ------------------------------------------------------------

    def _seat_players(self, players: tuple[str, ...]) -> None:
        self._players = players
        self._seat = {name: at for at, name in enumerate(players)}

    def play(self, event: Event) -> None:
        """Apply one event, or raise RuleError and change nothing."""
        handler = self._handlers.get(event.__class__)
        if handler is None:
            raise RuleError("event.unknown", {"event": repr(event)})
        check, apply = handler
        apply(event, check(event))
        self._history.append(event)

    def why_illegal(self, event: Event) -> str | None:
        """The rule `event` would break now (the RuleError's message), or None if it is legal."""
        handler = self._handlers.get(type(event))
        if handler is None:
            return str(RuleError("event.unknown", {"event": repr(event)}))
        found = self.refusal(event)
        return None if found is None else str(found)

    def refusal(self, event: Event) -> RuleError | None:
        """The RuleError `event` would raise now (its code and parameters), or None if legal."""
        handler = self._handlers.get(type(event))
        if handler is None:
            return RuleError("event.unknown", {"event": repr(event)})
        try:
            handler[0](event)
        except RuleError as err:
            return err
        return None

    def is_legal(self, event: Event) -> bool:
        """Whether `event` may be played now; the game is left as it is."""
        return self.why_illegal(event) is None

    def legal_moves(self) -> list[Event]:
        """The events legal now that need no card seen: choices, moves, settlement, revives.

        A deal, a face-up card, a reveal, a correction and a join need what only the table or
        a person can tell (cards, a new name), so they are never listed.
        """
        phase = self.phase
        moves: list[Event] = []
        if phase is Phase.CHOOSE_DEALER:
            moves = [ChooseDealer(p) for p in self._players]
        elif phase is Phase.TURNS:
            player = self.current_player
            assert player is not None
            found = self.target(player)
            moves = [Keep(player)]
            if found is not None and found.target is not None:
                moves.append(Swap(player, found.target))
        elif phase is Phase.DEALER:
            assert self._hand is not None
            moves = [Keep(self._hand.dealer), Draw(self._hand.dealer)]
        elif phase is Phase.SETTLE:
            moves = [Settle()]
        if phase in (Phase.DEAL, Phase.CHOOSE_DEALER):
            dead = [p for p in self._players if self._lives[p] <= 0]
            moves += [Revive(d, p) for d in dead for p in self.alive()]
            moves += [Leave(p) for p in self._players]
        return [move for move in moves if self.is_legal(move)]

    def play_all(self, events: Iterable[Event]) -> None:
        """Apply events in order."""
        for event in events:
            self.play(event)

    def undo(self) -> Event:
        """Take back the last event (the game is rebuilt from the rest of the history)."""
        history = self._history
        if not history:
            raise RuleError("undo.nothing")
        events = history[:-1]
        last = history[-1]
        history.clear()
        self._reset()
        self.play_all(events)
        return last

    def outcome(self) -> Outcome | None:
        """The end of the game, or None while it goes on."""
        return self._outcome

    def alive(self) -> list[str]:
        """The living players in seating order."""
        return [p for p in self._players if self._lives[p] > 0]

    @property
    def phase(self) -> Phase:
        """What the game waits for now."""
        if self._outcome is not None:
            return Phase.OVER
        if self._dealer is None:
            return Phase.CHOOSE_DEALER
        hand = self._hand
        if hand is None or hand.result is not None:
            return Phase.DEAL
        if hand.pos < len(hand.order):
            return Phase.TURNS
        dealer_due = hand.dealer_moves and not hand.dealer_done
        if self._blind:
            if dealer_due:
                return Phase.DEALER
            return Phase.SETTLE if hand.revealed else Phase.REVEAL
        if not hand.revealed:
            return Phase.REVEAL
        return Phase.DEALER if dealer_due else Phase.SETTLE

    @property
    def current_player(self) -> str | None:
        """Who must act now: the next to move, the dealer to deal or draw; None otherwise."""
        phase = self.phase
        if phase is Phase.CHOOSE_DEALER:
            return self._right_of(self._face_ups[-1][0]) if self._face_ups else None
        if phase is Phase.DEAL:
            return self.next_dealer
        hand = self._hand
        if hand is None:
            return None
        if phase is Phase.TURNS:
            return hand.order[hand.pos]
        return hand.dealer if phase is Phase.DEALER else None

    @property
    def next_dealer(self) -> str | None:
        """Who deals the next hand (revives already counted); None before the choice or at the end.

        After a void hand the same dealer deals again, unless a revive has since killed him;
        then, as after any hand, the deal passes to the next living player on the right.
        """
        if self._dealer is None or self._outcome is not None:
            return None
        return self._next_dealer(self._dealer, len(self.alive()))

    def _next_dealer(self, dealer: str, playing: int) -> str:
        if self._hand is None:
            return dealer
        keeps_deal = self._handed or self._last_void or self._stock_serves(playing)
        if keeps_deal and self._lives[dealer] > 0:
            return dealer
        return self._right_of(dealer, living=True)

    def target(self, player: str) -> SwapTarget | None:
        """The player's swap target this hand, or None if the player takes no turn."""
        hand = self._hand
        if hand is None or player not in hand.order:
            return None
        return hand.target(player, self.rules)

    # -- what may happen now, everyone due before keeping ----------------------------------------

    def find_swap(self, a: str, b: str) -> Swap:
        """The swap that exchanges the cards of `a` and `b` now, everyone due before its player
        keeping (as python-chess's `find_move`): the first of them due whose target is the other.
        Else the RuleError that says why not, about the one of them who meant it."""
        hand = self._hand
        due = hand.order[hand.pos:] if hand is not None else ()
        for player in due:
            other = b if player == a else a
            if player in (a, b) and hand is not None and hand.target(
                    player, self.rules).target == other:
                return Swap(player, other)
        raise self._swap_refused(a, b, due)

    def _swap_refused(self, a: str, b: str, due: Sequence[str]) -> RuleError:
        """Why neither `a` nor `b` may swap with the other now: of the two due, the one whose walk
        passes only Cavalli to the other first (the swap he meant); else the dealer, else `a`."""
        hand = self._hand
        movers: list[str] = []
        if hand is not None:
            movers = sorted((p for p in due if p in (a, b)),
                            key=lambda p: not _past_cavalli(hand, p, b if p == a else a))
        dealer = [p for p in (a, b) if hand is not None and p == hand.dealer]
        player = (movers or dealer or [a])[0]
        other = b if player == a else a
        if hand is not None and player in due:
            try:
                self._target_of(hand, player, other)
            except RuleError as err:
                return err
        refused = self.refusal(Swap(player, other))
        if refused is None:
            return self._error("swap.not_now", player)
        refused.player = refused.player or player  # the refusal is about him
        return refused

    def find_draw(self, player: str) -> Draw:
        """The blind draw `player` may make now, everyone due before him keeping; else the
        RuleError that says why not (a dealer who draws after the reveal may not draw before)."""
        hand = self._hand
        if hand is not None and hand.result is None and player == hand.dealer:
            if not self._blind and not hand.revealed:
                raise RuleError("draw.before_reveal", {"dealer": player}, hand.number, player)
            if hand.dealer_due:
                return Draw(player)
        refused = self.refusal(Draw(player))
        raise refused if refused is not None else RuleError(
            "draw.not_now", {"dealer": player}, hand.number if hand else None, player)

    # -- helpers -------------------------------------------------------------------------------

    def _error(self, code: str, who: str | None = None, hand: int | None = None,
               **params: Any) -> RuleError:
        """A refusal in the hand in play (or `hand`) about player `who` (its `player`, unless
        `params` name another)."""
        number = hand if hand is not None else (self._hand.number if self._hand else None)
        if who is not None:
            params.setdefault("player", who)
        return RuleError(code, params, number, who)

    def _right_of(self, player: str, living: bool = False) -> str:
        """The next seat to the right (counterclockwise), or the next living one."""
        seats = self._players
        at = self._seat[player]
        for step in range(1, len(seats) + 1):
            seat = seats[(at + step) % len(seats)]
            if not living or self._lives[seat] > 0:
                return seat
        return player

    def continues_stock(self) -> bool:
        """Whether the next deal comes from the stock the last hand left (no shuffle)."""
        dealer, playing = self._dealer, len(self.alive())
        return dealer is not None and self._continues(dealer, self._next_dealer(dealer, playing),
                                                      playing)

    def _continues(self, dealer: str, next_dealer: str, playing: int) -> bool:
        return (self._hand is not None and next_dealer == dealer and not self._handed
                and self._stock_serves(playing))

    @property
    def stock_seen(self) -> frozenset[Card]:
        """The cards seen since the last shuffle (none can come again from this stock)."""
        return frozenset(self._stock_seen)

    def _stock_serves(self, playing: int) -> bool:
        """Whether the unshuffled stock can serve a hand plus the dealer's draw.

        The stock left is the 40 cards less every card dealt or drawn since the last shuffle;
        a short stock is reshuffled, even by a dealer dealing again after a void hand.
        """
        return (
            self._until_short
            and len(DECK) - self._stock_used >= playing + 1
        )

    def _who(self, player: str, hand: int | None = None) -> None:
        if player not in self._lives:
            raise self._error("player.absent", player, hand, player=_named(player))

    def _not_over(self, hand: int | None = None) -> None:
        outcome = self._outcome
        if outcome is None:
            return
        if outcome.winner is not None:
            raise self._error("game.won", hand=hand, winner=outcome.winner)
        a, b = outcome.survivors
        raise self._error("game.split", hand=hand, a=a, b=b)

    # -- choosing the first dealer -------------------------------------------------------------

    def _check_face_up(self, event: FaceUp) -> bool:
        """Whether this face-up card chooses its player as the first dealer."""
        self._not_over()
        self._who(event.player)
        if self._dealer is not None:
            raise self._error("first_dealer.chosen", event.player, dealer=self._dealer)
        if self._face_ups:
            due = self._right_of(self._face_ups[-1][0])
            if event.player != due:
                raise self._error("face_up.order", event.player, due=due)
        if any(card == event.card for _, card in self._face_ups):
            raise self._error("face_up.twice", event.player, card=event.card.code)
        if self.rules.dealer_selection is DealerSelection.RE_DI_DENARI:
            return event.card == Card(10, Suit.DENARI)
        return event.card.suit is Suit.DENARI and sum(
            c.suit is Suit.DENARI for _, c in self._face_ups) == 1

    def _face_up(self, event: FaceUp, chosen: bool) -> None:
        self._face_ups.append((event.player, event.card))
        if chosen:
            self._dealer = event.player

    def _check_choose_dealer(self, event: ChooseDealer) -> None:
        self._not_over()
        self._who(event.player)
        if self._dealer is not None:
            raise self._error("first_dealer.chosen", event.player, dealer=self._dealer)
        if self._face_ups:
            raise self._error("first_dealer.by_cards", event.player)

    def _choose_dealer(self, event: ChooseDealer, _: None) -> None:
        self._dealer = event.player

    # -- the hand ------------------------------------------------------------------------------

    def _check_deal(self, event: Deal) -> tuple[str, bool, set[Card], Hand]:
        """The next dealer, whether the stock goes on, the stock's seen cards, the new hand."""
        number = len(self._results) + 1
        self._not_over(number)
        dealer = self._dealer
        if dealer is None:
            raise self._error("deal.no_dealer")
        if self._hand is not None and self._hand.result is None:
            raise self._error("deal.hand_open")
        alive = self.alive()
        lives = self._lives
        cards = event.cards
        for player, card in cards.items():
            if lives.get(player, 0) <= 0:
                self._who(player, number)
                raise self._error("deal.dead", player, number)
        if len(cards) != len(alive):
            missing = next(p for p in alive if p not in cards)
            raise self._error("deal.missing", missing, number)
        next_dealer = self._next_dealer(dealer, len(alive))
        continues = self._continues(dealer, next_dealer, len(alive))
        stock_seen = self._stock_seen if continues else set()
        dealt = {p: cards[p] for p in alive}
        known = [c for c in dealt.values() if c is not None]
        seen = set(known)
        if len(seen) != len(known) or (stock_seen and stock_seen & seen):
            self._card_twice(dealt, stock_seen, number)
        return next_dealer, continues, stock_seen, Hand(number, next_dealer, tuple(alive), dealt,
                                                        seen)

    def _deal(self, event: Deal, found: tuple[str, bool, set[Card], Hand]) -> None:
        next_dealer, continues, stock_seen, hand = found
        if not continues:
            self._stock_used, self._stock_seen = 0, stock_seen
        self._dealer = next_dealer
        self._handed = False
        if self._joined or self._left:
            self._joined, self._left = set(), set()
        self._hand = hand

    def _card_twice(
        self, dealt: dict[str, Card | None], stock_seen: set[Card], number: int
    ) -> None:
        seen: set[Card] = set()
        for player, card in dealt.items():
            if card in seen:
                raise self._error("deal.twice", player, number, card=card.code)
            if card in stock_seen:
                raise self._error("deal.stock_twice", player, number, card=card.code)
            if card is not None:
                seen.add(card)

    def _turn_hand(self, player: str, action: str) -> Hand:
        """The hand, if it is this player's turn (the dealer's draw counts as one); else raise."""
        hand = self._hand
        if hand is not None and hand.result is None:
            order, pos = hand.order, hand.pos
            if pos < len(order):
                if order[pos] == player:
                    return hand
            elif player == hand.dealer and self.phase is Phase.DEALER:
                return hand
        self._not_over()
        self._who(player)
        if hand is None or hand.result is not None:
            raise self._error("turn.no_hand", player, action=action)
        if self._lives[player] <= 0:
            raise self._error("turn.dead", player, action=action)
        shown = hand.shown.get(player)
        if shown is not None:
            raise self._error("turn.shown", player, action=action, card=shown.code)
        phase = self.phase
        if phase is Phase.TURNS:
            due = hand.order[hand.pos]
            if player == hand.dealer:
                raise self._error("turn.dealer_last", player, action=action, due=due)
            if player in hand.order[: hand.pos]:
                raise self._error("turn.over", player, action=action, due=due)
            raise self._error("turn.other", player, action=action, due=due)
        if phase is Phase.REVEAL:
            raise self._error("turn.reveal", player, action=action)
        raise self._error("turn.done", player, action=action)

    def _check_keep(self, event: Keep) -> Hand:
        return self._turn_hand(event.player, "keep")

    def _keep(self, event: Keep, hand: Hand) -> None:
        if event.player == hand.dealer:
            hand.dealer_done = True
        else:
            hand.pos += 1

    def _check_swap(self, event: Swap) -> tuple[Hand, str]:
        """The hand and the swap's target (the walk's, which a named target must match)."""
        player = event.player
        hand = self._hand
        if hand is not None and hand.result is None and player == hand.dealer:
            raise self._error("swap.dealer", player)
        hand = self._turn_hand(player, "swap")
        return hand, self._target_of(hand, player, event.target)

    def _target_of(self, hand: Hand, player: str, named: str | None) -> str:
        """The player's swap target, which a `named` one must be; else raise the walk's reason."""
        found = hand.target(player, self.rules)
        if found.stop is not Stop.TARGET:
            why = found.message()
            raise self._error(why.code, player, **why.params)
        target = found.target
        assert target is not None
        if named is not None and named != target:
            raise self._error("swap.not_target", player, other=named, why=found.message())
        return target

    def _swap(self, event: Swap, found: tuple[Hand, str]) -> None:
        hand, target = found
        player = event.player
        cards = hand.cards
        cards[player], cards[target] = cards[target], cards[player]
        hand.swaps.append((player, target))
        hand.pos += 1

    def _check_draw(self, event: Draw) -> Hand:
        player = event.player
        self._who(player)
        hand = self._hand
        if hand is not None and hand.result is None and player != hand.dealer:
            raise self._error("draw.not_dealer", player)
        hand = self._turn_hand(player, "draw")
        card = event.card
        if card is not None and (card in hand.seen or card in self._stock_seen):
            raise self._error("draw.twice", player, card=card.code)
        return hand

    def _draw(self, event: Draw, hand: Hand) -> None:
        card = event.card
        if card is not None:
            hand.seen.add(card)
        hand.cards[event.player] = card
        hand.drew = hand.dealer_done = True
        hand.drawn_unknown = card is None

    def _check_reveal(self, event: Reveal) -> tuple[Hand, dict[str, Card]]:
        """The hand and the cards the reveal teaches (those nobody had seen)."""
        hand = self._hand
        phase = self.phase
        if hand is None or phase in (Phase.DEAL, Phase.CHOOSE_DEALER, Phase.OVER):
            self._not_over()
            raise self._error("reveal.no_hand")
        if phase is Phase.TURNS:
            raise self._error("reveal.early", due=hand.order[hand.pos])
        if phase is Phase.DEALER and not hand.revealed:
            raise self._error("reveal.blind", hand.dealer, dealer=hand.dealer)
        learned: dict[str, Card] = {}
        for player, card in event.cards.items():
            held = hand.cards.get(player, _NO_CARD)
            if held is card:
                continue
            self._who(player)
            if held is _NO_CARD:
                raise self._error("hand.dead", player)
            if held is not None:
                if held != card:
                    why = self._disagreement(hand, player, held, card)
                    raise self._error(why.code, player, **why.params)
                continue
            if card in hand.seen or card in self._stock_seen or card in learned.values():
                raise self._error("reveal.twice", player, card=card.code)
            if card.shows and not (player == hand.dealer and hand.drawn_unknown):
                raise self._error("reveal.shown_late", player, card=card.code)
            learned[player] = card
        return hand, learned

    def _reveal(self, event: Reveal, found: tuple[Hand, dict[str, Card]]) -> None:
        hand, learned = found
        hand.cards.update(learned)
        hand.seen.update(learned.values())
        hand.revealed = True

    @staticmethod
    def _disagreement(hand: Hand, player: str, held: Card, card: Card) -> Message:
        """Why a card revealed is not the card the game knows there."""
        said = {"player": player, "card": card.code, "held": held.code}
        if player == hand.dealer and hand.drew:
            return Message("reveal.drew", said)
        for owner, shown in hand.shown.items():
            if shown == held or shown == card:
                return Message("reveal.moved", {**said, "owner": owner, "shown": shown.code})
        return Message("reveal.disagrees", said)

    def _check_correct(self, event: Correct) -> Hand:
        """A misread card fixed after the reveal and before the settlement."""
        player, card = event.player, event.card
        self._not_over()
        self._who(player)
        hand = self._hand
        if hand is None or hand.result is not None:
            raise self._error("correct.no_hand", player)
        if not hand.revealed:
            raise self._error("correct.early", player)
        held = hand.cards.get(player, _NO_CARD)
        if held is _NO_CARD:
            raise self._error("hand.dead", player)
        shown = hand.shown.get(player)
        if shown is not None:
            raise self._error("correct.shown", player, card=shown.code)
        if card.shows and not (player == hand.dealer and hand.drew):
            raise self._error("correct.into_shown", player, card=card.code)
        if held == card:
            raise self._error("correct.same", player, card=card.code)
        if card in hand.seen or card in self._stock_seen:
            raise self._error("correct.seen", player, card=card.code)
        return hand

    def _correct(self, event: Correct, hand: Hand) -> None:
        held = hand.cards[event.player]
        if held is not None:
            hand.seen.discard(held)
        hand.cards[event.player] = event.card
        hand.seen.add(event.card)

    def _check_settle(self, event: Settle) -> tuple[Hand, dict[str, Card], tuple[str, ...], bool]:
        """The lowest Asso..Fante pays, ties all pay; a void hand pays nothing, has no losers."""
        self._not_over()
        hand = self._hand
        phase = self.phase
        if hand is None or phase is not Phase.SETTLE:
            due = self.current_player
            waiting = {Phase.REVEAL: "settle.not_revealed", Phase.DEALER: "settle.dealer_due",
                       Phase.TURNS: "settle.turn"}.get(phase, "settle.no_hand")
            raise self._error(waiting, due=due)
        final: dict[str, Card] = {}
        for player in hand.ring:
            card = hand.cards[player]
            if card is None:
                raise self._error("settle.unknown", player)
            final[player] = card
        low = min((c.value for c in final.values() if not c.shows), default=None)
        losers = tuple(p for p in hand.ring if final[p].value == low)
        lives = self._lives
        void = len(losers) == len(hand.ring) and all(lives[p] == 1 for p in losers)
        return hand, final, () if void else losers, void

    def _settle(self, event: Settle,
                found: tuple[Hand, dict[str, Card], tuple[str, ...], bool]) -> None:
        hand, final, losers, void = found
        lives = self._lives
        for player in losers:
            lives[player] -= 1
        self._pot += len(losers)
        self._last_void = void
        self._stock_used += len(hand.ring) + hand.drew
        self._stock_seen |= hand.seen
        hand.result = HandResult(hand.number, hand.dealer, tuple(hand.swaps), final, losers, void,
                                 dict(lives), self._pot)
        self._results.append(hand.result)
        self._check_end()

    def _check_end(self) -> None:
        alive = tuple(self.alive())
        if len(alive) == 1:
            self._outcome = Outcome(alive[0], alive, self._pot)
        elif len(alive) == 2 and self.rules.final_two is FinalTwo.SPLIT:
            self._outcome = Outcome(None, alive, self._pot)

    # -- between hands: revive, join, leave ----------------------------------------------------

    def _check_revive(self, event: Revive) -> None:
        self._not_over()
        dead, living = event.dead, event.living
        self._who(dead)
        self._who(living)
        if self.phase is not Phase.DEAL or self._hand is None:
            raise self._error("revive.not_now", dead, dead=dead)
        if self.rules.revival is Revival.OFF:
            raise self._error("revive.off", dead, dead=dead)
        if self._lives[dead] > 0:
            raise self._error("revive.alive", dead, dead=dead)
        if self._lives[living] <= 0:
            raise self._error("revive.giver_dead", living, living=living, dead=dead)

    def _revive(self, event: Revive, _: None) -> None:
        self._lives[event.living] -= 1
        self._lives[event.dead] = 1

    def _between_hands(self, player: str, action: str) -> None:
        """Raise unless the game stands between hands (or before any face-up card)."""
        self._not_over()
        phase = self.phase
        if phase is Phase.DEAL or (phase is Phase.CHOOSE_DEALER and not self._face_ups):
            return
        if phase is Phase.CHOOSE_DEALER:
            raise self._error("between.choosing", player, action=action)
        raise self._error("between.hands", player, action=action)

    def _check_join(self, event: Join) -> None:
        player, before = event.player, event.before
        if not _a_name(player):
            raise self._error("table.no_name", name=repr(player))
        self._between_hands(player, "join")
        if player in self._lives:
            raise self._error("join.seated", player)
        if player in self._left:
            raise self._error("join.left", player)
        if before is not None and before not in self._lives:
            raise self._error("join.before", player, before=_named(before))
        if len(self._players) >= MAX_PLAYERS:
            raise self._error("join.full", player, most=MAX_PLAYERS)

    def _join(self, event: Join, _: None) -> None:
        players = list(self._players)
        at = len(players) if event.before is None else self._seat[event.before]
        players.insert(at, event.player)
        lives = self._lives
        self._seat_players(tuple(players))
        self._lives = {p: lives.get(p, self.start_lives) for p in players}
        self._joined.add(event.player)

    def _check_leave(self, event: Leave) -> None:
        player = event.player
        self._between_hands(player, "leave")
        self._who(player)
        staying = [p for p in self.alive() if p != player]
        if len(staying) < 2:
            raise self._error("leave.last_two", player, staying=staying)

    def _leave(self, event: Leave, _: None) -> None:
        player = event.player
        if self._dealer == player:
            # His deal passes to the first living player from his right-hand seat on, counted
            # at the deal (a revive after the leave counts as after any hand); a newcomer does
            # not take it, whether he sat down before or after the leave.
            seats, at = self._players, self._seat[player]
            right = (seats[(at + step) % len(seats)] for step in range(1, len(seats)))
            self._dealer = next((p for p in right if p not in self._joined),
                               self._right_of(player))
            self._handed = True
        self._seat_players(tuple(p for p in self._players if p != player))
        del self._lives[player]
        self._joined.discard(player)
        self._left.add(player)
        self._check_end()
