"""The whole reading (locate, warp, classify) with the committed model, and the `recognize` command."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from art.scene import CARD_H_CM, CARD_W_CM, Camera, Placed, Scene, Stage, render_scene
from benchmarks.scenes import STYLES, table_scenes  # the speed benchmark's own frames
from vision import recognize
from vision.annotate import CardAnnotator
from vision.classify import CardClassifier, default_model_path
from vision.detections import CardDetections
from vision.locate import LocatorConfig, RoughQuads
from vision.locate.geometry import halves as halves_of
from vision.plane import TablePlane, seen_plane
from vision.recognize import CardReader, resolve_overlaps, run_recognize

needs_model = pytest.mark.skipif(not default_model_path().is_file(), reason="no committed model at vision/weights/cards.onnx")

CLOSE = Camera(1280, 720, tilt=0, view_cm=60)
JPEG_SLACK = 8
"""Grey levels a JPEG copy of a drawing may typically stray from the drawing itself."""
OUTLINE = 8
"""Pixels an annotation's outline may lie off the card's true edge (its width, the quad's error)."""
LABEL_HEIGHT = 50
"""Pixels above a card's top its name label may reach in a 720p frame (43 for "Asso di Denari 100%")."""


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader(CardClassifier(threads=1))


def _scene(cards: list[Placed], camera: Camera = CLOSE, style: str = "felt") -> tuple[np.ndarray, list[dict]]:
    frame, truth = render_scene(Scene((), tuple(cards), style), camera, seed=1)
    return frame, truth["cards"]


def _labels_at(detections: CardDetections, corners: list[list[float]]) -> list[str]:
    """The class labels ("back" for a card face down) of the readings whose quad centre lies on the card."""
    outline = np.array(corners, np.float32).reshape(-1, 1, 2)
    return [
        str(label)
        for label, quad in zip(detections.label, detections.quad)
        if cv2.pointPolygonTest(outline, tuple(float(v) for v in quad.mean(axis=0)), False) > 0
    ]


def _read_at(detections: CardDetections, corners: list[list[float]]) -> list[str | None]:
    """The readings whose quad centre lies on the card with these corners."""
    outline = np.array(corners, np.float32).reshape(-1, 1, 2)
    return [
        code
        for code, quad in zip(detections.card, detections.quad)
        if cv2.pointPolygonTest(outline, tuple(float(v) for v in quad.mean(axis=0)), False) > 0
    ]


@needs_model
@pytest.mark.parametrize("angle", [0, 90, 180, 270])
@pytest.mark.parametrize("code", ["7C", "1D"])
def test_a_card_is_read_the_same_whichever_way_it_is_turned(reader: CardReader, code: str, angle: int) -> None:
    frame, truth = _scene([Placed(code, True, (0.0, 0.0), angle)])
    assert _read_at(reader(frame), truth[0]["corners"]) == [code]


@needs_model
def test_cards_seen_at_45_degrees_are_each_read_where_they_lie(reader: CardReader) -> None:
    codes = ["2S", "8C", "5D", "9B"]
    step = CARD_W_CM + 4.0
    cards = [Placed(code, True, ((i - 1.5) * step, 0.0), 0) for i, code in enumerate(codes)]
    frame, truth = _scene(cards, Camera(1280, 720, tilt=45, yaw=20, view_cm=70), "wood")
    detections = reader(frame)
    assert [_read_at(detections, card["corners"]) for card in truth] == [[code] for code in codes]
    assert sorted(detections.card) == sorted(codes)  # and nothing read beside them


@needs_model
@pytest.mark.parametrize("turns, gap_cm, shift_cm", [((80, 100), 0.5, 1.0), ((70, 95), 0.5, -1.0), ((100, 80), 0.2, 2.5)])
def test_two_cards_lying_close_at_different_angles_are_read_as_two(
    reader: CardReader, turns: tuple[float, float], gap_cm: float, shift_cm: float
) -> None:
    # outlined together, the two cards pinch at a waist between them, where the outline is cut in two
    cards = [
        Placed("10D", True, (shift_cm, -CARD_W_CM / 2 - gap_cm), turns[0]),
        Placed("9B", True, (0.0, CARD_W_CM / 2 + gap_cm), turns[1]),
    ]
    frame, truth = _scene(cards, Camera(1920, 1080, tilt=30, view_cm=110), "wood")
    detections = reader(frame)
    assert [_read_at(detections, card["corners"]) for card in truth] == [["10D"], ["9B"]]


@needs_model
@pytest.mark.parametrize("code", ["9S", "5C", "2B", "10C", "1S"])
def test_a_card_laid_against_the_end_of_the_deck_on_the_far_side_is_read_beside_it(reader: CardReader, code: str) -> None:
    # from a phone leaning over the table a far card lying lengthwise away from it looks square; laid
    # against the deck, the two outline an L, cut at its waist into the deck and that square-looking card
    deck = Placed("3B", False, (0.0, 0.0), 80)
    card = Placed(code, True, (4.0, -CARD_W_CM / 2 - CARD_H_CM / 2), 170)
    frame, truth = render_scene(Scene((), (deck, card), "felt"), Camera(1280, 720, tilt=44, view_cm=100, target=(0.0, 22.0)), seed=1)
    detections = reader(frame)
    assert [_labels_at(detections, placed["corners"]) for placed in truth["cards"]] == [["back"], [code]]


@needs_model
@pytest.mark.parametrize("shift_cm, turn", [((-4.5, -8.6), 5), ((-4.0, -8.8), -5)])
def test_a_far_card_laid_corner_to_side_against_the_deck_on_a_checked_cloth_is_read_beside_it(
    reader: CardReader, shift_cm: tuple[float, float], turn: float
) -> None:
    # from a phone leaning over the table both far cards, lying lengthwise away from it, look square;
    # their crisp outlines run together where a corner of one touches the other's side
    deck = Placed("3B", False, (0.0, 0.0), turn)
    card = Placed("5C", False, shift_cm, turn)
    frame, truth = render_scene(Scene((), (deck, card), "cloth"), Camera(1280, 720, tilt=43, view_cm=100, target=(0.0, 22.0)), seed=1)
    detections = reader(frame)
    assert [_labels_at(detections, placed["corners"]) for placed in truth["cards"]] == [["back"], ["back"]]


DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
LACE = DATA / "photos" / "train" / "fabrizio3-spade-06.jpg"


@needs_model
@pytest.mark.skipif(not LACE.is_file(), reason=f"no shared photo of a lace table at {LACE}")
def test_face_down_cards_on_a_photographed_lace_cloth_are_read_by_their_printed_backs(reader: CardReader) -> None:
    # the lace's openwork outlines more card-sized shapes than the cards, and swamps their white margins;
    # on a grey table a back is told by its colour
    from benchmarks.photo_tables import paint_out

    lace = paint_out(reader, LACE)
    assert lace is not None
    cards = tuple(Placed(code, False, spot, turn) for code, spot, turn in
                  [("3B", (-25.0, -8.0), 20), ("5C", (0.0, -14.0), 80), ("7D", (22.0, -6.0), 115), ("2S", (-4.0, 12.0), 10)])
    stage = Stage((), "wood", Camera(1280, 720, tilt=38, view_cm=90), 1, surface=lace)
    frame, truth = stage.frame(cards, {}, 0)
    detections = reader(frame)
    assert [_labels_at(detections, placed["corners"]) for placed in truth["cards"]] == [["back"]] * 4


@needs_model
def test_two_cards_outlined_as_one_near_square_are_read_from_its_halves_not_misnamed(reader: CardReader) -> None:
    # on the checked cloth the pair's crisp outline bridges the gap between them: one quad round both
    cards = [Placed("10D", True, (-1.0, -CARD_W_CM / 2 - 0.2), 75), Placed("9B", True, (0.0, CARD_W_CM / 2 + 0.2), 95)]
    frame, truth = _scene(cards, Camera(1920, 1080, tilt=30, view_cm=110), "cloth")
    detections = reader(frame)
    assert [_read_at(detections, card["corners"]) for card in truth] == [["10D"], ["9B"]]
    assert sorted(code for code in detections.card if code) == ["10D", "9B"]


@needs_model
def test_a_face_down_card_is_reported_face_down_without_a_name(reader: CardReader) -> None:
    frame, truth = _scene([Placed("3S", False, (0.0, 0.0), 20)])
    detections = reader(frame)
    assert list(detections.face) == ["down"]
    assert detections.card == [None]


@needs_model
def test_an_empty_table_holds_no_cards(reader: CardReader) -> None:
    frame, _ = _scene([], style="wood")
    assert len(reader(frame)) == 0


@needs_model
def test_a_dark_phone_and_a_white_sheet_of_paper_are_not_cards(reader: CardReader) -> None:
    frame, _ = _scene([])
    cv2.fillConvexPoly(frame, np.array([[200, 200], [330, 190], [340, 440], [210, 450]]), (25, 25, 30))
    cv2.fillConvexPoly(frame, np.array([[700, 120], [1000, 130], [990, 560], [690, 550]]), (235, 235, 235))
    assert [code for code in reader(frame).card if code] == []


def test_parts_inside_a_read_card_are_dropped() -> None:
    card = np.array([[100, 100], [220, 100], [220, 300], [100, 300]], np.float32)
    pip = np.array([[140, 150], [180, 150], [180, 200], [140, 200]], np.float32)
    both = CardDetections(
        np.stack([pip, card]), np.array(["9S", "6D"]), np.array([0.999, 0.999], np.float32), np.array([False, False])
    )
    assert resolve_overlaps(both).card == ["6D"]


def test_two_cards_side_by_side_survive_an_unsure_reading_of_both_as_one() -> None:
    pair = np.array([[100, 100], [340, 100], [340, 300], [100, 300]], np.float32)
    left, right = pair.copy(), pair.copy()
    left[1:3, 0], right[[0, 3], 0] = 220, 220
    detections = CardDetections(
        np.stack([pair, left, right]),
        np.array(["5C", "4C", "8D"]),
        np.array([0.6, 0.999, 0.999], np.float32),
        np.array([True, False, False]),
    )
    assert set(code for code in resolve_overlaps(detections).card if code) == {"4C", "8D"}


@needs_model
@pytest.mark.parametrize("style, far_cm, turn", [("wood", 30, 0), ("wood", 40, 10), ("felt", 30, -15), ("cloth", 30, -15)])
def test_a_far_face_down_card_under_a_steep_view_is_one_card_not_its_two_halves(
    reader: CardReader, style: str, far_cm: float, turn: float
) -> None:
    # a phone leaning 45 degrees: the far card is nearly square, so its halves are offered as a pair's
    frame, truth = _scene([Placed("3S", False, (0.0, -far_cm), turn)], Camera(960, 540, tilt=45, view_cm=110), style)
    detections = reader(frame)
    assert list(detections.label) == ["back"]
    assert _labels_at(detections, truth[0]["corners"]) == ["back"]


def test_halves_offered_for_their_shape_alone_do_not_replace_a_surely_read_back() -> None:
    whole = np.array([[100, 100], [180, 100], [180, 190], [100, 190]], np.float32)
    near, far = whole.copy(), whole.copy()
    near[1:3, 0], far[[0, 3], 0] = 140, 140
    detections = CardDetections(
        np.stack([whole, near, far]), np.array(["back"] * 3), np.array([0.9994, 0.9996, 0.9995], np.float32),
        np.array([False, False, False]),
    )
    assert len(resolve_overlaps(detections, shaped=np.array([False, True, True]))) == 1
    # a back found alone beside the other half: two backs lying side by side
    assert len(resolve_overlaps(detections, shaped=np.array([False, False, False]))) == 2


def test_halves_offered_for_a_pair_s_shape_are_dropped_where_the_table_s_plane_shows_one_card() -> None:
    # on the plane a card is one long: 100 pixels here
    plane = TablePlane(np.diag([0.01, 0.01, 1.0]))
    one = np.array([[0, 0], [60, 0], [60, 100], [0, 100]], np.float32)  # one card, a pair's shape in the picture
    pair = np.array([[200, 0], [320, 0], [320, 100], [200, 100]], np.float32)  # two cards side by side
    halves = [h for quad in (one, pair) for h in halves_of(quad)]
    rough = RoughQuads(np.stack([one, pair, *halves]), np.ones(6), 1.0, shaped=np.array([False] * 2 + [True] * 4))
    kept = recognize._no_halves_of_one(rough, plane)
    assert np.array_equal(kept.quads, np.stack([one, pair, *halves[2:]]))
    assert kept.shaped.tolist() == [False, False, True, True] and len(kept.scores) == 4
    # without the plane, the picture's shape alone offers every half
    assert recognize._no_halves_of_one(rough, None) is rough


def _write(path: Path, image: np.ndarray) -> str:
    cv2.imwrite(str(path), image)
    return str(path)


@needs_model
def test_json_lines_give_one_record_per_image_with_quads_in_image_pixels(tmp_path: Path, reader: CardReader) -> None:
    frame, truth = _scene([Placed("1D", True, (-8.0, 0.0), 0), Placed("7C", True, (8.0, 0.0), 90)])
    small = cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)
    images = [_write(tmp_path / "table.png", frame), _write(tmp_path / "small table.jpg", small)]
    out = io.StringIO()
    assert run_recognize(images, as_json=True, out=out, reader=reader) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["image"] for line in lines] == images
    for line, factor in zip(lines, (1.0, 0.5)):
        assert sorted(card["card"] for card in line["cards"]) == ["1D", "7C"]
        for card in line["cards"]:
            assert set(card) == {"card", "name", "confidence", "face", "quad"}
            assert card["face"] == "up" and 0.0 <= card["confidence"] <= 1.0
            corners = next(t["corners"] for t in truth if t["card"] == card["card"])
            centre = np.mean(corners, axis=0) * factor
            assert np.allclose(np.mean(card["quad"], axis=0), centre, atol=4)
    assert {card["name"] for card in lines[0]["cards"]} == {"Asso di Denari", "Sette di Coppe"}


