"""Make `sample_images/sequences/`: whole hands filmed at 15 frames a second, with their truth.

A game is written as a small script (players, dealer, rules, table, camera, and per hand the
deal, the swaps and the dealer's draw); the film follows it as people play: cards dealt one by
one from the stock at the dealer's place, a hand over every moving card, Re and Cavalli turned at
once, swaps sliding face down, everyone turning their card, the dealer's draw, a pause, the cards
collected and the deck passed to the next dealer. Each frame has its own noise seed. Beside each
MPEG-4 video lies a JSON truth: the hand record, the expected results and narration, the seats in
frame pixels and the frame spans of every state, with the cards of the still ones.

Run `python -m art.sequences sample_images/sequences`; fixed seeds make the same frames.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from art import samples
from art.pace import BRISK, FILMED, USUAL, Pace
from art.scene import PHONE_FOV, Camera, Placed, Seat, Stage, fit_camera, round_table_seats
from art.table import Surface
from referee.cards import DECK, parse_card

FPS = 15
"""Frames per second of the films: a webcam's usual rate, the live loop's default."""
BITRATE = 200_000
"""Bits per second of the MPEG-4 stream: all four films in about 4 MB; at 200 kbit/s the sample hand's
still frames are read as well as at 400 (255 of 255), at 120 one card of 255 is missed."""
CLOTH_BITRATE = 350_000
"""A checked cloth's edges against the cards need more, and 1280x720: a hand of four on it read 179 of
195 still cards at 960x540 even at 400 kbit/s (195 uncompressed), 191 at 1280x720 and 350, and at
250 a Re was misread. Five players' smaller cards lost 19 of 273 even so: the cloth films four."""
DEMO_BITRATE = 140_000
"""The two held-hand films the demo plays (stands, hidden): four players' larger cards, most of the
film still, about 0.8 MB together; every card the live loop acts on is read at it as at 200."""
KEY_EVERY = 75
"""Frames between key frames (5 s): a still table then costs only its noise."""
ASIDE_CM = 10.0
"""How far past the stock, toward the table's middle, the dealer lays the card he gives up."""
_COVER = 0.3
HIDDEN_COVER = 1.15
"""A hand's cover (scene.Placed.cover) of a card it hides all the way as it slides it: laid flat over
the whole card, the shortest fingertip a millimetre past its top edge."""
_STACK = 4
"""Cards of the stock drawn as its pile: the rest lie hidden under them."""
_DECK = tuple(card.code for card in DECK)
ENDINGS = (None, "collect", "still", "cut")
"""How a film may end after its last reveal (GameScript.ending)."""
STILL_END = (5.0, 8.0)
"""Seconds a 'still' film lies unchanged after the last card shows: the family talks, then the film ends."""
CUT_END = (0.5, 3.0)
"""Seconds after the last card shows that a 'cut' film stops: the phone is picked up or the stream drops."""
PEEK_LIFT = (30.0, 50.0)
"""Degrees a peeking player raises his card's near end: enough to see its corner, not to show it."""


@dataclass(frozen=True)
class HandScript:
    """One hand as it is played: the deal, the swaps in turn order, the dealer's draw."""

    dealer: str
    deal: dict[str, str]
    swaps: tuple[tuple[str, str], ...] = ()
    draw: str | None = None
    illegal: tuple[str, str] | None = None
    """A swap nobody may make (past a wall, or past the neighbour), made before the legal turns."""
    put_back: bool = True
    """Whether the illegal swap is undone after the warning; False: the family plays on, and the only right
    outcome is the hand held (losers, lives and pot are then what the game would have settled without it)."""
    hidden: bool = False
    """Whether the illegal swap is made wholly under the players' hands (HIDDEN_COVER): the camera never
    sees the cards move, only hands over two seats at once (and its put-back likewise)."""
    wait: float = 0.0
    """Seconds the table then lies still after the illegal swap (or its put-back): the family reads the
    held hand on the page and answers it there before playing on (the demo answers after 10 s)."""
    peeks: tuple[str, ...] = ()
    """Players who lift their face-down card a little to look under it as the turns begin (no swap)."""
    losers: tuple[str, ...] = ()
    lives: dict[str, int] = field(default_factory=dict)
    pot: int = 0


@dataclass(frozen=True)
class GameScript:
    """A filmed game: who plays where, under which rules, on what table, seen how."""

    name: str
    players: tuple[str, ...]
    hands: tuple[HandScript, ...]
    rules: str = "napoli"
    style: str = "wood"
    camera: Camera = Camera(960, 540, tilt=32, yaw=6)
    table: tuple[float, float] = (30.0, 19.0)
    seed: int = 0
    lives: int = 3
    bitrate: int = BITRATE
    pace: Pace = FILMED
    """How fast the table plays: the sample films' fixed timings, or pauses drawn within a pace."""
    ending: str | None = None
    """After the last reveal: None, the sample films' settlement holds (or 'collect' under a drawn
    pace); 'collect', the cards collected after the pace's delay; 'still', the table left lying
    for STILL_END seconds; 'cut', the film stopping CUT_END seconds after the last card shows."""

    def __post_init__(self) -> None:
        if self.ending not in ENDINGS:
            raise ValueError(f"film {self.name}: ending {self.ending!r} is not one of {ENDINGS}")

    @property
    def blind(self) -> bool:
        """Whether the dealer draws before the reveal (classica's blind draw)."""
        return self.rules == "classica"


