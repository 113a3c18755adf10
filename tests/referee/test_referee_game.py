"""The game as a state machine: every rule and switch of RULES.md, told hand by hand."""

from typing import Any

import pytest

from referee.cards import parse_card
from referee.events import ChooseDealer, Deal, Draw, FaceUp, Keep, Reveal, Revive, Settle, Swap
from referee.game import Game, Phase, RuleError
from referee.record import play_hand
from referee.rules import find_rules


def table(players: str = "Anna Bruno Carla Dario", dealer: str | None = "Dario",
          lives: int | None = None, rules: str = "napoli", **switches: Any) -> Game:
    """A game at a table written `Anna Bruno Carla Dario` (seating order, counterclockwise)."""
    chosen = find_rules(rules).replace(**switches) if switches else rules
    game = Game(players.split(), chosen, lives)
    if dealer:
        game.play(ChooseDealer(dealer))
    return game


def hand(game: Game, deal: str, turns: str = "", showdown: str = "", stock: str = "",
         revive: str = "") -> None:
    """Play one hand written in card codes: deal `Anna 3D, Bruno 10C`, turns `Carla swap`."""
    def pairs(text: str) -> dict[str, str]:
        return dict(item.split() for item in text.split(",")) if text else {}

    record: dict[str, Any] = {"deal": pairs(deal), "turns": pairs(turns)}
    if showdown:
        record["showdown"] = pairs(showdown)
    if stock:
        record["stock"] = stock.split()
    if revive:
        record["revive"] = [pair.split() for pair in revive.split(",")]
    play_hand(game, len(game.results) + 1, record)


def last(game: Game) -> dict[str, Any]:
    result = game.results[-1]
    return {"dealer": result.dealer, "swaps": list(result.swaps), "losers": list(result.losers),
            "final": " ".join(f"{p} {c.code}" for p, c in result.final.items()),
            "void": result.void, "pot": result.pot}


# -- the worked example, event by event ----------------------------------------------------------

