"""The web page's card faces: the committed files are the deck's drawing, card for card."""

from __future__ import annotations

from pathlib import Path

from art.page_cards import PAGE_CARDS, main, page_cards
from webui.pages import CARDS


def test_the_page_serves_the_folder_the_cards_are_drawn_into() -> None:
    assert CARDS == PAGE_CARDS


def test_every_committed_card_is_what_the_deck_draws_for_its_code() -> None:
    drawn = page_cards()
    assert len(drawn) == 41 and {"9S.svg", "10D.svg", "1B.svg", "back.svg"} <= set(drawn)
    assert sorted(path.name for path in PAGE_CARDS.iterdir()) == sorted(drawn)
    for name, svg in drawn.items():
        assert (PAGE_CARDS / name).read_text(encoding="utf-8") == svg, f"{name}: run python -m art.page_cards"


def test_the_command_draws_the_cards_into_the_folder_given(tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path / "cards")]) == 0
    assert "wrote 41 cards" in capsys.readouterr().out
    assert sorted(path.name for path in (tmp_path / "cards").iterdir()) == sorted(page_cards())


def test_the_command_says_in_one_line_why_it_cannot_write(tmp_path: Path, capsys) -> None:
    (tmp_path / "cards").write_text("not a folder")
    assert main([str(tmp_path / "cards")]) == 2
    assert capsys.readouterr().err == (f"python -m art.page_cards: {tmp_path / 'cards'}: "
                                       "a file of that name is in the way: not a directory\n")
