"""The speed benchmark's frames and its stage timer."""

from __future__ import annotations

import numpy as np
import pytest

import vision.locate.candidates
import vision.recognize
from benchmarks import harness
from benchmarks.bench_vision_speed import (
    STAGES, command, drawn_frames, judged, measure_frames, outlines_fitted, photo_frames, quads_read, render, stage_times,
)
from benchmarks.scenes import CLOSE, table_scenes
from vision.locate import finish, rough_quads
from vision.locate.cloth import Cloth
from vision.recognize import CardReader


def _short_sides(truth: dict) -> list[float]:
    """The short side (pixels) of every card of a scene's truth."""
    sides = []
    for card in truth["cards"]:
        quad = np.array(card["corners"])
        length = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
        sides.append(min(length[0] + length[2], length[1] + length[3]) / 2)
    return sides


def test_the_close_tables_show_cards_of_the_sizes_a_phone_over_a_table_sees() -> None:
    for cards, size, least, most in ((6, (1280, 720), 120, 200), (15, (1920, 1080), 90, 130)):
        for _, truth in table_scenes(cards, size, CLOSE[size]):
            assert len(truth["cards"]) == cards
            assert least <= np.median(_short_sides(truth)) <= most
        far = [np.median(_short_sides(truth)) for _, truth in table_scenes(cards, size)]
        assert max(far) < least  # the benchmark's first tables keep their small cards


def test_the_stage_timer_times_every_stage_and_leaves_the_reader_as_it_was() -> None:
    reader = CardReader()
    frame, _ = table_scenes(6, (1280, 720))[0]
    before, judge = reader(frame), vars(Cloth)["of"]
    stages = stage_times(reader, [frame])
    assert list(stages) == list(STAGES)
    assert all(stages[stage] > 0 for stage in ("cloth", "cues", "outlines", "snap", "warp", "classify"))
    assert vision.recognize.rough_quads is rough_quads and vision.recognize.finish is finish
    assert vars(Cloth)["of"] is judge
    assert "classify" not in vars(reader.classifier)
    after = reader(frame)
    assert after.quad.tobytes() == before.quad.tobytes() and list(after.label) == list(before.label)


def test_the_benchmark_judges_the_frames_it_times_against_their_truth() -> None:
    reader = CardReader()
    (frame, truth), *_ = drawn_frames(6, (1280, 720))
    assert judged(reader(frame), truth) == {"right": 6, "shown": 6, "phantoms": 0}
    assert judged(reader(frame)[:0], truth) == {"right": 0, "shown": 6, "phantoms": 0}


def test_the_quads_read_are_counted_and_the_reader_is_left_as_it_was() -> None:
    reader = CardReader()
    frame, _ = table_scenes(6, (1280, 720), CLOSE[(1280, 720)])[0]
    read = quads_read(reader, frame)
    rough = rough_quads(frame, reader.locator)
    assert 6 <= read < len(finish(frame, rough.quads, rough.scale, reader.locator))
    assert "read_quads" not in vars(reader)


def test_the_fastest_reading_of_a_frame_is_kept_beside_the_mean_and_shown_on_the_page() -> None:
    reader = CardReader()
    frame, _ = table_scenes(6, (1280, 720))[0]
    figures = measure_frames(reader, [frame], seconds=0.3)
    assert 0 < figures["fastest_ms"] <= figures["ms"]
    row = {"frame": "1280x720", "kind": "drawn", "table": "wood", "cards_on_it": 6, "right": 6, "shown": 6, "phantoms": 0, **figures}
    line = render({"rows": [row]})[2]
    assert line.endswith(f"| {figures['fastest_ms']:.1f} | {1000 / figures['fastest_ms']:.1f} |")


def test_a_smaller_work_side_is_searched_on_the_same_photo_built_frames() -> None:
    args = command().parse_args(["--work-side", "480"])
    reader = harness.make_reader(args, threads=1, work_side=args.work_side)
    assert reader.locator.work_side == 480 and command().parse_args([]).work_side == 640
    if args.data is None:
        pytest.skip("../shared/data is absent: no photo-built frames to compare")
    smaller, default = photo_frames(reader, args), photo_frames(CardReader(reader.classifier), args)
    for size in default:  # the cards are cut out of the photos by the default locator either way
        assert [frame.tobytes() for frame, _ in smaller[size]] == [frame.tobytes() for frame, _ in default[size]]


def test_the_outlines_fitted_are_counted_and_the_search_is_left_as_it_was() -> None:
    reader = CardReader()
    frame, _ = table_scenes(6, (1280, 720), CLOSE[(1280, 720)])[0]
    fit_quads = vision.locate.candidates.fit_quads
    fitted = outlines_fitted(reader, frame)
    assert vision.locate.candidates.fit_quads is fit_quads
    assert 6 <= fitted <= reader.locator.max_side_fits
