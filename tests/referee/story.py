"""The controller's stories: what the camera sees, line by line, as the controller is shown it.

A story line is the table in the game's notation, `Anna down#1 Bruno 10C#2 Carla - Dario 9B#4`
(after a seat `+`: a second card beside it; `~`: its card under a hand, not read in this
frame; `aside down#4`: a card lying at no seat). Each line holds until the next one, and the
controller is shown it as a camera at FPS pictures a second would.
"""

import weakref
from typing import Any

from referee.events import ChooseDealer
from referee.game import Game
from referee.observation import TableObservation
from referee.observe import Controller
from referee.rules import find_rules

FPS = 15
"""Pictures a second of the camera the stories are filmed with."""
_LAST: "weakref.WeakKeyDictionary[Controller, tuple[float, str]]" = weakref.WeakKeyDictionary()


def seats(text: str) -> dict[str, str]:
    """`Anna down#1 Bruno 10C#2` as a seat map (after a seat `+`: a second card beside it; `~`:
    its card under a hand, not read in this frame; `aside down#4`: a card lying at no seat)."""
    words = text.split()
    return {name: view.rstrip("+~") for name, view in zip(words[::2], words[1::2], strict=True)
            if name != "aside"}


def aside(text: str) -> tuple[str, ...]:
    """The cards of a story line lying at no seat: `aside down#4`."""
    words = text.split()
    return tuple(view for name, view in zip(words[::2], words[1::2], strict=True)
                 if name == "aside")


def marked(text: str, mark: str) -> tuple[str, ...]:
    """The seats of a story line written with a mark after them: `Nadia down#7+`."""
    words = text.split()
    return tuple(name for name, view in zip(words[::2], words[1::2], strict=True)
                 if view.endswith(mark) and name != "aside")


def table(players: str = "Anna Bruno Carla Dario", dealer: str | None = "Dario",
          lives: int | None = None, rules: str = "napoli", **switches: Any) -> Game:
    chosen = find_rules(rules).replace(**switches) if switches else rules
    game = Game(players.split(), chosen, lives)
    if dealer:
        game.play(ChooseDealer(dealer))
    return game


def filmed(story: list[tuple[float, str]], last: tuple[float, str] | None = None,
           fps: float | None = None) -> list[tuple[float, str]]:
    """The story's lines as a camera at `fps` (FPS) sees them: each line, held until the next
    one (from `last`, the line shown before), in a picture every 1/fps seconds."""
    step = 1.0 / (fps or FPS)
    frames: list[tuple[float, str]] = []
    for at, line in story:
        if last is not None:
            start, held = last
            k = 1
            while start + k * step < at - 1e-9:
                frames.append((start + k * step, held))
                k += 1
        frames.append((at, line))
        last = (at, line)
    return frames


def observation(at: float, line: str) -> TableObservation:
    return TableObservation.of(at, seats(line), elsewhere=aside(line),
                               crowded=marked(line, "+"), hidden=marked(line, "~"))


def tell(controller: Controller, story: list[tuple[float, str]],
         fps: float | None = None) -> list[dict[str, Any]]:
    """Show the controller each (time, seats) line, filmed at `fps` (FPS) from the line shown it
    before; return all it said, as JSON lines."""
    said = []
    for at, line in filmed(story, _LAST.get(controller), fps):
        said += [item.to_json() for item in controller.observe(observation(at, line))]
    if story:
        _LAST[controller] = story[-1]
    return said


def kinds(said: list[dict[str, Any]]) -> list[str]:
    return [line["event"] for line in said]
