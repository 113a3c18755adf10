"""The live loop on generated hands at the paces families play: settled right, wrong or held, and how soon.

    .venv/bin/python -m benchmarks.eval_live [--hands 20] [--pace brisk usual slow] [--seed 0] [--jobs 2] [--drawn] [--photos ../shared/data]
    .venv/bin/python -m benchmarks.eval_live --hand brisk-oblique-003     # one hand: what was filmed, told and due

Each hand is drawn at random by benchmarks.live_hands (4-8 players, every table style, Re and
Cavalli at the deal, the swaps the referee allows, in about four hands of ten a swap nobody may make
(past a wall, or past the neighbour) put back after the warning, a player peeking under his card,
the dealer's draw, napoli or classica rules) and played at a pace of vision.art.pace; the same
hands are played at every pace, so the paces compare hand for hand: brisk (0.2-0.4 s between moves, the cards collected 1-1.5 s
after the reveal), usual (0.5-1 s; about 3 s) or slow (1-2 s; about 6 s). Most hands end with the
cards collected, some with the table left still, some with the film stopping soon after the reveal.
Alternate hands are seen from above (tilted 0-15 degrees) and from a phone propped at the table's
edge (30-45 degrees, the far cards about half as long as the near ones). The faces are cut out of
the valid-split photos (decks gabrieleconsumato and gaia, one deck a hand; --drawn paints the
project's drawn faces instead). Each hand is filmed in memory at 960x540 and 15 frames a second,
every frame passed through JPEG as a phone streams it, and goes through the real loop
(`TableWatcher.step`, then `finish` when the film ends), from a new game with the dealer named.

A hand is settled right when its settlement names the expected losers, lives and pot, wrong when
it names others; held when a warning holds it for a person at the end; unsettled otherwise. An
illegal swap is warned when it is narrated as illegal with a warning, and accepted when it is
credited as a legal swap. A legal swap is missed when the narration lacks it; seats are misnamed
when a found seat lies nearer another player's place; cards are misread when a reveal or a shown
card names another card. Latency runs from the first card collected (or, for a table left still or
a film stopped, from the last card turned) to the settle event; a negative one settled before the
cards were collected. Run it on an otherwise idle machine to compare its wall time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks import harness
from benchmarks.eval_size import cut_out
from benchmarks.live_hands import VIEWS, LiveHand, far_near, random_hand
from referee.events import ChooseDealer
from referee.game import Game
from vision.art.pace import PACES
from vision.art.sequences import FPS, Shot, film, narration
from vision.classify import CardClassifier
from vision.frames import Frame
from vision.recognize import CardReader
from vision.seats import Seats
from webui.live import TableWatcher

NAME = "eval_live"
VALID_DECKS = ("gabrieleconsumato", "gaia")
"""The valid split's decks: the only photos whose cards the evaluation may show."""
QUALITY = 85
"""JPEG quality each frame passes through: a phone's stream over the table's Wi-Fi."""
UNTOLD = ("target", "keep")
"""Kinds of narration the truth leaves out: a target is told for every seat, a keep shows nothing."""
VERDICTS = ("right", "wrong", "held", "unsettled")

Faces = Mapping[str, np.ndarray]


def photo_faces(data: Path, reader: CardReader) -> dict[str, dict[str, np.ndarray]]:
    """Per valid deck, every card's face cut out upright from its photo through the pipeline's own locator."""
    decks: dict[str, dict[str, np.ndarray]] = {}
    for path, code, deck in harness.photos(data, "valid"):
        cut = cut_out(reader, path, code)
        if cut is not None and deck in VALID_DECKS:
            decks.setdefault(deck, {})[code] = cut
    return decks


def hand_faces(decks: Mapping[str, Faces], number: int) -> Faces | None:
    """The faces a hand is dealt from: one deck by turns, its missing cards taken from the other."""
    if not decks:
        return None
    names = sorted(decks)
    first = names[number % len(names)]
    merged: dict[str, np.ndarray] = {}
    for name in [n for n in names if n != first] + [first]:
        merged.update(decks[name])
    return merged


def _anchor(shots: list[Shot]) -> tuple[int, bool]:
    """The frame latency runs from: the first card collected (True), else the first after the last card turned."""
    for i, shot in enumerate(shots):
        if shot.phase == "collect":
            return i, True
    turned = [i for i, shot in enumerate(shots) if not shot.still and shot.phase in ("reveal", "draw")]
    return (turned[-1] + 1 if turned else len(shots) - 1), False


