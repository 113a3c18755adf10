"""The closer look's study in brief: one brisk hand on the gingham, its missed face-up cards looked at closely."""

from __future__ import annotations

from pathlib import Path

from benchmarks import eval_closer, eval_live


def test_every_missed_card_of_a_hand_is_looked_at_once_per_enlargement_and_none_is_misnamed() -> None:
    eval_closer._start(((140.0,), (160.0, 200.0)), {})  # the project's drawn faces
    hand = eval_closer.study_hand(0, "brisk", "oblique", 7)
    assert hand["name"] == "brisk-oblique-007" and hand["style"] == "cloth"
    assert 0 <= hand["missed"] <= hand["cards"] and hand["cards"] > 0
    for sizes in ("140", "160,200"):
        looks = hand["looks"][sizes]
        assert looks["right"] + looks["wrong"] + looks["empty"] == hand["missed"]
        assert looks["wrong"] == 0


def test_without_the_photos_or_with_a_size_that_is_no_number_the_study_refuses(tmp_path: Path, capsys) -> None:
    assert eval_closer.main(["--photos", str(tmp_path), "--no-record"]) == 2
    assert "no photo labels" in capsys.readouterr().err
    assert eval_closer.main(["--enlarge", "160,big", "--no-record"]) == 2
    assert "--enlarge takes long sides in pixels" in capsys.readouterr().err


def test_the_study_plans_eval_lives_hands_from_its_own_command_line() -> None:
    planned = eval_live.plan(eval_closer.command().parse_args(["--hands", "2", "--pace", "slow"]))
    assert planned == [(0, "slow", "above", 0), (0, "slow", "30", 1)]
    illegal = eval_live.plan(eval_closer.command().parse_args(["--hands", "2", "--pace", "slow", "--illegal"]))
    assert len(illegal) == 2 and illegal != planned
