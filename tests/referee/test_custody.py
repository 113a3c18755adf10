"""Each card's chain of custody, told as stories: where it breaks, the hand is held, never guessed.

Five players, Elena deals and nobody shows a Re or a Cavallo: Anna may swap with Bruno, Bruno
with Carla, Carla with Dario, Dario with Elena; an exchange between Anna and Carla is never
allowed.
"""

import pytest

from referee.game import Phase
from referee.observe import DEAL_STILL, SETTLE_STILL, Controller, Said
from referee.observe.clock import GAP
from referee.observe.deal import LAID, OWN_LAST
from referee.observe.turns import SETTLED
from story import FPS, filmed, kinds, observation, table, tell

PLAYERS = "Anna Bruno Carla Dario Elena"
EMPTY5 = "Anna - Bruno - Carla - Dario - Elena -"
FIVE = "Anna down#1 Bruno down#2 Carla down#3 Dario down#4 Elena down#5"
DEAL5 = [(0.0, EMPTY5), (1.0, FIVE), (1.0 + DEAL_STILL, FIVE)]
FACES = "Anna 7D#1 Bruno 2C#2 Carla 5S#3 Dario 6B#4 Elena 4D#5"
"""The reveal as dealt: Bruno's Due di Coppe is the lowest."""


def dealt() -> tuple[Controller, float]:
    """A controller that has seen the five cards dealt; the time the turns begin."""
    controller = Controller(table(PLAYERS, "Elena"))
    said = tell(controller, DEAL5)
    assert kinds(said)[0] == "deal"
    return controller, 1.0 + DEAL_STILL


def revealed(controller: Controller, at: float) -> list[dict]:
    return tell(controller, [(at, FACES), (at + SETTLE_STILL + 0.5, FACES)])


def observed(controller: Controller, story: list[tuple[float, str]]) -> list[Said]:
    """What the controller says over a story, as the Said objects themselves (their custody with them)."""
    return [said for when, line in filmed(story) for said in controller.observe(observation(when, line))]


# -- two cards covered at once -----------------------------------------------------------------

def test_two_cards_under_the_hands_at_once_whose_exchange_is_not_allowed_hold_the_hand() -> None:
    controller, at = dealt()
    said = tell(controller, [(at + 1.0, "Anna down#1~ Bruno down#2 Carla down#3~ Dario down#4 "
                                        "Elena down#5"),
                             (at + 2.0, FIVE), (at + 2.0 + SETTLED, FIVE)])
    assert kinds(said) == ["warning"]
    assert "Anna's and Carla's cards were both under the hands" in said[0]["message"]
    assert controller.held is not None
    assert revealed(controller, at + 4.0) == []  # nothing is settled while the hand is held
    assert controller.game.phase is Phase.TURNS


def test_two_cards_under_the_hands_whose_exchange_is_allowed_go_on_and_settle_by_the_reveal(
) -> None:
    controller, at = dealt()
    said = tell(controller, [(at + 1.0, "Anna down#1~ Bruno down#2~ Carla down#3 Dario down#4 "
                                        "Elena down#5"),
                             (at + 2.0, FIVE), (at + 2.0 + SETTLED, FIVE)])
    assert said == [] and controller.held is None
    said = revealed(controller, at + 4.0)
    assert kinds(said) == ["keep", "keep", "keep", "keep", "reveal", "keep", "settle"]
    assert said[-1]["losers"] == ["Bruno"]


def test_an_arm_passing_over_two_cards_for_a_frame_or_two_is_no_break() -> None:
    controller, at = dealt()
    quick = at + 1.0 + 1.5 / FPS
    said = tell(controller, [(at + 1.0, "Anna down#1~ Bruno down#2 Carla down#3~ Dario down#4 "
                                        "Elena down#5"),
                             (quick, FIVE), (quick + 1.0, FIVE)])
    assert said == [] and controller.held is None