def _seats_right(found: Any, truth: list[dict[str, Any]]) -> bool:
    """Whether every seat found lies nearest its own player's place in the frame."""
    if found is None:
        return False
    places = {seat["name"]: np.array(seat["at"], float) for seat in truth}
    for name, point in zip(found.names, found.points):
        nearest = min(places, key=lambda other: float(np.linalg.norm(places[other] - np.array(point))))
        if nearest != name:
            return False
    return True


def _swaps(said: list[dict[str, Any]], legal: bool) -> list[tuple[str, str]]:
    return [(s["from"], s["to"]) for s in said if s["event"] == "swap" and s.get("legal") is legal]


def _divergence(told: list[dict[str, Any]], expected: list[dict[str, Any]]) -> str:
    """Where the narration first parts from the truth, in a few words."""
    for said, due in zip(told, expected):
        if said != due:
            return f"{due['event']} expected, {said['event']} told"
    if len(told) < len(expected):
        return f"{expected[len(told)]['event']} never told"
    if len(told) > len(expected):
        return f"{told[len(expected)]['event']} told past the end"
    return ""


def judge(live: LiveHand, told: list[dict[str, Any]], held: bool, seats_ok: bool,
          shots: list[Shot], settled_at: float | None) -> dict[str, Any]:
    """One hand's verdict from what the loop narrated against the script's truth."""
    script = live.script
    hand = script.hands[0]
    expected = narration(script)
    due = next(s for s in expected if s["event"] == "settle")
    settle = next((s for s in told if s["event"] == "settle"), None)
    if settle is not None:
        right = (settle["losers"], settle["lives"], settle["pot"]) == (due["losers"], due["lives"], due["pot"])
        verdict = "right" if right else "wrong"
    else:
        verdict = "held" if held else "unsettled"
    anchor, collected = _anchor(shots)
    latency = None if settled_at is None else round(settled_at - anchor / FPS, 3)
    legal_told = _swaps(told, True)
    missed = Counter(_swaps(expected, True)) - Counter(legal_told)
    reveals = [s["cards"] for s in told if s["event"] == "reveal"]
    due_reveal = next(s["cards"] for s in expected if s["event"] == "reveal")
    shown_told = {(s["player"], s["card"]) for s in told if s["event"] == "shown"}
    shown_due = {(s["player"], s["card"]) for s in expected if s["event"] == "shown"}
    misread = any(r != due_reveal for r in reveals) or bool(shown_told - shown_due)
    result: dict[str, Any] = {
        "name": script.name, "pace": live.pace, "view": live.view, "players": len(script.players),
        "rules": script.rules, "style": script.style, "tilt": round(script.camera.tilt, 1),
        "far_near": round(far_near(script), 2), "ending": live.ending, "swaps": live.swaps,
        "peeks": live.peeks, "draw": hand.draw is not None, "frames": len(shots), "verdict": verdict,
        "exact": told == expected, "why": _divergence(told, expected), "seats_ok": seats_ok,
        "missed": sum(missed.values()), "misread": misread, "collected": collected, "latency": latency,
        "warnings": sum(1 for s in told if s["event"] == "warning"),
    }
    if hand.illegal is not None:
        pair = set(hand.illegal)
        warned = [i for i, s in enumerate(told)
                  if s["event"] == "swap" and s.get("legal") is False and {s["from"], s["to"]} == pair]
        result["illegal_warned"] = bool(warned) and any(s["event"] == "warning" for s in told[warned[0]:])
        result["illegal_accepted"] = any({a, b} == pair for a, b in legal_told)
    return result


_READER: CardReader | None = None
_DECKS: dict[str, dict[str, np.ndarray]] = {}


def _reader() -> CardReader:
    global _READER
    if _READER is None:
        _READER = CardReader(CardClassifier(_MODEL, threads=1))
    return _READER


_MODEL: Path | None = None


@dataclass
class Played:
    """What the loop made of one generated hand: the narration, the seats found, and the film's shots."""

    live: LiveHand
    told: list[dict[str, Any]]
    held: bool
    seats: Seats | None
    seats_truth: list[dict[str, Any]]
    shots: list[Shot]
    settled_at: float | None


