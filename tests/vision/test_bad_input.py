"""Bad and odd images: a clear answer for each, never a crash, and bounded memory for huge ones."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classify import default_model_path
from vision.io import MAX_PIXELS, ImageError, decode_image, image_size, read_image
from vision.locate import locate_cards
from vision.recognize import run_recognize


def _jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


def _png_header(width: int, height: int) -> bytes:
    """The first bytes of a PNG that claims the given size (the pixel data never follows)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "empty"),
        (b"\xff\xd8\xff\xe0 not a real JPEG at all", "not a readable image"),
        (b"GIF89a\x0a\x00\x0a\x00 but not really", "not a readable image"),
        (b"\x00\x00\x00\x20ftypavif an AVIF photo", "only JPEG, PNG, WebP, BMP, TIFF, GIF and PNM"),
        (_png_header(8000, 6000), "too large"),
        (_png_header(0, 10), "0x10"),
    ],
)
def test_unreadable_data_gives_a_specific_reason(data: bytes, reason: str) -> None:
    with pytest.raises(ImageError, match=reason):
        decode_image(data)


def test_a_jpeg_cut_short_in_transfer_is_reported_truncated() -> None:
    whole = _jpeg(np.full((200, 300, 3), 128, np.uint8))
    with pytest.raises(ImageError, match="truncated"):
        decode_image(whole[: len(whole) // 2])


def test_a_missing_file_a_folder_and_a_device_are_named_as_such(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        read_image(tmp_path / "nothing.jpg")
    with pytest.raises(ImageError, match="a folder, not an image file"):
        read_image(tmp_path)
    with pytest.raises(ImageError, match="not a regular file"):
        read_image("/dev/null")


def test_headers_give_the_size_before_decoding() -> None:
    assert image_size(_jpeg(np.zeros((30, 50, 3), np.uint8))) == (50, 30)
    assert image_size(_png_header(8000, 6000)) == (8000, 6000)
    assert image_size(b"BM not parsed") is None


def test_a_grayscale_image_is_read_as_colour() -> None:
    image = decode_image(_jpeg(np.full((40, 60), 90, np.uint8)))
    assert image.pixels.shape == (40, 60, 3) and image.scale == 1.0


def test_a_one_pixel_image_holds_no_cards() -> None:
    image = decode_image(cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))[1].tobytes())
    assert locate_cards(image.pixels).shape == (0, 4, 2)


@pytest.fixture(scope="module")
def huge_jpeg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An 8000 x 6000 photo: a light card-sized rectangle on a dark table."""
    image = np.full((6000, 8000, 3), 60, np.uint8)
    cv2.rectangle(image, (3000, 2000), (4210, 4000), (235, 235, 235), -1)
    path = tmp_path_factory.mktemp("huge") / "huge.jpg"
    path.write_bytes(_jpeg(image))
    return path


def test_an_8000_by_6000_jpeg_is_decoded_reduced_with_its_scale(huge_jpeg: Path) -> None:
    image = read_image(huge_jpeg)
    height, width = image.pixels.shape[:2]
    assert height * width <= MAX_PIXELS
    assert (width * image.scale, height * image.scale) == (8000, 6000)


def test_decoding_an_8000_by_6000_jpeg_stays_within_bounded_memory(huge_jpeg: Path) -> None:
    probe = (
        "import resource, sys\n"
        "from vision.io import read_image\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "read_image(sys.argv[1])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    grown_kib = int(subprocess.run([sys.executable, "-c", probe, str(huge_jpeg)], capture_output=True, text=True,
                                   check=True).stdout)
    full_decode_kib = 8000 * 6000 * 3 // 1024
    assert grown_kib < full_decode_kib / 2


@pytest.mark.skipif(not default_model_path().is_file(), reason="no committed model at models/cards.onnx")
def test_recognize_answers_every_odd_image_and_fails_only_the_unreadable(tmp_path: Path, huge_jpeg: Path) -> None:
    gray = tmp_path / "gray.png"
    cv2.imwrite(str(gray), np.full((480, 640), 100, np.uint8))
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    out = io.StringIO()
    status = run_recognize([str(gray), str(tiny), str(empty), str(huge_jpeg)], as_json=True, out=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 1
    assert [("error" in line) for line in lines] == [False, False, True, False]
    assert lines[0]["cards"] == [] and lines[1]["cards"] == []
    for card in lines[3]["cards"]:  # whatever is found lies in the file's own 8000 x 6000 pixels
        assert all(0 <= x <= 8000 and 0 <= y <= 6000 for x, y in card["quad"])


def test_frames_in_memory_may_be_gray_or_bgra_but_not_16_bit() -> None:
    gray = np.full((120, 160), 70, np.uint8)
    assert locate_cards(gray).shape == (0, 4, 2)
    assert locate_cards(cv2.cvtColor(cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR), cv2.COLOR_BGR2BGRA)).shape == (0, 4, 2)
    with pytest.raises(ValueError, match="8-bit"):
        locate_cards(np.zeros((120, 160, 3), np.uint16))


def test_an_iphone_heic_photo_is_refused_with_what_to_do_instead() -> None:
    heic = struct.pack(">I", 24) + b"ftypheic" + b"\x00\x00\x00\x00mif1heic" + b"\x00" * 64
    with pytest.raises(ImageError, match="HEIC.*export the photo as JPEG"):
        decode_image(heic)


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF block saying how the phone was held."""
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00\x2a\x00\x00\x00\x08" + struct.pack(">H", 1) + entry + b"\x00\x00\x00\x00"
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def test_a_photo_taken_with_the_phone_turned_is_read_as_it_is_shown() -> None:
    stored = np.zeros((100, 200, 3), np.uint8)
    stored[:, :50] = 255  # a white band on the left of the stored pixels
    shown = decode_image(_with_exif_orientation(_jpeg(stored), 6)).pixels  # 6: turn 90 degrees clockwise to show
    assert shown.shape[:2] == (200, 100)
    assert shown[:50].mean() > 200 and shown[60:].mean() < 30  # the band now runs along the top


ONE_THREAD_ON_A_CHECKED_CLOTH = """
import threading
import cv2
from vision.locate import LocatorConfig, locate_cards
from vision.recognize import CardReader
from art.scene import Camera, Scene, render_scene

def read_tables():
    reader = CardReader()
    for seed in range(4):
        table, _ = render_scene(Scene((), (), "cloth"), Camera(1280, 720, tilt=0, view_cm=120), seed=seed)
        locate_cards(table, LocatorConfig(work_side=320))  # where IPP's Canny corrupted the heap
        print(len(reader(table)))

cv2.setNumThreads(1)
read_tables()
worker = threading.Thread(target=read_tables)  # as a server reading frames off its main thread would
worker.start()
worker.join()
"""


def test_an_empty_checked_cloth_read_on_one_thread_gives_no_cards_and_no_crash() -> None:
    env = {"MALLOC_CHECK_": "3", "PATH": "/usr/bin:/bin"}  # glibc aborts at the first corrupted free
    script = [sys.executable, "-c", ONE_THREAD_ON_A_CHECKED_CLOTH]
    done = subprocess.run(script, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == ["0"] * 8  # shrunk to 320 px, the whole cloth once outlined a 'back'


def _encoded(ext: str, width: int = 12, height: int = 10) -> bytes:
    ok, data = cv2.imencode(ext, np.full((height, width, 3), 90, np.uint8))
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp", ".bmp", ".tiff", ".ppm", ".gif"])
def test_every_format_read_is_measured_from_its_header_before_decoding(ext: str) -> None:
    data = _encoded(ext, 37, 23)
    assert image_size(data) == (37, 23)
    assert decode_image(data).pixels.shape == (23, 37, 3)


def test_lossy_webp_and_old_bmp_headers_give_their_size_too() -> None:
    ok, lossy = cv2.imencode(".webp", np.zeros((23, 37, 3), np.uint8), [cv2.IMWRITE_WEBP_QUALITY, 50])
    assert ok and lossy.tobytes()[12:16] == b"VP8 " and image_size(lossy.tobytes()) == (37, 23)
    os2 = b"BM" + b"\x00" * 12 + struct.pack("<IhhHH", 12, 37, -23, 1, 24)
    assert image_size(os2) == (37, 23)


def _webp_header(width: int, height: int) -> bytes:
    """A lossless WebP's first bytes claiming the given size (its pixels never follow)."""
    bits = (width - 1) | (height - 1) << 14
    chunk = b"\x2f" + struct.pack("<I", bits) + b"\x00" * 16
    return b"RIFF" + struct.pack("<I", 4 + 8 + len(chunk)) + b"WEBP" + b"VP8L" + struct.pack("<I", len(chunk)) + chunk


HUGE_WEBP = """
import resource, sys
from vision.io import ImageError, decode_image
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    decode_image(open(sys.argv[1], "rb").read())
except ImageError as error:
    print(error)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_a_16000_pixel_square_webp_is_refused_before_decoding_whatever_the_environment_says(
        tmp_path: Path) -> None:
    huge = tmp_path / "huge.webp"
    huge.write_bytes(_webp_header(16000, 16000))
    env = {"PATH": "/usr/bin:/bin", "OPENCV_IO_MAX_IMAGE_PIXELS": str(10**12)}
    done = subprocess.run([sys.executable, "-c", HUGE_WEBP, str(huge)], capture_output=True, text=True,
                          env=env, check=True, cwd=Path(__file__).resolve().parents[2])
    said, grown_kib = done.stdout.splitlines()
    assert said == f"16000x16000 pixels is too large to read (limit {MAX_PIXELS} pixels)"
    assert int(grown_kib) < 50_000  # a full decode would take 750,000 KiB


SMALL_LIMIT = """
import sys
from vision.io import ImageError, read_image
try:
    read_image(sys.argv[1])
except ImageError as error:
    print(error)
"""


def test_a_user_set_opencv_pixel_limit_gives_an_image_error_not_a_crash(tmp_path: Path) -> None:
    photo = tmp_path / "photo.png"
    photo.write_bytes(_encoded(".png", 200, 100))
    env = {"PATH": "/usr/bin:/bin", "OPENCV_IO_MAX_IMAGE_PIXELS": "1000"}
    done = subprocess.run([sys.executable, "-c", SMALL_LIMIT, str(photo)], capture_output=True, text=True,
                          env=env, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.startswith("OpenCV refused to decode it (OPENCV_IO_MAX_IMAGE_PIXELS=1000 is set)")


def test_a_symlink_loop_is_named_as_such(tmp_path: Path) -> None:
    loop = tmp_path / "loop.jpg"
    loop.symlink_to(loop)
    with pytest.raises(ImageError, match="a symlink loop"):
        read_image(loop)


def _saltacavallo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webui.cli", *args], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)


def test_annotate_answers_a_bad_folder_in_one_line(tmp_path: Path) -> None:
    in_the_way = tmp_path / "notes.txt"
    in_the_way.write_text("not a folder")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    photo = str(Path(__file__).resolve().parents[2] / "sample_images" / "deal.jpg")
    cases = [
        (("recognize", "--annotate", str(in_the_way), photo),
         f"saltacavallo recognize: --annotate {in_the_way}: a file of that name is in the way"),
        (("recognize", "--annotate", str(in_the_way / "inside"), photo),
         f"saltacavallo recognize: --annotate {in_the_way / 'inside'}: a part of the path is a file"),
        (("recognize", "--annotate", str(loop), photo), f"saltacavallo recognize: --annotate {loop}: a symlink loop"),
    ]
    for args, says in cases:
        done = _saltacavallo(*args)
        assert (done.returncode, done.stdout) == (2, ""), (args, done.stderr)
        assert done.stderr.startswith(says) and len(done.stderr.splitlines()) == 1, done.stderr
    assert in_the_way.read_text() == "not a folder"