def test_two_cards_under_the_hands_let_go_a_picture_before_the_next_swap_still_hold_the_hand() -> None:
    controller, at = dealt()
    let_go = at + 2.0
    swap = let_go + 1.0 / FPS  # the next swap begins before the table is seen at rest for SETTLED
    said = tell(controller, [(at + 1.0, "Anna down#1~ Bruno down#2 Carla down#3~ Dario down#4 "
                                        "Elena down#5"),
                             (let_go, FIVE),
                             (swap, "Anna down#1~ Bruno down#2~ Carla down#3 Dario down#4 Elena down#5"),
                             (swap + 0.6, "Anna down#2 Bruno down#1 Carla down#3 Dario down#4 "
                                          "Elena down#5"),
                             (swap + 0.6 + SETTLED + 0.1, "Anna down#2 Bruno down#1 Carla down#3 "
                                                          "Dario down#4 Elena down#5")])
    assert "Anna's and Carla's cards were both under the hands" in said[-1]["message"]
    assert controller.held is not None


def test_a_neighbour_s_card_under_the_swapper_s_arm_while_his_swap_is_under_way_is_no_break() -> None:
    controller, at = dealt()
    said = tell(controller, [(at + 1.0, "Anna down#1~ Bruno down#2~ Carla down#3~ Dario down#4 "
                                        "Elena down#5"),
                             (at + 1.6, "Anna down#2 Bruno down#1 Carla down#3 Dario down#4 "
                                        "Elena down#5"),
                             (at + 1.6 + SETTLED + 0.1, "Anna down#2 Bruno down#1 Carla down#3 "
                                                        "Dario down#4 Elena down#5")])
    assert kinds(said) == ["swap"] and controller.held is None

# -- pictures missing ----------------------------------------------------------------------------

@pytest.mark.parametrize("seconds", [2.0, GAP + 0.1])
def test_pictures_missing_for_as_long_as_a_move_hold_the_hand(seconds: float) -> None:
    # the phone's Wi-Fi drops, or the computer falls behind, while the table looks the same
    controller, at = dealt()
    tell(controller, [(at + 1.0, FIVE)])
    said = tell(controller, [(at + 1.0 + seconds, FIVE)], fps=1 / seconds)
    assert kinds(said) == ["warning"]
    assert f"the camera saw nothing for {seconds:.1f} s during the turns" in said[0]["message"]
    assert controller.held is not None
    assert revealed(controller, at + 5.0) == []


def test_pictures_missing_before_the_deal_or_after_the_reveal_hold_nothing() -> None:
    controller = Controller(table(PLAYERS, "Elena"))
    tell(controller, [(0.0, EMPTY5), (1.0, EMPTY5)])
    said = tell(controller, [(3.0, EMPTY5)], fps=0.5)
    said += tell(controller, [(4.0, FIVE), (4.0 + DEAL_STILL, FIVE)])
    assert kinds(said)[0] == "deal" and controller.held is None
    at = 4.0 + DEAL_STILL
    tell(controller, [(at + 1.0, FACES)])
    said = tell(controller, [(at + 3.0, FACES)], fps=0.5)
    said += tell(controller, [(at + 4.0, FACES)])
    assert kinds(said)[-1] == "settle" and said[-1]["losers"] == ["Bruno"]


def test_a_re_lying_elsewhere_after_a_drop_out_is_held_not_settled() -> None:
    controller = Controller(table(PLAYERS, "Elena"))
    walled = "Anna down#1 Bruno 10C#2 Carla down#3 Dario down#4 Elena down#5"
    tell(controller, [(0.0, EMPTY5), (1.0, walled), (1.0 + DEAL_STILL, walled)])
    at = 1.0 + DEAL_STILL
    tell(controller, [(at + 1.0, walled)])
    moved = "Anna 10C#2 Bruno down#1 Carla down#3 Dario down#4 Elena down#5"
    said = tell(controller, [(at + 3.0, moved)], fps=0.5)
    assert kinds(said) == ["warning"] and controller.held is not None
    assert revealed(controller, at + 5.0) == []


