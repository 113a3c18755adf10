"""The live loop on generated hands, the tables families own and the frame rates computers keep: settled right, wrong or held, and how soon.

    .venv/bin/python -m benchmarks.eval_live [--hands 20] [--pace brisk usual slow] [--seed 0] [--jobs 2] [--rates 15 phone 7.5 5 dropout third held] [--tables drawn photo] [--size 1280x720] [--drawn] [--photos ../shared/data]
    .venv/bin/python -m benchmarks.eval_live --hand brisk-oblique-003 [--tables photo] [--rates dropout]     # one hand: what was filmed, told and due

Each hand is drawn at random from the seed by benchmarks.live_hands (4-8 players, Re and Cavalli at
the deal, the swaps the referee allows, a player peeking under his card, the dealer's draw, napoli or
classica rules) and played at a pace of art.pace; the same hands are played at every pace, so
the paces compare hand for hand: brisk (0.2-0.4 s between moves, the cards collected 1-1.5 s after the
reveal), usual (0.5-1 s; about 3 s) or slow (1-2 s; about 6 s). In about four hands of ten someone
makes a swap nobody may make (past a wall, or past the neighbour), as families really do: in sight and
put back after the warning; in sight and never undone, the family playing on; or wholly under the
players' hands, the cards never seen to move, and never undone. Most hands end with the cards
collected, some with the table left still, some with the film stopping soon after the reveal.
The hands are seen by turns from above (tilted 0-15 degrees) and from a phone propped at the table's
edge at about 30, 45 and 60 degrees from straight down (benchmarks.live_hands.TILTS: the far cards from
about half as long as the near ones to a fifth). The faces are cut out of the
valid-split photos (decks gabrieleconsumato and gaia, one deck a hand; --drawn paints the project's
drawn faces instead).

Every hand is played on each kind of table asked for, under the same light: drawn (wood, a checked
cloth or baize, art.table) and photo (a shared photo's real table, paper, cloth, wood, marble or
lace, its card painted out, by turns over the eight decks' tables: benchmarks.photo_tables). It is
filmed once in memory at 1280x720 as a phone streams it (--size) and 15 frames a second, every frame
passed through JPEG once, and the same frames, on their true clock, go to one live loop
(`TableWatcher.step`, then `finish` when the film ends, from a new game with the dealer named) per
frame-rate variant (benchmarks.live_rates): all 15 a second; 8 to 12 a second arriving unevenly, gaps
of up to 0.3 s (phone), as the phone camera page sends them over the table's Wi-Fi; every second or
third frame kept (7.5, 5), as a slow computer drops them; every frame but for 2 s from a moment a
swap is being made (dropout), as a stalled stream; and every frame offered to a loop on a third of one core
(third: each frame takes it three times the processor time it takes here, and it reads the newest frame
come whenever it is free, telling what it saw then), as an old laptop or a Pi-class board keeps up;
and the phone's page from a phone held in a hand over the table (held: its pictures as the phone's, the
view swaying and trembling with the hand).

A hand is settled right when its settlement names the expected losers, lives and pot, wrong when it
names others; held when a warning holds it for a person at the end; unsettled otherwise. A hand whose
illegal swap was never undone may only be held: settled at all, it is wrong, and counted apart as an
illegal hand settled. An illegal hand is handled right when it is warned (its swap narrated as illegal
with a warning; under the hands, a warning from the moment the swap began) and held, or, put back, warned and then settled right;
its swap is accepted when it is credited as a legal swap. A legal swap is missed when the narration
lacks it; seats are misnamed when a found seat lies nearer another player's place, and such a hand is
wrong whatever it settled; cards are misread
when a reveal or a shown card names another card. Latency runs from the first card collected (or, for
a table left still or a film stopped, from the last card turned) to the settle event; a negative one
settled before the cards were collected. Run it on an otherwise idle machine to compare its wall time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from art.pace import PACES
from art.sequences import FPS, Shot, film, narration, shots
from art.table import Surface
from benchmarks import harness
from benchmarks.eval_size import cut_out
from benchmarks.live_hands import PLAYERS, VIEWS, LiveHand, far_near, random_hand
from benchmarks.live_rates import RATES, Variant, variants
from benchmarks.photo_tables import photo_tables, surface_for
from live.loop import TableWatcher
from referee.events import ChooseDealer
from referee.game import Game
from vision.classify import CardClassifier
from vision.frames import Frame
from vision.recognize import CardReader

NAME = "eval_live"
VALID_DECKS = ("gabrieleconsumato", "gaia")
"""The valid split's decks: the only photos whose cards the evaluation may show."""
QUALITY = 85
"""JPEG quality each frame passes through: a phone's stream over the table's Wi-Fi."""
SIZE = "1280x720"
"""Frame size: what a phone's camera sends."""
TABLES = ("drawn", "photo")
"""Kinds of table: drawn by code, or a real table photographed."""
UNTOLD = ("target", "keep")
"""Kinds of narration the truth leaves out: a target is told for every seat, a keep shows nothing."""
VERDICTS = ("right", "wrong", "held", "unsettled")
KINDS = ("put back", "played on", "hidden")
ILLEGAL_SCAN = 200
"""Hands of a seed looked through for those with an illegal swap (`--illegal`): about two in five have one."""
"""How an illegal swap is made (benchmarks.live_hands.ILLEGAL_KINDS)."""

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