def play_hand(seed: int, pace: str, view: str, number: int) -> Played:
    """Film one generated hand in memory and run it through the live loop, from a new game."""
    live = random_hand(seed, PACES[pace], view, number)
    script = live.script
    game = Game(script.players, script.rules)
    game.play(ChooseDealer(script.hands[0].dealer))
    watcher = TableWatcher(game, reader=_reader())
    played = Played(live, [], False, None, [], [], None)
    at = 0.0

    def take(said: list[Any], when: float) -> None:
        for line in said:
            data = line.to_json()
            data.pop("evidence", None)
            data.pop("message", None)
            if data["event"] == "settle" and played.settled_at is None:
                played.settled_at = when
            if data["event"] not in UNTOLD:
                played.told.append(data)

    for i, frame, shot, truth in film(script, hand_faces(_DECKS, number)):
        played.shots.append(shot)
        played.seats_truth = truth["seats"]
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        at = i / FPS
        take(watcher.step(Frame(cv2.imdecode(data, cv2.IMREAD_COLOR), at, i)), at)
    take(watcher.finish(), at)
    played.held = watcher.controller.held is not None
    played.seats = watcher.seats
    return played


def run_hand(seed: int, pace: str, view: str, number: int) -> dict[str, Any]:
    """Play one generated hand through the live loop and judge it."""
    played = play_hand(seed, pace, view, number)
    seats_ok = _seats_right(played.seats, played.seats_truth)
    return judge(played.live, played.told, played.held, seats_ok, played.shots, played.settled_at)


def show_hand(name: str, seed: int) -> list[str]:
    """One hand by its name (`brisk-oblique-003`): what was filmed, what the loop told, what it should have."""
    pace, view, number = name.rsplit("-", 2)
    played = play_hand(seed, pace, view, int(number))
    script = played.live.script
    lines = [f"{name}: {script.players}, {script.rules}, {script.style}, tilt {script.camera.tilt:.0f}, "
             f"ending {played.live.ending}", f"hand: {script.hands[0]}", "", "filmed:"]
    lines += [f"  {start / FPS:6.2f} s  {shot.phase:8} {shot.note}" for start, shot in _changes(played.shots)]
    lines += ["", "told:", *(f"  {said}" for said in played.told), "", "truth:"]
    lines += [f"  {due}" for due in narration(script)]
    found = dict(zip(played.seats.names, played.seats.points)) if played.seats else {}
    lines += ["", "seats (found / true):"]
    lines += [f"  {seat['name']:8} {found.get(seat['name'])} / {seat['at']}" for seat in played.seats_truth]
    return lines


def _changes(shots: list[Shot]) -> list[tuple[int, Shot]]:
    return [(i, shot) for i, shot in enumerate(shots) if i == 0 or shot.note != shots[i - 1].note]


def _start_worker(model: Path | None, decks: dict[str, dict[str, np.ndarray]]) -> None:
    global _MODEL, _DECKS
    _MODEL, _DECKS = model, decks


def plan(args: argparse.Namespace) -> list[tuple[int, str, str, int]]:
    """The hands to play: per pace `--hands`, alternately from above and from the table's edge."""
    return [(args.seed, pace, VIEWS[k % len(VIEWS)], k) for pace in args.pace for k in range(args.hands)]


def _spread(values: list[float]) -> list[float] | None:
    return [round(statistics.median(values), 2), round(max(values), 2)] if values else None


def summary(hands: list[dict[str, Any]]) -> dict[str, Any]:
    """The counts of a group of hands and their latencies (median and worst)."""
    verdicts = Counter(h["verdict"] for h in hands)
    illegal = [h for h in hands if "illegal_warned" in h]
    right = [h for h in hands if h["verdict"] == "right" and h["latency"] is not None]
    return {
        "hands": len(hands), **{v: verdicts[v] for v in VERDICTS},
        "exact": sum(h["exact"] for h in hands),
        "illegal": len(illegal), "illegal_warned": sum(h["illegal_warned"] for h in illegal),
        "illegal_accepted": sum(h["illegal_accepted"] for h in illegal),
        "swaps_missed": sum(1 for h in hands if h["missed"]),
        "seats_wrong": sum(1 for h in hands if not h["seats_ok"]),
        "misread": sum(1 for h in hands if h["misread"]),
        "after_collect": _spread([h["latency"] for h in right if h["collected"]]),
        "after_last_card": _spread([h["latency"] for h in right if not h["collected"]]),
        "tilt": [min(h["tilt"] for h in hands), max(h["tilt"] for h in hands)] if hands else None,
        "far_near": [min(h["far_near"] for h in hands), max(h["far_near"] for h in hands)] if hands else None,
    }


