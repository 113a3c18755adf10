"""Generated hands: the referee's own truth, swaps nobody may make, and cameras a family would set up."""

from __future__ import annotations

import pytest

from benchmarks.live_hands import OBLIQUE_TILT, PLAYERS, far_near, random_hand
from referee.events import Deal
from referee.record import new_game, replay, replay_output
from vision.art.pace import BRISK, SLOW, USUAL
from vision.art.sequences import final_cards, hand_record, narration
from vision.art.table import TABLE_STYLES

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


def test_the_hands_hold_every_table_re_and_cavalli_illegal_swaps_peeks_and_draws() -> None:
    assert {h.script.style for h in HANDS} == set(TABLE_STYLES)
    assert {h.ending for h in HANDS} == {"collect", "still", "cut"}
    assert any(h.illegal for h in HANDS) and any(h.peeks for h in HANDS)
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