SEATS = ("right", "misnamed", "unnamed")
"""How the loop named the seats: each where its own player sits; one nearer another player's place; none
(held for a person to tap them, or never every card seen)."""


def _seats_named(found: Any, truth: list[dict[str, Any]]) -> str:
    """"right" when every seat found lies nearest its own player's place in the frame, "misnamed" when one
    lies nearer another's, "unnamed" when no seats were named."""
    if found is None:
        return "unnamed"
    places = {seat["name"]: np.array(seat["at"], float) for seat in truth}
    for name, point in zip(found.names, found.points):
        nearest = min(places, key=lambda other: float(np.linalg.norm(places[other] - np.array(point))))
        if nearest != name:
            return "misnamed"
    return "right"


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


def _illegal(live: LiveHand, told: list[dict[str, Any]], told_at: list[float], shots: list[Shot], verdict: str,
             settled: bool) -> dict[str, Any]:
    """How the loop met the hand's illegal swap: warned, accepted as legal, handled right, settled when it stood."""
    hand = live.script.hands[0]
    assert hand.illegal is not None
    pair = set(hand.illegal)
    end = next((i for i, s in enumerate(told) if s["event"] == "settle"), len(told))
    if hand.hidden:  # the camera cannot see the cards move: a warning from the swap on, before any settlement
        begun = next(i for i, shot in enumerate(shots) if shot.phase == "illegal") / FPS
        warned = any(s["event"] == "warning" and at >= begun for s, at in zip(told[:end], told_at))
    else:
        swaps = [i for i, s in enumerate(told)
                 if s["event"] == "swap" and s.get("legal") is False and {s["from"], s["to"]} == pair]
        warned = bool(swaps) and any(s["event"] == "warning" for s in told[swaps[0]:])
    return {
        "illegal_kind": live.illegal_kind,
        "illegal_warned": warned,
        "illegal_accepted": any({a, b} == pair for a, b in _swaps(told, True)),
        "illegal_right": warned and (verdict == "held" or (live.undone and verdict == "right")),
        "illegal_settled": settled and not live.undone,
    }


def judge(live: LiveHand, told: list[dict[str, Any]], told_at: list[float], held: bool, seats: str,
          shots: list[Shot], settled_at: float | None) -> dict[str, Any]:
    """One hand's verdict from what the loop narrated (and when, on the film's clock) against the script's truth;
    with its seats misnamed a hand is wrong whatever it settled, since every verdict at that table is."""
    script = live.script
    hand = script.hands[0]
    expected = narration(script)
    settle = next((s for s in told if s["event"] == "settle"), None)
    if settle is None:
        verdict = "held" if held else "unsettled"
    elif not live.undone:  # the cards lie as nobody may have them: any settlement is wrong
        verdict = "wrong"
    else:
        due = next(s for s in expected if s["event"] == "settle")
        right = (settle["losers"], settle["lives"], settle["pot"]) == (due["losers"], due["lives"], due["pot"])
        verdict = "right" if right else "wrong"
    if seats == "misnamed":
        verdict = "wrong"
    anchor, collected = _anchor(shots)
    latency = None if settled_at is None else round(settled_at - anchor / FPS, 3)
    missed = Counter(_swaps(expected, True)) - Counter(_swaps(told, True))
    due_reveal = next((s["cards"] for s in expected if s["event"] == "reveal"), None)
    reveals = [s["cards"] for s in told if s["event"] == "reveal"]
    shown_told = {(s["player"], s["card"]) for s in told if s["event"] == "shown"}
    shown_due = {(s["player"], s["card"]) for s in expected if s["event"] == "shown"}
    # a hand held for a standing illegal swap has no reveal due: the cards' places are nobody's to judge
    misread = any(r != due_reveal for r in reveals if due_reveal is not None) or bool(shown_told - shown_due)
    result: dict[str, Any] = {
        "name": script.name, "pace": live.pace, "view": live.view, "players": len(script.players),
        "rules": script.rules, "style": script.style, "tilt": round(script.camera.tilt, 1),
        "far_near": round(far_near(script), 2), "ending": live.ending, "swaps": live.swaps,
        "peeks": live.peeks, "draw": hand.draw is not None, "frames": len(shots), "verdict": verdict,
        "exact": told == expected, "why": _divergence(told, expected), "seats": seats,
        "missed": sum(missed.values()), "misread": misread, "collected": collected, "latency": latency,
        "warnings": sum(1 for s in told if s["event"] == "warning"),
    }
    if hand.illegal is not None:
        result.update(_illegal(live, told, told_at, shots, verdict, settle is not None))
    return result


