"""Cards: codes, data-set slugs, Italian and English names, and clear errors."""

import pytest

from referee.cards import DECK, Card, CardError, Suit, parse_card


@pytest.mark.parametrize(
    ("text", "value", "suit"),
    [("9S", 9, Suit.SPADE), ("spade-09", 9, Suit.SPADE), ("1D", 1, Suit.DENARI),
     ("10B", 10, Suit.BASTONI), ("bastoni-10", 10, Suit.BASTONI), ("8c", 8, Suit.COPPE),
     (" 3D ", 3, Suit.DENARI), ("DENARI-01", 1, Suit.DENARI)],
)
def test_both_spellings_parse(text: str, value: int, suit: Suit) -> None:
    assert parse_card(text) == Card(value, suit)


@pytest.mark.parametrize(
    ("code", "italian", "english"),
    [("9S", "Cavallo di Spade", "Knight of Swords"), ("1D", "Asso di Denari", "Ace of Coins"),
     ("8C", "Fante di Coppe", "Knave of Cups"), ("10B", "Re di Bastoni", "King of Clubs"),
     ("7D", "Sette di Denari", "7 of Coins")],
)
def test_names(code: str, italian: str, english: str) -> None:
    card = parse_card(code)
    assert (card.italian, card.english, card.code) == (italian, english, code)


@pytest.mark.parametrize(
    ("text", "says"),
    [("11D", "unknown card code '11D'"), ("0C", "unknown card code '0C'"),
     ("9X", "unknown card code '9X'"), ("", "empty card code"), ("?", "a seen card is required"),
     ("spade-11", "unknown card code 'spade-11'")],
)
def test_anything_else_is_a_clear_error(text: str, says: str) -> None:
    with pytest.raises(CardError, match=says):
        parse_card(text)


def test_the_deck_has_forty_distinct_cards_and_codes_round_trip() -> None:
    assert len(set(DECK)) == 40
    for card in DECK:
        assert parse_card(card.code) == card == parse_card(card.slug)
        assert hash(card) == hash(Card(card.value, card.suit))


def test_the_re_is_a_wall_the_cavallo_a_horse_and_both_show_at_the_deal() -> None:
    assert [c.code for c in DECK if c.is_wall] == ["10D", "10C", "10S", "10B"]
    assert [c.code for c in DECK if c.is_horse] == ["9D", "9C", "9S", "9B"]
    assert [c.code for c in DECK if c.shows] == ["9D", "10D", "9C", "10C", "9S", "10S", "9B",
                                                 "10B"]
    assert not parse_card("8C").shows  # the Fante is dealt face down like any other
