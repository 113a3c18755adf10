"""Make `sample_images/`: table stills and one whole hand of five players, with ground truth.

Run `python -m art.samples sample_images`; fixed seeds make the same files every time.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from art.scene import (
    Camera,
    Placed,
    Scene,
    deal_to_seats,
    fit_camera,
    render_scene,
    round_table_seats,
)

PLAYERS = ("Anna", "Bruno", "Carla", "Dario", "Elena")
DEALER = "Elena"
DEAL = {"Anna": "4C", "Bruno": "10S", "Carla": "2B", "Dario": "9D", "Elena": "3S"}
"""The hand: Bruno's Re is a wall for Anna; Carla jumps Dario's Cavallo and swaps with Elena."""
STOCK = ("6D", "1C", "7B")
"""The stock from the top: the dealer draws the 6 di Denari."""
HAND_RECORD = {
    "rules": "napoli",
    "players": list(PLAYERS),
    "dealer": DEALER,
    "hands": [
        {"deal": DEAL, "turns": {"Anna": "keep", "Carla": "swap", "Elena": "draw"}, "stock": ["6D"]}
    ],
}
EXPECTED = {
    "swaps": [["Carla", "Elena"]],
    "final": {"Anna": "4C", "Bruno": "10S", "Carla": "3S", "Dario": "9D", "Elena": "6D"},
    "losers": ["Carla"],
}
"""Carla swaps 2B for Elena's 3S; Elena, lowest at the reveal with 2B, draws 6D; Carla's 3S pays."""

TIE_DEAL = {"Anna": "2C", "Bruno": "7D", "Carla": "2S", "Dario": "10B", "Elena": "5C"}
TIE_RECORD = {
    "rules": "napoli",
    "players": list(PLAYERS),
    "dealer": DEALER,
    "hands": [{"deal": TIE_DEAL, "turns": {}, "stock": []}],
}
TIE_EXPECTED = {"swaps": [], "final": TIE_DEAL, "losers": ["Anna", "Carla"]}
"""Everyone keeps (Carla's target Dario is a wall); the two Due tie for the lowest and both pay."""

_SEQUENCE_CAMERA = Camera(1280, 720, tilt=35, yaw=8)
_TABLE = (29.0, 18.0)
"""The oval (cm) the players' cards lie on: a kitchen table seen whole by the camera."""
_STOCK_AT = (2.0, -3.0)


def _stock(cards: tuple[str, ...]) -> tuple[Placed, ...]:
    """The stock in the middle, drawn bottom card first so the top card lies uppermost."""
    return tuple(
        Placed(card, False, (_STOCK_AT[0] + 0.15 * i, _STOCK_AT[1] - 0.2 * i), 12.0 + 2 * i)
        for i, card in enumerate(reversed(cards))
    )


def _seat_cards(hands: dict[str, str], shown: set[str], seed: int) -> tuple[Placed, ...]:
    seats = round_table_seats(list(PLAYERS), _TABLE)
    faces = {name: (card, name in shown) for name, card in hands.items()}
    return deal_to_seats(seats, faces, np.random.default_rng(seed))


def _between(a: Placed, b: Placed, t: float, face_up: bool, cover: float = 0.0) -> Placed:
    """A card sliding from pose a to pose b (t from 0 to 1), with a hand on it while it moves."""
    centre = (
        a.centre[0] + (b.centre[0] - a.centre[0]) * t,
        a.centre[1] + (b.centre[1] - a.centre[1]) * t,
    )
    seat = b.seat if t >= 1 else None
    return Placed(
        b.label, face_up, centre, a.angle + (b.angle - a.angle) * t, seat, cover if t < 1 else 0.0
    )


def _truth_of(truth: dict[str, Any], phase: str, note: str) -> dict[str, Any]:
    return {"phase": phase, "note": note, "cards": truth["cards"]}


def _frames() -> list[tuple[str, str, tuple[Placed, ...]]]:
    """The hand as (phase, what happens, cards on the table) for each frame."""
    home = {p.seat: p for p in _seat_cards(DEAL, set(), seed=7)}
    order = list(PLAYERS[PLAYERS.index(DEALER) + 1 :]) + list(PLAYERS[: PLAYERS.index(DEALER) + 1])
    stock = list(_stock(tuple(DEAL[name] for name in order) + STOCK))
    frames: list[tuple[str, str, tuple[Placed, ...]]] = []
    dealt: dict[str, Placed] = {}

    def show(phase: str, note: str, *moving: Placed) -> None:
        frames.append((phase, note, tuple(stock) + tuple(dealt.values()) + moving))

    show("table", "the dealer Elena sets down the shuffled deck")
    show("table", "the dealer Elena sets down the shuffled deck")
    for name in order:  # from the dealer's right, counterclockwise, the dealer last
        top = stock.pop()
        for t in (0.35, 0.7):
            show("deal", f"dealing to {name}", _between(top, home[name], t, False, cover=0.3))
        dealt[name] = home[name]
        show("deal", f"{name} has a card")
    for name in ("Bruno", "Dario"):
        dealt[name] = replace(home[name], cover=0.35)
        show("shown", f"{name} turns his card at once")
        dealt[name] = replace(home[name], face_up=True)
        show("shown", f"{name} shows the {DEAL[name]}")
    show("turns", "Anna keeps: Bruno's Re is a wall")
    carla, elena = dealt.pop("Carla"), dealt.pop("Elena")
    to_elena = replace(carla, seat="Elena", centre=elena.centre, angle=elena.angle)
    to_carla = replace(elena, seat="Carla", centre=carla.centre, angle=carla.angle)
    for t in (0.3, 0.6):
        show(
            "swap",
            "Carla jumps Dario's Cavallo and swaps with Elena",
            _between(carla, to_elena, t, False, 0.3),
            _between(elena, to_carla, t, False),
        )
    dealt["Carla"], dealt["Elena"] = to_carla, to_elena
    show("swap", "Carla and Elena have swapped")
    for name in ("Anna", "Carla", "Elena"):
        dealt[name] = replace(dealt[name], cover=0.3)
    show("reveal", "the turn reaches the dealer: everyone reveals")
    for name in ("Anna", "Carla", "Elena"):
        dealt[name] = replace(dealt[name], face_up=True, cover=0.0)
    show("reveal", "Anna 4C, Bruno 10S, Carla 3S, Dario 9D, Elena 2B")
    show("reveal", "Elena holds the lowest card")
    old = dealt.pop("Elena")
    away = replace(old, centre=(_STOCK_AT[0] - 12.0, _STOCK_AT[1] + 4.0), angle=70.0, seat=None)
    show("draw", "Elena puts her 2B aside", _between(old, away, 0.5, True, 0.3))
    top = stock.pop()
    drawn = replace(home["Elena"], label=top.label, face_up=True)
    for t in (0.35, 0.7):
        show(
            "draw",
            "Elena draws the top card of the stock",
            away,
            _between(top, drawn, t, False, 0.3),
        )
    dealt["Elena"] = drawn
    show("settle", "Elena shows the 6D; Carla's 3S is the lowest and pays", away)
    show("settle", "Elena shows the 6D; Carla's 3S is the lowest and pays", away)
    return frames


def _write(path: Path, frame: np.ndarray, quality: int) -> None:
    if not cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, quality]):
        raise OSError(f"could not write {path}")