def test_the_worked_example_event_by_event() -> None:
    game = table()
    assert game.phase is Phase.DEAL and game.current_player == "Dario"
    game.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}))
    assert game.current_player == "Anna"
    assert game.target("Anna").reason() == "Anna cannot swap: Bruno shows the Re di Coppe (wall)"
    wall = r"^hand 1: Anna cannot swap: Bruno shows the Re di Coppe \(wall\)$"
    with pytest.raises(RuleError, match=wall):
        game.play(Swap("Anna"))
    game.play(Keep("Anna"))
    assert game.current_player == "Carla"
    game.play(Swap("Carla", target="Anna"))
    assert game.phase is Phase.REVEAL  # Dario shows a Cavallo: no draw
    game.play(Reveal.of({"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}))
    game.play(Settle())
    assert last(game) == {"dealer": "Dario", "swaps": [("Carla", "Anna")], "losers": ["Carla"],
                          "final": "Anna 5S Bruno 10C Carla 3D Dario 9B", "void": False, "pot": 1}
    assert game.lives == {"Anna": 3, "Bruno": 3, "Carla": 2, "Dario": 3}
    assert game.next_dealer == "Anna" and game.outcome() is None
    with pytest.raises(RuleError, match="hand 1: Bruno cannot be revived: Bruno is not dead"):
        game.play(Revive("Bruno", "Anna"))


# -- choosing the first dealer -------------------------------------------------------------------

def test_the_second_denari_chooses_the_first_dealer() -> None:
    game = table(dealer=None)
    assert game.phase is Phase.CHOOSE_DEALER
    for player, code in [("Carla", "4D"), ("Dario", "7C"), ("Anna", "10S"), ("Bruno", "2D")]:
        game.play(FaceUp(player, parse_card(code)))
    assert game.dealer == "Bruno" and game.current_player == "Bruno"


def test_re_di_denari_chooses_the_first_dealer() -> None:
    game = table(dealer=None, dealer_selection="re_di_denari")
    for player, code in [("Anna", "4D"), ("Bruno", "2D"), ("Carla", "10D")]:
        game.play(FaceUp(player, parse_card(code)))
    assert game.dealer == "Carla"


@pytest.mark.parametrize(
    ("cards", "says"),
    [([("Anna", "4D"), ("Carla", "2D")], "counterclockwise: this one goes to Bruno, not Carla"),
     ([("Anna", "4D"), ("Bruno", "4D")], "a card twice: 4D"),
     ([("Anna", "4D"), ("Bruno", "2D"), ("Carla", "5C")], "already chosen: Bruno")],
)
def test_face_up_cards_go_round_once_each(cards: list, says: str) -> None:
    game = table(dealer=None)
    with pytest.raises(RuleError, match=says):
        for player, code in cards:
            game.play(FaceUp(player, parse_card(code)))


def test_no_deal_before_a_dealer() -> None:
    with pytest.raises(RuleError, match="no dealer yet"):
        table(dealer=None).play(
            Deal.of({"Anna": "1D", "Bruno": "2D", "Carla": "3D", "Dario": "4D"}))


# -- turns: order, the dealer, walls and jumps ---------------------------------------------------

def test_turns_go_from_the_dealers_right_and_the_dealer_is_last() -> None:
    game = table(dealer="Bruno")
    game.play(Deal.of({"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "6B"}))
    order = []
    while game.phase is Phase.TURNS:
        order.append(game.current_player)
        game.play(Keep(order[-1]))
    assert order == ["Carla", "Dario", "Anna"]
    assert game.phase is Phase.REVEAL


@pytest.mark.parametrize(
    ("event", "says"),
    [(Keep("Carla"), "Carla cannot keep: it is Anna's turn"),
     (Keep("Dario"), "Dario cannot keep yet: the dealer plays last, it is Anna's turn"),
     (Swap("Dario"), "Dario cannot swap: the dealer never swaps"),
     (Draw("Anna"), "Anna cannot draw: only the dealer draws"),
     (Swap("Bruno"), "Bruno cannot swap: Bruno shows the Re di Coppe and takes no turn"),
     (Keep("Zeno"), "Zeno is not at the table"),
     (Settle(), "cannot settle: it is Anna's turn"),
     (Reveal.of({"Anna": "3D"}), "the reveal comes when the turn reaches the dealer")],
)
def test_out_of_turn_moves_are_rejected(event: Any, says: str) -> None:
    game = table()
    game.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "2B"}))
    with pytest.raises(RuleError, match=says):
        game.play(event)
    assert game.current_player == "Anna" and len(game.history) == 2


def test_a_turn_cannot_be_taken_twice() -> None:
    game = table()
    game.play(Deal.of({"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "2B"}))
    game.play(Keep("Anna"))
    with pytest.raises(RuleError, match="Anna's turn is over, it is Bruno's turn"):
        game.play(Swap("Anna"))


def test_a_swap_goes_only_to_the_legal_target() -> None:
    game = table()
    game.play(Deal.of({"Anna": "3D", "Bruno": "9C", "Carla": "5S", "Dario": "2B"}))
    with pytest.raises(RuleError, match="Anna cannot swap with Bruno: Anna may swap with Carla"):
        game.play(Swap("Anna", target="Bruno"))
    game.play(Swap("Anna"))
    assert game.hand is not None and game.hand.cards["Carla"] == parse_card("3D")


def test_swapped_cards_travel_on() -> None:
    game = table()
    hand(game, "Anna 1D, Bruno 4C, Carla 6S, Dario 7B", "Anna swap, Bruno swap, Carla swap")
    assert last(game)["final"] == "Anna 4C Bruno 6S Carla 7B Dario 1D"
    assert last(game)["losers"] == ["Dario"]


def test_without_skip_wraps_a_walk_stops_at_the_dealer() -> None:
    game = table(skip_wraps=False)
    with pytest.raises(RuleError, match=r"hand 1: Carla cannot swap: Dario's Cavallo di Bastoni "
                       r"is jumped, then the walk would pass the dealer Dario \(skip_wraps off\)"):
        hand(game, "Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "Carla swap")


def test_the_player_before_the_dealer_may_swap_with_the_dealer() -> None:
    game = table(rules="classica")
    hand(game, "Anna 3D, Bruno 10C, Carla 5S, Dario 2B", "Carla swap")
    assert last(game)["swaps"] == [("Carla", "Dario")]
    assert last(game)["losers"] == ["Carla"]


def test_without_horse_chain_a_second_cavallo_means_no_swap() -> None:
    game = table(horse_chain=False)
    with pytest.raises(RuleError, match="Anna cannot swap: .* is a second Cavallo"):
        hand(game, "Anna 3D, Bruno 9C, Carla 9S, Dario 2B", "Anna swap")
    game = table()
    hand(game, "Anna 3D, Bruno 9C, Carla 9S, Dario 2B", "Anna swap")
    assert last(game)["swaps"] == [("Anna", "Dario")]


# -- the dealer's draw ---------------------------------------------------------------------------

def test_after_reveal_the_dealer_sees_every_card_then_draws() -> None:
    game = table()
    game.play(Deal.of({"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "1B"}))
    for player in ("Anna", "Bruno", "Carla"):
        game.play(Keep(player))
    assert game.phase is Phase.REVEAL
    with pytest.raises(RuleError, match="Dario cannot draw: the cards are to be revealed"):
        game.play(Draw("Dario", parse_card("6C")))
    game.play(Reveal.of({"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "1B"}))
    assert game.phase is Phase.DEALER and game.current_player == "Dario"
    game.play(Draw("Dario", parse_card("6C")))
    game.play(Settle())
    assert last(game)["losers"] == ["Anna"]


def test_a_blind_draw_comes_before_the_reveal() -> None:
    game = table(rules="classica")
    game.play(Deal.of({"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "1B"}))
    for player in ("Anna", "Bruno", "Carla"):
        game.play(Keep(player))
    assert game.phase is Phase.DEALER
    with pytest.raises(RuleError, match="Dario draws or keeps before the reveal"):
        game.play(Reveal.of({"Anna": "3D"}))
    game.play(Draw("Dario"))  # drawn face down, unseen
    game.play(Reveal.of({"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "10C"}))
    game.play(Settle())
    assert last(game)["final"] == "Anna 3D Bruno 4C Carla 5S Dario 10C"
    assert last(game)["losers"] == ["Anna"]


def test_the_dealer_keeps_what_he_draws() -> None:
    game = table()
    hand(game, "Anna 3D, Bruno 4C, Carla 5S, Dario 6B", "Dario draw", stock="1C")
    game.undo()  # back before the settle: the dealer has drawn
    with pytest.raises(RuleError, match="Dario cannot draw: the turns are over"):
        game.play(Draw("Dario", parse_card("7C")))


def test_a_dealer_showing_a_re_or_cavallo_does_not_draw() -> None:
    game = table()
    with pytest.raises(RuleError, match="hand 1: Dario cannot draw: Dario shows the Re di Bastoni "
                       "and takes no turn"):
        hand(game, "Anna 3D, Bruno 4C, Carla 5S, Dario 10B", "Dario draw", stock="1C")


def test_the_dealer_may_draw_the_loss_onto_himself() -> None:
    game = table()
    hand(game, "Anna 3D, Bruno 4C, Carla 5S, Dario 6B", "Dario draw", stock="1C")
    assert last(game)["losers"] == ["Dario"]
    assert last(game)["final"] == "Anna 3D Bruno 4C Carla 5S Dario 1C"


def test_the_drawn_card_must_not_be_on_the_table() -> None:
    game = table()
    with pytest.raises(RuleError, match="a card twice: 3D is in the stock and dealt to Anna"):
        hand(game, "Anna 3D, Bruno 4C, Carla 5S, Dario 6B", "Dario draw", stock="3D")


# -- the showdown --------------------------------------------------------------------------------

def test_a_tie_for_lowest_makes_all_of_them_pay() -> None:
    game = table()
    hand(game, "Anna 2D, Bruno 2C, Carla 5S, Dario 9B")
    assert last(game)["losers"] == ["Anna", "Bruno"] and game.pot == 2


def test_re_and_cavallo_never_pay_so_nobody_may_pay() -> None:
    game = table()
    hand(game, "Anna 10D, Bruno 9C, Carla 10S, Dario 9B")
    assert last(game)["losers"] == [] and game.pot == 0 and not last(game)["void"]
    assert game.next_dealer == "Anna"


def test_a_payment_that_would_leave_nobody_alive_is_void_and_the_same_dealer_deals_again() -> None:
    game = table(lives=1, players="Anna Bruno Carla", dealer="Carla")
    hand(game, "Anna 2D, Bruno 2C, Carla 2S")
    assert last(game)["void"] and last(game)["losers"] == [] and game.pot == 0
    assert game.next_dealer == "Carla"
    assert game.lives == {"Anna": 1, "Bruno": 1, "Carla": 1}


def test_a_tie_that_leaves_one_alive_is_not_void() -> None:
    game = table(players="Anna Bruno Carla", dealer="Carla", lives=1)
    hand(game, "Anna 2D, Bruno 2C, Carla 3S")
    assert not last(game)["void"] and game.outcome().winner == "Carla"


# -- unknown cards, the showdown and the deal ----------------------------------------------------

def test_unseen_cards_are_decided_by_the_showdown() -> None:
    game = table()
    hand(game, "Anna ?, Bruno 10C, Carla ?, Dario 9B", "Carla swap",
         showdown="Anna 5S, Bruno 10C, Carla 3D, Dario 9B")
    assert last(game)["losers"] == ["Carla"]


def test_an_unseen_card_without_a_showdown_cannot_be_settled() -> None:
    game = table()
    with pytest.raises(RuleError, match="hand 1: cannot settle: Anna's card is unknown"):
        hand(game, "Anna ?, Bruno 10C, Carla 4S, Dario 9B")


@pytest.mark.parametrize(
    ("deal", "turns", "showdown", "says"),
    [("Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "Carla swap",
      "Anna 5S, Bruno 3D, Carla 10C, Dario 9B",
      "Bruno shows 3D at the reveal, but Bruno's Re di Coppe was shown at the deal "
      r"\(a Re that moved\)"),
     ("Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "", "Anna 3D, Bruno 10C, Carla 6S, Dario 9B",
      r"Carla shows 6S at the reveal, but the deal and the swaps give Carla 5S"),
     ("Anna ?, Bruno 10C, Carla 5S, Dario 9B", "", "Anna 5S, Bruno 10C, Carla 5S, Dario 9B",
      "a card twice: Anna shows 5S"),
     ("Anna ?, Bruno 10C, Carla 5S, Dario 9B", "", "Anna 9S, Bruno 10C, Carla 5S, Dario 9B",
      "Anna's face-down card is the Cavallo di Spade, but a Re or a Cavallo is shown"),
     ("Anna 3D, Bruno 3D, Carla 5S, Dario 9B", "", "", "a card twice: 3D is dealt twice")],
)
def test_the_showdown_must_agree_with_the_deal(deal: str, turns: str, showdown: str,
                                               says: str) -> None:
    game = table()
    with pytest.raises(RuleError, match=says):
        hand(game, deal, turns, showdown)


def test_a_rejected_reveal_changes_nothing() -> None:
    game = table()
    game.play(Deal.of({"Anna": "?", "Bruno": "?", "Carla": "5S", "Dario": "9B"}))
    game.play(Keep("Anna"))
    game.play(Keep("Bruno"))
    game.play(Keep("Carla"))
    with pytest.raises(RuleError, match="a card twice"):
        game.play(Reveal.of({"Anna": "2C", "Bruno": "2C"}))
    assert game.hand is not None and game.hand.cards["Anna"] is None and not game.hand.revealed


# -- lives, death, revive, the end ---------------------------------------------------------------

def test_the_dead_get_no_card_and_are_ignored_by_walls_jumps_and_the_deal() -> None:
    game = table(players="Anna Bruno Carla Dario Elena", dealer="Elena", lives=1)
    hand(game, "Anna 5D, Bruno 1C, Carla 6S, Dario 7B, Elena 8B")
    assert game.alive() == ["Anna", "Carla", "Dario", "Elena"] and game.next_dealer == "Anna"
    with pytest.raises(RuleError, match="hand 2: Bruno is dead and gets no card"):
        hand(game, "Anna 5D, Bruno 1C, Carla 6S, Dario 7B, Elena 8B")
    # Anna deals: Carla plays first, and Elena's neighbour is Anna (Bruno's seat is skipped).
    game.play(Deal.of({"Anna": "5D", "Carla": "6S", "Dario": "7B", "Elena": "8B"}))
    assert game.current_player == "Carla"
    assert game.target("Elena").target == "Anna"
    assert game.target("Dario").target == "Elena"
    with pytest.raises(RuleError, match="hand 2: Bruno cannot keep: Bruno is dead"):
        game.play(Keep("Bruno"))


def test_a_dead_player_is_revived_with_a_life_from_a_living_one() -> None:
    game = table(lives=1, players="Anna Bruno Carla Dario Elena", dealer="Dario")
    hand(game, "Anna 5D, Bruno 1C, Carla 6S, Dario 7B, Elena 8B", revive="Bruno Carla")
    assert game.lives == {"Anna": 1, "Bruno": 1, "Carla": 0, "Dario": 1, "Elena": 1}
    assert game.pot == 1 and game.next_dealer == "Elena"


def test_a_revived_player_can_be_the_next_dealer() -> None:
    game = table(lives=1, players="Anna Bruno Carla Dario", dealer="Dario")
    hand(game, "Anna 1D, Bruno 5C, Carla 6S, Dario 7B")
    assert game.next_dealer == "Bruno"
    game.play(Revive("Anna", "Carla"))
    assert game.next_dealer == "Anna" and game.alive() == ["Anna", "Bruno", "Dario"]


@pytest.mark.parametrize(
    ("rules", "revive", "says"),
    [("napoli", ("Carla", "Anna"), "Carla cannot be revived: Carla is not dead"),
     ("napoli", ("Anna", "Anna"), "Anna cannot give Anna a life: Anna is dead"),
     ("classica", ("Anna", "Bruno"), "Anna cannot be revived: revival is off"),
     ("napoli", ("Anna", "Zeno"), "Zeno is not at the table")],
)
def test_illegal_revives(rules: str, revive: tuple[str, str], says: str) -> None:
    game = table(lives=1, rules=rules)
    hand(game, "Anna 1D, Bruno 5C, Carla 6S, Dario 7B")
    with pytest.raises(RuleError, match=f"hand 1: {says}"):
        game.play(Revive(*revive))


def test_a_revive_is_recorded_between_hands_only() -> None:
    game = table(lives=1)
    hand(game, "Anna 1D, Bruno 5C, Carla 6S, Dario 7B")
    game.play(Deal.of({"Bruno": "5C", "Carla": "6S", "Dario": "7B"}))
    with pytest.raises(RuleError, match="a revive is recorded between hands"):
        game.play(Revive("Anna", "Bruno"))


def test_the_final_two_play_out_for_the_whole_pot() -> None:
    game = table(players="Anna Bruno Carla", dealer="Carla", lives=1)
    hand(game, "Anna 1D, Bruno 5C, Carla 6S")
    assert game.outcome() is None and game.alive() == ["Bruno", "Carla"]
    hand(game, "Bruno 2C, Carla 9S")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "Carla" and outcome.pot == 2
    assert game.phase is Phase.OVER and game.next_dealer is None
    with pytest.raises(RuleError, match="hand 3: the game is over: Carla won the pot"):
        hand(game, "Carla 3C")


def test_under_split_the_game_stops_at_two_and_rejects_another_hand() -> None:
    game = table(players="Anna Bruno Carla", dealer="Carla", lives=1, final_two="split")
    hand(game, "Anna 1D, Bruno 5C, Carla 6S")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.survivors == ("Bruno", "Carla")
    with pytest.raises(RuleError, match="hand 2: the game is over: Bruno and Carla split the pot"):
        hand(game, "Bruno 2C, Carla 9S")


# -- dealer rotation -----------------------------------------------------------------------------

def test_the_deal_passes_to_the_right_every_hand() -> None:
    game = table()
    dealers = []
    for _ in range(5):
        hand(game, "Anna 10D, Bruno 9C, Carla 10S, Dario 9B")
        dealers.append(last(game)["dealer"])
    assert dealers == ["Dario", "Anna", "Bruno", "Carla", "Dario"]


def test_until_stock_short_the_dealer_deals_on_from_the_same_stock() -> None:
    game = table(lives=9, dealer_rotation="until_stock_short")
    hands = ["Anna 1D, Bruno 2D, Carla 3D, Dario 4D", "Anna 5D, Bruno 6D, Carla 7D, Dario 8D",
             "Anna 1C, Bruno 2C, Carla 3C, Dario 4C", "Anna 5C, Bruno 6C, Carla 7C, Dario 8C",
             "Anna 1S, Bruno 2S, Carla 3S, Dario 4S", "Anna 5S, Bruno 6S, Carla 7S, Dario 8S",
             "Anna 1B, Bruno 2B, Carla 3B, Dario 4B"]
    dealers = []
    for deal in hands:
        hand(game, deal)
        dealers.append(last(game)["dealer"])
        # 40 cards: each hand uses 4, one more is kept for the draw
    assert dealers == ["Dario"] * 7
    # 28 used, 12 left: one more hand of 4 plus a draw fits...
    assert game.next_dealer == "Dario"
    with pytest.raises(RuleError, match="hand 8: a card twice: Anna's 1D was already played"):
        hand(game, "Anna 1D, Bruno 6B, Carla 7B, Dario 8B")
    hand(game, "Anna 5B, Bruno 6B, Carla 7B, Dario 8B", "Dario draw", stock="9D")
    # 33 used, 7 left: still enough for 4 + 1; then 37 used, 3 left: the deal passes.
    hand(game, "Anna 10D, Bruno 10C, Carla 10S, Dario 10B")
    assert game.next_dealer == "Anna"
    hand(game, "Anna 1D, Bruno 2D, Carla 3D, Dario 4D")  # a fresh shuffle
    assert last(game)["dealer"] == "Anna"


# -- undo ----------------------------------------------------------------------------------------

def test_undo_takes_back_the_last_event_exactly() -> None:
    game = table()
    hand(game, "Anna 3D, Bruno 10C, Carla 5S, Dario 9B", "Carla swap")
    before = (dict(game.lives), game.pot, game.next_dealer, len(game.results))
    game.play(Deal.of({"Anna": "1D", "Bruno": "2D", "Carla": "3D", "Dario": "4D"}))
    game.play(Swap("Bruno"))
    assert game.undo() == Swap("Bruno")
    assert game.current_player == "Bruno"
    game.undo()
    assert (dict(game.lives), game.pot, game.next_dealer, len(game.results)) == before
    assert game.undo() == Settle()
    assert game.pot == 0 and game.phase is Phase.SETTLE
    while game.history:
        game.undo()
    with pytest.raises(RuleError, match="nothing to undo"):
        game.undo()


@pytest.mark.parametrize(
    ("players", "says"),
    [(["Anna", "Bruno"], "a table has 3 to 20 players, not 2"),
     ([f"P{i}" for i in range(21)], "not 21"),
     (["Anna", "Anna", "Bruno"], "two players have the same name"),
     (["Anna", "", "Bruno"], "a player needs a name")],
)
def test_the_table(players: list[str], says: str) -> None:
    with pytest.raises(RuleError, match=says):
        Game(players)
