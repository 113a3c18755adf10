"""Safe image reading: clear errors for bad files, bounded memory for enormous ones."""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

# formats without a header we parse (WebP, TIFF, BMP) are still bounded by OpenCV's own pixel limit
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "64000000")

import cv2  # noqa: E402
import numpy as np

MAX_PIXELS = 16_000_000
"""Largest image decoded at full size; bigger JPEGs are decoded reduced, others refused."""
MAX_FILE_BYTES = 200_000_000
"""Largest file read at all."""


class ImageError(ValueError):
    """An image file that cannot be read, with the reason in words."""


@dataclass(frozen=True)
class Image:
    """A decoded BGR image and the factor from its pixels back to the file's own pixels."""

    pixels: np.ndarray
    scale: float = 1.0
    """File pixels per decoded pixel (2, 4 or 8 when an enormous JPEG was decoded reduced)."""


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """A uint8 frame as 3-channel BGR: gray and BGRA are converted, anything else refused."""
    if frame.dtype != np.uint8:
        raise ValueError(f"frames must be 8-bit (uint8), not {frame.dtype}")
    if frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] == 1):
        return cv2.cvtColor(frame.reshape(frame.shape[:2]), cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    raise ValueError(f"frames must be gray, BGR or BGRA images, not an array of shape {frame.shape}")


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG or JPEG header, or None for other or unparsable formats."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if not data.startswith(b"\xff\xd8"):
        return None
    pos = 2
    while pos + 9 < len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte before a marker
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # start of frame
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return width, height
        pos += 2 + length
    return None


def _jpeg_complete(data: bytes) -> bool:
    """Tell whether a JPEG's image data ends with an end-of-image marker after its first scan."""
    scan = data.find(b"\xff\xda")
    return scan >= 0 and data.rfind(b"\xff\xd9") > scan


def _unsupported_format(data: bytes) -> str | None:
    """The name of a known photo format OpenCV cannot decode (a phone's HEIC), or None."""
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1"):
        return "HEIC/HEIF"
    return None


def decode_image(data: bytes) -> Image:
    """Decode image bytes to BGR (EXIF orientation applied), reducing enormous JPEGs while decoding.

    Raises ImageError with the reason when the bytes cannot be read.
    """
    if not data:
        raise ImageError("the file is empty (0 bytes)")
    unsupported = _unsupported_format(data)
    if unsupported is not None:
        raise ImageError(f"{unsupported} photos cannot be read: save or export the photo as JPEG or PNG")
    size = image_size(data)
    reduce = 1
    if size is not None:
        width, height = size
        if width == 0 or height == 0:
            raise ImageError(f"the header says the image is {width}x{height} pixels")
        while width * height / reduce**2 > MAX_PIXELS and reduce < 8:
            reduce *= 2
        if width * height / reduce**2 > MAX_PIXELS or (reduce > 1 and not data.startswith(b"\xff\xd8")):
            raise ImageError(f"{width}x{height} pixels is too large to read (limit {MAX_PIXELS} pixels)")
        if data.startswith(b"\xff\xd8") and not _jpeg_complete(data):
            raise ImageError("the JPEG data is truncated (no end-of-image marker)")
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4}.get(
        reduce, cv2.IMREAD_REDUCED_COLOR_8
    )
    pixels = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if pixels is None:
        raise ImageError("not a readable image (corrupt data or an unsupported format)")
    if size is None and pixels.shape[0] * pixels.shape[1] > MAX_PIXELS:
        raise ImageError(f"{pixels.shape[1]}x{pixels.shape[0]} pixels is too large to read")
    return Image(pixels, float(reduce))


def read_image(path: str | Path) -> Image:
    """Read an image file as BGR; raise ImageError with the reason when it cannot be read."""
    file = Path(path)
    if not file.exists():
        raise ImageError("no such file")
    if file.is_dir():
        raise ImageError("a folder, not an image file")
    if not file.is_file():
        raise ImageError("not a regular file (a device or a pipe?)")
    if file.stat().st_size > MAX_FILE_BYTES:
        raise ImageError(f"{file.stat().st_size} bytes is too large to read")
    try:
        data = file.read_bytes()
    except OSError as error:
        raise ImageError(f"cannot read the file ({error.strerror})") from error
    return decode_image(data)