@pytest.mark.parametrize("fps", [5, 7.5, 15, 30])
def test_a_camera_at_any_rate_it_can_follow_holds_nothing_and_settles(fps: float) -> None:
    controller = Controller(table(PLAYERS, "Elena"))
    tell(controller, DEAL5, fps=fps)
    at = 1.0 + DEAL_STILL
    swap = [(at + 1.0, "Anna - Bruno - Carla down#3 Dario down#4 Elena down#5"),
            (at + 2.0, "Anna down#2 Bruno down#1 Carla down#3 Dario down#4 Elena down#5")]
    said = tell(controller, swap, fps=fps)
    assert said[-1] == {"event": "swap", "hand": 1, "from": "Anna", "to": "Bruno", "legal": True}
    faces = "Anna 2C#2 Bruno 7D#1 Carla 5S#3 Dario 6B#4 Elena 4D#5"
    said = tell(controller, [(at + 4.0, faces), (at + 4.0 + SETTLE_STILL + 0.5, faces)], fps=fps)
    assert said[-1]["event"] == "settle" and said[-1]["losers"] == ["Anna"]
    assert controller.held is None


def test_a_camera_too_slow_to_follow_says_so_and_holds_the_turns() -> None:
    controller = Controller(table(PLAYERS, "Elena"))
    said = tell(controller, [(0.0, EMPTY5), (4.0, EMPTY5), (5.0, FIVE), (5.0 + DEAL_STILL, FIVE)],
                fps=3)
    assert {"event": "warning", "hand": 1, "message": "the camera gives 3 pictures a second: at "
            "least 5 are needed to follow a hand"} in said
    said = tell(controller, [(5.0 + DEAL_STILL + 3.0, FIVE)], fps=3)
    assert kinds(said) == ["warning"] and "pictures a second" in said[0]["message"]
    assert controller.held is not None


# -- what the verdict rests on -------------------------------------------------------------------

def test_the_settle_says_on_what_custody_it_rests() -> None:
    controller = Controller(table(PLAYERS, "Elena"))
    at = 1.0 + DEAL_STILL
    story = [*DEAL5, (at + 1.0, "Anna - Bruno - Carla down#3 Dario down#4 Elena down#5"),
             (at + 2.0, "Anna down#2 Bruno down#1 Carla down#3 Dario down#4 Elena down#5"),
             (at + 4.0, "Anna 2C#2 Bruno 7D#1 Carla 5S#3 Dario 6B#4 Elena 4D#5"),
             (at + 7.5, "Anna 2C#2 Bruno 7D#1 Carla 5S#3 Dario 6B#4 Elena 4D#5")]
    said = observed(controller, story)
    settle = said[-1]
    assert settle.kind == "settle" and settle.custody is not None and settle.custody.unbroken
    chains = settle.custody.to_json()
    assert chains["Anna"][0].startswith("dealt") and chains["Anna"][1].startswith("swap Bruno")
    assert chains["Bruno"][1].startswith("swap Anna") and chains["Carla"] == chains["Carla"][:1]


def test_two_cards_under_the_hands_as_the_turns_begin_count_the_deal_and_hold_the_hand() -> None:
    # the swap is made wholly under the hands before the table has rested long enough for the
    # deal to count: the deal counts from the moment before, and the turns judge the covering
    controller = Controller(table(PLAYERS, "Elena"))
    covered = "Anna down#1~ Bruno down#2 Carla down#3~ Dario down#4 Elena down#5"
    said = tell(controller, [(0.0, EMPTY5), (1.0, FIVE), (1.5, covered), (2.5, FIVE),
                             (2.5 + SETTLED, FIVE)])
    assert kinds(said) == ["deal", "target", "target", "target", "target", "warning"]
    assert said[-1]["message"].startswith("hand 1: Anna's and Carla's cards were both under")
    assert controller.held is not None


def test_pictures_missing_after_the_cards_are_dealt_before_the_deal_counts_hold_the_hand() -> None:
    controller = Controller(table(PLAYERS, "Elena"))
    tell(controller, [(0.0, EMPTY5), (1.0, FIVE)])
    said = tell(controller, [(3.0, FIVE)], fps=0.5)  # the Wi-Fi drops as the last card lands
    said += tell(controller, [(3.0 + DEAL_STILL, FIVE)])
    assert kinds(said)[0] == "deal" and kinds(said)[-1] == "warning"
    assert "the camera saw nothing for 2.0 s during the turns" in said[-1]["message"]
    assert controller.held is not None


