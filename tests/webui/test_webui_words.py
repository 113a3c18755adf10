"""The page's Italian fits every player: no he or she where the name can be anyone's, and the
articles and prepositions a family would say."""

from __future__ import annotations

import re

import pytest

from referee.cards import parse_card
from referee.events import ChooseDealer, Correct, Deal, FaceUp, Join, Leave, Revive
from webui.words import PAGE_WORDS, event_words

GENDERED = re.compile(r"\b(lui|lei|gli|le dà|egli|ella|suo marito|sua moglie)\b", re.IGNORECASE)
"""Words that take a side on whether a player is a man or a woman."""


def test_no_word_of_the_italian_page_says_he_or_she() -> None:
    assert {key: text for key, text in PAGE_WORDS["it"].items() if GENDERED.search(text)} == {}


def test_both_languages_have_every_word() -> None:
    assert PAGE_WORDS["it"].keys() == PAGE_WORDS["en"].keys()


@pytest.mark.parametrize("event, italian", [
    (FaceUp("Lucia", parse_card("1D")), "Lucia riceve scoperto l'Asso di Denari"),
    (FaceUp("Marco", parse_card("3C")), "Marco riceve scoperto il Tre di Coppe"),
    (ChooseDealer("Rosa"), "Rosa fa le carte per cominciare"),
    (Deal.of({"Anna": "3D", "Bruno": "10C", "Carla": "5S"}), "Si danno le carte"),
    (Revive("Anna", "Bruno"), "Bruno dà una vita ad Anna"),
    (Revive("Elena", "Bruno"), "Bruno dà una vita a Elena"),
    (Correct("Nadia", parse_card("1S")), "La carta di Nadia è l'Asso di Spade (corretta)"),
    (Join("Zoe", "Anna"), "Zoe si siede al tavolo prima di Anna"),
    (Leave("Paolo"), "Paolo si alza dal tavolo"),
])
def test_each_event_is_said_as_a_family_says_it(event: object, italian: str) -> None:
    assert event_words(event)[1] == italian
