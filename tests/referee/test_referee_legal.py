"""The legality query: what is legal now, and why not, asked without changing the game."""

import ast
import random
from pathlib import Path

import pytest

from referee.cards import parse_card
from referee.events import (
    ChooseDealer,
    Deal,
    Draw,
    Event,
    FaceUp,
    Keep,
    Leave,
    Reveal,
    Revive,
    Settle,
    Swap,
)
from referee.game import Game, RuleError
from referee.record import replay_output
from referee.simulate import game_events, random_game
from referee.walk import Stop


def worked_example(rules: str = "napoli") -> Game:
    game = Game(["Anna", "Bruno", "Carla", "Dario"], rules)
    game.play(ChooseDealer("Dario"))
    game.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}))
    return game


def test_the_legal_moves_of_the_worked_example_step_by_step() -> None:
    game = Game(["Anna", "Bruno", "Carla", "Dario"])
    assert game.legal_moves() == [ChooseDealer(p) for p in game.players] + [
        Leave(p) for p in game.players]
    game.play(ChooseDealer("Dario"))
    assert game.legal_moves() == [Leave(p) for p in game.players]  # the deal needs cards
    game.play(Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S", "Dario": "9B"}))
    assert game.legal_moves() == [Keep("Anna")]  # Bruno's Re is a wall
    game.play(Keep("Anna"))
    assert game.legal_moves() == [Keep("Carla"), Swap("Carla", "Anna")]
    game.play(Swap("Carla", "Anna"))
    assert game.legal_moves() == []  # the reveal needs the cards seen
    game.play(Reveal.of({"Anna": "5S", "Bruno": "10C", "Carla": "3D", "Dario": "9B"}))
    assert game.legal_moves() == [Settle()]  # Dario's Cavallo: no draw
    game.play(Settle())
    assert game.legal_moves() == [Leave(p) for p in game.players]  # nobody is dead


def test_the_dealer_keeps_or_draws_and_the_dead_are_revived_by_any_living_player() -> None:
    game = Game(["Anna", "Bruno", "Carla"], lives=1)
    game.play(ChooseDealer("Carla"))
    game.play(Deal.of({"Anna": "1D", "Bruno": "4C", "Carla": "6S"}))
    game.play_all([Keep("Anna"), Keep("Bruno"), Reveal.of({"Anna": "1D", "Bruno": "4C",
                                                          "Carla": "6S"})])
    assert game.legal_moves() == [Keep("Carla"), Draw("Carla")]
    game.play(Keep("Carla"))
    game.play(Settle())
    assert game.legal_moves() == [Revive("Anna", "Bruno"), Revive("Anna", "Carla"), Leave("Anna")]


@pytest.mark.parametrize(
    ("event", "says"),
    [(Swap("Anna"), "hand 1: Anna cannot swap: Bruno shows the Re di Coppe (wall)"),
     (Keep("Carla"), "hand 1: Carla cannot keep: it is Anna's turn"),
     (Draw("Dario"), "hand 1: Dario cannot draw: Dario shows the Cavallo di Bastoni and takes "
                     "no turn"),
     (Settle(), "hand 1: cannot settle: it is Anna's turn"),
     (FaceUp("Anna", parse_card("2D")), "hand 1: the first dealer is already chosen: Dario"),
     (Revive("Anna", "Bruno"), "hand 1: Anna cannot be revived now: a revive is recorded "
                               "between hands"),
     (Leave("Anna"), "hand 1: Anna cannot leave now: players leave between hands")],
)
def test_why_illegal_gives_the_rule_and_changes_nothing(event: Event, says: str) -> None:
    game = worked_example()
    before = (list(game.history), game.current_player, replay_output(game))
    assert game.why_illegal(event) == says and not game.is_legal(event)
    assert (list(game.history), game.current_player, replay_output(game)) == before
    with pytest.raises(RuleError) as caught:
        game.play(event)
    assert str(caught.value) == says


def test_a_legal_event_is_legal_and_not_played_by_asking() -> None:
    game = worked_example()
    assert game.is_legal(Keep("Anna")) and game.why_illegal(Keep("Anna")) is None
    assert game.current_player == "Anna" and len(game.history) == 2


def test_every_event_of_random_games_was_legal_the_moment_before_it_was_played() -> None:
    rng = random.Random(99)
    for _ in range(200):
        source = random_game(rng)
        list(game_events(source, rng, seats=0.2))
        game = Game(source.first_players, source.rules)
        for event in source.history:
            assert game.why_illegal(event) is None, event
            moves = game.legal_moves()
            assert all(game.is_legal(move) for move in moves)
            if isinstance(event, (Keep, Swap, Settle, Revive, Leave, ChooseDealer)) or (
                    isinstance(event, Draw) and event.card is None):
                assert event in moves or (isinstance(event, Swap) and event.target is None)
            game.play(event)
        assert replay_output(game) == replay_output(source)


# -- a swap seen between two seats, or a draw, asked of the game (everyone due before keeping) ---

@pytest.mark.parametrize(
    ("a", "b", "answer"),
    [("Carla", "Anna", Swap("Carla", "Anna")),  # Anna keeps first: her walk ends at Bruno's Re
     ("Anna", "Carla", Swap("Carla", "Anna")),  # the pair in either order
     ("Anna", "Bruno", "hand 1: Anna cannot swap: Bruno shows the Re di Coppe (wall)"),
     ("Bruno", "Carla", "hand 1: Carla cannot swap with Bruno: Carla may swap with Anna: "
                        "Dario's Cavallo di Bastoni is jumped"),
     ("Dario", "Bruno", "hand 1: Dario cannot swap: the dealer never swaps, drawing is the "
                        "dealer's only move")],
    ids=["found", "either order", "walled", "not the target", "the dealer"])
def test_a_swap_between_two_seats_is_found_or_refused_with_the_game_s_reason(
        a: str, b: str, answer: Swap | str) -> None:
    game = worked_example()
    if isinstance(answer, Swap):
        assert game.find_swap(a, b) == answer
    else:
        with pytest.raises(RuleError) as caught:
            game.find_swap(a, b)
        assert str(caught.value) == answer
    assert len(game.history) == 2  # asking plays nothing


def test_a_swap_refused_of_a_player_not_due_is_the_game_s_refusal_of_it_now() -> None:
    game = worked_example()
    game.play(Keep("Anna"))
    with pytest.raises(RuleError) as caught:
        game.find_swap("Anna", "Bruno")
    assert caught.value.code == "turn.over" and caught.value.player == "Anna"


def test_a_blind_draw_is_found_once_everyone_due_keeps_and_refused_before_the_reveal() -> None:
    game = worked_example("classica")  # blind draw, Dario's Cavallo: he takes no move
    with pytest.raises(RuleError) as caught:
        game.find_draw("Dario")
    assert caught.value.code == "turn.shown"
    game = Game(["Anna", "Bruno", "Carla", "Dario"], "classica")
    game.play(ChooseDealer("Dario"))
    game.play(Deal.of({"Anna": "3D", "Bruno": "4C", "Carla": "5S", "Dario": "6B"}))
    assert game.find_draw("Dario") == Draw("Dario")  # Anna, Bruno and Carla keep first
    with pytest.raises(RuleError) as caught:
        game.find_draw("Carla")
    assert caught.value.code == "draw.not_dealer"
    with pytest.raises(RuleError) as caught:
        worked_example().find_draw("Dario")  # napoli: the dealer draws after the reveal
    assert caught.value.code == "draw.before_reveal" and caught.value.params == {"dealer": "Dario"}


# -- the game alone refuses: no rule of the game is worded anywhere else ------------------------

ROOT = Path(__file__).resolve().parents[2]
GAME = ("referee/game.py", "referee/walk.py")
"""The game and the walk its swaps follow: the only places its refusals are made."""
NOT_THE_GAME_S = {
    ("referee/record.py", "record.no_turn"), ("referee/record.py", "record.stock_dealt"),
    ("referee/record.py", "record.stock_twice"), ("referee/record.py", "record.stock_shown"),
    ("referee/store.py", None), ("webui/table.py", "table.first_dealer"),
}
"""The RuleErrors made outside the game, none a rule of the game's: what a hand record says that
no game event can (a stock dealt twice), the store's word on a refusal another writer's events
caused (its code chosen, the game's refusal inside), a first dealer named off the table."""


def _first_code(call: ast.Call) -> str | None:
    """The code a call names: its first argument, or its `code=`, as a plain string."""
    named = [kw.value for kw in call.keywords if kw.arg == "code"]
    for node in [*call.args[:1], *named]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
    return None


def _calls(path: Path) -> list[tuple[str, ast.Call]]:
    """Every call in `path`, with the name it calls (`RuleError`, `Message`, `self._error`...)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", ""),
             node) for node in ast.walk(tree) if isinstance(node, ast.Call)]


def game_codes() -> set[str]:
    """Every refusal code the game raises (its walk's reasons included)."""
    codes = {f"walk.{stop.value}" for stop in Stop}
    for name in GAME:
        codes |= {code for called, call in _calls(ROOT / name)
                  if called in ("RuleError", "_error", "Message")
                  and (code := _first_code(call)) is not None}
    return codes


def test_no_refusal_of_the_game_is_made_outside_the_game() -> None:
    game = game_codes()
    assert {"swap.not_target", "draw.before_reveal", "walk.wall", "undo.nothing"} <= game
    made: set[tuple[str, str | None]] = set()
    worded: list[tuple[str, str]] = []
    for folder in ("referee", "vision", "webui", "benchmarks", "models"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in GAME:
                continue
            for called, call in _calls(path):
                code = _first_code(call)
                if called == "RuleError":
                    made.add((name, code))
                if code in game:
                    worded.append((name, code))
    assert worded == []  # a rule of the game's named again: ask the game (`Game.find_swap`...)
    assert made - NOT_THE_GAME_S == set()  # a RuleError made outside the game
