"""Table scenes drawn by code: the ground truth says exactly where every card lies."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from art.deck import render_face
from art.scene import (
    Camera,
    Placed,
    Scene,
    Stage,
    deal_to_seats,
    fit_camera,
    render_scene,
    round_table_seats,
)
from art.table import Surface
from referee.cards import DECK
from vision.crop import CROP_H, CROP_W, warp_card

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
HANDS = {
    "Anna": ("3D", True),
    "Bruno": ("10C", True),
    "Carla": ("5S", False),
    "Dario": ("9B", True),
    "Elena": ("1B", False),
}


def _scene(style: str = "wood", seed: int = 0) -> Scene:
    seats = round_table_seats(PLAYERS)
    cards = deal_to_seats(seats, HANDS, np.random.default_rng(seed))
    return Scene(seats, cards, style, coins={name: 3 for name in PLAYERS})


def _crop_error(frame: np.ndarray, corners: list[list[float]], label: str) -> float:
    """How far the card under the given corners is from the face drawn flat (either way up)."""
    crop = warp_card(frame, np.array(corners)).astype(np.float32)
    flat = cv2.resize(
        render_face(label, 4 * CROP_H), (CROP_W, CROP_H), interpolation=cv2.INTER_AREA
    )
    flat = flat.astype(np.float32)
    flat = flat * (crop.mean() / flat.mean())  # the scene's light dims or warms the card
    return min(float(np.abs(crop - flat).mean()), float(np.abs(crop - flat[::-1, ::-1]).mean()))


@pytest.mark.parametrize(
    "style, camera",
    [
        ("wood", Camera(1280, 720, tilt=30)),
        ("cloth", Camera(1920, 1080, tilt=45, yaw=25)),
        ("felt", Camera(1280, 720, tilt=0, yaw=-60)),
    ],
)
def test_every_card_of_a_five_seat_deal_lies_where_the_ground_truth_says(
    style: str, camera: Camera
) -> None:
    scene = _scene(style)
    camera = fit_camera(scene.cards, camera)
    frame, truth = render_scene(scene, camera, seed=3)
    assert frame.shape == (camera.height, camera.width, 3) and frame.dtype == np.uint8
    assert [c["card"] for c in truth["cards"]] == ["3D", "10C", "5S", "9B", "1B"]
    assert [c["label"] for c in truth["cards"]] == ["3D", "10C", "back", "9B", "back"]
    assert len({c["seat"] for c in truth["cards"]}) == 5
    for card in truth["cards"]:
        corners = np.array(card["corners"])
        assert (
            (corners >= 0).all()
            and (corners[:, 0] < camera.width).all()
            and (corners[:, 1] < camera.height).all()
        )
        assert card["visible"] > 0.95
        assert _crop_error(frame, card["corners"], card["label"]) < 35, card


def test_corners_shifted_by_a_few_pixels_no_longer_match_the_card() -> None:
    scene = _scene()
    camera = fit_camera(scene.cards, Camera(1280, 720, tilt=20), margin=0.25)
    frame, truth = render_scene(scene, camera, seed=1)
    card = truth["cards"][0]
    exact = _crop_error(frame, card["corners"], card["label"])
    shifted = _crop_error(frame, (np.array(card["corners"]) + (6, 4)).tolist(), card["label"])
    assert shifted > exact + 5


def test_the_corners_come_in_the_crop_contract_order() -> None:
    seats = round_table_seats(["Anna"])
    scene = Scene(seats, (Placed("7C", True, (0.0, 0.0), angle=90.0, seat="Anna"),))
    frame, truth = render_scene(scene, Camera(1280, 720, tilt=0, view_cm=40), seed=0)
    corners = np.array(truth["cards"][0]["corners"])
    # a card lying sideways: the first edge is a short one, starting at the top-left-most corner
    assert np.linalg.norm(corners[1] - corners[0]) < np.linalg.norm(corners[2] - corners[1])
    assert corners[0].sum() == min(corners[0].sum(), corners[2].sum())


def test_a_hand_over_a_card_hides_part_of_it_and_the_truth_says_how_much() -> None:
    seats = round_table_seats(["Anna"])
    covered = Placed("9D", True, (0.0, 0.0), 0.0, "Anna", cover=0.4)
    frame, truth = render_scene(
        Scene(seats, (covered,)), Camera(1280, 720, tilt=10, view_cm=40), seed=0
    )
    assert 0.45 < truth["cards"][0]["visible"] < 0.75


@pytest.mark.parametrize("angle", [0.0, 40.0, 180.0])
def test_a_hand_laid_flat_over_a_card_hides_all_of_it(angle: float) -> None:
    covered = Placed("4S", False, (0.0, 0.0), angle, cover=1.15)
    _, truth = render_scene(Scene((), (covered,)), Camera(1280, 720, tilt=0, view_cm=60), seed=0)
    assert truth["cards"][0]["visible"] == 0.0


def test_a_photographed_table_is_laid_at_its_scale_mirrored_beyond_its_edges() -> None:
    # a picture 40 x 20 cm at 1 cm a pixel: dark left half, light right half
    picture = np.zeros((20, 40, 3), np.uint8)
    picture[:, 20:] = 200
    camera = Camera(640, 360, tilt=0, view_cm=160)  # 4 pixels a cm
    stage = Stage((), "felt", camera, seed=0, surface=Surface(picture, 1.0))
    frame, _ = stage.frame((), {}, noise_seed=0)
    grey = frame.mean(axis=2)
    row = grey[180]
    assert row[320 - 20] < 60 < 120 < row[320 + 20]  # 5 cm either side of the table's middle
    assert row[320 + 120] > 120 and row[320 + 180] < 60  # 30 cm out, mirrored, light again; 45 cm out, dark


def test_a_card_on_top_hides_the_card_it_overlaps() -> None:
    seats = round_table_seats(["Anna"])
    cards = (Placed("2B", True, (0.0, 0.0), 0.0, "Anna"), Placed("4S", False, (3.0, 0.0), 0.0))
    _, truth = render_scene(Scene(seats, cards), Camera(1280, 720, tilt=0, view_cm=40), seed=0)
    under, over = truth["cards"]
    assert 0.3 < under["visible"] < 0.7 and over["visible"] > 0.95


def test_cards_from_60_to_300_pixels_wide_are_drawn() -> None:
    seats = round_table_seats(["Anna"])
    for view_cm, expected in ((180.0, 60), (36.0, 300)):
        card = Placed("10S", True, (0.0, 0.0), 0.0, "Anna")
        frame, truth = render_scene(
            Scene(seats, (card,)), Camera(1920, 1080, tilt=0, view_cm=view_cm), seed=0
        )
        corners = np.array(truth["cards"][0]["corners"])
        width = np.linalg.norm(corners[1] - corners[0])
        assert abs(width - expected) < expected * 0.1
        assert _crop_error(frame, truth["cards"][0]["corners"], "10S") < 40


def test_an_unknown_table_style_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="marble"):
        render_scene(_scene("marble"), Camera(), seed=0)


def test_the_same_seed_draws_the_same_frame() -> None:
    a, _ = render_scene(_scene(), Camera(640, 360), seed=5)
    b, _ = render_scene(_scene(), Camera(640, 360), seed=5)
    assert np.array_equal(a, b)


# --- the committed sample_images/: what `python -m art.samples sample_images` makes ---

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
STILLS = ["deal", "re-cavallo", "reveal-tie"]


def _check_frame_truth(cards: list[dict], width: int, height: int, players: list[str]) -> None:
    """Cards inside the frame, each card once, at most one resting card per seat, seats known."""
    identities = [c["card"] for c in cards]
    assert len(identities) == len(set(identities)), identities
    seats = [c["seat"] for c in cards if c["seat"] is not None]
    assert len(seats) == len(set(seats)) and set(seats) <= set(players)
    for card in cards:
        corners = np.array(card["corners"])
        assert corners.shape == (4, 2)
        assert (
            (corners >= 0).all()
            and (corners[:, 0] <= width).all()
            and (corners[:, 1] <= height).all()
        )
        assert card["label"] == (card["card"] if card["face_up"] else "back")


@pytest.mark.parametrize("name", STILLS)
def test_each_still_has_consistent_ground_truth(name: str) -> None:
    truth = json.loads((SAMPLES / f"{name}.json").read_text())
    frame = cv2.imread(str(SAMPLES / f"{name}.jpg"))
    assert frame.shape == (truth["height"], truth["width"], 3)
    _check_frame_truth(truth["cards"], truth["width"], truth["height"], truth["players"])
    at_seats = {c["seat"] for c in truth["cards"] if c["seat"]}
    assert at_seats == set(truth["players"])  # every player has a card


def test_the_stills_show_the_deal_the_re_and_cavallo_and_the_tie() -> None:
    def shown(name: str) -> dict[str, str]:
        truth = json.loads((SAMPLES / f"{name}.json").read_text())
        return {c["seat"]: c["label"] for c in truth["cards"] if c["seat"]}

    assert set(shown("deal").values()) == {"back"}
    assert shown("re-cavallo") == {
        "Anna": "back",
        "Bruno": "10S",
        "Carla": "back",
        "Dario": "9D",
        "Elena": "back",
    }
    assert shown("reveal-tie") == {
        "Anna": "2C",
        "Bruno": "7D",
        "Carla": "2S",
        "Dario": "10B",
        "Elena": "5C",
    }


def test_the_hand_sequence_tells_one_whole_hand_of_five() -> None:
    hand = json.loads((SAMPLES / "hand" / "hand.json").read_text())
    frames = hand["frames"]
    assert 20 <= len(frames) <= 60
    phases = [f["phase"] for f in frames]
    for phase in ("deal", "shown", "swap", "reveal", "draw", "settle"):
        assert phase in phases
    assert (
        phases.index("deal")
        < phases.index("shown")
        < phases.index("swap")
        < phases.index("reveal")
        < phases.index("draw")
    )
    for frame in frames:
        image = cv2.imread(str(SAMPLES / "hand" / frame["file"]))
        assert image.shape == (hand["height"], hand["width"], 3)
        _check_frame_truth(frame["cards"], hand["width"], hand["height"], hand["players"])
    last = {c["seat"]: c["label"] for c in frames[-1]["cards"] if c["seat"]}
    assert last == hand["expected"]["final"]


@pytest.mark.parametrize("truth_file", ["hand/hand.json", "reveal-tie.json"])
def test_the_referee_agrees_with_the_expected_losers(
    truth_file: str, tmp_path: Path, capsys
) -> None:
    from webui.cli import main

    truth = json.loads((SAMPLES / truth_file).read_text())
    record = tmp_path / "record.json"
    record.write_text(json.dumps(truth["record"]))
    assert main(["replay", str(record)]) == 0
    replayed = json.loads(capsys.readouterr().out)["hands"][0]
    assert replayed["losers"] == truth["expected"]["losers"]
    assert replayed["final"] == truth["expected"]["final"]
    assert replayed["swaps"] == truth["expected"]["swaps"]


def test_the_deal_still_is_what_the_generator_draws() -> None:
    from art.samples import render_still, still_scenes

    name, scene, camera, seed, _ = still_scenes()[0]
    fresh, truth = render_still(scene, camera, seed)
    stored = cv2.imread(str(SAMPLES / f"{name}.jpg"))
    assert truth["cards"] == json.loads((SAMPLES / f"{name}.json").read_text())["cards"]
    assert float(np.abs(fresh.astype(np.float32) - stored).mean()) < 3.0  # JPEG's loss only


def _standard(image: np.ndarray) -> np.ndarray:
    """The image with each channel's mean and spread evened out: light and tint set aside."""
    pixels = image.astype(np.float32)
    return (pixels - pixels.mean(axis=(0, 1))) / (pixels.std(axis=(0, 1)) + 1e-6)


