"""Generated hands: the referee's own truth, swaps nobody may make (put back, played on, made under the
hands), and cameras a family would set up."""

from __future__ import annotations

import pytest

from art.pace import BRISK, SLOW, USUAL
from art.scene import Stage, round_table_seats
from art.sequences import HIDDEN_COVER, _camera, final_cards, hand_record, narration, shots
from art.table import TABLE_STYLES
from benchmarks.live_hands import OBLIQUE_TILT, PLAYERS, far_near, random_hand
from referee.events import Deal
from referee.record import new_game, replay, replay_output

HANDS = [random_hand(7, pace, view, k) for pace in (BRISK, USUAL, SLOW) for view in ("above", "oblique")
         for k in range(8)]


@pytest.mark.parametrize("live", HANDS, ids=lambda h: h.script.name)
def test_each_hand_replays_to_its_losers_lives_and_pot(live) -> None:
    script = live.script
    played = replay_output(replay(hand_record(script)))["hands"][0]
    hand = script.hands[0]
    assert (played["losers"], played["lives"], played["pot"]) == (list(hand.losers), hand.lives, hand.pot)
    assert played["final"] == final_cards(hand, script.blind)[1]
    assert PLAYERS[0] <= len(script.players) <= PLAYERS[1]


def test_the_same_seed_deals_the_same_hand_and_another_seed_another() -> None:
    assert random_hand(7, BRISK, "above", 3) == random_hand(7, BRISK, "above", 3)
    assert random_hand(7, BRISK, "above", 3).script.hands != random_hand(8, BRISK, "above", 3).script.hands


def test_a_phone_s_frame_size_changes_the_camera_not_the_hand() -> None:
    small, phone = random_hand(7, BRISK, "above", 3), random_hand(7, BRISK, "above", 3, (1280, 720))
    assert (phone.script.camera.width, phone.script.camera.height) == (1280, 720)
    assert phone.script.hands == small.script.hands and phone.script.camera.tilt == small.script.camera.tilt


def test_the_hands_hold_every_table_re_and_cavalli_illegal_swaps_peeks_and_draws() -> None:
    assert {h.script.style for h in HANDS} == set(TABLE_STYLES)
    assert {h.ending for h in HANDS} == {"collect", "still", "cut"}
    assert any(h.illegal for h in HANDS) and any(h.peeks for h in HANDS)
    assert {h.illegal_kind for h in HANDS if h.illegal} == {"put back", "played on", "hidden"}
    assert any(h.script.hands[0].draw for h in HANDS)
    assert any(e["event"] == "shown" for h in HANDS for e in narration(h.script))


@pytest.mark.parametrize("live", [h for h in HANDS if h.illegal], ids=lambda h: h.script.name)
def test_an_illegal_swap_is_one_nobody_at_the_table_may_make(live) -> None:
    # a camera sees two cards trade places, not whose turn moved them
    script = live.script
    game = new_game(hand_record(script))
    game.play(Deal.of(script.hands[0].deal))
    pair = set(script.hands[0].illegal)
    for player in script.players:
        found = game.target(player)
        assert found is None or found.target is None or {player, found.target} != pair


def test_a_phone_at_the_table_s_edge_sees_the_far_cards_about_half_as_long_as_the_near_ones() -> None:
    oblique = [h for h in HANDS if h.view == "oblique"]
    assert all(OBLIQUE_TILT[0] <= h.script.camera.tilt <= OBLIQUE_TILT[1] for h in oblique)
    assert all(0.42 <= far_near(h.script) <= 0.6 for h in oblique)
    assert all(far_near(h.script) >= 0.8 for h in HANDS if h.view == "above")


@pytest.mark.parametrize("live", [h for h in HANDS if h.illegal_kind in ("played on", "hidden")], ids=lambda h: h.script.name)
def test_an_illegal_swap_never_undone_is_due_a_hold_the_narration_ending_at_the_warning(live) -> None:
    said = narration(live.script)
    assert said[-1] == {"event": "warning", "hand": 1} and not live.undone
    assert not any(e["event"] in ("reveal", "settle") for e in said)
    notes = [shot.note for shot in shots(live.script)[0]]
    assert not any("(put back)" in note for note in notes)
    # the family plays on: the legal turns are still filmed
    for player, target in live.script.hands[0].swaps:
        assert f"{player} swaps with {target}" in notes


def test_an_illegal_swap_put_back_is_due_its_warning_and_then_the_settlement() -> None:
    live = next(h for h in HANDS if h.illegal_kind == "put back")
    said = [e["event"] for e in narration(live.script)]
    assert said.index("warning") < said.index("settle") and live.undone
    assert any("(put back)" in shot.note for shot in shots(live.script)[0])


def test_a_swap_made_under_the_hands_is_told_only_as_a_warning_and_no_card_of_it_shows_while_it_moves() -> None:
    live = next(h for h in HANDS if h.illegal_kind == "hidden")
    script = live.script
    said = narration(script)
    assert not any(e["event"] == "swap" and e.get("legal") is False for e in said)
    assert {"event": "warning", "hand": 1} in said
    moving = [shot for shot in shots(script)[0] if shot.phase == "illegal" and not shot.still]
    assert moving and all([card.cover for card in shot.cards if card.seat is None][-2:] == [HIDDEN_COVER] * 2
                          for shot in moving)
    seats = round_table_seats(list(script.players), script.table)
    stage = Stage(seats, script.style, _camera(script, seats), script.seed)
    middle = moving[len(moving) // 2]
    _, truth = stage.frame(middle.cards, dict(middle.coins), noise_seed=0)
    assert [card["visible"] for card in truth["cards"][-2:]] == [0.0, 0.0]
