"""The filmed sample games: their scripts replay to the expected losers, the films are committed and
decode, and what a camera would see follows the game as people play it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from art.occlude import arm_across, camera_shift, drop_frames, shift_frame, shift_points
from art.sequences import (
    CLASSICA,
    GAME,
    HIDDEN,
    HIDDEN_COVER,
    ILLEGAL,
    SAMPLE_HAND,
    SEQUENCES,
    STANDS,
    GameScript,
    final_cards,
    hand_record,
    narration,
    shots,
)
from referee.events import Deal
from referee.game import RuleError
from referee.record import new_game, replay, replay_output
from vision.recognize import CardReader

FILMS = Path(__file__).resolve().parents[2] / "sample_images" / "sequences"
BUDGET = 6.2 * 2**20
"""Bytes all the films and their truth may take together: about 4 MB for the four calm films, under
1.5 MB more for the paced ones (brisk, oblique), under 0.9 MB more for the demo's two held hands
(stands, hidden)."""


def _truth(name: str) -> dict:
    return json.loads((FILMS / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("script", SEQUENCES, ids=lambda s: s.name)
def test_each_script_replays_to_its_expected_losers_lives_and_pot(script: GameScript) -> None:
    output = replay_output(replay(hand_record(script)))
    for played, hand in zip(output["hands"], script.hands, strict=True):
        assert played["dealer"] == hand.dealer
        assert played["losers"] == list(hand.losers)
        assert played["lives"] == hand.lives
        assert played["pot"] == hand.pot
        assert played["final"] == final_cards(hand, script.blind)[1]


def test_the_game_passes_the_deal_to_the_right_each_hand() -> None:
    dealers = [hand.dealer for hand in GAME.hands]
    assert dealers == ["Rosa", "Gianni", "Lucia"]
    game = replay({**hand_record(GAME), "hands": hand_record(GAME)["hands"][:2]})
    assert game.next_dealer == "Lucia"


def test_the_game_holds_a_tie_and_a_cavallo_jumped_past_the_dealer() -> None:
    output = replay_output(replay(hand_record(GAME)))
    assert output["hands"][0]["swaps"][-1] == ["Paolo", "Gianni"]  # over Rosa's 9C, round past her
    assert output["hands"][1]["losers"] == ["Lucia", "Rosa"]  # 4S and 4D


def test_the_illegal_swap_past_bruno_s_re_is_one_the_referee_rejects() -> None:
    record = hand_record(ILLEGAL)
    record["hands"][0]["turns"]["Anna"] = "swap"
    with pytest.raises(RuleError, match="wall"):
        replay(record)


def test_the_illegal_swap_is_narrated_with_a_warning_and_then_put_back() -> None:
    said = [(e["event"], e.get("from"), e.get("legal")) for e in narration(ILLEGAL)]
    assert said[:2] == [("deal", None, None), ("shown", None, None)]
    assert said[2:5] == [("swap", "Anna", False), ("warning", None, None), ("swap", "Dario", True)]
    notes = [shot.note for shot in shots(ILLEGAL)[0]]
    assert notes.index("Anna swaps with Carla (past a wall)") < notes.index("Carla swaps with Anna (put back)")
    assert notes.index("Carla swaps with Anna (put back)") < notes.index("Dario swaps with Elena")


def test_nobody_could_have_made_the_illegal_swap_nor_its_put_back() -> None:
    # a camera sees two cards trade places, not whose turn moved them
    game = new_game(hand_record(ILLEGAL))
    game.play(Deal.of(ILLEGAL.hands[0].deal))
    targets = {player: game.target(player) for player in ILLEGAL.players}
    assert targets["Anna"].target is None  # Bruno's Re is her wall
    assert targets["Carla"].target == "Dario"
    assert not any(t is not None and {t.player, t.target} == {"Anna", "Carla"} for t in targets.values())


def test_the_demo_s_held_hands_stand_or_are_put_back_under_the_hands_while_the_table_waits() -> None:
    said = [e["event"] for e in narration(STANDS)]
    assert said[-2:] == ["swap", "warning"]  # the swap stands: the hand waits for a person
    assert [e["event"] for e in narration(HIDDEN)][1:3] == ["warning", "swap"]  # no illegal swap seen
    all_shots = shots(HIDDEN)[0]
    moving = [shot for shot in all_shots if shot.phase in ("illegal", "put-back") and not shot.still]
    assert moving and all(max(card.cover for card in shot.cards) >= HIDDEN_COVER for shot in moving)
    waiting = [shot for shot in all_shots if shot.note == "the family answers the held hand on the page"]
    assert len(waiting) == 6 * 15 and all(shot.still for shot in waiting)


def test_under_classica_the_blind_draw_comes_before_the_reveal() -> None:
    said = [e["event"] for e in narration(CLASSICA)]
    assert said.index("draw") < said.index("reveal")
    draw = next(e for e in narration(CLASSICA) if e["event"] == "draw")
    assert draw == {"event": "draw", "hand": 1, "player": "Zoe", "card": None}  # face down yet
    reveal = next(e for e in narration(CLASSICA) if e["event"] == "reveal")
    assert reveal["cards"] == {"Ugo": "6C", "Vera": "8D", "Walter": "4B", "Zoe": "5D"}


def test_cards_are_dealt_from_the_dealer_s_right_counterclockwise_the_dealer_last() -> None:
    notes = [shot.note for shot in shots(SAMPLE_HAND)[0] if shot.phase == "deal" and "deals to" in shot.note]
    order = list(dict.fromkeys(notes))
    assert order == [f"Elena deals to {name}" for name in ("Anna", "Bruno", "Carla", "Dario", "Elena")]


def test_a_re_or_a_cavallo_is_turned_as_soon_as_it_lands() -> None:
    notes = [shot.note for shot in shots(SAMPLE_HAND)[0]]
    assert notes.index("Elena deals to Bruno") < notes.index("Bruno turns the 10S at once")
    assert notes.index("Bruno turns the 10S at once") < notes.index("Elena deals to Carla")
    assert notes.index("Dario turns the 9D at once") < notes.index("Elena deals to Elena")


def test_states_are_held_as_long_as_people_hold_them() -> None:
    all_shots = shots(SAMPLE_HAND)[0]
    settle = [shot for shot in all_shots if shot.phase == "settle"]
    assert len(settle) >= 4 * 15  # the pause before the cards are collected
    moving = [shot for shot in all_shots if not shot.still and shot.phase == "deal"]
    assert 5 * 6 <= len(moving) <= 5 * 15  # every dealt card travels 0.4-1 s
    assert all(any(card.cover > 0 for card in shot.cards) for shot in moving)  # a hand on it


@pytest.mark.parametrize("script", SEQUENCES, ids=lambda s: s.name)
def test_the_committed_film_holds_the_script_s_truth(script: GameScript) -> None:
    truth = _truth(script.name)
    assert truth["record"] == hand_record(script)
    assert truth["narration"] == narration(script)
    assert truth["frames"] == len(shots(script)[0])
    assert truth["fps"] == 15
    assert [seat["name"] for seat in truth["seats"]] == list(script.players)
    assert all(0 <= x < truth["width"] and 0 <= y < truth["height"] for x, y in (s["at"] for s in truth["seats"]))
    spans = [(segment["from"], segment["to"]) for segment in truth["segments"]]
    assert spans[0][0] == 0 and spans[-1][1] == truth["frames"]
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))


@pytest.mark.parametrize("script", SEQUENCES, ids=lambda s: s.name)
def test_the_committed_video_decodes_to_the_expected_frame_count(script: GameScript) -> None:
    truth = _truth(script.name)
    video = cv2.VideoCapture(str(FILMS / truth["video"]))
    assert video.isOpened()
    assert (video.get(cv2.CAP_PROP_FRAME_WIDTH), video.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (truth["width"], truth["height"])
    count = 0
    while video.grab():
        count += 1
    assert count == truth["frames"]


def test_the_films_keep_to_the_size_budget() -> None:
    assert sum(path.stat().st_size for path in FILMS.iterdir()) < BUDGET


def test_the_reveal_of_the_sample_hand_is_read_from_the_decoded_video() -> None:
    truth = _truth("hand")
    reveal = next(s for s in truth["segments"] if s["still"] and s["note"] == "every card shows")
    video = cv2.VideoCapture(str(FILMS / truth["video"]))
    for _ in range(reveal["from"] + 4):  # what the tracker confirms, 5 frames in
        video.grab()
    ok, frame = video.read()
    assert ok
    detections = CardReader()(frame)
    seats = {seat["name"]: np.array(seat["at"]) for seat in truth["seats"]}
    named = {}
    for code, quad in zip(detections.card, detections.quad):
        if code:
            nearest = min(seats, key=lambda name: float(np.linalg.norm(quad.mean(axis=0) - seats[name])))
            named[nearest] = code
    assert named == {"Anna": "4C", "Bruno": "10S", "Carla": "3S", "Dario": "9D", "Elena": "2B"}


def test_an_arm_crosses_only_the_frames_of_its_sweep() -> None:
    frames = [np.full((90, 160, 3), 60, np.uint8) for _ in range(30)]
    crossed = arm_across(frames, start=10, length=15, seed=3)
    changed = [i for i, (a, b) in enumerate(zip(frames, crossed)) if not np.array_equal(a, b)]
    assert changed == list(range(10, 25))
    skin = [(np.abs(f.astype(int) - 60).sum(axis=2) > 60).mean() for f in crossed[10:25]]
    assert all(0.02 < share < 0.5 for share in skin)  # part of the view, not all of it


def test_dropped_frames_lose_about_the_share_asked_in_short_runs() -> None:
    kept = drop_frames(300, 0.1, seed=5, longest=3)
    assert kept[0] == 0 and kept == sorted(set(kept))
    assert 265 <= len(kept) <= 270
    gaps = [b - a - 1 for a, b in zip(kept, kept[1:])]
    assert max(gaps) <= 3  # runs never meet: a frame always arrives between two


def test_a_shifted_camera_moves_a_point_where_shift_points_says() -> None:
    frame = np.zeros((540, 960, 3), np.uint8)
    cv2.circle(frame, (700, 200), 3, (255, 255, 255), -1)
    matrix = camera_shift(960, 540, dx=4.0, dy=-3.0, degrees=1.0)
    moved = shift_frame(frame, matrix)
    ys, xs = np.nonzero(moved[..., 0] > 128)
    expected = shift_points(np.array([[700.0, 200.0]]), matrix)[0]
    assert np.hypot(xs.mean() - expected[0], ys.mean() - expected[1]) < 0.5
    assert np.hypot(*(expected - (700, 200))) > 5  # a degree about the centre moves it visibly