_READER: CardReader | None = None
_MODEL: Path | None = None
_DECKS: dict[str, dict[str, np.ndarray]] = {}
_PHOTOS: Path | None = None
_SURFACES: dict[tuple[int, int], Surface] = {}


def _reader() -> CardReader:
    global _READER
    if _READER is None:
        _READER = CardReader(CardClassifier(_MODEL, threads=1))
    return _READER


def _surface(seed: int, number: int) -> Surface:
    """Hand `number`'s photographed table, painted out once per process (every pace shares it)."""
    if (seed, number) not in _SURFACES:
        if _PHOTOS is None:
            raise ValueError("a photographed table needs the shared photos (--photos)")
        _SURFACES[seed, number] = surface_for(_reader(), photo_tables(_PHOTOS), seed, number)
    return _SURFACES[seed, number]


@dataclass
class Watch:
    """One live loop given one variant's frames of the film, and what it told."""

    variant: Variant
    watcher: TableWatcher
    told: list[dict[str, Any]] = field(default_factory=list)
    told_at: list[float] = field(default_factory=list)
    warned: list[str] = field(default_factory=list)
    settled_at: float | None = None
    seconds: float = 0.0
    given: int = 0
    waiting: Frame | None = None
    """The newest frame come while the loop was busy (on a slow computer)."""
    free_at: float = 0.0
    """When, on the film's clock, the loop is done with the frame it took last."""

    def take(self, said: list[Any], when: float) -> None:
        """Keep what the loop said at `when`, as `watch --json` writes it."""
        for line in said:
            data = line.to_json()
            data.pop("evidence", None)
            message = data.pop("message", None)
            if data["event"] == "warning":
                self.warned.append(str(message))
            if data["event"] == "settle" and self.settled_at is None:
                self.settled_at = when
            if data["event"] not in UNTOLD:
                self.told.append(data)
                self.told_at.append(when)

    def step(self, frame: Frame) -> None:
        """Give the loop one frame, if this variant keeps it. On a slow computer (`Variant.slower`) a frame that
        comes while the loop is still busy with one before it waits, the newest only, and the loop takes it
        when it is free; what it tells, it tells then."""
        if not self.variant.keeps(frame.index):
            return
        if self.waiting is not None and self.free_at <= frame.at:
            self._look(self.waiting, self.free_at)
            self.waiting = None
        if self.free_at > frame.at:
            self.waiting = frame  # the one waiting before it is never read
        else:
            self._look(frame, frame.at)

    def finish(self, end: float) -> None:
        """The film has ended at `end`: the frame waiting is read, then the loop is told so."""
        if self.waiting is not None:
            self._look(self.waiting, self.free_at)
            self.waiting = None
        self.take(self.watcher.finish(), max(self.free_at, end))

    def _look(self, frame: Frame, start: float) -> None:
        clock, processor = time.perf_counter(), _processor_time()
        said = self.watcher.step(frame)
        self.seconds += time.perf_counter() - clock
        self.free_at = start + self.variant.slower * (_processor_time() - processor)
        self.given += 1
        self.take(said, self.free_at)  # never before the frame came: the loop starts it then or later


