"""The benchmark harness: the judge on a drawn scene, a run's record, and the page written from the records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from art.scene import CARD_W_CM, Camera, Placed, Scene, render_scene
from benchmarks import eval_hand, harness, report
from benchmarks.harness import RESULTS, read_results
from benchmarks.judge import judge_frame, judge_photo
from vision.classify import default_model_path
from vision.detections import CardDetections

needs_model = pytest.mark.skipif(not default_model_path().is_file(), reason="no committed model at vision/weights/cards.onnx")


@pytest.fixture(scope="module")
def table() -> list[dict]:
    """The truth of a drawn table: 7C and 1D face up, 3S face down, in a row."""
    step = CARD_W_CM + 4.0
    cards = (Placed("7C", True, (-step, 0.0), 0), Placed("1D", True, (0.0, 0.0), 10), Placed("3S", False, (step, 0.0), 0))
    _, truth = render_scene(Scene((), cards, "felt"), Camera(1280, 720, tilt=0, view_cm=70), seed=0)
    return truth["cards"]


def _readings(table: list[dict], labels: list[str], unsure: tuple[int, ...] = (), extra: np.ndarray | None = None) -> CardDetections:
    """Readings with the true cards' own quads and the given labels, plus one more quad when asked."""
    quads = [np.array(card["corners"], np.float32) for card in table][: len(labels)]
    if extra is not None:
        quads.append(extra)
    confidence = np.full(len(quads), 0.99, np.float32)
    abstain = np.array([i in unsure for i in range(len(quads))])
    return CardDetections(np.stack(quads), np.array(labels[: len(quads)]), confidence, abstain)


def test_every_card_read_as_itself_is_right(table: list[dict]) -> None:
    tally, notes = judge_frame(table, _readings(table, ["7C", "1D", "back"]))
    assert (dict(tally), notes) == ({"right": 3}, [])


def test_another_card_named_is_wrong_and_a_card_not_read_is_missed(table: list[dict]) -> None:
    tally, notes = judge_frame(table, _readings(table, ["7C", "1B"]))
    assert dict(tally) == {"right": 1, "wrong": 1, "missed": 1}
    assert notes == ["wrong 1D: read ['1B']", "missed 3S (face down): read nothing"]


def test_an_unsure_reading_neither_names_nor_misses_and_one_off_the_cards_is_a_phantom(table: list[dict]) -> None:
    off = np.array([[10, 10], [60, 10], [60, 90], [10, 90]], np.float32)
    tally, notes = judge_frame(table, _readings(table, ["7C", "1D", "back", "2S"], unsure=(1,), extra=off))
    assert dict(tally) == {"right": 2, "missed": 1, "phantom": 1}
    assert notes == ["missed 1D: read ['?']", "phantom 2S at (35, 50)"]


def test_a_card_hidden_more_than_half_is_not_judged(table: list[dict]) -> None:
    hidden = [{**card, "visible": 0.4} if card["card"] == "3S" else card for card in table]
    assert dict(judge_frame(hidden, _readings(hidden, ["7C", "1D"]))[0]) == {"right": 2}


@pytest.mark.parametrize(
    "cards, verdict",
    [(["7C"], "right"), ([], "abstained"), ([None], "abstained"), (["7S"], "wrong"), (["7C", "7C"], "wrong"), (["7C", None], "phantom")],
)
def test_a_one_card_photo_is_judged_by_what_is_named_on_it(cards: list[str | None], verdict: str) -> None:
    assert judge_photo("7C", cards) == verdict