@dataclass(frozen=True)
class Shot:
    """One frame to film: the cards in painter's order, the coins, and what is happening."""

    cards: tuple[Placed, ...]
    coins: tuple[tuple[str, int], ...]
    hand: int
    phase: str
    note: str
    still: bool


def _turn_order(players: tuple[str, ...], dealer: str) -> list[str]:
    """From the dealer's right, counterclockwise, the dealer last."""
    k = players.index(dealer)
    return list(players[k + 1 :] + players[: k + 1])


def _shown(card: str) -> bool:
    """A Re or a Cavallo is turned face up as soon as it is dealt."""
    return parse_card(card).value >= 9


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)


def _turn_angle(a: float, b: float) -> float:
    """The angle b reached from a the short way round."""
    return a + ((b - a + 180) % 360 - 180)


class _Film:
    """Shots piling up as the game is played on the table."""

    def __init__(self, script: GameScript, seats: tuple[Seat, ...]) -> None:
        self.script = script
        self.seat = {seat.name: seat for seat in seats}
        self.shots: list[Shot] = []
        self.pile: list[Placed] = []
        self.table: dict[str, Placed] = {}
        self.coins = {name: script.lives for name in script.players}
        self.hand = 0
        self.pace = script.pace
        self.rng = np.random.default_rng([script.seed, 5])  # only a drawn pace takes from it

    def beat(self, filmed: float, phase: str, note: str) -> None:
        """The pause before the next move: the sample films' `filmed` seconds, or one within the pace."""
        self.hold(self.pace.wait(self.rng, filmed), phase, note)

    def linger(self, filmed: float, phase: str, note: str) -> None:
        """A second pause the calm sample films take here; a drawn pace goes straight on."""
        if self.pace.filmed:
            self.hold(filmed, phase, note)

    def _frames(self, seconds: float) -> int:
        return max(1, round(seconds * FPS))

    def _shoot(self, phase: str, note: str, still: bool, moving: tuple[Placed, ...] = ()) -> None:
        pile = tuple(reversed(self.pile[:_STACK]))  # bottom first, so the top lies uppermost
        cards = pile + tuple(self.table.values()) + moving
        coins = tuple(sorted(self.coins.items()))
        self.shots.append(Shot(cards, coins, self.hand, phase, note, still))

    def hold(self, seconds: float, phase: str, note: str) -> None:
        """The table as it is, still, for a while (at least a frame)."""
        for _ in range(self._frames(seconds)):
            self._shoot(phase, note, True)

    def move(
        self,
        seconds: float,
        phase: str,
        note: str,
        moves: list[tuple[Placed, Placed]],
        hands: int | None = None,
        cover: float = _COVER,
    ) -> None:
        """Cards sliding from pose a to pose b, a hand reaching `cover` over each of the first `hands`
        (all by default); `seconds` is the sample films' duration, which the pace may quicken."""
        n = self._frames(self.pace.moving(seconds))
        for i in range(1, n + 1):
            t = _ease(i / n)
            moving = tuple(
                Placed(
                    b.label,
                    b.face_up if t >= 1 else a.face_up,
                    (
                        a.centre[0] + (b.centre[0] - a.centre[0]) * t,
                        a.centre[1] + (b.centre[1] - a.centre[1]) * t,
                    ),
                    a.angle + (_turn_angle(a.angle, b.angle) - a.angle) * t,
                    b.seat if t >= 1 else None,
                    cover if hands is None or k < hands else 0.0,
                )
                for k, (a, b) in enumerate(moves)
            )
            if i < n:
                self._shoot(phase, note, False, moving)

    def flip(self, names: list[str], phase: str, note: str, seconds: float = 0.4) -> None:
        """Players turn their cards: a hand on each, then the face shows, then the hand goes."""
        n = self._frames(self.pace.moving(seconds))
        for name in names:
            self.table[name] = replace(self.table[name], cover=_COVER)
        for _ in range(n // 2):
            self._shoot(phase, note, False)
        for name in names:
            self.table[name] = replace(self.table[name], face_up=True)
        for _ in range(n - n // 2):
            self._shoot(phase, note, False)
        for name in names:
            self.table[name] = replace(self.table[name], cover=0.0)

    def stock_spot(self, dealer: str) -> tuple[tuple[float, float], float]:
        """Where the dealer keeps the stock: in front of his card, toward the middle."""
        seat = self.seat[dealer]
        return (seat.position[0] * 0.52, seat.position[1] * 0.52), seat.facing + 25.0

    def aside_spot(self, dealer: str) -> Placed:
        """Where the dealer puts his own card aside before drawing: past the stock, toward the middle.

        Beside the stock it lay on a neighbour's card at a table of six (Marco's 3B went unread).
        """
        (x, y), angle = self.stock_spot(dealer)
        reach = math.hypot(x, y)
        step = ASIDE_CM / max(reach, 1e-6)
        return Placed("1D", True, (x - x * step, y - y * step), angle + 60.0)

    def pile_card(self, label: str, dealer: str) -> Placed:
        """A card of the stock, a little askew in the pile the same way every frame."""
        (x, y), angle = self.stock_spot(dealer)
        rng = np.random.default_rng([self.script.seed, *label.encode()])
        dx, dy = rng.normal(0, 0.25, 2)
        return Placed(label, False, (x + dx, y + dy), angle + rng.normal(0, 3.0))


def _homes(script: GameScript, seats: tuple[Seat, ...], number: int) -> dict[str, Placed]:
    """Where each seat's card lies this hand, a little askew as people put it."""
    rng = np.random.default_rng([script.seed, 3, number])
    homes = {}
    for seat in seats:
        dx, dy = rng.normal(0, 1.0, 2)
        angle = seat.facing + rng.normal(0, 7.0)
        centre = (seat.position[0] + dx, seat.position[1] + dy)
        homes[seat.name] = Placed("1D", False, centre, angle, seat.name)
    return homes


def _deck_order(hand: HandScript, order: list[str]) -> list[str]:
    """The stock from the top: the dealt cards in turn, the card drawn, then the rest."""
    top = [hand.deal[name] for name in order] + ([hand.draw] if hand.draw else [])
    return top + [code for code in _DECK if code not in top]


def _play_hand(film: _Film, hand: HandScript, number: int, first: bool) -> None:
    """Film one hand from the shuffled deck at the dealer's place to the settled table."""
    script = film.script
    dealer = hand.dealer
    order = _turn_order(script.players, dealer)
    film.hand = number
    homes = _homes(script, tuple(film.seat.values()), number)
    film.pile = [film.pile_card(code, dealer) for code in _deck_order(hand, order)]
    if first:
        film.hold(1.5, "table", f"the dealer {dealer} sets down the shuffled deck")
    for name in order:
        top = film.pile.pop(0)
        home = replace(homes[name], label=top.label)
        film.move(0.5, "deal", f"{dealer} deals to {name}", [(top, home)])
        film.table[name] = home
        film.beat(0.3, "deal", f"{name} has a card")
        if _shown(hand.deal[name]):  # turned as soon as it lands, before the next card goes out
            film.flip([name], "shown", f"{name} turns the {hand.deal[name]} at once", 0.5)
            film.beat(0.6, "shown", f"{name} shows the {hand.deal[name]}")
    film.beat(1.0, "deal", "every player has a card")
    film.linger(1.5, "turns", "the turns begin at the dealer's right")
    for name in hand.peeks:
        _peek(film, name)
        film.beat(0.5, "turns", f"{name} has looked at the card")
    if hand.illegal is not None:
        how = "under the hands" if hand.hidden else "past a wall"
        _swap(film, *hand.illegal, "illegal", how, HIDDEN_COVER if hand.hidden else _COVER)
        if hand.put_back:
            film.hold(film.pace.draw(film.rng, film.pace.react) if not film.pace.filmed else 3.0,
                      "illegal", "the swap broke a wall: the table waits")
            _swap(film, hand.illegal[1], hand.illegal[0], "put-back", "put back",
                  HIDDEN_COVER if hand.hidden else _COVER)
            film.beat(2.0, "turns", "the illegal swap is undone")
        else:
            film.beat(1.2, "turns", "the illegal swap stands: the family plays on")
        if hand.wait:
            film.hold(hand.wait, "turns", "the family answers the held hand on the page")
    for player, target in hand.swaps:
        _swap(film, player, target, "swap", "")
        film.beat(1.2, "turns", f"{player} and {target} have swapped")
    if script.blind and hand.draw is not None:
        _draw(film, hand, dealer, face_up=False)
        film.beat(1.0, "draw", f"{dealer} has drawn blind")
    reveal_order = [name for name in order if not film.table[name].face_up]
    for name in reveal_order:
        film.flip([name], "reveal", f"{name} turns the card over", 0.4)
    drawing = not script.blind and hand.draw is not None
    if film.pace.filmed:
        film.hold(2.0, "reveal", "every card shows")
    elif drawing:  # the dealer looks at every card before he draws; else the ending's wait follows
        film.beat(2.0, "reveal", "every card shows")
    if drawing:
        _draw(film, hand, dealer, face_up=True)


def _end_hand(film: _Film, hand: HandScript, next_dealer: str | None) -> None:
    """After the last card shows: the wait, the lives paid and the cards collected for `next_dealer`
    (None: the film's last hand, which ends as the script's `ending` says)."""
    script = film.script
    if film.pace.filmed:
        film.hold(2.0, "settle", "the table waits for the settlement")
        for name in hand.losers:
            film.coins[name] -= 1
        film.hold(2.5, "settle", f"{' and '.join(hand.losers) or 'nobody'} pays")
        if next_dealer is not None:
            _collect(film, next_dealer)
        return
    ending = "collect" if next_dealer is not None or script.ending is None else script.ending
    if ending == "cut":
        film.hold(float(film.rng.uniform(*CUT_END)), "settle", "every card shows; the film stops")
        return
    if ending == "still":
        film.hold(float(film.rng.uniform(*STILL_END)), "settle", "every card shows; the table is left")
        return
    film.hold(film.pace.collect_after(film.rng), "settle", "the table waits for the settlement")
    for name in hand.losers:
        film.coins[name] -= 1
    _collect(film, next_dealer or _turn_order(script.players, hand.dealer)[0])


def _peek(film: _Film, name: str) -> None:
    """A player lifts the near end of his face-down card, looks under it and lays it down again."""
    card = film.table[name]
    lift = float(film.rng.uniform(*PEEK_LIFT)) if not film.pace.filmed else 40.0
    n = film._frames(film.pace.draw(film.rng, film.pace.peek))
    ramp = max(1, n // 3)
    for i in range(n):
        t = min(1.0, (i + 1) / ramp, (n - i) / ramp)
        film.table[name] = replace(card, cover=_COVER, lift=lift * _ease(t))
        film._shoot("peek", f"{name} peeks at the card", False)
    film.table[name] = card


def _swap(film: _Film, player: str, target: str, phase: str, how: str, cover: float = _COVER) -> None:
    """Two face-down cards slide past each other between the seats, a hand reaching `cover` over each."""
    mine, theirs = film.table.pop(player), film.table.pop(target)
    to_target = replace(mine, centre=theirs.centre, angle=theirs.angle, seat=target)
    to_player = replace(theirs, centre=mine.centre, angle=mine.angle, seat=player)
    note = f"{player} swaps with {target}" + (f" ({how})" if how else "")
    film.move(1.0, phase, note, [(mine, to_target), (theirs, to_player)], cover=cover)
    film.table[player], film.table[target] = to_player, to_target


def _draw(film: _Film, hand: HandScript, dealer: str, face_up: bool) -> None:
    """The dealer puts his card aside and takes the top card of the stock."""
    old = film.table.pop(dealer)
    aside = replace(film.aside_spot(dealer), label=old.label, face_up=old.face_up)
    film.move(0.6, "draw", f"{dealer} puts the {old.label} aside", [(old, aside)])
    film.table["aside"] = aside
    top = film.pile.pop(0)
    drawn = replace(old, label=top.label, face_up=False)
    film.move(0.8, "draw", f"{dealer} draws the top card of the stock", [(top, drawn)])
    film.table[dealer] = drawn
    if face_up:
        film.beat(0.4, "draw", f"{dealer} looks at the card drawn")
        film.flip([dealer], "draw", f"{dealer} shows the {top.label}", 0.4)
        film.linger(1.0, "draw", f"{dealer} shows the {top.label}")


def _collect(film: _Film, next_dealer: str) -> None:
    """Everyone pushes his card to the middle; the next dealer gathers them with the stock."""
    middle = []
    moves = []
    rng = np.random.default_rng([film.script.seed, 4, film.hand])
    for key, card in film.table.items():
        dx, dy = rng.normal(0, 1.5, 2)
        to = replace(card, centre=(dx, dy), seat=None)
        moves.append((card, to))
        middle.append(to)
    film.table = {}
    film.move(0.8, "collect", "the cards are pushed to the middle", moves)
    film.table = {f"middle-{i}": card for i, card in enumerate(middle)}
    film.beat(0.7, "collect", "the cards lie in the middle")
    (x, y), angle = film.stock_spot(next_dealer)
    gathered = [(card, replace(card, centre=(x, y), angle=angle, face_up=False)) for card in middle]
    pile = [(top, replace(top, centre=(x, y), angle=angle)) for top in film.pile[:_STACK]]
    film.table = {}
    film.pile = []
    film.move(0.9, "collect", f"{next_dealer} gathers the deck", gathered + pile, hands=1)
    film.table = {"deck": replace(gathered[0][1], cover=_COVER)}
    film.hold(1.2, "collect", f"{next_dealer} shuffles")
    film.table = {}


def shots(script: GameScript) -> tuple[list[Shot], tuple[Seat, ...]]:
    """Every frame of the game, in order, and the seats it is played at."""
    seats = round_table_seats(list(script.players), script.table)
    film = _Film(script, seats)
    hands = script.hands
    for number, hand in enumerate(hands, 1):
        _play_hand(film, hand, number, number == 1)
        _end_hand(film, hand, hands[number].dealer if number < len(hands) else None)
    return film.shots, seats


def _camera(script: GameScript, seats: tuple[Seat, ...]) -> Camera:
    """The camera moved back until every seat's card and every stock pile is in the frame."""
    film = _Film(script, seats)
    resting = [Placed("1D", False, seat.position, seat.facing) for seat in seats]
    for name in script.players:
        (x, y), angle = film.stock_spot(name)
        resting.append(Placed("1D", False, (x, y), angle))
        resting.append(film.aside_spot(name))
    return fit_camera(tuple(resting), script.camera, margin=0.07)


def final_cards(hand: HandScript, blind: bool) -> tuple[dict[str, str], dict[str, str]]:
    """The cards at the reveal and at the settlement: the deal after the swaps and the draw."""
    cards = dict(hand.deal)
    for player, target in hand.swaps:
        cards[player], cards[target] = cards[target], cards[player]
    drawn = dict(cards)
    if hand.draw is not None:
        drawn[hand.dealer] = hand.draw
    return (drawn if blind else cards), drawn


def hand_record(script: GameScript) -> dict[str, Any]:
    """The game as a RULES.md hand record."""
    hands = []
    for hand in script.hands:
        turns = {player: "swap" for player, _ in hand.swaps}
        if hand.draw is not None:
            turns[hand.dealer] = "draw"
        entry: dict[str, Any] = {"deal": dict(hand.deal), "turns": turns}
        entry["stock"] = [hand.draw] if hand.draw is not None else []
        hands.append(entry)
    return {
        "rules": script.rules,
        "players": list(script.players),
        "lives": script.lives,
        "dealer": script.hands[0].dealer,
        "hands": hands,
    }


def narration(script: GameScript) -> list[dict[str, Any]]:
    """The events the companion should narrate, in order, as `watch --json` writes them."""
    said: list[dict[str, Any]] = []
    for number, hand in enumerate(script.hands, 1):
        order = _turn_order(script.players, hand.dealer)
        said.append({"event": "deal", "hand": number, "dealer": hand.dealer})
        for name in order:
            if _shown(hand.deal[name]):
                said.append({"event": "shown", "hand": number, "player": name, "card": hand.deal[name]})
        if hand.illegal is not None:
            player, target = hand.illegal
            if not hand.hidden:  # under the hands the camera sees two seats handled at once, not a swap
                said.append({"event": "swap", "hand": number, "from": player, "to": target, "legal": False})
            said.append({"event": "warning", "hand": number})
            if not hand.put_back:  # the hand is held for a person: nothing more is told
                break
        for player, target in hand.swaps:
            said.append({"event": "swap", "hand": number, "from": player, "to": target, "legal": True})
        revealed, settled = final_cards(hand, script.blind)
        # a blind draw lies face down: the camera learns the card only at the reveal
        seen = None if script.blind else hand.draw
        draw = {"event": "draw", "hand": number, "player": hand.dealer, "card": seen}
        if script.blind and hand.draw is not None:
            said.append(draw)
        said.append({"event": "reveal", "hand": number, "cards": revealed})
        if not script.blind and hand.draw is not None:
            said.append(draw)
        settle = {"losers": list(hand.losers), "lives": dict(hand.lives), "pot": hand.pot}
        said.append({"event": "settle", "hand": number, **settle})
    return said


def _spans(all_shots: list[Shot]) -> Iterator[tuple[int, int, Shot]]:
    """Runs of consecutive frames showing the same state: (first, past the last, its shot)."""
    def state(shot: Shot) -> tuple[Any, ...]:
        return shot.cards, shot.coins, shot.note

    start = 0
    for i in range(1, len(all_shots) + 1):
        if i == len(all_shots) or state(all_shots[i]) != state(all_shots[start]):
            yield start, i, all_shots[start]
            start = i


def _segments(all_shots: list[Shot], truths: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The frame spans of the film: what happens in each; still ones carry their cards' truth."""
    segments: list[dict[str, Any]] = []
    for start, end, shot in _spans(all_shots):
        last = segments[-1] if segments else None
        if not shot.still and last is not None and not last["still"] and last["note"] == shot.note:
            last["to"] = end
            continue
        entry: dict[str, Any] = {
            "from": start, "to": end, "hand": shot.hand, "phase": shot.phase, "note": shot.note,
            "still": shot.still,
        }
        if shot.still:
            entry["cards"] = [card for card in truths[start] if card["visible"] >= 0.1]
        segments.append(entry)
    return segments


def truth(
    script: GameScript,
    all_shots: list[Shot],
    seats: list[dict[str, Any]],
    camera: Camera,
    truths: dict[int, list[dict[str, Any]]],
) -> dict[str, Any]:
    """The JSON written beside the video."""
    return {
        "name": script.name,
        "video": f"{script.name}.mp4",
        "fps": FPS,
        "frames": len(all_shots),
        "width": camera.width,
        "height": camera.height,
        "style": script.style,
        "players": list(script.players),
        "dealer": script.hands[0].dealer,
        "rules": script.rules,
        "seats": seats,
        "record": hand_record(script),
        "expected": [
            {"dealer": hand.dealer, "losers": list(hand.losers), "lives": dict(hand.lives),
             "pot": hand.pot, "final": final_cards(hand, script.blind)[1]}
            for hand in script.hands
        ],
        "narration": narration(script),
        "segments": _segments(all_shots, truths),
    }


def film(
    script: GameScript, faces: Mapping[str, np.ndarray] | None = None, surface: Surface | None = None
) -> Iterator[tuple[int, np.ndarray, Shot, dict[str, Any]]]:
    """Render the game frame by frame: (index, BGR frame, its shot, the frame's truth); `faces`
    maps card codes to photos of their faces to paint instead of the drawn ones, `surface` is a
    photographed table to lay instead of the script's drawn style."""
    all_shots, seats = shots(script)
    camera = _camera(script, seats)
    stage = Stage(seats, script.style, camera, script.seed, faces=faces, surface=surface)
    for i, shot in enumerate(all_shots):
        frame, frame_truth = stage.frame(shot.cards, dict(shot.coins), noise_seed=i)
        yield i, frame, shot, frame_truth


class VideoWriter:
    """An MPEG-4 (Part 2) file written frame by frame: with PyAV at a set bitrate, else cv2's mp4v."""

    def __init__(
        self, path: Path, width: int, height: int, fps: int = FPS, bitrate: int = BITRATE
    ) -> None:
        self.path = path
        try:
            import av  # only the films' maker needs it: a fixed bitrate keeps the files small
        except ImportError:
            self._av = None
            self._cv = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (width, height))
            if not self._cv.isOpened():
                raise OSError(f"cannot write the video {path}")
            return
        self._av = av.open(str(path), "w")
        self._stream = self._av.add_stream("mpeg4", rate=fps)
        self._stream.width, self._stream.height = width, height
        self._stream.pix_fmt = "yuv420p"
        self._stream.codec_context.bit_rate = bitrate
        self._stream.codec_context.gop_size = KEY_EVERY
        self._frame_type = av.VideoFrame

    def write(self, frame: np.ndarray) -> None:
        """Append one BGR frame."""
        if self._av is None:
            self._cv.write(frame)
            return
        for packet in self._stream.encode(self._frame_type.from_ndarray(frame, format="bgr24")):
            self._av.mux(packet)

    def close(self) -> None:
        """Flush the encoder and close the file."""
        if self._av is None:
            self._cv.release()
            return
        for packet in self._stream.encode():
            self._av.mux(packet)
        self._av.close()


def write_sequence(script: GameScript, outdir: Path) -> Path:
    """Film the script into OUTDIR/NAME.mp4 with NAME.json beside it; return the JSON's path."""
    outdir.mkdir(parents=True, exist_ok=True)
    all_shots, seats = shots(script)
    camera = _camera(script, seats)
    writer = VideoWriter(outdir / f"{script.name}.mp4", camera.width, camera.height, bitrate=script.bitrate)
    truths: dict[int, list[dict[str, Any]]] = {}
    seat_truth: list[dict[str, Any]] = []
    try:
        for i, frame, shot, frame_truth in film(script):
            writer.write(frame)
            truths[i] = frame_truth["cards"]
            seat_truth = frame_truth["seats"]
    finally:
        writer.close()
    path = outdir / f"{script.name}.json"
    written = truth(script, all_shots, seat_truth, camera, truths)
    path.write_text(json.dumps(written, indent=1) + "\n", encoding="utf-8")
    return path


SAMPLE_HAND = GameScript(
    "hand",
    samples.PLAYERS,
    (
        HandScript(
            samples.DEALER,
            dict(samples.DEAL),
            swaps=(("Carla", "Elena"),),
            draw=samples.STOCK[0],
            losers=("Carla",),
            lives={"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3, "Elena": 3},
            pot=1,
        ),
    ),
    style="wood",
    camera=Camera(960, 540, tilt=35, yaw=8),
    table=(29.0, 18.0),
    seed=21,
)
"""The sample hand of `art.samples`, held as a camera sees it: Carla pays."""

_SIX = ("Gianni", "Lucia", "Marco", "Nadia", "Paolo", "Rosa")
GAME = GameScript(
    "game",
    _SIX,
    (
        # Paolo's swap jumps Rosa's Cavallo and goes round past her, the dealer, to Gianni.
        HandScript(
            "Rosa",
            {"Gianni": "5C", "Lucia": "2D", "Marco": "9S", "Nadia": "7B", "Paolo": "3C", "Rosa": "9C"},
            swaps=(("Lucia", "Nadia"), ("Nadia", "Paolo"), ("Paolo", "Gianni")),
            losers=("Gianni",),
            lives={"Gianni": 2, "Lucia": 3, "Marco": 3, "Nadia": 3, "Paolo": 3, "Rosa": 3},
            pot=1,
        ),
        # Marco's Re is Lucia's wall; Gianni draws the 7C over his Asso; Lucia and Rosa tie at 4.
        HandScript(
            "Gianni",
            {"Lucia": "4S", "Marco": "10D", "Nadia": "6B", "Paolo": "4D", "Rosa": "8B", "Gianni": "1S"},
            swaps=(("Paolo", "Rosa"),),
            draw="7C",
            losers=("Lucia", "Rosa"),
            lives={"Gianni": 2, "Lucia": 2, "Marco": 3, "Nadia": 3, "Paolo": 3, "Rosa": 2},
            pot=3,
        ),
        # Rosa jumps Gianni's Cavallo and swaps with the dealer Lucia, who draws an Asso and pays.
        HandScript(
            "Lucia",
            {"Marco": "3B", "Nadia": "10C", "Paolo": "6S", "Rosa": "2C", "Gianni": "9D", "Lucia": "5B"},
            swaps=(("Rosa", "Lucia"),),
            draw="1D",
            losers=("Lucia",),
            lives={"Gianni": 2, "Lucia": 1, "Marco": 3, "Nadia": 3, "Paolo": 3, "Rosa": 2},
            pot=4,
        ),
    ),
    style="felt",
    camera=Camera(960, 540, tilt=28, yaw=-10),
    table=(31.0, 20.0),
    seed=31,
    bitrate=180_000,  # the longest film: 885 of 899 still cards read, the misses all while collecting
)
"""Three hands of six on baize: a jump past the dealer, a tie, a dealer's bad draw."""

ILLEGAL = GameScript(
    "illegal",
    samples.PLAYERS,
    (
        # Anna swaps with Carla past Bruno's Re and puts it back: a swap nobody could make then,
        # for Carla's own target is Dario. Then Dario swaps with the dealer, who draws; Anna pays.
        HandScript(
            "Elena",
            {"Anna": "4C", "Bruno": "10S", "Carla": "6B", "Dario": "2D", "Elena": "7C"},
            swaps=(("Dario", "Elena"),),
            draw="5B",
            illegal=("Anna", "Carla"),
            losers=("Anna",),
            lives={"Anna": 2, "Bruno": 3, "Carla": 3, "Dario": 3, "Elena": 3},
            pot=1,
        ),
    ),
    style="wood",
    camera=Camera(960, 540, tilt=30, yaw=14),
    table=(29.0, 18.0),
    seed=44,
)
"""An illegal swap past a Re wall, put back; then the hand goes on and is settled."""

CLASSICA = GameScript(
    "classica",
    ("Ugo", "Vera", "Walter", "Zoe"),
    (
        # Zoe draws blind before anyone reveals, over the 2S Walter passed her; Walter's 4B pays.
        HandScript(
            "Zoe",
            {"Ugo": "6C", "Vera": "2S", "Walter": "8D", "Zoe": "4B"},
            swaps=(("Vera", "Walter"), ("Walter", "Zoe")),
            draw="5D",
            losers=("Walter",),
            lives={"Ugo": 3, "Vera": 3, "Walter": 2, "Zoe": 3},
            pot=1,
        ),
    ),
    rules="classica",
    style="wood",
    camera=Camera(960, 540, tilt=25, yaw=-4),
    table=(27.0, 17.0),
    seed=51,
)
"""One hand under `classica`: the dealer's blind draw comes before the reveal. On the checked cloth
(CLOTH_BITRATE) the reader lost the face-down cards too often for the live loop to see the draw."""

_FIVE = ("Gino", "Ida", "Leo", "Mara", "Nico")
BRISK_FILM = GameScript(
    "brisk",
    _FIVE,
    (
        # Ida's Re walls Gino, who peeks and keeps; Leo swaps with Mara, Mara with the dealer Nico,
        # who draws the 4B over his 5D after the reveal; Leo's 2S pays as the cards are collected.
        HandScript(
            "Nico",
            {"Gino": "3C", "Ida": "10B", "Leo": "5D", "Mara": "2S", "Nico": "6C"},
            swaps=(("Leo", "Mara"), ("Mara", "Nico")),
            draw="4B",
            peeks=("Gino",),
            losers=("Leo",),
            lives={"Gino": 3, "Ida": 3, "Leo": 2, "Mara": 3, "Nico": 3},
            pot=1,
        ),
        # Gino deals; Ida swaps a moment after the last card lands, jumping Leo's Cavallo to Mara;
        # Nico swaps with the dealer; Ida's Asso pays.
        HandScript(
            "Gino",
            {"Ida": "7D", "Leo": "9C", "Mara": "1B", "Nico": "4S", "Gino": "8B"},
            swaps=(("Ida", "Mara"), ("Nico", "Gino")),
            losers=("Ida",),
            lives={"Gino": 3, "Ida": 2, "Leo": 2, "Mara": 3, "Nico": 3},
            pot=2,
        ),
    ),
    style="felt",
    camera=Camera(960, 540, tilt=10, yaw=-6),
    table=(31.0, 20.0),
    seed=61,
    pace=BRISK,
    ending="collect",
)
"""Two hands at a brisk pace seen from nearly above: a peek, a draw after the reveal, a swap a moment
after the deal, the cards collected a second after the last one shows."""

OBLIQUE = GameScript(
    "oblique",
    ("Olga", "Pino", "Rita", "Sara", "Teo", "Ugo"),
    (
        # Pino swaps with Sara past Rita's Re and puts it back; Olga swaps with Pino; Sara jumps
        # Teo's Cavallo to the dealer Ugo; Olga's 2C pays.
        HandScript(
            "Ugo",
            {"Olga": "6B", "Pino": "2C", "Rita": "10C", "Sara": "5S", "Teo": "9B", "Ugo": "3D"},
            swaps=(("Olga", "Pino"), ("Sara", "Ugo")),
            illegal=("Pino", "Sara"),
            peeks=("Sara",),
            losers=("Olga",),
            lives={"Olga": 2, "Pino": 3, "Rita": 3, "Sara": 3, "Teo": 3, "Ugo": 3},
            pot=1,
        ),
    ),
    style="wood",
    camera=Camera(960, 540, tilt=40, yaw=4, fov=PHONE_FOV),
    table=(33.0, 21.0),
    seed=71,
    pace=USUAL,
    ending="collect",
)
"""One hand at the usual pace from a phone propped at the table's edge, 40 degrees from straight down:
an illegal swap past a Re put back, a jump over a Cavallo to the dealer."""

STANDS = GameScript(
    "stands",
    ("Anna", "Bruno", "Carla", "Dario"),
    (
        # Anna swaps with Carla past Bruno's Re and nobody puts it back: the family plays on and
        # turns up. Only a person can answer the held hand (the demo voids it and deals again).
        HandScript(
            "Dario",
            {"Anna": "5C", "Bruno": "10B", "Carla": "3S", "Dario": "7D"},
            illegal=("Anna", "Carla"),
            put_back=False,
            losers=("Carla",),
            lives={"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3},
            pot=1,
        ),
    ),
    style="felt",
    camera=Camera(960, 540, tilt=30, yaw=-8),
    table=(27.0, 17.0),
    seed=81,
    bitrate=DEMO_BITRATE,
)
"""An illegal swap past a Re that stands (never put back): a hand held for a person."""

HIDDEN = GameScript(
    "hidden",
    ("Gino", "Ida", "Leo", "Mara"),
    (
        # Gino and Leo exchange their cards wholly under their hands across the table, then
        # exchange them back the same way: the camera cannot tell, and the table answers the
        # page (the demo: no swap) before Leo swaps with the dealer Mara; Ida's 2S pays.
        HandScript(
            "Mara",
            {"Gino": "6C", "Ida": "2S", "Leo": "8D", "Mara": "4B"},
            swaps=(("Leo", "Mara"),),
            illegal=("Gino", "Leo"),
            hidden=True,
            wait=6.0,
            losers=("Ida",),
            lives={"Gino": 3, "Ida": 2, "Leo": 3, "Mara": 3},
            pot=1,
        ),
    ),
    style="wood",
    camera=Camera(960, 540, tilt=28, yaw=10),
    table=(27.0, 17.0),
    seed=91,
    bitrate=DEMO_BITRATE,
)
"""A swap and its put-back made wholly under the hands: a move the camera cannot tell."""

SEQUENCES = (SAMPLE_HAND, GAME, ILLEGAL, CLASSICA, BRISK_FILM, OBLIQUE, STANDS, HIDDEN)


def main(argv: list[str] | None = None) -> int:
    """Command line: `python -m art.sequences OUTDIR [--only NAME ...]`."""
    parser = argparse.ArgumentParser(
        prog="python -m art.sequences", description=__doc__.splitlines()[0]
    )
    parser.add_argument("outdir", type=Path)
    names = [script.name for script in SEQUENCES]
    parser.add_argument("--only", nargs="*", choices=names, help="films to make (default: all)")
    args = parser.parse_args(argv)
    if args.outdir.exists() and not args.outdir.is_dir():
        print(f"{args.outdir} exists and is not a directory", file=sys.stderr)
        return 2
    for script in SEQUENCES:
        if args.only and script.name not in args.only:
            continue
        try:
            path = write_sequence(script, args.outdir)
        except OSError as error:
            print(f"cannot write the film {script.name}: {error}", file=sys.stderr)
            return 2
        frames = json.loads(path.read_text(encoding="utf-8"))["frames"]
        print(f"{script.name}: {frames} frames ({frames / FPS:.1f} s) in {path.with_suffix('.mp4')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