def measure(args: argparse.Namespace) -> harness.Figures:
    """Play every planned hand through the loop (in `--jobs` processes) and count the verdicts."""
    decks: dict[str, dict[str, np.ndarray]] = {}
    if not args.drawn:
        decks = photo_faces(args.photos, CardReader(CardClassifier(args.model)))
    planned = plan(args)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=_start_worker, initargs=(args.model, decks)) as pool:
            hands = list(pool.map(run_hand, *zip(*planned)))
    else:
        _start_worker(args.model, decks)
        hands = [run_hand(*one) for one in planned]
    rows = []
    for pace in args.pace:
        for view in VIEWS:
            group = [h for h in hands if h["pace"] == pace and h["view"] == view]
            if group:
                rows.append({"pace": pace, "view": view, **summary(group)})
    reasons = Counter(h["why"] or "narrated exactly" for h in hands if h["verdict"] != "right" or not h["exact"])
    return {
        "faces": "drawn" if args.drawn else f"valid photos ({', '.join(sorted(decks))})",
        "cut_outs": sum(len(faces) for faces in decks.values()),
        "frames": sum(h["frames"] for h in hands),
        "rows": rows, "total": summary(hands), "reasons": dict(reasons.most_common()), "hands": hands,
    }


def _latency(span: list[float] | None) -> str:
    return "-" if span is None else f"{span[0]:.2f} / {span[1]:.2f}"


def render(figures: harness.Figures) -> list[str]:
    """A row per pace and view, the total, and why hands were not narrated exactly."""
    total = figures["total"]
    lines = [f"{total['hands']} generated hands, {figures['frames']} frames at 960x540, faces: {figures['faces']}", "",
             "| pace | view | tilt (deg) | far/near card | hands | right | wrong | held | unsettled | narrated exactly | "
             "illegal warned | illegal accepted | swap missed | seats misnamed | cards misread | "
             "settled after collection (median / worst s) | after the last card, still or stopped (s) |",
             "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for row in [*figures["rows"], {"pace": "all", "view": "", **total}]:
        tilt = f"{row['tilt'][0]:.0f}-{row['tilt'][1]:.0f}" if row["tilt"] else "-"
        ratio = f"{row['far_near'][0]:.2f}-{row['far_near'][1]:.2f}" if row["far_near"] else "-"
        lines.append(
            f"| {row['pace']} | {row['view']} | {tilt} | {ratio} | {row['hands']} | {row['right']} | {row['wrong']} | "
            f"{row['held']} | {row['unsettled']} | {row['exact']} | {row['illegal_warned']} of {row['illegal']} | "
            f"{row['illegal_accepted']} | {row['swaps_missed']} | {row['seats_wrong']} | {row['misread']} | "
            f"{_latency(row['after_collect'])} | {_latency(row['after_last_card'])} |")
    if figures["reasons"]:
        lines += ["", "| where the narration first parted from the truth | hands |", "|---|---:|"]
        lines += [f"| {why} | {count} |" for why, count in figures["reasons"].items()]
    return lines


def command() -> argparse.ArgumentParser:
    """The command line: the shared arguments and this benchmark's own."""
    cli = harness.parser(NAME, __doc__)
    cli.add_argument("--photos", type=Path, default=harness.DATA, help="the shared data folder (default: ../shared/data)")
    cli.add_argument("--hands", type=int, default=20, help="hands per pace (default 20), alternately from above and oblique")
    cli.add_argument("--pace", nargs="+", choices=sorted(PACES), default=["brisk", "usual", "slow"], help="paces to play")
    cli.add_argument("--seed", type=int, default=0, help="seed of the hands")
    cli.add_argument("--jobs", type=int, default=1, help="processes playing hands at once")
    cli.add_argument("--drawn", action="store_true", help="the project's drawn faces instead of the valid photos'")
    cli.add_argument("--hand", default=None, help="play one hand (a name such as brisk-oblique-003) and show what the loop told")
    return cli


def _check(args: argparse.Namespace) -> str | None:
    if args.hands < 1 or args.jobs < 1:
        return "--hands and --jobs must be at least 1"
    if not args.drawn and not (args.photos / "photos" / "labels.csv").is_file():
        return f"no photo labels under {args.photos}: pass --photos, or --drawn to deal the project's drawn faces"
    return None


def main(argv: list[str] | None = None) -> int:
    """Play the hands, print the table, record the run; or, with --hand NAME, show that one hand."""
    args = command().parse_args(argv)
    if args.hand:
        problem = _check(args)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        _start_worker(args.model, {} if args.drawn else photo_faces(args.photos, CardReader(CardClassifier(args.model))))
        print("\n".join(show_hand(args.hand, args.seed)))
        return 0
    return harness.run(NAME, command(), argv, measure, render, _check)


if __name__ == "__main__":
    sys.exit(main())