def test_a_player_looking_at_his_card_as_the_last_lands_counts_the_deal_from_then() -> None:
    # Bruno takes a look as his card lands, and Carla and Dario swap meanwhile: the table never
    # lies bare before the turns begin, and the deal counts from the moment every card lay served
    controller = Controller(table(PLAYERS, "Elena"))
    looking = "Anna down#1 Bruno down#2~ Carla down#3 Dario down#4 Elena down#5"
    taken = "Anna down#1 Bruno down#2~ Carla - Dario down#4 Elena down#5 aside down#3"
    both = "Anna down#1 Bruno down#2~ Carla - Dario - Elena down#5 aside down#3 aside down#4"
    swapped = "Anna down#1 Bruno down#2~ Carla down#4 Dario down#3 Elena down#5"
    said = tell(controller, [(0.0, EMPTY5), (1.0, looking), (1.3, taken), (1.6, both), (1.9, swapped),
                             (2.6, swapped.replace("~", "")), (2.6 + SETTLED, swapped.replace("~", ""))])
    assert [s["event"] for s in said if s["event"] != "target"] == ["deal", "keep", "keep", "swap"]
    assert said[-1] == {**said[-1], "from": "Carla", "to": "Dario", "legal": True}
    assert controller.held is None


def _at_five(pictures: list[tuple[int, str]]) -> list[tuple[float, str]]:
    """Lines at pictures of a 15 fps camera's clock (picture k at k/15 s), every third kept: a computer
    keeping up with 5 of them a second, whose frame times are ratios that add up inexactly."""
    return [(k / FPS, line) for k, line in pictures]


def test_at_five_pictures_a_second_one_picture_of_two_cards_under_the_hands_holds_the_hand() -> None:
    # the picture before showed them bare: covered since just after it, for a fifth of a second and
    # the tracker's delay in calling a card hidden, as long as the briskest exchange takes
    controller = Controller(table(PLAYERS, "Elena"))
    tell(controller, _at_five([(0, EMPTY5), (15, FIVE), (15 + 3 * 17, FIVE)]), fps=5)
    covered = "Anna down#1~ Bruno down#2 Carla down#3~ Dario down#4 Elena down#5"
    said = tell(controller, _at_five([(138, FIVE), (141, covered), (144, FIVE), (150, FIVE)]), fps=5)
    assert kinds(said) == ["warning"]
    assert "Anna's and Carla's cards were both under the hands" in said[0]["message"]


def test_at_five_pictures_a_second_two_cards_under_the_hands_before_the_deal_counts_hold_the_hand() -> None:
    # the first picture of the turns, replayed once the deal counts, counts from the deal's own
    controller = Controller(table(PLAYERS, "Elena"))
    covered = "Anna down#1~ Bruno down#2 Carla down#3~ Dario down#4 Elena down#5"
    said = tell(controller, _at_five([(0, EMPTY5), (15, FIVE), (18, FIVE), (21, covered), (24, FIVE),
                                      (30, FIVE)]), fps=5)
    assert kinds(said)[0] == "deal" and kinds(said)[-1] == "warning"
    assert "Anna's and Carla's cards were both under the hands" in said[-1]["message"]
    assert controller.held is not None


def test_at_five_pictures_a_second_two_cards_under_the_hands_after_a_put_back_hold_the_hand() -> None:
    # Anna takes Carla's card and is told to put it back; once the cards lie back the hand goes
    # on from that picture, and the next picture of two cards under the hands counts from it
    controller = Controller(table(PLAYERS, "Elena"))
    tell(controller, _at_five([(0, EMPTY5), (15, FIVE), (15 + 3 * 17, FIVE)]), fps=5)
    crossed = "Anna down#3 Bruno down#2 Carla down#1 Dario down#4 Elena down#5"
    tell(controller, _at_five([(120, "Anna - Bruno down#2 Carla - Dario down#4 Elena down#5"),
                               (123, crossed), (129, crossed), (135, crossed)]), fps=5)
    assert controller.held is not None and controller.held.code == "swap.undo"
    tell(controller, _at_five([(147, FIVE), (150, FIVE)]), fps=5)
    assert controller.held is None
    covered = "Anna down#1~ Bruno down#2 Carla down#3~ Dario down#4 Elena down#5"
    said = tell(controller, _at_five([(153, covered), (156, FIVE), (162, FIVE), (168, FIVE)]), fps=5)
    assert kinds(said) == ["warning"]
    assert "Anna's and Carla's cards were both under the hands" in said[0]["message"]