@needs_model
def test_a_bad_image_gets_an_error_line_and_the_others_are_still_read(tmp_path: Path, reader: CardReader) -> None:
    frame, _ = _scene([Placed("1D", True, (0.0, 0.0), 0)])
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 this is not really a JPEG")
    images = [str(broken), _write(tmp_path / "good.png", frame), str(tmp_path / "missing.png")]
    out = io.StringIO()
    assert run_recognize(images, as_json=True, out=out, reader=reader) == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "error" in lines[0] and "cards" not in lines[0]
    assert [card["card"] for card in lines[1]["cards"]] == ["1D"]
    assert "no such file" in lines[2]["error"]


@needs_model
def test_the_readable_listing_names_each_card(tmp_path: Path, reader: CardReader) -> None:
    frame, _ = _scene([Placed("7C", True, (0.0, 0.0), 0)])
    out = io.StringIO()
    run_recognize([_write(tmp_path / "t.png", frame)], out=out, reader=reader)
    assert "1 card" in out.getvalue() and "7C" in out.getvalue() and "Sette di Coppe" in out.getvalue()


@needs_model
def test_many_images_load_the_model_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loads = []

    class CountingClassifier(CardClassifier):
        def __init__(self, *args: object, **kwargs: object) -> None:
            loads.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(recognize, "CardClassifier", CountingClassifier)
    frame, _ = _scene([Placed("1D", True, (0.0, 0.0), 0)])
    images = [_write(tmp_path / f"{i}.png", frame) for i in range(3)]
    out = io.StringIO()
    assert run_recognize(images, as_json=True, out=out) == 0
    assert len(out.getvalue().splitlines()) == 3 and loads == [1]


