"""The page's view of a game: for every seat, what it may do now and why, as codes of `referee.wording`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from referee.events import Draw, Keep, Revive, Swap
from referee.game import Game, Hand, Phase
from referee.rules import DealerDraw
from referee.walk import Stop
from referee.wording import Message, first_dealer_card


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat on the page."""

    player: str
    lives: int
    alive: bool
    dealer: bool
    shown: str | None
    target: str | None
    may: tuple[str, ...]
    why: Message
    """Why the seat may do what it may (`view.kept`: Anna kept)."""


@dataclass(frozen=True, slots=True)
class Tally:
    """Everything the page shows: headline, pot, every seat; `hand` numbers the hand in play."""

    phase: str
    hand: int | None
    dealer: str | None
    current_player: str | None
    pot: int
    winner: str | None
    says: Message
    seats: tuple[Seat, ...]


def tally(game: Game) -> Tally:
    """The page's view of the game as it stands."""
    phase = game.phase
    hand = game.hand if phase not in (Phase.CHOOSE_DEALER, Phase.DEAL, Phase.OVER) else None
    may = _legal_by_player(game)
    seats = tuple(_with_card(_seat(game, hand, player, may.get(player, ())), hand)
                  for player in game.players)
    outcome = game.outcome()
    return Tally(
        phase=phase.value, hand=hand.number if hand else None,
        dealer=hand.dealer if hand else game.next_dealer, current_player=game.current_player,
        pot=game.pot, winner=outcome.winner if outcome else None, says=_headline(game),
        seats=seats,
    )


_MAY = {Keep: "keep", Swap: "swap", Draw: "draw", Revive: "revive"}
"""The legal moves a seat's buttons offer, by the event's kind."""


def _legal_by_player(game: Game) -> dict[str, tuple[str, ...]]:
    """Each player's legal moves now, as the game lists them (a revive is the dead one's)."""
    may: dict[str, tuple[str, ...]] = {}
    for move in game.legal_moves():
        name = _MAY.get(type(move))
        if name is None:
            continue
        player = move.dead if isinstance(move, Revive) else move.player  # type: ignore[union-attr]
        if name not in may.get(player, ()):
            may[player] = may.get(player, ()) + (name,)
    return may


def _with_card(seat: Seat, hand: Hand | None) -> Seat:
    """After the reveal every living seat's card is face up."""
    if hand is None or not hand.revealed or seat.shown is not None:
        return seat
    card = hand.cards.get(seat.player)
    return seat if card is None else dataclasses.replace(seat, shown=card.code)


def _headline(game: Game) -> Message:
    phase, who = game.phase, game.current_player
    outcome = game.outcome()
    if outcome is not None:
        if outcome.winner is not None:
            return Message("view.won", {"winner": outcome.winner, "pot": outcome.pot})
        a, b = outcome.survivors
        return Message("view.split", {"a": a, "b": b, "pot": outcome.pot})
    if phase is Phase.CHOOSE_DEALER:
        return Message("view.choosing", {"card": first_dealer_card(game.rules.dealer_selection)})
    number = len(game.results) + 1 if phase is Phase.DEAL else game.hand.number if game.hand else 1
    if phase is Phase.DEAL:
        return Message("told.deal", {"hand": number, "dealer": who})
    if phase is Phase.TURNS:
        return Message("view.turn", {"hand": number, "player": who})
    if phase is Phase.DEALER:
        return Message("view.dealer", {"hand": number, "dealer": who})
    if phase is Phase.REVEAL:
        return Message("view.reveal", {"hand": number})
    return Message("view.settle", {"hand": number})


def _seat(game: Game, hand: Hand | None, player: str, may: tuple[str, ...]) -> Seat:
    lives = game.lives[player]
    dealer = (hand.dealer if hand else game.next_dealer) == player
    who = {"player": player}
    if lives == 0:
        dead = Message("view.dead_revive" if "revive" in may else "view.dead", who)
        return Seat(player, 0, False, False, None, None, may, dead)
    if hand is None:
        return _between_hands(game, player, lives, dealer)
    shown = hand.shown.get(player)
    if shown is not None:
        why = Message("view.wall" if shown.is_wall else "view.jumped", {**who, "card": shown.code})
        return Seat(player, lives, True, dealer, shown.code, None, (), why)
    if dealer:
        return _dealer_seat(game, hand, player, lives, may)
    found = hand.target(player, game.rules)
    target = found.target if found.stop is Stop.TARGET else None
    turn = hand.order.index(player)
    if turn < hand.pos:
        swapped = next((t for p, t in hand.swaps if p == player), None)
        why = (Message("view.swapped", {**who, "target": swapped}) if swapped is not None
               else Message("view.kept", who))
        return Seat(player, lives, True, False, None, target, (), why)
    walk = {**who, "walk": found.message()}
    if may:
        if not target:
            return Seat(player, lives, True, False, None, None, may,
                        Message("view.turn_keep", walk))
        return Seat(player, lives, True, False, None, target, may, Message("view.turn_walk", walk))
    return Seat(player, lives, True, False, None, target, (), Message("view.waits", walk))


def _between_hands(game: Game, player: str, lives: int, dealer: bool) -> Seat:
    phase, who = game.phase, {"player": player}
    if phase is Phase.OVER:
        outcome = game.outcome()
        shares = outcome is not None and outcome.winner is None
        return Seat(player, lives, True, False, None, None, (),
                    Message("view.shares" if shares else "view.wins", who))
    if phase is Phase.CHOOSE_DEALER:
        if player == game.current_player:
            return Seat(player, lives, True, False, None, None, ("face_up",),
                        Message("view.face_up", who))
        return Seat(player, lives, True, False, None, None, (), Message("view.choosing_wait", who))
    if dealer:
        return Seat(player, lives, True, True, None, None, ("deal",), Message("view.deals", who))
    return Seat(player, lives, True, False, None, None, (), Message("view.waits_deal", who))


def _dealer_seat(game: Game, hand: Hand, player: str, lives: int, may: tuple[str, ...]) -> Seat:
    who = {"player": player}
    if may:
        blind = game.rules.dealer_draw is DealerDraw.BLIND
        return Seat(player, lives, True, True, None, None, may,
                    Message("view.dealer_blind" if blind else "view.dealer_after", who))
    if hand.dealer_done:
        return Seat(player, lives, True, True, None, None, (),
                    Message("view.drew" if hand.drew else "view.kept", who))
    return Seat(player, lives, True, True, None, None, (), Message("view.dealer_last", who))