# -- a card unread at its seat before the deal counts ----------------------------------------------

ANNA_UNREAD = "Anna - Bruno down#2 Carla down#3 Dario down#4 Elena down#5"
"""Anna's card, dealt first, lies unread at her seat (a far card on a busy cloth)."""


def test_a_card_leaving_its_seat_while_one_dealt_before_it_lies_unread_holds_the_hand_where_no_swap_could() -> None:
    # Carla's card leaves and comes back while Anna's lies unread; Anna's is read at last and the
    # deal counts: Anna and Carla may have exchanged their cards, which the rules never allow
    controller = Controller(table(PLAYERS, "Elena"))
    said = tell(controller, [(0.0, EMPTY5), (1.0, ANNA_UNREAD),
                             (3.0, "Anna - Bruno down#2 Carla - Dario down#4 Elena down#5"),
                             (4.0, "Anna - Bruno down#2 Carla down#6 Dario down#4 Elena down#5"),
                             (5.0, "Anna down#1 Bruno down#2 Carla down#6 Dario down#4 Elena down#5"),
                             (5.0 + DEAL_STILL, "Anna down#1 Bruno down#2 Carla down#6 Dario down#4 Elena down#5")])
    assert kinds(said)[0] == "deal" and kinds(said)[-1] == "warning" and kinds(said).count("warning") == 1
    assert said[-1]["message"].startswith("hand 1: Anna's card lay unread at its seat while Carla's left its seat or lay under a hand")
    assert controller.held is not None


def test_a_card_leaving_its_seat_while_its_swap_partner_lies_unread_breaks_their_custody_and_goes_on() -> None:
    # Bruno's card leaves and comes back while Anna's lies unread: Anna may swap with Bruno, so the
    # hand goes on, the verdict resting on custody broken between them
    controller = Controller(table(PLAYERS, "Elena"))
    back = "Anna down#1 Bruno down#6 Carla down#3 Dario down#4 Elena down#5"
    story = [(0.0, EMPTY5), (1.0, ANNA_UNREAD),
             (3.0, "Anna - Bruno - Carla down#3 Dario down#4 Elena down#5"),
             (4.0, "Anna - Bruno down#6 Carla down#3 Dario down#4 Elena down#5"),
             (5.0, back), (5.0 + DEAL_STILL, back),
             (5.0 + DEAL_STILL + 1.0, FACES), (5.0 + DEAL_STILL + 1.0 + SETTLE_STILL + 0.5, FACES)]
    said = observed(controller, story)
    assert controller.held is None
    settle = said[-1]
    assert settle.kind == "settle" and settle.custody is not None and not settle.custody.unbroken
    assert settle.custody.to_json()["Anna"][1].startswith("covered Bruno")
    assert settle.custody.to_json()["Anna"][1].endswith("unseen")


def test_a_player_peeking_before_the_seats_after_his_are_dealt_breaks_no_custody() -> None:
    # Anna looks at her card while the dealer still deals round: the seats after hers are empty
    # because their cards are yet to come, not unread
    controller = Controller(table(PLAYERS, "Elena"))
    said = tell(controller, [(0.0, EMPTY5), (1.0, "Anna down#1 Bruno - Carla - Dario - Elena -"),
                             (1.5, "Anna - Bruno - Carla - Dario - Elena -"),
                             (2.5, "Anna down#1 Bruno down#2 Carla - Dario - Elena -"),
                             (3.5, FIVE), (3.5 + DEAL_STILL, FIVE)])
    assert kinds(said)[0] == "deal" and "warning" not in kinds(said)
    said = revealed(controller, 3.5 + DEAL_STILL + 1.0)
    assert said[-1]["event"] == "settle" and said[-1]["losers"] == ["Bruno"]


