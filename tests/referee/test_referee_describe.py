"""The page's tally: every seat, what it may do now and why, said in English and Italian."""

from referee.describe import tally
from referee.events import ChooseDealer, Deal, Keep, Reveal, Settle, Swap
from referee.game import Game


def seats(game: Game) -> dict[str, tuple[tuple[str, ...], str]]:
    return {seat.player: (seat.may, seat.why.words("en")) for seat in tally(game).seats}


def test_the_worked_example_seat_by_seat() -> None:
    game = Game(["Anna", "Bruno", "Carla", "Dario"])
    game.play(ChooseDealer("Dario"))
    assert tally(game).says.words("en") == "Hand 1: Dario deals"
    assert seats(game)["Dario"] == (("deal",), "Dario deals the next hand")
    game.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}))
    view = tally(game)
    assert (view.says.words("en"), view.says.words("it")) == ("Hand 1: Anna's turn",
                                                             "Mano 1: tocca ad Anna")
    assert seats(game) == {
        "Anna": (("keep",), "Anna's turn: Anna cannot swap: Bruno shows the Re di Coppe (wall);"
                            " keep only"),
        "Bruno": ((), "Bruno shows the Re di Coppe: a wall, safe this hand, no turn"),
        "Carla": ((), "waits: then Carla may swap with Anna: Dario's Cavallo di Bastoni is jumped"),
        "Dario": ((), "Dario shows the Cavallo di Bastoni: jumped, safe this hand, no turn"),
    }
    carla = next(seat for seat in view.seats if seat.player == "Carla")
    assert carla.why.words("it") == ("aspetta: poi Carla può scambiare con Anna: "
                                      "salta il Cavallo di Bastoni di Dario")
    assert carla.target == "Anna"
    game.play(Keep("Anna"))
    assert seats(game)["Carla"][0] == ("keep", "swap")
    game.play(Swap("Carla"))
    game.play(Reveal.of({"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}))
    assert {seat.player: seat.shown for seat in tally(game).seats} == {
        "Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}
    assert seats(game)["Carla"][1] == "Carla swapped with Anna"
    game.play(Settle())
    view = tally(game)
    assert view.pot == 1 and view.dealer == "Anna" and view.says.words("en") == "Hand 2: Anna deals"


def test_the_dealers_choice_and_the_dead() -> None:
    game = Game(["Anna", "Bruno", "Carla"], "classica", lives=1)
    game.play(ChooseDealer("Carla"))
    game.play(Deal.of({"Anna": "1D", "Bruno": "4C", "Carla": "6S"}))
    game.play(Keep("Anna"))
    game.play(Keep("Bruno"))
    carla = next(seat for seat in tally(game).seats if seat.player == "Carla")
    assert carla.may == ("keep", "draw") and "blind, before the reveal" in carla.why.words("en")
    game.play(Keep("Carla"))
    game.play(Reveal.of({"Anna": "1D", "Bruno": "4C", "Carla": "6S"}))
    game.play(Settle())
    anna = next(seat for seat in tally(game).seats if seat.player == "Anna")
    assert (anna.alive, anna.may) == (False, ())
    assert anna.why.words("it") == "Anna non ha più vite: niente carta, niente turno"
