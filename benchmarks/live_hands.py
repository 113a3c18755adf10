"""Random hands to film for the live evaluation: a table, a deal, the turns the referee allows, a pace and a view.

Every choice comes from one seed. The turns are asked of the referee (`Hand.target`,
`Game.is_legal`), as `referee.simulate` plays its random games, so each hand's truth (the
narration, the losers, the lives and the pot) is the game's own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from art.pace import Pace
from art.scene import PHONE_FOV, Camera, Placed, card_corners_cm, round_table_seats
from art.sequences import GameScript, HandScript, _camera
from art.table import TABLE_STYLES
from referee.cards import DECK
from referee.events import ChooseDealer, Deal, Draw, Keep, Reveal, Settle, Swap
from referee.game import Game, Phase
from referee.simulate import NAMES
from referee.walk import Stop

TILTS = {"above": (0.0, 15.0), "30": (25.0, 35.0), "45": (40.0, 50.0), "60": (55.0, 70.0),
         "oblique": (30.0, 45.0)}
"""Where the camera is, by its degrees from straight down: over the table (a phone held or hung above
it); a phone leaning on a glass or a bottle at the table's edge at about 30, 45 or 60 degrees (from 60
on, a phone propped on a short glass looks across the table, and the far seat's card looks about a
third as long as the near one's); `oblique`, 30 to 45, the angles the sample films were made at."""
VIEWS = ("above", "30", "45", "60")
"""The views the evaluations go through, by turns: above the table, then ever flatter at its edge."""
ABOVE_TILT = TILTS["above"]
OBLIQUE_TILT = TILTS["oblique"]
"""With a phone's lens (scene.PHONE_FOV) fitted to the table, at 30-45 degrees it stands about 50 cm
from the table's middle and 65 cm up, and the far seat's card looks 0.45-0.6 as long as the near one's."""
ABOVE_FOV = 60.0
"""The sample films' field of view, for the camera over the table."""
YAW = 25.0
"""Degrees either way the camera is turned from facing the table's long side."""
PLAYERS = (4, 8)
"""Fewest and most players at a generated table."""
CLASSICA = 0.2
"""Share of hands under `classica` (the dealer draws blind before the reveal); the rest `napoli`."""
SWAP = 0.55
"""Chance that a player who may swap does: about half, as the simulator plays."""
DRAW = 0.45
"""Chance that a dealer who may draw does."""
ILLEGAL = 0.4
"""Chance of an illegal swap: past a wall where the deal has one, else past the right-hand neighbour
to the next face-down card."""
ILLEGAL_KINDS = (("put back", 1 / 3), ("played on", 1 / 3), ("hidden", 1 / 3))
"""How an illegal swap is made, and how often: in sight and put back after the warning; in sight and
never undone, the family playing on; or wholly under the players' hands and never undone. Only the
first may be settled; the other two must be held."""
PEEK = 0.5
"""Chance that someone peeks under his face-down card as the turns begin; a second one as likely again."""
ENDINGS = (("collect", 0.6), ("still", 0.2), ("cut", 0.2))
"""How the filmed hand ends, and how often: the cards collected, the table left still, the film stopped."""
SIZE = (960, 540)
"""Frame size by default: the sample films'; the live evaluation films at a phone's 1280x720."""


@dataclass(frozen=True)
class LiveHand:
    """A generated hand: its film's script and what it was made of."""

    script: GameScript
    pace: str
    view: str
    illegal: bool
    swaps: int
    peeks: int
    ending: str
    illegal_kind: str | None = None
    """How the illegal swap is made (ILLEGAL_KINDS), None without one."""

    @property
    def undone(self) -> bool:
        """Whether the cards lie as the game says at the reveal: no illegal swap, or one put back."""
        return self.illegal_kind in (None, "put back")


def table_radii(players: int) -> tuple[float, float]:
    """Half axes (cm) of the oval the cards lie on: about 20 cm between neighbours' cards."""
    return 26.0 + 1.2 * players, 16.5 + 0.75 * players


def view_camera(view: str, rng: np.random.Generator, size: tuple[int, int] = SIZE) -> Camera:
    """A camera over the table or propped at its edge, at a random angle, before it is fitted to the table."""
    if view not in TILTS:
        raise ValueError(f"unknown view {view!r}: choose one of {', '.join(TILTS)}")
    side = 180.0 if rng.random() < 0.5 else 0.0  # either long side of the table
    yaw = side + float(rng.uniform(-YAW, YAW))
    tilt = float(rng.uniform(*TILTS[view]))
    return Camera(*size, tilt=tilt, yaw=yaw, fov=ABOVE_FOV if view == "above" else PHONE_FOV)


def far_near(script: GameScript) -> float:
    """How long the farthest seat's card looks against the nearest one's in the fitted camera's frame."""
    seats = round_table_seats(list(script.players), script.table)
    h = _camera(script, seats).homography()
    lengths = []
    for seat in seats:
        corners = card_corners_cm(Placed("1D", False, seat.position, seat.facing))
        ends = np.array([corners[:2].mean(axis=0), corners[2:].mean(axis=0)], np.float64)
        projected = ends @ h[:, :2].T + h[:, 2]
        points = projected[:, :2] / projected[:, 2:]
        lengths.append(float(np.linalg.norm(points[0] - points[1])))
    return min(lengths) / max(lengths)


