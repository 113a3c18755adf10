"""The ways on from a held hand, worked out from the rules and from what the camera saw.

The game is always asked (a copy of it, replayed from its history, answers what a way would
lead to), never re-derived: a swap is offered only where the game would take it, and a way's
events are played on the copy before any is stored, so a way either goes through whole or is
refused with the game's own reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import Card, parse_card
from referee.events import Correct, Deal, Draw, Event, Keep, Reveal, Settle, Swap
from referee.game import Game, Phase, RuleError
from referee.observation import Face, TableObservation
from referee.observe.moment import sure
from referee.wording import Message, as_message, is_message
from vision.seats import UNSURE

from live.way import (Continue, CorrectWay, DrawWay, HeldError, Noted, Offer, Redeal, SwapWay,
                      TapSeats, Unseen, Way, Write, WriteForm, Written)

UNSEEN = frozenset({"swap.unseen", "swap.unread"})
"""Holds that ask whether two cards out of sight together were exchanged (the `unseen` way)."""
CHOSEN_FIRST = {"swap.unseen": ("a", "b"), "swap.unread": ("a", "b"), "swap.put_back": ("a", "b")}
"""Holds whose parameters name the two seats the rules sentence is about."""
OFF = "seats.off"
"""A hold at the reveal where a card lies at no player's place: the places may be wrong, so the way to
tap them is offered beside the others."""
READS_OTHERWISE = "card.reads_otherwise"
"""A card read anew as another: the dealer's draw not seen as one, or a misreading."""
OVER = frozenset({"draw.unseen", READS_OTHERWISE})
"""Holds raised once the hand is over on the table (its cards gathered, or the film ended): the
camera has nothing more to see, so the hand is not left to it; written, it is settled at once."""


def replayed(game: Game) -> Game:
    """A copy of `game` to try events on: its first players, rules and lives, its history."""
    copy = Game(game.first_players, game.rules, game.start_lives)
    copy.play_all(game.history)
    return copy


def in_play(game: Game) -> bool:
    """Whether a hand is being played (dealt and not settled)."""
    hand = game.hand
    return hand is not None and hand.result is None


def legal_swaps(game: Game) -> list[tuple[str, str]]:
    """Every swap the game would take now: each player due in turn with his target, everyone due
    before him keeping (a keep leaves nothing to see)."""
    copy = replayed(game)
    found: list[tuple[str, str]] = []
    while copy.phase is Phase.TURNS:
        player = copy.current_player
        assert player is not None
        target = copy.target(player)
        if target is not None and target.target is not None and copy.is_legal(
                Swap(player, target.target)):
            found.append((player, target.target))
        copy.play(Keep(player))
    return found


def offered(game: Game, code: str, params: Mapping[str, Any], moved: Sequence[str],
            seen: TableObservation | None, holding: bool = True) -> list[Offer]:
    """The ways on from a hold raised with `code` and `params`, the seats seen `moved`, in the
    order the page offers them; from a warning that does not hold the hand when not `holding`
    (noted, the camera goes on). A deal whose places are not known offers only to tap them."""
    if code in UNSURE:  # the places are not known: nothing else can go on until they are tapped
        return [TapSeats()]
    playing = in_play(game)
    ways: list[Offer] = []
    if holding and code in UNSEEN:
        ways.append(Unseen(str(params["a"]), str(params["b"])))
    elif holding and code not in OVER:
        ways.append(Continue())
    if holding and playing and game.phase is Phase.TURNS:
        near = set(moved)
        ways += [SwapWay(p, t) for p, t in legal_swaps(game) if not near or near & {p, t}]
    if playing and code == READS_OTHERWISE:
        ways += read_anew(game, str(params["player"]), str(params["card"]))
    if playing:
        ways.append(Redeal())
        if _writable(game):
            ways.append(WriteForm(written(game, seen)))
    if not holding and code != READS_OTHERWISE:  # a card read otherwise waits for a person
        ways.append(Noted())
    if code == OFF:
        ways.append(TapSeats())
    return ways


def read_anew(game: Game, player: str, code: str) -> list[Offer]:
    """The ways on from a card read anew as `code`: the dealer due drew it, or it was misread
    before (corrected); each only where the game would take it."""
    hand = game.hand
    assert hand is not None
    card = parse_card(code)
    found: list[Offer] = []
    if player == hand.dealer and game.phase is Phase.DEALER and game.is_legal(Draw(player, card)):
        found.append(DrawWay(player, card))
    if game.is_legal(Correct(player, card)):
        found.append(CorrectWay(player, card))
    return found


def _writable(game: Game) -> bool:
    """Whether the hand's cards may be written by hand now (before its settlement)."""
    return game.phase in (Phase.TURNS, Phase.DEALER, Phase.REVEAL, Phase.SETTLE)