@needs_model
def test_a_run_prints_its_figures_and_records_them_with_machine_and_commit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_hand.main(["--results", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    (run,) = read_results(tmp_path)
    frames = json.loads((eval_hand.HAND / "hand.json").read_text())["frames"]
    shown = sum(card["visible"] >= 0.5 for frame in frames for card in frame["cards"])
    figures = run["figures"]
    assert run["benchmark"] == "eval_hand" and run["args"] == {"hand": "sample_images/hand", "model": None}
    assert (figures["frames"], figures["right"] + figures["wrong"] + figures["missed"]) == (len(frames), shown)
    assert set(run["machine"]) == {"cpu", "cores", "usable_cores", "load_1min", "system", "python", "numpy", "opencv", "onnxruntime"}
    assert {"commit", "dirty", "at", "seconds"} <= set(run)
    assert printed.startswith("\n".join(eval_hand.render(figures)))
    page = report.page([run])
    assert "`.venv/bin/python -m benchmarks.eval_hand`" in page and eval_hand.render(figures)[-1] in page


def test_a_run_records_the_commit_it_started_on_though_another_lands_while_it_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkouts = iter([{"commit": "a" * 40, "dirty": False}, {"commit": "b" * 40, "dirty": False}])
    monkeypatch.setattr(harness, "commit", lambda: next(checkouts))

    def measured(args: object) -> dict[str, str]:
        return {"measured": next(checkouts)["commit"]}  # the later commit lands meanwhile

    command = harness.parser("eval_hand", "A run.", reads=())
    assert harness.run("eval_hand", command, ["--results", str(tmp_path)], measured, lambda f: ["done"]) == 0
    (run,) = read_results(tmp_path)
    assert (run["commit"], run["dirty"], run["figures"]) == ("a" * 40, False, {"measured": "b" * 40})


def test_a_setting_other_than_the_default_is_given_in_the_command_that_repeats_it() -> None:
    run = {"benchmark": "eval_soft", "args": {"blur": [1.0, 2.0], "model": "cards-int8.onnx"}}
    assert report._command(report.importlib.import_module("benchmarks.eval_soft"), run) == (
        ".venv/bin/python -m benchmarks.eval_soft --blur 1.0 2.0 --model cards-int8.onnx"
    )


def test_a_run_recorded_with_a_removed_argument_is_repeated_without_it_and_shares_its_setting() -> None:
    module = report.importlib.import_module("benchmarks.eval_soft")
    old = {"benchmark": "eval_soft", "args": {"blur": [1.0, 2.0], "locator": "cues", "model": None}}
    new = {"benchmark": "eval_soft", "args": {"blur": [1.0, 2.0], "model": None}}
    defaults = report._defaults(module)
    assert report._command(module, old) == ".venv/bin/python -m benchmarks.eval_soft --blur 1.0 2.0"
    assert report._setting(old, defaults) == report._setting(new, defaults)


def test_a_run_recorded_before_an_argument_was_added_took_its_default_and_shares_that_setting() -> None:
    module = report.importlib.import_module("benchmarks.bench_vision_speed")
    before = {"benchmark": "bench_vision_speed", "args": {"data": "/a/shared/data", "model": None, "seconds": 3.0}}
    now = {"benchmark": "bench_vision_speed", "args": {"data": "/b/shared/data", "model": None, "seconds": 3.0, "work_side": 640}}
    smaller = {"benchmark": "bench_vision_speed", "args": {**now["args"], "work_side": 480}}
    defaults = report._defaults(module)
    assert report._setting(before, defaults) == report._setting(now, defaults) != report._setting(smaller, defaults)
    assert report._command(module, smaller) == "taskset -c 0 .venv/bin/python -m benchmarks.bench_vision_speed --work-side 480"


def test_the_command_that_repeats_a_run_names_no_folder_of_the_machine_that_ran_it() -> None:
    module = report.importlib.import_module("benchmarks.bench_live")
    run = {"benchmark": "bench_live", "args": {"model": None, "photo_seconds": 10.0, "photos": "/elsewhere/shared/data"}}
    assert report._command(module, run) == "taskset -c 0 .venv/bin/python -m benchmarks.bench_live"


def test_a_switch_turned_on_is_given_as_its_flag_alone() -> None:
    module = report.importlib.import_module("benchmarks.bench_frames")
    run = {"benchmark": "bench_frames", "args": {"live": True, "seconds": 10.0}}
    assert report._command(module, run) == "taskset -c 0 .venv/bin/python -m benchmarks.bench_frames --live"


def test_the_committed_benchmarks_page_is_what_the_committed_results_give() -> None:
    assert report.main(["--check", "--results", str(RESULTS)]) == 0, "run: .venv/bin/python -m benchmarks.report"


def test_the_check_fails_when_the_page_lags_the_results(tmp_path: Path) -> None:
    out = tmp_path / "BENCHMARKS.md"
    assert report.main(["--check", "--out", str(out)]) == 1
    assert report.main(["--out", str(out)]) == 0 and report.main(["--check", "--out", str(out)]) == 0


def test_a_benchmarks_own_records_leave_the_checkout_clean_but_a_changed_source_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for folder in ("benchmarks/results", "docs", "vision"):
        (tmp_path / folder).mkdir(parents=True)
    for path in ("benchmarks/results/bench.jsonl", "docs/BENCHMARKS.md", "vision/reader.py"):
        (tmp_path / path).write_text("first\n")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "first"], check=True)
    monkeypatch.setattr(harness, "ROOT", tmp_path)
    (tmp_path / "benchmarks/results/bench.jsonl").write_text("first\nsecond\n")
    (tmp_path / "docs/BENCHMARKS.md").write_text("regenerated\n")
    assert harness.commit()["dirty"] is False
    (tmp_path / "vision/reader.py").write_text("changed\n")
    assert harness.commit()["dirty"] is True