def _processor_time() -> float:
    """This process's processor seconds so far (every thread's: OpenCV's too)."""
    return time.process_time()


@dataclass
class Played:
    """One generated hand filmed once, and what each variant's loop made of it."""

    live: LiveHand
    table: str
    surface: str | None
    shots: list[Shot]
    watches: list[Watch]
    seats_truth: list[dict[str, Any]] = field(default_factory=list)
    render_seconds: float = 0.0


def _size(text: str) -> tuple[int, int]:
    width, height = (int(part) for part in text.lower().split("x"))
    return width, height


def _streamed(frame: np.ndarray) -> np.ndarray:
    """A picture as the loop gets it: passed through JPEG once, as a phone streams it; no loop may draw on it."""
    _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    pixels = cv2.imdecode(data, cv2.IMREAD_COLOR)
    pixels.flags.writeable = False
    return pixels


def play_hand(seed: int, pace: str, view: str, number: int, table: str = "drawn",
              rates: tuple[str, ...] = RATES, size: str = SIZE) -> Played:
    """Film one generated hand in memory on a `table` kind, once, and run each frame-rate variant of it
    through its own live loop, from a new game."""
    live = random_hand(seed, PACES[pace], view, number, _size(size))
    script = live.script
    all_shots = shots(script)[0]
    surface = _surface(seed, number) if table == "photo" else None
    watches = []
    for variant in variants(rates, all_shots, np.random.default_rng([seed, number, 3])):
        game = Game(script.players, script.rules)
        game.play(ChooseDealer(script.hands[0].dealer))
        watches.append(Watch(variant, TableWatcher(game, reader=_reader())))
    played = Played(live, table, surface.name if surface else None, all_shots, watches)
    at = 0.0
    clock = time.perf_counter()
    for i, frame, _, truth in film(script, hand_faces(_DECKS, number), surface):
        played.seats_truth = truth["seats"]
        at = i / FPS
        pixels = _streamed(frame)  # one picture for every loop standing still
        for watch in watches:
            shake = watch.variant.shake
            if shake is None:
                watch.step(Frame(pixels, at, i))
            elif watch.variant.keeps(i):  # the picture a phone held in a hand takes
                watch.step(Frame(_streamed(shake.moved(frame, at)), at, i))
    played.render_seconds = time.perf_counter() - clock - sum(watch.seconds for watch in watches)
    for watch in watches:
        watch.finish(at)
    return played


def run_hand(seed: int, pace: str, view: str, number: int, table: str, rates: tuple[str, ...],
             size: str) -> list[dict[str, Any]]:
    """Play one generated hand through the live loop at every variant and judge each."""
    played = play_hand(seed, pace, view, number, table, rates, size)
    results = []
    for watch in played.watches:
        seats = _seats_named(watch.watcher.seats, played.seats_truth)
        unnamed = (watch.watcher.finder.unsure or "fewer places marked than players") if seats == "unnamed" else None
        held = watch.watcher.controller.held is not None or watch.watcher.unsure is not None
        result = judge(played.live, watch.told, watch.told_at, held, seats, played.shots, watch.settled_at)
        gap = watch.variant.gap
        results.append({
            **result, "rate": watch.variant.name, "table": table, "surface": played.surface, "unnamed": unnamed,
            "given": watch.given, "dropout": [round(gap[0] / FPS, 2), played.shots[gap[0]].phase] if gap else None,
            "loop_seconds": round(watch.seconds, 2), "render_seconds": round(played.render_seconds, 2),
        })
    return results


