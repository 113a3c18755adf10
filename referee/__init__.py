"""The rules of Saltacavallo, standard library only."""

from referee.cards import Card, CardError, Suit, parse_card

__all__ = ["Card", "CardError", "Suit", "parse_card"]
