"""The rules of Saltacavallo, standard library only."""

from referee.cards import DECK, Card, CardError, Suit, parse_card
from referee.events import (
    ChooseDealer,
    Correct,
    Deal,
    Draw,
    Event,
    EventError,
    FaceUp,
    Join,
    Keep,
    Leave,
    Reveal,
    Revive,
    Settle,
    Swap,
)
from referee.game import Game, Outcome, Phase, RuleError
from referee.rules import (
    PRESETS,
    DealerDraw,
    DealerRotation,
    DealerSelection,
    FinalTwo,
    Revival,
    Rules,
    RulesError,
    find_rules,
)
from referee.walk import Jump, Stop, SwapTarget, Wall

__all__ = [
    "DECK", "Card", "CardError", "Suit", "parse_card",
    "ChooseDealer", "Correct", "Deal", "Draw", "Event", "EventError", "FaceUp", "Join", "Keep", "Leave", "Reveal",
    "Revive", "Settle", "Swap",
    "Game", "Outcome", "Phase", "RuleError",
    "PRESETS", "Rules", "RulesError", "find_rules",
    "DealerDraw", "DealerRotation", "DealerSelection", "FinalTwo", "Revival",
    "Jump", "Stop", "SwapTarget", "Wall",
]