@needs_model
def test_annotated_copies_show_the_reading_drawn_round_its_card(tmp_path: Path, reader: CardReader) -> None:
    frame, truth = _scene([Placed("1D", True, (0.0, 0.0), 0)])
    image = _write(tmp_path / "t.png", frame)
    run_recognize([image], annotate_dir=tmp_path / "out", out=io.StringIO(), reader=reader)
    drawn = cv2.imread(str(tmp_path / "out" / "t.annotated.jpg"))
    assert drawn is not None and drawn.shape == frame.shape
    detections = reader(frame)
    assert detections.card == ["1D"]
    expected = CardAnnotator().annotate(frame, detections)
    marked = np.abs(expected.astype(int) - frame.astype(int)).max(axis=2) > 0  # the outline and the label
    rows, cols = np.nonzero(marked)
    (left, top), (right, bottom) = np.min(truth[0]["corners"], axis=0), np.max(truth[0]["corners"], axis=0)
    beside = rows > top + OUTLINE  # below the name label, which starts at the card's top left and runs on
    assert left - OUTLINE <= cols[beside].min() and cols[beside].max() <= right + OUTLINE
    assert top - LABEL_HEIGHT <= rows.min() and rows.max() <= bottom + OUTLINE and left - OUTLINE <= cols.min()
    # the JPEG copy is the annotator's picture: near it where drawn, and far from the frame there
    off = np.abs(drawn.astype(int) - expected.astype(int)).max(axis=2)
    assert np.median(off[marked]) < JPEG_SLACK and np.median(off[~marked]) < JPEG_SLACK
    assert np.median(np.abs(drawn.astype(int) - frame.astype(int)).max(axis=2)[marked]) > 100


