"""The live evaluation in brief: one filming fed to a loop per frame rate on its true clock, a drop-out
during a swap, photographed tables with no card left on them, and a judge that lets no illegal hand be
settled."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from art.pace import BRISK, PACES, USUAL
from art.sequences import FPS, narration, shots
from benchmarks import eval_live, harness
from benchmarks.live_hands import random_hand
from benchmarks.live_rates import DROPOUT, MOVES, RATES, variants
from benchmarks.photo_tables import photo_tables, surface_for
from vision.frames import Frame
from vision.io import read_image
from vision.recognize import CardReader
from vision.seats import Seats

DATA = harness.DATA
NO_PHOTOS = not (DATA / "photos" / "labels.csv").is_file()


class Recorder:
    """A stand-in for the live loop: it keeps the time and number of every frame it is given."""

    def __init__(self, game, reader=None) -> None:
        self.given: list[tuple[int, float]] = []
        self.pictures: list[np.ndarray] = []
        self.controller = SimpleNamespace(held=None)
        self.seats = None

    def step(self, frame) -> list:
        self.given.append((frame.index, frame.at))
        self.pictures.append(frame.pixels)
        return []

    def finish(self) -> list:
        return []


def _played(monkeypatch, live) -> tuple[eval_live.Played, list[int]]:
    """A hand played at every rate with the film's frames not drawn (blank ones) and the loops recording."""
    filmed: list[int] = []

    def blank_film(script, faces=None, surface=None):
        for i, shot in enumerate(shots(script)[0]):
            filmed.append(i)
            picture = np.zeros((36, 64, 3), np.uint8)
            picture[:, 16:48] = 255  # a bright band down the middle: where a picture moved shows
            yield i, picture, shot, {"seats": []}

    monkeypatch.setattr(eval_live, "film", blank_film)
    monkeypatch.setattr(eval_live, "TableWatcher", Recorder)
    monkeypatch.setattr(eval_live, "_reader", lambda: None)
    monkeypatch.setattr(eval_live, "random_hand", lambda seed, pace, view, number, size: live)
    return eval_live.play_hand(7, live.pace, live.view, 0, "drawn", RATES), filmed


def test_one_filming_feeds_every_rate_each_frame_at_its_true_time(monkeypatch) -> None:
    live = random_hand(7, BRISK, "above", 0)
    played, filmed = _played(monkeypatch, live)
    frames = len(shots(live.script)[0])
    assert filmed == list(range(frames))  # filmed and passed through JPEG once for all four loops
    given = {watch.variant.name: watch.watcher.given for watch in played.watches}
    assert [index for index, _ in given["15"]] == list(range(frames))
    assert [index for index, _ in given["7.5"]] == list(range(0, frames, 2))
    assert [index for index, _ in given["5"]] == list(range(0, frames, 3))
    assert all(at == index / FPS for frames_given in given.values() for index, at in frames_given)


def test_a_phone_held_in_a_hand_gives_the_phone_s_pictures_each_moved_as_the_hand_moved_then(monkeypatch) -> None:
    live = random_hand(7, BRISK, "above", 0)
    played, _ = _played(monkeypatch, live)
    held = next(watch for watch in played.watches if watch.variant.name == "held")
    steady = next(watch for watch in played.watches if watch.variant.name == "15").watcher.pictures
    given = held.watcher.given
    assert [index for index, _ in given] == sorted(held.variant.kept)
    assert all(at == index / FPS for index, at in given)
    moved = [not np.array_equal(picture, steady[index]) for (index, _), picture in zip(given, held.watcher.pictures)]
    assert sum(moved) > 0.9 * len(moved)  # the view is never quite where it was


def test_on_a_third_of_a_core_the_loop_reads_the_newest_frame_come_whenever_it_is_free(monkeypatch) -> None:
    # each frame costs 0.09 s of processor here, so 0.27 s on a third of a core; frames come ten a second
    spent = iter(np.repeat(np.arange(20.0), 2) + np.tile([0.0, 0.09], 20))
    monkeypatch.setattr(eval_live, "_processor_time", lambda: next(spent))
    (third,) = variants(("third",), [], np.random.default_rng(0))
    watch = eval_live.Watch(third, Recorder(None))
    for index in range(11):
        watch.step(Frame(np.zeros((4, 4, 3), np.uint8), index / 10, index))
    watch.finish(1.0)
    # read at 0, then when free at 0.27, 0.54, 0.81 and 1.08: each time the newest frame come by then
    assert [index for index, _ in watch.watcher.given] == [0, 2, 5, 8, 10]
    assert all(at == index / 10 for index, at in watch.watcher.given)  # each on its own clock
    assert watch.free_at == pytest.approx(1.35)


