"""The page's view of a game: for every seat, what it may do now and why, in English and Italian."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from referee.events import Draw, Keep, Revive, Swap
from referee.game import Game, Hand, Phase
from referee.rules import DealerDraw, DealerSelection
from referee.walk import Stop


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
    why: str
    why_it: str


@dataclass(frozen=True, slots=True)
class Tally:
    """Everything the page shows: headline, pot, every seat; `hand` numbers the hand in play."""

    phase: str
    hand: int | None
    dealer: str | None
    current_player: str | None
    pot: int
    winner: str | None
    says: str
    says_it: str
    seats: tuple[Seat, ...]


def tally(game: Game) -> Tally:
    """The page's view of the game as it stands."""
    phase = game.phase
    hand = game.hand if phase not in (Phase.CHOOSE_DEALER, Phase.DEAL, Phase.OVER) else None
    may = _legal_by_player(game)
    seats = tuple(_with_card(_seat(game, hand, player, may.get(player, ())), hand)
                  for player in game.players)
    says, says_it = _headline(game)
    outcome = game.outcome()
    return Tally(
        phase=phase.value, hand=hand.number if hand else None,
        dealer=hand.dealer if hand else game.next_dealer, current_player=game.current_player,
        pot=game.pot, winner=outcome.winner if outcome else None, says=says, says_it=says_it,
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


def _a(name: str) -> str:
    """Italian `a`, or `ad` before a vowel: `tocca ad Anna`."""
    return f"ad {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _headline(game: Game) -> tuple[str, str]:
    phase, who = game.phase, game.current_player
    outcome = game.outcome()
    if outcome is not None:
        if outcome.winner is not None:
            return (f"{outcome.winner} wins the pot of {outcome.pot}",
                    f"{outcome.winner} vince il piatto di {outcome.pot}")
        a, b = outcome.survivors
        return (f"{a} and {b} split the pot of {outcome.pot}",
                f"{a} e {b} si dividono il piatto di {outcome.pot}")
    if phase is Phase.CHOOSE_DEALER:
        matta = game.rules.dealer_selection is DealerSelection.RE_DI_DENARI
        card = "the Re di Denari" if matta else "the second Denari"
        carta = "il Re di Denari" if matta else "il secondo Denari"
        return (f"Choosing the first dealer: whoever gets {card} deals",
                f"Si sceglie il mazziere: fa le carte chi riceve {carta}")
    number = len(game.results) + 1 if phase is Phase.DEAL else game.hand.number if game.hand else 1
    if phase is Phase.DEAL:
        return f"Hand {number}: {who} deals", f"Mano {number}: {who} fa le carte"
    if phase is Phase.TURNS:
        return f"Hand {number}: {who}'s turn", f"Mano {number}: tocca {_a(str(who))}"
    if phase is Phase.DEALER:
        return (f"Hand {number}: {who}, the dealer, keeps or draws",
                f"Mano {number}: il mazziere {who} tiene o pesca")
    if phase is Phase.REVEAL:
        return f"Hand {number}: everyone reveals", f"Mano {number}: tutti scoprono la carta"
    return f"Hand {number}: the lowest card pays", f"Mano {number}: paga la carta più bassa"


def _seat(game: Game, hand: Hand | None, player: str, may: tuple[str, ...]) -> Seat:
    lives = game.lives[player]
    dealer = (hand.dealer if hand else game.next_dealer) == player
    if lives == 0:
        revive = "revive" in may
        why = f"{player} is dead: no card, no turn"
        why_it = f"{player} non ha più vite: niente carta, niente turno"
        if revive:
            why += "; a living player who talks to the dead hands over a life"
            why_it += "; chi gli parla deve dargli una vita"
        return Seat(player, 0, False, False, None, None, may, why, why_it)
    if hand is None:
        return _between_hands(game, player, lives, dealer)
    shown = hand.shown.get(player)
    if shown is not None:
        if shown.is_wall:
            why = f"{player} shows the {shown.italian}: a wall, safe this hand, no turn"
            why_it = f"{player} ha il {shown.italian}: fa da muro, non rischia e non gioca"
        else:
            why = f"{player} shows the {shown.italian}: jumped, safe this hand, no turn"
            why_it = f"{player} ha il {shown.italian}: viene saltato, non rischia e non gioca"
        return Seat(player, lives, True, dealer, shown.code, None, (), why, why_it)
    if dealer:
        return _dealer_seat(game, hand, player, lives, may)
    found = hand.target(player, game.rules)
    target = found.target if found.stop is Stop.TARGET else None
    turn = hand.order.index(player)
    if turn < hand.pos:
        swapped = next((t for p, t in hand.swaps if p == player), None)
        if swapped is not None:
            why, why_it = f"{player} swapped with {swapped}", f"{player} ha scambiato con {swapped}"
        else:
            why, why_it = f"{player} kept", f"{player} ha tenuto la carta"
        return Seat(player, lives, True, False, None, target, (), why, why_it)
    if may:
        head, head_it = f"{player}'s turn: ", f"tocca {_a(player)}: "
        if not target:
            return Seat(player, lives, True, False, None, None, may, f"{head}{found.reason()}; "
                        "keep only", f"{head_it}{found.reason_it()}; tiene")
        return Seat(player, lives, True, False, None, target, may,
                    f"{head}{found.reason()}", f"{head_it}{found.reason_it()}")
    return Seat(player, lives, True, False, None, target, (),
                f"waits: then {found.reason()}", f"aspetta: poi {found.reason_it()}")


def _between_hands(game: Game, player: str, lives: int, dealer: bool) -> Seat:
    phase = game.phase
    if phase is Phase.OVER:
        outcome = game.outcome()
        if outcome is not None and outcome.winner is None:
            why, why_it = f"{player} shares the pot", f"{player} divide il piatto"
        else:
            why, why_it = f"{player} wins the pot", f"{player} vince il piatto"
        return Seat(player, lives, True, False, None, None, (), why, why_it)
    if phase is Phase.CHOOSE_DEALER:
        if player == game.current_player:
            return Seat(player, lives, True, False, None, None, ("face_up",),
                        f"{player} gets the next card face up",
                        f"{player} riceve la prossima carta scoperta")
        return Seat(player, lives, True, False, None, None, (),
                    f"{player} waits for the first dealer to be chosen",
                    f"{player} aspetta la scelta del mazziere")
    if dealer:
        return Seat(player, lives, True, True, None, None, ("deal",),
                    f"{player} deals the next hand", f"{player} fa le carte")
    return Seat(player, lives, True, False, None, None, (),
                f"{player} waits for the deal", f"{player} aspetta le carte")


def _dealer_seat(game: Game, hand: Hand, player: str, lives: int, may: tuple[str, ...]) -> Seat:
    blind = game.rules.dealer_draw is DealerDraw.BLIND
    if may:
        when = "blind, before the reveal" if blind else "after seeing every card"
        quando = "alla cieca, prima di scoprire" if blind else "dopo aver visto le carte"
        return Seat(player, lives, True, True, None, None, may,
                    f"{player}, the dealer, may keep or draw the top card of the stock ({when})",
                    f"{player}, il mazziere, può tenere o pescare la prima carta del mazzo "
                    f"({quando})")
    if hand.dealer_done:
        why, why_it = ((f"{player} drew from the stock", f"{player} ha pescato dal mazzo")
                       if hand.drew else (f"{player} kept", f"{player} ha tenuto la carta"))
        return Seat(player, lives, True, True, None, None, (), why, why_it)
    return Seat(player, lives, True, True, None, None, (),
                f"{player} deals and plays last: never swaps, may draw from the stock",
                f"{player} fa le carte e gioca per ultimo: non scambia, può pescare")
