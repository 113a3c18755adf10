"""The project's own deck: 40 distinct faces and a back, as SVG and PNG that agree."""

from __future__ import annotations

import itertools
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import cv2
import numpy as np
import pytest

from art.deck import face_svg, main, render_face, write_deck
from art.draw import Drawing, Ellipse, Path, rasterize
from art.emblems import PAPER
from referee.cards import DECK, CardError
from vision.crop import CARD_ASPECT

LABELS = [card.code for card in DECK] + ["back"]


@pytest.mark.parametrize("height", [104, 333, 1000])
def test_a_face_has_the_card_shape_at_any_height(height: int) -> None:
    image = render_face("9S", height)
    assert image.shape == (height, round(height * CARD_ASPECT), 3)
    assert image.dtype == np.uint8


def _strongest_local_difference(a: np.ndarray, b: np.ndarray) -> float:
    """The largest mean colour difference over one cell of an 8 x 13 grid laid on two faces."""
    diff = np.abs(a.astype(np.float32) - b.astype(np.float32)).mean(axis=2)
    return float(cv2.resize(diff, (8, 13), interpolation=cv2.INTER_AREA).max())


def test_the_40_faces_and_the_back_are_pairwise_distinct_at_80_px_wide() -> None:
    small = {label: render_face(label, 132) for label in LABELS}
    closest = min(
        (_strongest_local_difference(small[a], small[b]), a, b)
        for a, b in itertools.combinations(LABELS, 2)
    )
    # some tenth-of-the-card region must differ clearly (0 for identical faces, 255 max)
    assert closest[0] > 30.0, f"{closest[1]} and {closest[2]} look alike"


def test_both_spellings_name_the_same_face() -> None:
    assert np.array_equal(render_face("9S", 200), render_face("spade-09", 200))


def test_a_render_is_a_copy_the_caller_may_draw_on() -> None:
    image = render_face("1D", 120)
    image[:] = 0
    assert render_face("1D", 120).any()


@pytest.mark.parametrize("bad", ["11S", "?", "", "joker"])
def test_an_unknown_card_is_refused_by_name(bad: str) -> None:
    with pytest.raises(CardError):
        render_face(bad, 200)


@pytest.mark.parametrize("label", ["1D", "7C", "10B", "back"])
def test_the_svg_is_well_formed_and_card_shaped(label: str) -> None:
    root = ET.fromstring(face_svg(label))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    _, _, width, height = (float(v) for v in root.attrib["viewBox"].split())
    assert width / height == pytest.approx(CARD_ASPECT)
    assert len(root) > 10


def test_the_deck_command_writes_41_cards_as_svg_and_png(tmp_path: pathlib.Path) -> None:
    assert main([str(tmp_path / "deck"), "--size", "150"]) == 0
    svgs = sorted(p.name for p in (tmp_path / "deck").glob("*.svg"))
    pngs = sorted((tmp_path / "deck").glob("*.png"))
    assert len(svgs) == len(pngs) == 41
    assert "denari-09.svg" in svgs and "back.svg" in svgs
    image = cv2.imread(str(tmp_path / "deck" / "denari-09.png"))
    assert image.shape == (150, round(150 * CARD_ASPECT), 3)
    for path in (tmp_path / "deck").glob("*.svg"):
        ET.parse(path)


def test_the_deck_command_refuses_a_file_as_outdir(tmp_path: pathlib.Path, capsys) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("not a folder")
    assert write_deck(target, height=150) == 2
    assert "not a directory" in capsys.readouterr().err


def test_the_deck_command_answers_a_bad_folder_in_one_line(tmp_path: pathlib.Path) -> None:
    in_the_way = tmp_path / "notes.txt"
    in_the_way.write_text("not a folder")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    cases = [(in_the_way, "a file of that name is in the way"), (loop, "a symlink loop"),
             (in_the_way / "deck", "a part of the path")]
    for outdir, says in cases:
        done = subprocess.run([sys.executable, "-m", "art.deck", str(outdir)], capture_output=True, text=True,
                              cwd=pathlib.Path(__file__).resolve().parents[2], timeout=120)
        assert (done.returncode, done.stdout) == (2, ""), (outdir, done.stderr)
        assert done.stderr.startswith(f"python -m art.deck: {outdir}: {says}"), done.stderr
        assert len(done.stderr.splitlines()) == 1, done.stderr
    assert in_the_way.read_text() == "not a folder"


@pytest.mark.parametrize("size", [0, -5, 100000])
def test_the_deck_command_refuses_a_bad_size(tmp_path: pathlib.Path, size: int, capsys) -> None:
    assert write_deck(tmp_path / "deck", height=size) == 2
    assert "out of range" in capsys.readouterr().err
    assert not (tmp_path / "deck").exists()


def _drawing_from_svg(text: str) -> Drawing:
    """Read back the shapes our SVG writer emits (paths and ellipses), to draw them again."""
    root = ET.fromstring(text)
    _, _, width, height = (float(v) for v in root.attrib["viewBox"].split())
    drawing = Drawing(width, height)

    def colour(value: str) -> tuple[int, int, int] | None:
        return (
            None
            if value == "none"
            else (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
        )

    for node in root:
        fill, stroke = colour(node.get("fill", "none")), colour(node.get("stroke", "none"))
        width_ = float(node.get("stroke-width", "0"))
        if node.tag.endswith("ellipse"):
            angle = float(node.get("transform", "rotate(0").split("(")[1].split()[0].rstrip(")"))
            centre = (float(node.get("cx", "0")), float(node.get("cy", "0")))
            radii = (float(node.get("rx", "0")), float(node.get("ry", "0")))
            drawing.shapes.append(Ellipse(centre, radii, angle, fill, stroke, width_))
        else:
            d = node.get("d", "")
            closed = d.endswith("Z")
            numbers = [
                float(v) for v in d.replace("M", " ").replace("L", " ").replace("Z", " ").split()
            ]
            points = np.array(numbers).reshape(-1, 2)
            drawing.shapes.append(Path(points, closed, fill, stroke, width_))
    return drawing


@pytest.mark.parametrize("label", ["1S", "1B", "6C", "9D", "back"])
def test_the_svg_and_the_png_draw_the_same_card(label: str) -> None:
    again = rasterize(_drawing_from_svg(face_svg(label)), 121, 200, PAPER)
    png = render_face(label, 200)
    # the SVG keeps one decimal of each coordinate: the two may differ only along edges
    assert float(np.abs(again.astype(np.float32) - png).mean()) < 0.3
