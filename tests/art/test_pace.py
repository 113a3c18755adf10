"""Films played at a pace: pauses drawn within it, cards collected when it says, peeks and early endings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from art.pace import BRISK, FILMED, SLOW, USUAL, Pace
from art.sequences import CUT_END, FPS, ILLEGAL, SAMPLE_HAND, GameScript, HandScript, narration, shots


def _paced(pace: Pace, ending: str | None = None, **hand: object) -> GameScript:
    return replace(SAMPLE_HAND, pace=pace, ending=ending,
                   hands=(replace(SAMPLE_HAND.hands[0], **hand),) if hand else SAMPLE_HAND.hands)


def _runs(script: GameScript) -> list[tuple[str, str, bool, int]]:
    """(phase, note, still, frames) of each run of frames showing one state."""
    runs: list[tuple[str, str, bool, int]] = []
    for shot in shots(script)[0]:
        if runs and runs[-1][:3] == (shot.phase, shot.note, shot.still):
            runs[-1] = (*runs[-1][:3], runs[-1][3] + 1)
        else:
            runs.append((shot.phase, shot.note, shot.still, 1))
    return runs


def test_the_sample_films_keep_their_fixed_timings() -> None:
    assert SAMPLE_HAND.pace is FILMED and FILMED.filmed
    assert len(shots(SAMPLE_HAND)[0]) == 342  # the committed film's frames


@pytest.mark.parametrize("pace", [BRISK, USUAL, SLOW], ids=lambda p: p.name)
def test_each_pause_between_cards_dealt_lies_within_the_pace(pace: Pace) -> None:
    pauses = [frames for phase, note, still, frames in _runs(_paced(pace))
              if still and note.endswith(" has a card") and not note.startswith("every")]
    assert len(pauses) == 5
    lo, hi = pace.pause
    assert all(round(lo * FPS) <= frames <= round(hi * FPS) for frames in pauses)


def test_a_brisk_swap_begins_a_fraction_of_a_second_after_the_last_card_lands() -> None:
    runs = _runs(_paced(BRISK))
    swap = next(i for i, run in enumerate(runs) if run[0] == "swap")
    waited = sum(run[3] for run in runs[swap - 2 : swap] if run[2])  # the last card's pause and the deal's
    assert waited <= 2 * round(0.4 * FPS)


def test_brisk_cards_are_collected_a_second_or_so_after_the_last_card_is_shown() -> None:
    runs = _runs(_paced(BRISK, "collect"))
    collect = next(i for i, run in enumerate(runs) if run[0] == "collect")
    wait = runs[collect - 1]
    assert wait[1] == "the table waits for the settlement"
    assert round(1.0 * FPS) <= wait[3] <= round(1.5 * FPS)


def test_a_film_cut_short_stops_within_seconds_of_the_reveal_with_the_cards_on_the_table() -> None:
    runs = _runs(_paced(USUAL, "cut"))
    assert runs[-1][0] == "settle" and runs[-1][2]
    assert round(CUT_END[0] * FPS) <= runs[-1][3] <= round(CUT_END[1] * FPS)
    assert "collect" not in {run[0] for run in runs}


def test_a_peek_lifts_the_card_and_lays_it_back_where_it_lay_and_is_not_narrated() -> None:
    script = _paced(USUAL, peeks=("Anna",))
    all_shots = shots(script)[0]
    peeking = [i for i, shot in enumerate(all_shots) if shot.phase == "peek"]
    assert peeking == list(range(peeking[0], peeking[-1] + 1))
    assert all(all_shots[i].note == "Anna peeks at the card" for i in peeking)
    anna = [next(c for c in all_shots[i].cards if c.seat == "Anna") for i in peeking]
    assert max(card.lift for card in anna) >= 30 and all(not card.face_up for card in anna)

    def annas(i: int) -> list[object]:
        return [c for c in all_shots[i].cards if c.seat == "Anna"]

    assert annas(peeking[-1] + 1) == annas(peeking[0] - 1)
    assert narration(script) == narration(SAMPLE_HAND)


def test_an_illegal_swap_is_put_back_after_the_family_has_read_the_warning() -> None:
    script = replace(ILLEGAL, pace=BRISK)
    runs = _runs(script)
    waited = next(run for run in runs if run[0] == "illegal" and run[2])
    assert round(BRISK.react[0] * FPS) <= waited[3] <= round(BRISK.react[1] * FPS)
    assert [run[0] for run in runs].index("put-back") > [run[0] for run in runs].index("illegal")


def test_a_pace_checks_its_ranges() -> None:
    with pytest.raises(ValueError, match="range"):
        Pace("backwards", (1.0, 0.5), (1.0, 2.0))
    with pytest.raises(ValueError, match="ending"):
        GameScript("x", ("A", "B", "C"), (HandScript("A", {"A": "1D", "B": "2D", "C": "3D"}),), ending="later")