def test_the_drop_out_begins_while_a_swap_is_made_and_hides_two_seconds(monkeypatch) -> None:
    live = random_hand(7, BRISK, "above", 0)
    played, _ = _played(monkeypatch, live)
    watch = next(watch for watch in played.watches if watch.variant.name == "dropout")
    indices = [index for index, _ in watch.watcher.given]
    before, after = next((a, b) for a, b in zip(indices, indices[1:]) if b - a > 1)
    assert played.shots[before + 1].phase in MOVES and not played.shots[before + 1].still
    assert (after - before - 1) / FPS == DROPOUT
    assert watch.watcher.given[indices.index(after)][1] - watch.watcher.given[indices.index(before)][1] > DROPOUT
    assert len(indices) == len(played.shots) - DROPOUT * FPS


def test_a_hand_settled_right_at_a_table_whose_seats_were_misnamed_is_wrong() -> None:
    live = random_hand(7, BRISK, "above", 0)
    said = narration(live.script)
    judged = [eval_live.judge(live, said, [99.0] * len(said), False, seats, shots(live.script)[0], None)
              for seats in ("right", "misnamed")]
    assert [(j["verdict"], j["seats"]) for j in judged] == [("right", "right"), ("wrong", "misnamed")]
    rows = eval_live.summary([{**j, "loop_seconds": 1.0} for j in judged])
    assert (rows["seats_right"], rows["seats_wrong"], rows["seats_unnamed"], rows["wrong"]) == (1, 1, 0, 1)


def test_seats_are_named_right_misnamed_or_not_at_all() -> None:
    truth = [{"name": "Anna", "at": [100, 100]}, {"name": "Bruno", "at": [500, 100]}]
    assert eval_live._seats_named(None, truth) == "unnamed"
    assert eval_live._seats_named(Seats(("Anna", "Bruno"), ((110.0, 90.0), (480.0, 120.0))), truth) == "right"
    assert eval_live._seats_named(Seats(("Anna", "Bruno"), ((480.0, 120.0), (110.0, 90.0))), truth) == "misnamed"


def _told(live, end: str | None = None, **settle: object) -> list[dict]:
    """The hand's true narration, cut after the first `end` event, or with its settlement changed."""
    said = narration(live.script)
    if end is not None:
        said = said[: [e["event"] for e in said].index(end) + 1]
    return [{**e, **settle} if e["event"] == "settle" else e for e in said]


ILLEGAL = [random_hand(7, pace, view, k) for pace in (BRISK, USUAL) for view in ("above", "oblique") for k in range(8)]
PLAYED_ON = next(h for h in ILLEGAL if h.illegal_kind == "played on")
HIDDEN = next(h for h in ILLEGAL if h.illegal_kind == "hidden")
PUT_BACK = next(h for h in ILLEGAL if h.illegal_kind == "put back")


def _judge(live, told, held, at: float = 99.0):
    """The judge's verdict on `told`, every line told at `at` seconds into the film."""
    return eval_live.judge(live, told, [at] * len(told), held, "right", shots(live.script)[0], None)


def test_asked_for_illegal_hands_only_every_hand_planned_has_an_illegal_swap() -> None:
    args = eval_live.command().parse_args(["--seed", "5", "--hands", "3", "--illegal", "--pace", "brisk", "slow"])
    planned = eval_live.plan(args)
    assert len(planned) == 6 and {pace for _, pace, _, _ in planned} == {"brisk", "slow"}
    assert all(random_hand(seed, PACES[pace], view, k).illegal for seed, pace, view, k in planned)
    every = eval_live.plan(eval_live.command().parse_args(["--seed", "5", "--hands", "12", "--pace", "brisk"]))
    assert not all(random_hand(seed, PACES[pace], view, k).illegal for seed, pace, view, k in every)


def test_an_illegal_swap_played_on_is_right_only_when_warned_and_held() -> None:
    held = _judge(PLAYED_ON, narration(PLAYED_ON.script), held=True)
    assert (held["verdict"], held["illegal_right"], held["illegal_settled"], held["exact"]) == ("held", True, False, True)
    # whatever it names, a settlement of cards nobody may hold is wrong
    hand = PLAYED_ON.script.hands[0]
    due = {"event": "settle", "hand": 1, "losers": list(hand.losers), "lives": dict(hand.lives), "pot": hand.pot}
    settled = _judge(PLAYED_ON, [*narration(PLAYED_ON.script), due], held=False)
    assert (settled["verdict"], settled["illegal_right"], settled["illegal_settled"]) == ("wrong", False, True)


def test_a_swap_under_the_hands_is_warned_by_a_warning_from_the_moment_it_began() -> None:
    said = narration(HIDDEN.script)
    assert _judge(HIDDEN, said, held=True)["illegal_right"]
    begun = next(i for i, shot in enumerate(shots(HIDDEN.script)[0]) if shot.phase == "illegal") / FPS
    assert not _judge(HIDDEN, said, held=True, at=begun - 0.1)["illegal_warned"]  # a warning about something before
    unwarned = _judge(HIDDEN, said[:-1], held=False)
    assert (unwarned["verdict"], unwarned["illegal_warned"], unwarned["illegal_right"]) == ("unsettled", False, False)