def test_a_quad_drawn_round_several_cards_is_dropped_and_the_cards_kept() -> None:
    table = np.array([[0, 0], [900, 0], [900, 500], [0, 500]], np.float32)
    cards = [np.array([[x, 100], [x + 120, 100], [x + 120, 300], [x, 300]], np.float32) for x in (100, 400)]
    for outer in ("back", "9B"):  # the table's pattern read as a back, or as some card
        detections = CardDetections(
            np.stack([table, *cards]),
            np.array([outer, "2S", "8D"]),
            np.array([0.99, 0.999, 0.999], np.float32),
            np.array([False, False, False]),
        )
        assert resolve_overlaps(detections).card == ["2S", "8D"]


def test_detections_filter_like_arrays_and_name_each_card() -> None:
    quad = np.array([[0, 0], [60, 0], [60, 100], [0, 100]], np.float32)
    dets = CardDetections(
        np.stack([quad, quad + 100, quad + 200, quad + 300]),
        np.array(["9S", "back", "3C", "none"]),
        np.array([0.99, 0.97, 0.40, 0.99], np.float32),
        np.array([False, False, True, False]),
    )
    assert list(dets.face) == ["up", "down", "up", "none"]
    assert dets.card == ["9S", None, None, None]
    assert dets.name == ["Cavallo di Spade", "Carta coperta", None, None]
    sure = dets[dets.confidence > 0.9]
    assert len(sure) == 3 and list(sure.label) == ["9S", "back", "none"]
    assert len(dets[dets.is_card]) == 3 and len(dets[1]) == 1
    assert dets.records()[0] == {
        "card": "9S", "name": "Cavallo di Spade", "confidence": 0.99, "face": "up",
        "quad": [[0.0, 0.0], [60.0, 0.0], [60.0, 100.0], [0.0, 100.0]],
    }
    with pytest.raises(ValueError, match="parallel"):
        CardDetections(np.zeros((2, 4, 2), np.float32), np.array(["9S"]), np.zeros(2, np.float32), np.zeros(2, bool))