def show_hand(name: str, seed: int, table: str = "drawn", rates: tuple[str, ...] = RATES,
              size: str = SIZE) -> list[str]:
    """One hand by its name (`brisk-oblique-003`): what was filmed, what each variant's loop told, what it should have."""
    pace, view, number = name.rsplit("-", 2)
    played = play_hand(seed, pace, view, int(number), table, rates, size)
    script = played.live.script
    surface = f" on the photographed table {played.surface}" if played.surface else f" on {script.style}"
    lines = [f"{name} (seed {seed}){surface}: {script.players}, {script.rules}, tilt {script.camera.tilt:.0f}, "
             f"ending {played.live.ending}, illegal swap {played.live.illegal_kind or 'none'}",
             f"hand: {script.hands[0]}", "", "filmed:"]
    lines += [f"  {start / FPS:6.2f} s  {shot.phase:8} {shot.note}" for start, shot in _changes(played.shots)]
    for watch in played.watches:
        gap = watch.variant.gap
        dropped = f", no frames from {gap[0] / FPS:.2f} s to {gap[-1] / FPS + 1 / FPS:.2f} s" if gap else ""
        held = " (held)" if watch.watcher.controller.held is not None else ""
        lines += ["", f"told at {watch.variant.name}{dropped}{held}:", *(f"  {said}" for said in watch.told),
                  *(f"  warned: {message}" for message in watch.warned)]
    lines += ["", "truth:", *(f"  {due}" for due in narration(script))]
    seats = played.watches[0].watcher.seats if played.watches else None
    found = dict(zip(seats.names, seats.points)) if seats else {}
    lines += ["", f"seats (found at {played.watches[0].variant.name} / true):" if played.watches else "seats:"]
    lines += [f"  {seat['name']:8} {found.get(seat['name'])} / {seat['at']}" for seat in played.seats_truth]
    return lines


def _changes(shots: list[Shot]) -> list[tuple[int, Shot]]:
    return [(i, shot) for i, shot in enumerate(shots) if i == 0 or shot.note != shots[i - 1].note]


def _start_worker(model: Path | None, decks: dict[str, dict[str, np.ndarray]], photos: Path | None = None) -> None:
    global _MODEL, _DECKS, _PHOTOS
    _MODEL, _DECKS, _PHOTOS = model, decks, photos


def plan(args: argparse.Namespace) -> list[tuple[int, str, str, int]]:
    """The hands to play: per pace `--hands`, alternately from above and from the table's edge; with
    `--illegal`, the first `--hands` of the seed that have an illegal swap (alternately still)."""
    numbers = list(range(args.hands))
    if args.illegal:
        numbers = [k for k in range(ILLEGAL_SCAN)
                   if random_hand(args.seed, PACES[args.pace[0]], VIEWS[k % len(VIEWS)], k).illegal][:args.hands]
    return [(args.seed, pace, VIEWS[k % len(VIEWS)], k) for pace in args.pace for k in numbers
            if VIEWS[k % len(VIEWS)] in args.views]


def _spread(values: list[float]) -> list[float] | None:
    return [round(statistics.median(values), 2), round(max(values), 2)] if values else None


def _seats(hand: dict[str, Any]) -> str:
    """How a hand's seats were named; a run recorded before the unnamed were told apart kept only whether right."""
    return hand["seats"] if "seats" in hand else ("right" if hand["seats_ok"] else "misnamed")


def _settles_draw(hand: dict[str, Any]) -> bool:
    """Whether a hand has a dealer's draw and is due a settlement (no illegal swap left standing)."""
    return hand["draw"] and hand.get("illegal_kind") in (None, "put back")


def summary(hands: list[dict[str, Any]]) -> dict[str, Any]:
    """The counts of a group of hands and their latencies (median and worst)."""
    verdicts = Counter(h["verdict"] for h in hands)
    legal = Counter(h["verdict"] for h in hands if "illegal_kind" not in h)
    illegal = [h for h in hands if "illegal_kind" in h]
    right = [h for h in hands if h["verdict"] == "right" and h["latency"] is not None]
    return {
        "hands": len(hands), **{v: verdicts[v] for v in VERDICTS},
        "legal": sum(legal.values()), **{f"legal_{v}": legal[v] for v in VERDICTS},
        "exact": sum(h["exact"] for h in hands),
        "illegal": len(illegal), "illegal_warned": sum(h["illegal_warned"] for h in illegal),
        "illegal_right": sum(h["illegal_right"] for h in illegal),
        "illegal_settled": sum(h["illegal_settled"] for h in illegal),
        "illegal_accepted": sum(h["illegal_accepted"] for h in illegal),
        "swaps_missed": sum(1 for h in hands if h["missed"]),
        "seats_wrong": sum(1 for h in hands if _seats(h) == "misnamed"),
        "seats_right": sum(1 for h in hands if _seats(h) == "right"),
        "seats_unnamed": sum(1 for h in hands if _seats(h) == "unnamed"),
        "draws": sum(1 for h in hands if _settles_draw(h)),
        "draws_right": sum(1 for h in hands if _settles_draw(h) and h["verdict"] == "right"),
        "draws_named": sum(1 for h in hands if _settles_draw(h) and _seats(h) == "right"),
        "draws_named_right": sum(1 for h in hands if _settles_draw(h) and _seats(h) == "right"
                                 and h["verdict"] == "right"),
        "misread": sum(1 for h in hands if h["misread"]),
        "after_collect": _spread([h["latency"] for h in right if h["collected"]]),
        "after_last_card": _spread([h["latency"] for h in right if not h["collected"]]),
        "tilt": [min(h["tilt"] for h in hands), max(h["tilt"] for h in hands)] if hands else None,
        "far_near": [min(h["far_near"] for h in hands), max(h["far_near"] for h in hands)] if hands else None,
        "loop_seconds": round(statistics.mean(h["loop_seconds"] for h in hands), 1) if hands else None,
    }