def still_scenes() -> list[tuple[str, Scene, Camera, int, dict[str, Any]]]:
    """The stills as (name, scene, camera, seed, what the truth adds): deal, Re and Cavallo, tie."""
    seats = round_table_seats(list(PLAYERS), _TABLE)
    coins = {name: 3 for name in PLAYERS}
    context = {"players": list(PLAYERS), "dealer": DEALER}
    down = _seat_cards(DEAL, set(), seed=1) + _stock(STOCK)
    shown = _seat_cards(DEAL, {"Bruno", "Dario"}, seed=2) + _stock(STOCK)
    tie = _seat_cards(TIE_DEAL, set(PLAYERS), seed=3)
    return [
        (
            "deal",
            Scene(seats, down, "wood", coins),
            Camera(1600, 900, tilt=30, yaw=-6),
            11,
            {**context, "situation": "the deal: every card face down", "record": HAND_RECORD},
        ),
        (
            "re-cavallo",
            Scene(seats, shown, "cloth", coins),
            Camera(1600, 900, tilt=40, yaw=15),
            12,
            {
                **context,
                "situation": "Bruno shows a Re (a wall), Dario a Cavallo (jumped)",
                "record": HAND_RECORD,
            },
        ),
        (
            "reveal-tie",
            Scene(seats, tie, "felt", coins),
            Camera(1600, 900, tilt=22, yaw=-20),
            13,
            {
                **context,
                "situation": "the reveal: Anna's 2C and Carla's 2S tie for the lowest",
                "record": TIE_RECORD,
                "expected": TIE_EXPECTED,
            },
        ),
    ]


def render_still(scene: Scene, camera: Camera, seed: int) -> tuple[np.ndarray, dict[str, Any]]:
    """One still, the camera fitted so every card is in the frame."""
    return render_scene(scene, fit_camera(scene.cards, camera), seed=seed)


def write_samples(outdir: Path) -> None:
    """Write the stills with their truth, then the hand's frames and `hand/hand.json`."""
    outdir.mkdir(parents=True, exist_ok=True)
    for name, scene, camera, seed, extra in still_scenes():
        frame, truth = render_still(scene, camera, seed)
        _write(outdir / f"{name}.jpg", frame, 90)
        (outdir / f"{name}.json").write_text(
            json.dumps({**truth, **extra}, indent=1) + "\n", encoding="utf-8"
        )
    seats = round_table_seats(list(PLAYERS), _TABLE)
    coins = {name: 3 for name in PLAYERS}
    context = {"players": list(PLAYERS), "dealer": DEALER}
    hand_dir = outdir / "hand"
    hand_dir.mkdir(exist_ok=True)
    frames = _frames()
    resting = tuple(c for _, _, cards in frames for c in cards if c.seat is not None)
    camera = fit_camera(resting, _SEQUENCE_CAMERA, margin=0.04)
    story = []
    for i, (phase, note, cards) in enumerate(frames):
        frame, truth = render_scene(Scene(seats, cards, "wood", coins), camera, seed=21)
        name = f"frame-{i:03d}.jpg"
        _write(hand_dir / name, frame, 80)
        story.append({"file": name, **_truth_of(truth, phase, note)})
    hand = {
        **context,
        "width": camera.width,
        "height": camera.height,
        "seats": truth["seats"],
        "record": HAND_RECORD,
        "expected": EXPECTED,
        "frames": story,
    }
    (hand_dir / "hand.json").write_text(json.dumps(hand, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Command line: `python -m art.samples OUTDIR`."""
    parser = argparse.ArgumentParser(
        prog="python -m art.samples", description=__doc__.splitlines()[0]
    )
    parser.add_argument("outdir", type=Path)
    args = parser.parse_args(argv)
    if args.outdir.exists() and not args.outdir.is_dir():
        print(f"{args.outdir} exists and is not a directory", file=sys.stderr)
        return 2
    try:
        write_samples(args.outdir)
    except OSError as error:
        print(f"cannot write the samples: {error}", file=sys.stderr)
        return 2
    print(f"wrote the sample stills and the hand's frames to {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