def test_all_40_cards_at_80_px_in_a_tilted_scene_are_told_apart_by_the_nearest_flat_face() -> None:
    codes = [card.code for card in DECK]
    flat = {
        code: _standard(
            cv2.resize(render_face(code, 416), (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
        )
        for code in codes
    }

    def ranking(crop: np.ndarray) -> list[tuple[float, str]]:
        seen = _standard(crop)
        return sorted(
            (min(float(np.abs(seen - f).mean()), float(np.abs(seen - f[::-1, ::-1]).mean())), code)
            for code, f in flat.items()
        )

    for start in (0, 20):  # two tables of twenty cards, four rows of five
        cards = tuple(
            Placed(
                code,
                True,
                ((i % 5 - 2) * 10.0, (i // 5 - 1.5) * 13.0),
                180 * (i % 2) + i % 7 * 3 - 9,
            )
            for i, code in enumerate(codes[start : start + 20])
        )
        camera = fit_camera(cards, Camera(1280, 720, tilt=30, yaw=10), margin=0.02)
        frame, truth = render_scene(Scene((), cards, "wood"), camera, seed=start)
        for card in truth["cards"]:
            width = np.linalg.norm(np.subtract(card["corners"][1], card["corners"][0]))
            assert 55 < width < 85
            (best, code), (second, _) = ranking(warp_card(frame, np.array(card["corners"])))[:2]
            assert code == card["card"] and second > best * 1.05, (card["card"], best, second)


@pytest.mark.parametrize(
    "card, coins, message",
    [
        (Placed("11S", True, (0.0, 0.0)), {}, "11S"),
        (Placed("9S", True, (0.0, 0.0), seat="Zeno"), {}, "Zeno"),
        (Placed("9S", True, (0.0, 0.0), cover=1.5), {}, "cover"),
        (Placed("9S", True, (0.0, 0.0)), {"Zeno": 3}, "Zeno"),
    ],
)
def test_a_scene_naming_what_is_not_there_is_refused_by_name(
    card: Placed, coins: dict, message: str
) -> None:
    scene = Scene(round_table_seats(["Anna"]), (card,), "wood", coins)
    with pytest.raises(ValueError, match=message):
        render_scene(scene, Camera(320, 180), seed=0)