def _rows(hands: list[dict[str, Any]], keys: list[tuple[str, ...]], by: Callable[[dict[str, Any]], tuple[str, ...]],
          names: tuple[str, ...]) -> list[dict[str, Any]]:
    """A summary per key (a tuple of group values, "all" for any) of the hands that have it."""
    rows = []
    for key in keys:
        group = [h for h in hands if all(want in ("all", have) for want, have in zip(key, by(h)))]
        if group:
            rows.append({**dict(zip(names, key)), **summary(group)})
    return rows


def measure(args: argparse.Namespace) -> harness.Figures:
    """Play every planned hand on every table kind through the loop at every frame-rate variant (in `--jobs`
    processes) and count the verdicts."""
    decks: dict[str, dict[str, np.ndarray]] = {}
    if not args.drawn:
        decks = photo_faces(args.photos, CardReader(CardClassifier(args.model)))
    photos = args.photos if "photo" in args.tables else None
    planned = [(*hand, table, tuple(args.rates), args.size) for hand in plan(args) for table in args.tables]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=_start_worker, initargs=(args.model, decks, photos)) as pool:
            played = list(pool.map(run_hand, *zip(*planned)))
    else:
        _start_worker(args.model, decks, photos)
        played = [run_hand(*one) for one in planned]
    hands = [result for results in played for result in results]
    rates, tables = list(args.rates), list(args.tables)
    both = ["all"] if len(tables) > 1 else []
    keys = [(r, t) for r in rates for t in [*tables, *both]] + ([("all", "all")] if len(rates) > 1 else [])
    rows = _rows(hands, keys, lambda h: (h["rate"], h["table"]), ("rate", "table"))
    first = [h for h in hands if h["rate"] == rates[0]]
    paces = _rows(first, [(p, v) for p in args.pace for v in VIEWS], lambda h: (h["pace"], h["view"]), ("pace", "view"))
    views = _rows(hands, [(v,) for v in VIEWS], lambda h: (h["view"],), ("view",))
    players = _rows(hands, [(str(n),) for n in range(PLAYERS[0], PLAYERS[1] + 1)], lambda h: (str(h["players"]),),
                    ("players",))
    kinds = _rows([h for h in hands if "illegal_kind" in h], [(k, r) for k in KINDS for r in rates],
                  lambda h: (h["illegal_kind"], h["rate"]), ("kind", "rate"))
    reasons = Counter(f"{h['rate']}: {h['why'] or 'narrated exactly'}" for h in hands
                      if h["verdict"] != "right" or not h["exact"])
    unnamed = Counter(f"{h['view']}: {h['unnamed']}" for h in hands if h.get("unnamed"))
    return {
        "seed": args.seed, "size": args.size, "rates": rates, "tables": tables, "illegal_only": args.illegal,
        "faces": "drawn" if args.drawn else f"valid photos ({', '.join(sorted(decks))})",
        "cut_outs": sum(len(faces) for faces in decks.values()),
        "films": len(planned), "frames": sum(h["frames"] for h in hands if h["rate"] == rates[0]),
        "render_seconds": round(statistics.mean(h["render_seconds"] for h in first), 1) if first else None,
        "rows": rows, "paces": paces, "views": views, "players": players, "kinds": kinds,
        "reasons": dict(reasons.most_common()), "unnamed": dict(sorted(unnamed.items())), "hands": hands,
    }


def _latency(span: list[float] | None) -> str:
    return "-" if span is None else f"{span[0]:.2f} / {span[1]:.2f}"


def _rate(name: str) -> str:
    return {"dropout": "15, a 2 s drop-out", "phone": "8-12 unevenly (a phone's page)", "all": "all",
            "third": "15 on a third of a core", "held": "8-12 unevenly, a phone held in a hand"}.get(name, name)