def test_a_card_carried_past_a_seat_while_one_dealt_before_it_lies_unread_breaks_no_custody() -> None:
    # the dealer's hand holds Carla's card at her seat for a moment, then lays it a little further
    # on, while Anna's lies unread: nothing lay at Carla's seat to be exchanged
    controller = Controller(table(PLAYERS, "Elena"))
    said = tell(controller, [(0.0, EMPTY5), (1.0, "Anna - Bruno down#2 Carla - Dario - Elena -"),
                             (2.0, "Anna - Bruno down#2 Carla down#3 Dario - Elena -"),
                             (2.0 + LAID / 2, "Anna - Bruno down#2 Carla - Dario - Elena -"),
                             (2.0 + LAID, "Anna - Bruno down#2 Carla down#3 Dario - Elena -"),
                             (4.0, ANNA_UNREAD), (5.0, FIVE), (5.0 + DEAL_STILL, FIVE)])
    assert kinds(said)[0] == "deal" and "warning" not in kinds(said)
    said = revealed(controller, 5.0 + DEAL_STILL + 1.0)
    assert said[-1]["event"] == "settle" and said[-1]["losers"] == ["Bruno"]


OWN_UNREAD = "Anna down#1 Bruno down#2 Carla down#3 Dario down#4 Elena -"
"""Every card lies but the dealer's own, dealt last, read at no seat (laid against the stock)."""


def test_a_card_under_a_hand_while_the_dealers_own_lies_unread_holds_the_hand_where_no_swap_could() -> None:
    # the dealer's card is still unread OWN_LAST after the others landed, so it lies somewhere;
    # Carla's card lies under a hand long enough to be exchanged with it, which the rules never allow
    controller = Controller(table(PLAYERS, "Elena"))
    hand = "Anna down#1 Bruno down#2 Carla down#3~ Dario down#4 Elena -"
    said = tell(controller, [(0.0, EMPTY5), (1.0, OWN_UNREAD), (1.0 + OWN_LAST + 1.0, hand),
                             (1.0 + OWN_LAST + 2.0, OWN_UNREAD), (1.0 + OWN_LAST + 3.0, FIVE),
                             (1.0 + OWN_LAST + 3.0 + DEAL_STILL, FIVE)])
    assert kinds(said)[0] == "deal" and kinds(said)[-1] == "warning" and kinds(said).count("warning") == 1
    assert said[-1]["message"].startswith("hand 1: Elena's card lay unread at its seat while Carla's left its seat or lay under a hand")
    assert controller.held is not None and controller.held.code == "swap.unread"


def test_a_card_under_a_hand_while_the_dealers_own_lies_unread_breaks_their_custody_where_they_may_swap() -> None:
    # Dario may swap with the dealer, so the hand goes on, the verdict resting on custody broken
    # between them
    controller = Controller(table(PLAYERS, "Elena"))
    hand = "Anna down#1 Bruno down#2 Carla down#3 Dario down#4~ Elena -"
    after = 1.0 + OWN_LAST + 3.0 + DEAL_STILL
    story = [(0.0, EMPTY5), (1.0, OWN_UNREAD), (1.0 + OWN_LAST + 1.0, hand),
             (1.0 + OWN_LAST + 2.0, OWN_UNREAD), (1.0 + OWN_LAST + 3.0, FIVE), (after, FIVE),
             (after + 1.0, FACES), (after + 1.0 + SETTLE_STILL + 0.5, FACES)]
    said = observed(controller, story)
    assert controller.held is None and "warning" not in [s.kind for s in said]
    settle = said[-1]
    assert settle.kind == "settle" and settle.custody is not None and not settle.custody.unbroken
    assert settle.custody.to_json()["Elena"][1].startswith("covered Dario")
    assert settle.custody.to_json()["Elena"][1].endswith("unseen")


def test_a_player_peeking_while_the_dealer_deals_his_own_card_breaks_no_custody() -> None:
    # Bruno looks under his card as soon as it lies; the dealer's card is yet to come, not unread
    controller = Controller(table(PLAYERS, "Elena"))
    hand = "Anna down#1 Bruno down#2~ Carla down#3 Dario down#4 Elena -"
    said = tell(controller, [(0.0, EMPTY5), (1.0, OWN_UNREAD), (1.0 + LAID, hand),
                             (1.0 + OWN_LAST - 0.5, OWN_UNREAD), (1.0 + OWN_LAST, FIVE),
                             (1.0 + OWN_LAST + DEAL_STILL, FIVE)])
    assert kinds(said)[0] == "deal" and "warning" not in kinds(said)
    said = revealed(controller, 1.0 + OWN_LAST + DEAL_STILL + 1.0)
    assert said[-1]["event"] == "settle" and said[-1]["losers"] == ["Bruno"]