def _illegal_pair(game: Game, rng: np.random.Generator) -> tuple[str, str] | None:
    """A swap nobody at the table may make: a walled player with the face-down card beyond the Re, or
    (with no wall) a player with the card past his right-hand neighbour's."""
    hand = game.hand
    assert hand is not None
    allowed = set()
    for player in hand.ring:
        found = hand.target(player, game.rules)
        if found.target is not None:
            allowed.add(frozenset((player, found.target)))
    ring = hand.ring
    pairs = []
    for player in hand.order:
        if hand.target(player, game.rules).stop is not Stop.WALL:
            continue
        k = ring.index(player)
        for step in range(2, len(ring)):  # past the wall, to the first face-down card beyond
            other = ring[(k + step) % len(ring)]
            if other not in hand.shown:
                if frozenset((player, other)) not in allowed:
                    pairs.append((player, other))
                break
    if not pairs:
        for player in hand.order:
            beyond = ring[(ring.index(player) + 2) % len(ring)]
            if beyond not in hand.shown and frozenset((player, beyond)) not in allowed:
                pairs.append((player, beyond))
    return pairs[int(rng.integers(len(pairs)))] if pairs else None


def _play(game: Game, rng: np.random.Generator) -> tuple[tuple[tuple[str, str], ...], str | None]:
    """Play the dealt hand's turns as the referee allows them; the swaps in turn order and the card drawn."""
    hand = game.hand
    assert hand is not None
    fresh = [card for card in DECK if card not in hand.cards.values()]
    drawn = fresh[int(rng.integers(len(fresh)))]
    truth = dict(hand.cards)
    swaps: list[tuple[str, str]] = []
    draw = None
    shown: dict = {}
    while hand.result is None:
        phase = game.phase
        if phase is Phase.TURNS:
            player = game.current_player
            assert player is not None
            found = hand.target(player, game.rules)
            if found.stop is Stop.TARGET and found.target is not None and rng.random() < SWAP:
                truth[player], truth[found.target] = truth[found.target], truth[player]
                swaps.append((player, found.target))
                game.play(Swap(player, found.target))
            else:
                game.play(Keep(player))
        elif phase is Phase.DEALER:
            if game.is_legal(Draw(hand.dealer, drawn)) and rng.random() < DRAW:
                truth[hand.dealer] = drawn
                draw = drawn.code
                game.play(Draw(hand.dealer, drawn))
            else:
                game.play(Keep(hand.dealer))
        elif phase is Phase.REVEAL:
            shown = dict(truth)
            game.play(Reveal(dict(truth)))
        elif shown[hand.dealer] != truth[hand.dealer]:  # drawn after the reveal
            shown[hand.dealer] = truth[hand.dealer]
            game.play(Reveal({hand.dealer: truth[hand.dealer]}))
        else:
            game.play(Settle())
    return tuple(swaps), draw


def illegal_kind(seed: int, number: int) -> str:
    """How hand `number`'s illegal swap is made, drawn apart from the hand so the hands stay as they were dealt."""
    rng = np.random.default_rng([seed, number, 1])
    kinds = [name for name, _ in ILLEGAL_KINDS]
    return kinds[int(rng.choice(len(kinds), p=[share for _, share in ILLEGAL_KINDS]))]


def random_hand(seed: int, pace: Pace, view: str, number: int = 0, size: tuple[int, int] = SIZE) -> LiveHand:
    """One random hand of 4-8 players at `pace`, filmed from `view` in frames of `size`, with its truth;
    the same for the same seed."""
    rng = np.random.default_rng([seed, number])
    count = int(rng.integers(PLAYERS[0], PLAYERS[1] + 1))
    players = tuple(str(name) for name in rng.choice(NAMES, count, replace=False))
    rules = "classica" if rng.random() < CLASSICA else "napoli"
    dealer = players[int(rng.integers(count))]
    game = Game(players, rules)
    game.play(ChooseDealer(dealer))
    cards = rng.permutation(len(DECK))[:count]
    deal = {player: DECK[int(k)].code for player, k in zip(players, cards)}
    game.play(Deal.of(deal))
    illegal = _illegal_pair(game, rng) if rng.random() < ILLEGAL else None
    hand = game.hand
    assert hand is not None
    down = [p for p in hand.order if p != (illegal or ("", ""))[0]]
    peekers: list[str] = []
    while down and rng.random() < PEEK and len(peekers) < 2:
        peekers.append(down.pop(int(rng.integers(len(down)))))
    swaps, draw = _play(game, rng)
    result = game.results[-1]
    ending = str(rng.choice([name for name, _ in ENDINGS], p=[share for _, share in ENDINGS]))
    kind = illegal_kind(seed, number) if illegal is not None else None
    script = GameScript(
        f"{pace.name}-{view}-{number:03d}",
        players,
        (HandScript(dealer, deal, swaps=swaps, draw=draw, illegal=illegal, put_back=kind in (None, "put back"),
                    hidden=kind == "hidden", peeks=tuple(peekers), losers=result.losers,
                    lives=dict(result.lives), pot=result.pot),),
        rules=rules,
        style=str(rng.choice(TABLE_STYLES)),
        camera=view_camera(view, rng, size),
        table=table_radii(count),
        seed=int(rng.integers(2**31)),
        pace=pace,
        ending=ending,
    )
    return LiveHand(script, pace.name, view, illegal is not None, len(swaps), len(peekers), ending, kind)
