"""The page's Italian fits every player: no he or she where the name can be anyone's, and the
articles and prepositions a family would say."""

from __future__ import annotations

import re
import string

import pytest

from referee.cards import parse_card
from referee.events import ChooseDealer, Correct, Deal, FaceUp, Join, Leave, Revive
from webui.words import PAGE_WORDS, page_words, say, told

GENDERED = re.compile(r"\b(lui|lei|gli|le dà|egli|ella|suo marito|sua moglie)\b", re.IGNORECASE)
"""Words that take a side on whether a player is a man or a woman."""


def test_no_word_of_the_italian_page_says_he_or_she() -> None:
    assert {key: text for key, text in page_words("it").items() if GENDERED.search(text)} == {}


def test_every_word_of_the_pages_is_a_code_in_both_languages() -> None:
    assert {code: sorted(said) for code, said in PAGE_WORDS.items()
            if not code.startswith("page.") or sorted(said) != ["en", "it"]} == {}
    assert page_words("it").keys() == page_words("en").keys() == {
        code.removeprefix("page.") for code in PAGE_WORDS}


def test_the_pages_are_worded_by_the_one_engine() -> None:
    assert (say("page.ev_title", {}, "it"), say("page.ev_title", {}, "en")) == ("Serata", "Evening")
    assert page_words("it")["pot"] == "Piatto" and page_words("en")["pot"] == "Pot"
    assert page_words("xx") == page_words("it")  # Italian first


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
    assert told(event).words("it") == italian


def test_a_page_word_names_the_same_fields_in_both_languages() -> None:
    def named(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    assert {code for code, said in PAGE_WORDS.items() if named(said["it"]) != named(said["en"])} \
        == set()
    assert named(page_words("en")["phone_size"]) == {"width", "height"}