def test_a_sure_reading_inside_an_unsure_one_of_the_same_card_stands_for_it() -> None:
    card = np.array([[100, 100], [220, 100], [220, 300], [100, 300]], np.float32)
    part = np.array([[140, 100], [220, 100], [220, 300], [140, 300]], np.float32)
    detections = CardDetections(
        np.stack([card, part]), np.array(["3S", "3S"]), np.array([0.98, 0.999], np.float32), np.array([True, False])
    )
    assert resolve_overlaps(detections).card == ["3S"]


@needs_model
def test_the_saltacavallo_command_prints_json_lines_and_exits_1_for_a_bad_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from webui.cli import main

    frame, _ = _scene([Placed("7C", True, (0.0, 0.0), 180)])
    good = _write(tmp_path / "good.png", frame)
    (tmp_path / "zero.jpg").write_bytes(b"")
    assert main(["recognize", "--json", good, str(tmp_path / "zero.jpg")]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first == {"image": good, "cards": first["cards"]} and [c["card"] for c in first["cards"]] == ["7C"]
    assert second == {"image": str(tmp_path / "zero.jpg"), "error": "the file is empty (0 bytes)"}


def test_a_checked_cloth_read_as_card_backs_is_dropped_but_real_backs_stay() -> None:
    square = np.array([[0, 0], [40, 0], [40, 42], [0, 42]], np.float32)
    cloth = [square + np.float32([80 * i, 300]) for i in range(5)]
    turned = [  # three face-down cards at three seats, each turned its own way
        np.array([[0, 0], [60, 0], [60, 100], [0, 100]], np.float32) @ np.array([[c, -s], [s, c]], np.float32).T
        + np.float32([200 * k + 100, 500])
        for k, (c, s) in enumerate(((1.0, 0.0), (0.8, 0.6), (0.6, 0.8)))
    ]
    quads = np.stack(cloth + turned)
    detections = CardDetections(
        quads, np.array(["back"] * 8), np.full(8, 0.95, np.float32), np.zeros(8, bool)
    )
    kept = resolve_overlaps(detections)
    assert len(kept) == 3 and all(cv2.contourArea(q) > 5000 for q in kept.quad)


def test_a_loose_quad_round_a_card_read_less_surely_as_another_card_gives_way() -> None:
    card = np.array([[100, 100], [220, 100], [220, 300], [100, 300]], np.float32)
    loose = np.array([[70, 70], [250, 60], [260, 330], [80, 340]], np.float32)  # the card and some table
    detections = CardDetections(
        np.stack([loose, card]), np.array(["10D", "10B"]), np.array([0.74, 1.0], np.float32), np.array([False, False])
    )
    assert resolve_overlaps(detections).card == ["10B"]


def test_a_pip_read_as_a_back_inside_an_unsure_card_is_no_face_down_card() -> None:
    card = np.array([[100, 100], [220, 100], [220, 300], [100, 300]], np.float32)
    pip = np.array([[140, 150], [170, 150], [170, 180], [140, 180]], np.float32)
    detections = CardDetections(
        np.stack([card, pip]), np.array(["7D", "back"]), np.array([0.45, 0.99], np.float32), np.array([True, False])
    )
    assert list(resolve_overlaps(detections).face) == ["up"]


@needs_model
def test_cards_in_a_dim_room_are_read_once_the_frame_is_brightened(reader: CardReader) -> None:
    codes = ["4C", "10S", "1B"]
    cards = [Placed(code, True, ((i - 1) * (CARD_W_CM + 3.0), 0.0), 15 * i) for i, code in enumerate(codes)]
    frame, truth = _scene(cards, style="wood")
    dim = np.clip(frame * 0.1 + np.random.default_rng(0).normal(0, 3.0, frame.shape), 0, 255).astype(np.uint8)
    detections = reader(dim)
    assert [_read_at(detections, card["corners"]) for card in truth] == [[code] for code in codes]


def _card_at(x: float, y: float, width: float) -> np.ndarray:
    return np.array([[x, y], [x + width, y], [x + width, y + width / 0.6], [x, y + width / 0.6]], np.float32)


def test_a_grid_square_read_as_a_back_beside_a_close_up_card_is_no_face_down_card() -> None:
    quads = np.stack([_card_at(200, 200, 350), _card_at(40, 40, 24)])  # the 10C, and a square of the paper
    detections = CardDetections(quads, np.array(["10C", "back"]), np.float32([0.99, 0.98]), np.zeros(2, bool))
    assert resolve_overlaps(detections).card == ["10C"]


def test_a_far_face_down_card_under_a_steep_view_stays_beside_near_named_ones() -> None:
    near = [_card_at(100 + 200 * i, 500, 120) for i in range(3)]
    far = _card_at(300, 50, 45)  # a seventh of a near card's area
    labels = np.array(["3S", "7B", "1D", "back"])
    detections = CardDetections(np.stack(near + [far]), labels, np.full(4, 0.97, np.float32), np.zeros(4, bool))
    assert list(resolve_overlaps(detections).face) == ["up", "up", "up", "down"]


@needs_model
def test_a_checked_cloth_seen_slightly_out_of_focus_still_gives_up_its_cards(reader: CardReader) -> None:
    # a round table of 15 on the gingham (the 1080p speed frame), softened as a webcam's focus might:
    # the cloth's thin edges keep the cards' narrow margins enclosed (bands of steep gradient, taken
    # whole, closed them there and read none of the cards; Canny's edges read 5)
    # the blur still hides six of the fifteen; none is misread (a far face whose margin the blur melts
    # into the cloth is outlined by its picture, read grown to a card's proportions)
    frame, truth = table_scenes(15, (1920, 1080))[STYLES.index("cloth")]
    detections = reader(cv2.GaussianBlur(frame, (0, 0), 1.0))
    truly = {card["seat"]: card["label"] for card in truth["cards"]}  # "back" for a card face down
    read = {card["seat"]: _labels_at(detections, card["corners"]) for card in truth["cards"]}
    seen = ("player 2", "player 3", "player 4", "player 5", "player 6", "player 11", "player 12", "player 14", "player 15")
    assert {seat: labels for seat, labels in read.items() if labels} == {seat: [truly[seat]] for seat in seen}
    assert [truly[seat] for seat in ("player 2", "player 14")] == ["back", "back"]
    assert len(detections) == len(seen)  # nothing read off the cards


def test_an_unsure_name_on_a_quad_round_two_cards_lying_close_is_dropped() -> None:
    # out of focus, two cards lying close outline one quad, read as a third card (6B at 0.62)
    table = [_card_at(100 + 200 * i, 500, 120) for i in range(3)]
    pair = np.array([[700, 100], [950, 100], [950, 350], [700, 350]], np.float32)  # 2.6 cards' area
    labels = np.array(["3S", "7B", "1D", "6B"])
    confidence = np.float32([0.99, 0.99, 0.98, 0.62])
    detections = CardDetections(np.stack(table + [pair]), labels, confidence, np.zeros(4, bool))
    assert resolve_overlaps(detections).card == ["3S", "7B", "1D"]


def test_a_near_card_read_surely_stays_however_large_beside_far_ones() -> None:
    far = [_card_at(100 + 200 * i, 50, 70) for i in range(3)]
    near = _card_at(300, 300, 180)  # more than six far cards' area, but surely named
    labels = np.array(["3S", "7B", "1D", "4C"])
    detections = CardDetections(np.stack(far + [near]), labels, np.full(4, 0.97, np.float32), np.zeros(4, bool))
    assert resolve_overlaps(detections).card == ["3S", "7B", "1D", "4C"]


@needs_model
@pytest.mark.parametrize("code", ["10B", "4C", "7D"])
def test_a_face_outlined_by_its_printed_picture_alone_is_read_as_the_whole_card(reader: CardReader, code: str) -> None:
    # on a pale cloth a face's white border melts into the cloth: the outline found is the picture's,
    # half the card's width and a little shorter than it, which alone reads as no card
    frame, truth = _scene([Placed(code, True, (0.0, 0.0), 30)])
    corners = np.array(truth[0]["corners"], np.float32)
    middle = corners.mean(axis=0)
    across, along = (corners[1] - corners[0]) / 2, (corners[3] - corners[0]) / 2
    picture = np.array([middle + sx * 0.5 * across + sy * 0.9 * along for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    read = reader.read_quads(frame, picture[None])
    assert list(read.card) == [code]
    assert cv2.pointPolygonTest(corners.reshape(-1, 1, 2), tuple(float(v) for v in read.quad[0].mean(axis=0)), False) > 0


@pytest.mark.parametrize("code", ["7B", "10C", "1D"])
def test_a_face_seen_flat_by_a_leaning_phone_is_found_and_named(code: str) -> None:
    # a phone leaning 68 degrees sees a card lying across its picture a third as wide as long: the live
    # loop's reader finds it, face up, and names it, surely read
    card = Placed(code, True, (0.0, 0.0), 90.0)
    frame, _ = render_scene(Scene((), (card,), "felt"), Camera(1280, 720, tilt=68.0, view_cm=40))
    found = CardReader(locator=LocatorConfig(leaning=True))(frame)
    assert list(found.face) == ["up"] and found.card == [code]


def test_a_face_seen_from_a_steep_phone_is_never_named() -> None:
    card = np.array([[[0, 0], [80, 0], [80, 130], [0, 130]]], np.float32)
    assert recognize._unreadable(card, np.array([0.6])).tolist() == [False]  # the model's own threshold
    assert recognize._unreadable(card, np.array([0.999]), steep=True).tolist() == [True]


def test_a_face_seen_flat_is_named_only_when_the_reading_is_sure() -> None:
    flat_quad = np.array([[[0, 0], [60, 0], [60, 300], [0, 300]]], np.float32)  # a card a fifth as wide as long
    assert recognize._unreadable(flat_quad, np.array([0.8])).tolist() == [True]
    assert recognize._unreadable(flat_quad, np.array([0.95])).tolist() == [False]


def test_a_small_face_is_named_only_when_the_reading_is_sure() -> None:
    quads = np.array([[[0, 0], [40, 0], [40, 66], [0, 66]], [[0, 0], [60, 0], [60, 99], [0, 99]]], np.float32)
    assert recognize._unreadable(quads, np.array([0.8, 0.8])).tolist() == [True, False]
    assert recognize._unreadable(quads, np.array([0.95, 0.95])).tolist() == [False, False]


def _along_a_leaning_view(code: str) -> tuple[np.ndarray, np.ndarray, list[list[list[float]]]]:
    """A far face lying along a 45-degree phone's view, squeezed nearly square in the picture, among face-down
    cards turned every way round it: the frame, the face's quad given sideways (its long sides first) and
    every card's corners."""
    cards = [Placed(code, True, (0.0, 0.0), 0.0)] + [
        Placed("back", False, (x, y), turn) for x, y, turn in ((-25, -15, 30), (25, -15, -30), (-25, 15, 90), (25, 15, 60))]
    frame, truth = render_scene(Scene((), tuple(cards), "felt"), Camera(1280, 720, tilt=45, view_cm=130), seed=1)
    corners = [card["corners"] for card in truth["cards"]]
    return frame, np.roll(np.array(corners[0], np.float32), 1, axis=0)[None], corners


@needs_model
@pytest.mark.parametrize("code", ["6C", "6D"])
def test_a_face_squeezed_square_by_a_leaning_phone_is_read_upright_on_the_table(reader: CardReader, code: str) -> None:
    # read sideways, the drawn sixes of Coppe and Denari look like the six of Bastoni to the classifier,
    # surely: the table's plane, which the cards lying round show, says which way the face is up
    frame, sideways, corners = _along_a_leaning_view(code)
    leaning = copy.copy(reader)
    leaning.plane = seen_plane(np.array(corners))
    assert list(leaning.read_quads(frame, sideways).card) == [code]


@needs_model
@pytest.mark.parametrize("code", ["6C", "6D"])
def test_a_face_square_on_the_table_that_names_two_cards_both_ways_round_is_not_named(reader: CardReader, code: str) -> None:
    # a plane that leaves the face square (the table as the picture shows it) cannot say which way is up:
    # the two ways round name two cards, and neither is named
    frame, sideways, _ = _along_a_leaning_view(code)
    doubting = copy.copy(reader)
    doubting.plane = TablePlane(np.eye(3))
    read = doubting.read_quads(frame, sideways)
    assert read.face.tolist() == ["up"] and read.card == [None]


def _cut_across(face: np.ndarray, kept: float) -> np.ndarray:
    """A face's quad (its top side first) cut across, `kept` of its length kept from the top."""
    cut = face.copy()
    cut[3], cut[2] = face[0] + (face[3] - face[0]) * kept, face[1] + (face[2] - face[1]) * kept
    return cut[None]


@needs_model
def test_a_face_outlined_short_of_its_far_end_is_read_a_card_long_from_the_end_found(reader: CardReader) -> None:
    # a far card's pale end melts into a pale cloth and its outline stops short: cut across two thirds down,
    # the six of Coppe shows four cups and reads surely as the four. On the table's plane the part is
    # shorter than a card: it is read again a card long from either end, and the six is named
    code = "6C"
    frame, _, corners = _along_a_leaning_view(code)
    face = np.array(corners[0], np.float32)
    leaning = copy.copy(reader)
    leaning.plane = seen_plane(np.array(corners))
    assert leaning.read_quads(frame, _cut_across(face, 1.0)).card == [code]
    assert leaning.read_quads(frame, _cut_across(face, 0.85)).card == [code]  # a sixth short is still a card
    part = leaning.read_quads(frame, _cut_across(face, 0.66))
    assert part.card == [code]
    assert leaning.plane.lengths(part.quad) == pytest.approx([1.0], abs=0.02)


def test_a_face_read_on_a_quad_shorter_than_a_card_on_the_plane_is_not_named() -> None:
    plane = TablePlane(np.diag([0.01, 0.01, 1.0]))  # a card is 100 pixels long on this table
    whole, part = [[0, 0], [60, 0], [60, 100], [0, 100]], [[0, 0], [60, 0], [60, 66], [0, 66]]
    quads = np.array([whole, part], np.float32)
    assert recognize._part_of_one(quads, plane.lengths(quads)).tolist() == [False, True]
    assert recognize._part_of_one(quads, None).tolist() == [False, False]  # no plane, no length to tell


def test_the_plane_turns_a_quad_squeezed_square_in_the_picture_and_doubts_one_it_shows_square() -> None:
    squeezed = np.array([[0, 0], [0, 90], [100, 90], [100, 0]], np.float32)  # nearly square in the picture
    across = np.array([[0, 0], [0, 50], [100, 50], [100, 0]], np.float32)  # long across the picture
    plane = TablePlane(np.diag([1.0, 2.0, 1.0]))  # the picture's height is half the table's
    quads, unclear = recognize._upright(np.stack([squeezed, across]), plane)
    assert np.array_equal(quads[0], np.roll(squeezed, -1, axis=0))  # its short sides on the table first
    assert unclear.tolist() == [1]  # square on the table: read both ways round
    _, unclear = recognize._upright(np.stack([squeezed, across]), None)
    assert unclear.tolist() == [0]  # without the plane, the picture's shape says it where it can