def written(game: Game, seen: TableObservation | None) -> tuple[Written, ...]:
    """Each seat of the hand with its card as far as it is known: a Re or Cavallo shown (fixed),
    else the name the camera reads now, else the card the game knows; None where unknown."""
    hand = game.hand
    assert hand is not None
    cards = []
    for player in hand.ring:
        shown = hand.shown.get(player)
        read = sure(seen.seats[player]) if seen is not None and player in seen.seats else None
        card = shown or read or hand.cards.get(player)
        cards.append(Written(player, card, shown is not None))
    return tuple(cards)


def matching(way: Way, ways: Sequence[Offer]) -> bool:
    """Whether `way` is one of the ways offered and taken on the table page (the places are tapped
    on the Setup page instead)."""
    return any(offer.takes(way) for offer in ways)


def cards_given(game: Game, given: Mapping[str, str | None]) -> dict[str, Card]:
    """The cards a person wrote, one for every seat of the hand (a HeldError names the seat
    left blank; a CardError a card that does not exist)."""
    hand = game.hand
    assert hand is not None
    cards: dict[str, Card] = {}
    for player in hand.ring:
        code = given.get(player)
        if not isinstance(code, str) or not code.strip():
            raise HeldError("write.missing", player=player)
        cards[player] = parse_card(code.strip().upper())
    return cards


def events_for(game: Game, way: Way, over: bool = False) -> list[Event]:
    """The events a way plays (a swap, a draw, a correction or a written hand; the others none),
    each tried on a copy of the game first: the game's RuleError when it would refuse one (then
    nothing is stored). A hand decided once it is `over` on the table (`OVER`) is settled: the
    dealer due drew the card written for him (or the one read anew), or kept his own."""
    if not isinstance(way, SwapWay | DrawWay | CorrectWay | Write):
        return []
    copy = replayed(game)
    events: list[Event] = []

    def play(event: Event) -> None:
        copy.play(event)  # raises the game's own refusal
        events.append(event)

    if isinstance(way, SwapWay):
        while copy.phase is Phase.TURNS and copy.current_player != way.player:
            play(Keep(str(copy.current_player)))
        play(Swap(way.player, way.target))
        return events
    if isinstance(way, DrawWay | CorrectWay):
        event = Draw if isinstance(way, DrawWay) else Correct
        play(event(way.player, way.card))
        if over:
            if copy.phase is Phase.DEALER:  # the dealer due kept his own
                play(Keep(str(copy.current_player)))
            play(Settle())
        return events
    cards = cards_given(copy, dict(way.cards))
    hand = copy.hand
    assert hand is not None
    while copy.phase is Phase.TURNS:
        play(Keep(str(copy.current_player)))
    if copy.phase is Phase.DEALER and not hand.revealed:  # blind: the dealer's card as it lies
        play(Keep(hand.dealer))
    if not hand.revealed:
        play(Reveal(cards))
        return events
    dealer_due = over and copy.phase is Phase.DEALER
    for player, card in cards.items():
        if hand.cards.get(player) != card and not (dealer_due and player == hand.dealer):
            play(Correct(player, card))
    if dealer_due:
        drawn = cards[hand.dealer]
        play(Keep(hand.dealer) if drawn == hand.cards.get(hand.dealer) else Draw(hand.dealer, drawn))
    if over:
        play(Settle())
    return events


def since_deal(game: Game) -> list[Event]:
    """The events of the hand in play, its deal first: undone, the hand is void and the same
    dealer deals again (the game has no event of its own for a void hand)."""
    history = list(game.history)
    start = max(i for i, event in enumerate(history) if isinstance(event, Deal))
    return history[start:]


def rule(game: Game, code: str, params: Mapping[str, Any]) -> Message | None:
    """In one sentence what the rules say of a hold: the refusal it names, why the two seats
    covered together may not exchange their cards, or whose turn it is and what he may do."""
    why = params.get("why")
    if is_message(why) and as_message(why).code != "pictures.slow":
        return as_message(why)
    hand = game.hand
    if hand is None or hand.result is not None:
        return None
    if code in CHOSEN_FIRST:
        a, b = (str(params[key]) for key in CHOSEN_FIRST[code])
        try:
            swap = game.find_swap(a, b)
        except RuleError as refused:
            return refused.message
        return hand.target(swap.player, game.rules).message()
    player = game.current_player
    if game.phase is Phase.TURNS and player is not None:
        return hand.target(player, game.rules).message()
    return None


def seen_cards(game: Game, seen: TableObservation | None) -> list[dict[str, Any]]:
    """Every player's place as the camera sees it now: face up (named when sure), face down,
    under a hand, or empty."""
    found = []
    for player in game.players:
        view = seen.seats.get(player) if seen is not None else None
        if view is None:
            found.append({"player": player, "face": "unknown", "card": None, "under": False})
            continue
        card = sure(view)
        face = {Face.UP: "up", Face.DOWN: "down", Face.EMPTY: "empty"}[view.face]
        found.append({"player": player, "face": face, "card": card.code if card else None,
                      "under": player in seen.hidden})
    return found

