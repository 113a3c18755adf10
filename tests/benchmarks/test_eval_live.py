"""The live evaluation in brief: two brisk hands with drawn faces through the real loop, judged and counted."""

from __future__ import annotations

from pathlib import Path

from benchmarks import eval_live


def test_two_brisk_hands_are_played_through_the_loop_and_counted_per_view(tmp_path: Path) -> None:
    args = eval_live.command().parse_args(["--hands", "2", "--pace", "brisk", "--drawn", "--results", str(tmp_path)])
    figures = eval_live.measure(args)
    assert [(row["pace"], row["view"], row["hands"]) for row in figures["rows"]] == [
        ("brisk", "above", 1), ("brisk", "oblique", 1)]
    total = figures["total"]
    assert sum(total[v] for v in eval_live.VERDICTS) == 2
    assert {h["verdict"] for h in figures["hands"]} <= set(eval_live.VERDICTS)
    assert figures["faces"] == "drawn" and figures["frames"] == sum(h["frames"] for h in figures["hands"])
    lines = eval_live.render(figures)
    assert lines[0].startswith("2 generated hands") and any(line.startswith("| all |") for line in lines)


def test_without_the_photos_the_evaluation_refuses_unless_drawn_faces_are_asked_for(tmp_path: Path, capsys) -> None:
    assert eval_live.main(["--photos", str(tmp_path), "--no-record"]) == 2
    assert "--drawn" in capsys.readouterr().err