def render(figures: harness.Figures) -> list[str]:
    """A row per frame rate and table kind, then per pace and view at the first rate, per kind of illegal
    swap, and why hands were not narrated exactly; a run recorded before the rates, as it was shown."""
    if "rows" in figures and figures["rows"] and "rate" not in figures["rows"][0]:
        return _render_one_rate(figures)
    total = figures["rows"][-1]
    chosen = "generated hands with an illegal swap" if figures.get("illegal_only") else "generated hands"
    lines = [f"{figures['films'] // len(figures['tables'])} {chosen} (seed {figures['seed']}) on "
             f"{' and '.join(figures['tables'])} tables, {figures['films']} films of {figures['frames']} frames at "
             f"{figures['size']} and 15 frames a second, each played at {', '.join(figures['rates'])}; faces: "
             f"{figures['faces']}; about {figures['render_seconds']} s to film a hand, "
             f"{total['loop_seconds']} s of loop a hand and rate", "",
             "| frames a second | table | hands | legal hands | right | wrong | held | unsettled | illegal hands | "
             "warned and held, or put back and settled right | illegal hands settled (must be 0) | all hands wrong | "
             "narrated exactly | illegal swap accepted | swap missed | seats misnamed | cards misread | "
             "settled after collection (median / worst s) | after the last card, still or stopped (s) | loop s a hand |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"]
    for row in figures["rows"]:
        lines.append(
            f"| {_rate(row['rate'])} | {row['table']} | {row['hands']} | {row['legal']} | {row['legal_right']} | "
            f"{row['legal_wrong']} | {row['legal_held']} | {row['legal_unsettled']} | {row['illegal']} | "
            f"{row['illegal_right']} of {row['illegal']} | {row['illegal_settled']} | {row['wrong']} | {row['exact']} | "
            f"{row['illegal_accepted']} | {row['swaps_missed']} | {row['seats_wrong']} | {row['misread']} | "
            f"{_latency(row['after_collect'])} | {_latency(row['after_last_card'])} | {row['loop_seconds']} |")
    lines += ["", f"At {_rate(figures['rates'][0])} frames a second, both tables together:", "",
              "| pace | view | tilt (deg) | far/near card | hands | right | wrong | held | unsettled | "
              "illegal handled right | illegal settled | settled after collection (median / worst s) |",
              "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for row in figures["paces"]:
        tilt = f"{row['tilt'][0]:.0f}-{row['tilt'][1]:.0f}" if row["tilt"] else "-"
        ratio = f"{row['far_near'][0]:.2f}-{row['far_near'][1]:.2f}" if row["far_near"] else "-"
        lines.append(f"| {row['pace']} | {row['view']} | {tilt} | {ratio} | {row['hands']} | {row['right']} | "
                     f"{row['wrong']} | {row['held']} | {row['unsettled']} | {row['illegal_right']} of {row['illegal']} | "
                     f"{row['illegal_settled']} | {_latency(row['after_collect'])} |")
    lines += _render_seats(figures)
    if figures["kinds"]:
        lines += ["", "| illegal swap | frames a second | hands | warned | held | settled right | settled wrong | "
                  "accepted as legal |", "|---|---|---:|---:|---:|---:|---:|---:|"]
        lines += [f"| {row['kind']} | {_rate(row['rate'])} | {row['hands']} | {row['illegal_warned']} | {row['held']} | "
                  f"{row['right']} | {row['wrong']} | {row['illegal_accepted']} |" for row in figures["kinds"]]
    if figures.get("unnamed"):
        lines += ["", "| view: why the seats were not named | hands |", "|---|---:|"]
        lines += [f"| {why} | {count} |" for why, count in figures["unnamed"].items()]
    if figures["reasons"]:
        lines += ["", "| frames a second: where the narration first parted from the truth | hands |", "|---|---:|"]
        lines += [f"| {why} | {count} |" for why, count in figures["reasons"].items()]
    return lines


def _render_seats(figures: harness.Figures) -> list[str]:
    """The seats and the dealer's draws per view and per player count, every rate and table together; a hand
    whose seats were misnamed counts as wrong."""
    if "views" not in figures:
        return []
    lines = ["", "Every rate and table together, per view and per player count (a hand with a seat misnamed is wrong):",
             "", "| view | tilt (deg) | far/near card | hands | seats named right | seats misnamed (must be 0) | "
             "seats not named (held for taps, or never seen) | right | wrong | held | unsettled | "
             f"dealer's draws settled right (of the hands due a settlement{_named_draws_head(figures)}) |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in [*figures["views"], *figures["players"]]:
        name = row["view"] if "view" in row else f"{row['players']} players"
        tilt = f"{row['tilt'][0]:.0f}-{row['tilt'][1]:.0f}" if row["tilt"] else "-"
        ratio = f"{row['far_near'][0]:.2f}-{row['far_near'][1]:.2f}" if row["far_near"] else "-"
        lines.append(f"| {name} | {tilt} | {ratio} | {row['hands']} | {row['seats_right']} | {row['seats_wrong']} | "
                     f"{row['seats_unnamed']} | {row['right']} | {row['wrong']} | {row['held']} | {row['unsettled']} | "
                     f"{row['draws_right']} of {row['draws']}{_named_draws(row)} |")
    return lines


def _named_draws_head(figures: harness.Figures) -> str:
    return "; of those whose seats were named" if "draws_named" in figures["views"][0] else ""


def _named_draws(row: dict[str, Any]) -> str:
    """The draws due in hands whose seats were named (a run recorded before they were told apart: none)."""
    return f"; {row['draws_named_right']} of {row['draws_named']}" if "draws_named" in row else ""


def _render_one_rate(figures: harness.Figures) -> list[str]:
    """A run recorded before the frame-rate variants and the photographed tables: a row per pace and view."""
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
    cli.add_argument("--hands", type=int, default=20,
                     help=f"hands per pace (default 20), by turns from each view: {', '.join(VIEWS)}")
    cli.add_argument("--pace", nargs="+", choices=sorted(PACES), default=["brisk", "usual", "slow"], help="paces to play")
    cli.add_argument("--seed", type=int, default=0, help="seed of the hands")
    cli.add_argument("--jobs", type=int, default=1, help="processes playing hands at once")
    cli.add_argument("--rates", nargs="+", choices=RATES, default=list(RATES),
                     help="frame-rate variants each filmed hand is played at (default: all)")
    cli.add_argument("--tables", nargs="+", choices=TABLES, default=list(TABLES),
                     help="kinds of table every hand is filmed on (default: both); --hand films on the first")
    cli.add_argument("--size", default=SIZE, help=f"frame size, WIDTHxHEIGHT (default {SIZE}, a phone's)")
    cli.add_argument("--views", nargs="+", choices=VIEWS, default=list(VIEWS),
                     help="play only the hands of these views (the others are passed over, their numbers kept)")
    cli.add_argument("--drawn", action="store_true", help="the project's drawn faces instead of the valid photos'")
    cli.add_argument("--illegal", action="store_true",
                     help="play only hands with an illegal swap (the first --hands of the seed): a sample of them "
                          "for 'illegal hands settled', which must be 0")
    cli.add_argument("--hand", default=None, help="play one hand (a name such as brisk-oblique-003) and show what the loop told")
    return cli


def _check(args: argparse.Namespace) -> str | None:
    if args.hands < 1 or args.jobs < 1:
        return "--hands and --jobs must be at least 1"
    try:
        width, height = _size(args.size)
    except ValueError:
        return f"--size takes WIDTHxHEIGHT in pixels, such as {SIZE}: not {args.size}"
    if width < 64 or height < 64:
        return f"--size {args.size} is too small to film a table in"
    labels = (args.photos / "photos" / "labels.csv").is_file()
    if not args.drawn and not labels:
        return f"no photo labels under {args.photos}: pass --photos, or --drawn to deal the project's drawn faces"
    if "photo" in args.tables and not labels:
        return f"no photo labels under {args.photos}: pass --photos, or --tables drawn to film on drawn tables only"
    return None


def main(argv: list[str] | None = None) -> int:
    """Play the hands, print the table, record the run; or, with --hand NAME, show that one hand."""
    args = command().parse_args(argv)
    if args.hand:
        problem = _check(args)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        decks = {} if args.drawn else photo_faces(args.photos, CardReader(CardClassifier(args.model)))
        _start_worker(args.model, decks, args.photos)
        print("\n".join(show_hand(args.hand, args.seed, args.tables[0], tuple(args.rates), args.size)))
        return 0
    return harness.run(NAME, command(), argv, measure, render, _check)


if __name__ == "__main__":
    sys.exit(main())
