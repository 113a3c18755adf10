"""The card locator: every card-like quadrilateral in a frame (`locate_cards`), found on a downscaled copy.
A reader that need not finish every quad takes them rough (`rough_quads`) and finishes those it reads (`finish`);
it may have the outlines lying inside a card-shaped one held back, and scored only when that one is not a card
it named (`held_quads`).

The search runs in steps, one module each: the cue maps (`cues`), the outlines in them (`outlines`),
the quads they may stand for, scored (`candidates`, fitted by `fitting`), the checked cloth told from
cards (`cloth`), the sides snapped at full resolution (`snap`) and the quads made whole (`finish`);
`geometry` holds what they share about quads, `config` the settings.
"""

from vision.locate.cloth import shows_checked_cloth
from vision.locate.config import LocatorConfig
from vision.locate.core import RoughQuads, Whole, held_quads, locate_cards, rough_quads, whole_of
from vision.locate.finish import finish

__all__ = ["LocatorConfig", "RoughQuads", "Whole", "finish", "held_quads", "locate_cards", "rough_quads", "shows_checked_cloth", "whole_of"]