def test_an_illegal_swap_put_back_may_be_warned_then_settled_right_but_not_wrong() -> None:
    right = _judge(PUT_BACK, _told(PUT_BACK), held=False)
    assert (right["verdict"], right["illegal_right"], right["illegal_settled"]) == ("right", True, False)
    wrong = _judge(PUT_BACK, _told(PUT_BACK, pot=99), held=False)
    assert (wrong["verdict"], wrong["illegal_right"], wrong["illegal_settled"]) == ("wrong", False, False)


def test_the_summary_counts_a_settled_illegal_hand_as_wrong_and_apart_from_the_legal_hands() -> None:
    hand = PLAYED_ON.script.hands[0]
    due = {"event": "settle", "hand": 1, "losers": list(hand.losers), "lives": dict(hand.lives), "pot": hand.pot}
    legal = random_hand(7, BRISK, "above", 0)
    rows = [{**_judge(PLAYED_ON, [*narration(PLAYED_ON.script), due], held=False), "loop_seconds": 1.0},
            {**_judge(legal, _told(legal), held=False), "loop_seconds": 1.0}]
    total = eval_live.summary(rows)
    assert (total["wrong"], total["illegal_settled"], total["illegal_right"]) == (1, 1, 0)
    assert (total["legal"], total["legal_right"], total["legal_wrong"]) == (1, 1, 0)


@pytest.mark.skipif(NO_PHOTOS, reason=f"the shared photos are not at {DATA} (a user's clone has none)")
@pytest.mark.parametrize("number", [3, 5])  # lace; a red cloth with snowflakes
def test_a_photographed_table_has_its_card_painted_out_and_the_card_s_scale(number: int) -> None:
    reader = CardReader()
    surface = surface_for(reader, photo_tables(DATA), 0, number)
    photo = next(path for path, _ in photo_tables(DATA) if path.stem == surface.name)
    assert reader(read_image(photo).pixels).is_card.any()  # the card the photo was taken of...
    assert not reader(surface.pixels).is_card.any()  # ...is gone, and the reader finds none in its place
    assert 0.02 < surface.cm_per_pixel < 0.04  # a card 9.3 cm long, 250-450 pixels of the halved photo


def test_a_brisk_hand_is_played_through_the_loop_judged_and_counted(tmp_path: Path) -> None:
    args = eval_live.command().parse_args(["--hands", "1", "--pace", "brisk", "--drawn", "--tables", "drawn",
                                           "--rates", "5", "--size", "640x360", "--results", str(tmp_path)])
    figures = eval_live.measure(args)
    assert [(row["rate"], row["table"], row["hands"]) for row in figures["rows"]] == [("5", "drawn", 1)]
    (hand,) = figures["hands"]
    assert (hand["rate"], hand["table"], hand["name"]) == ("5", "drawn", "brisk-above-000")
    assert hand["verdict"] in eval_live.VERDICTS and hand["given"] == -(-hand["frames"] // 3)
    lines = eval_live.render(figures)
    assert lines[0].startswith("1 generated hands (seed 0) on drawn tables, 1 films of")
    assert lines[4].startswith("| 5 | drawn | 1 | 1 |")


def test_without_the_photos_the_evaluation_refuses_unless_drawn_faces_and_tables_are_asked_for(tmp_path: Path, capsys) -> None:
    assert eval_live.main(["--photos", str(tmp_path), "--no-record"]) == 2
    assert "--drawn" in capsys.readouterr().err
    assert eval_live.main(["--photos", str(tmp_path), "--drawn", "--no-record"]) == 2
    assert "--tables drawn" in capsys.readouterr().err
    assert eval_live.main(["--size", "wide", "--drawn", "--tables", "drawn", "--no-record"]) == 2
    assert "--size" in capsys.readouterr().err


def test_a_run_recorded_before_the_rates_is_shown_as_it_was() -> None:
    row = {"hands": 1, "right": 1, "wrong": 0, "held": 0, "unsettled": 0, "exact": 1, "illegal": 0, "illegal_warned": 0,
           "illegal_accepted": 0, "swaps_missed": 0, "seats_wrong": 0, "misread": 0, "after_collect": [0.1, 0.1],
           "after_last_card": None, "tilt": [5.0, 5.0], "far_near": [0.9, 0.9]}
    figures = {"faces": "drawn", "frames": 300, "rows": [{"pace": "brisk", "view": "above", **row}], "total": row,
               "reasons": {}}
    lines = eval_live.render(figures)
    assert lines[0] == "1 generated hands, 300 frames at 960x540, faces: drawn"
    assert lines[-1].startswith("| all |  | 5-5 | 0.90-0.90 | 1 | 1 | 0 |")
