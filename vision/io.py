"""Safe image reading: clear errors for bad files, bounded memory for enormous ones."""

from __future__ import annotations

import errno
import os
import stat
import re
import struct
from dataclasses import dataclass
from pathlib import Path

# a backstop only: every format is measured from its header and bounded before OpenCV decodes it
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


_PATH_REASONS = {
    errno.ENOENT: "no such file",
    errno.ELOOP: "a symlink loop (the link points back at itself)",
    errno.EACCES: "permission denied",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EEXIST: "a file of that name is in the way",
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the disk is read-only",
}


def path_reason(error: OSError) -> str:
    """A file system error in words (a missing file, a symlink loop, a full disk)."""
    return _PATH_REASONS.get(error.errno or 0, error.strerror or str(error))


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
    """Width and height from the header of a format OpenCV decodes, or None when unparsable.

    Read: JPEG, PNG, WebP, BMP, TIFF, GIF and PNM (P1-P6); any other format gives None.
    """
    for reader in (_png_size, _jpeg_size, _webp_size, _bmp_size, _tiff_size, _gif_size, _pnm_size):
        try:
            size = reader(data)
        except (struct.error, ValueError, IndexError):
            return None
        if size is not None:
            return size
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
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


def _webp_size(data: bytes) -> tuple[int, int] | None:
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    chunk = data[12:16]
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":  # lossy: a key frame's start code
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and data[20] == 0x2F:  # lossless: 14 bits each, less one
        (bits,) = struct.unpack("<I", data[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":  # extended: the canvas, 24 bits each, less one
        return (int.from_bytes(data[24:27], "little") + 1,
                int.from_bytes(data[27:30], "little") + 1)
    return None


def _bmp_size(data: bytes) -> tuple[int, int] | None:
    if not data.startswith(b"BM") or len(data) < 26:
        return None
    (header,) = struct.unpack("<I", data[14:18])
    if header == 12:  # the old OS/2 header: 16-bit sides
        width, height = struct.unpack("<hh", data[18:22])
    else:
        width, height = struct.unpack("<ii", data[18:26])
    return abs(width), abs(height)  # a negative height means rows stored top-down


_TIFF_WIDTH, _TIFF_HEIGHT = 256, 257
_TIFF_SHORT, _TIFF_LONG = 3, 4


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    order = {b"II*\x00": "<", b"MM\x00*": ">"}.get(data[:4])
    if order is None:
        return None
    (offset,) = struct.unpack(order + "I", data[4:8])
    (count,) = struct.unpack(order + "H", data[offset : offset + 2])
    sides: dict[int, int] = {}
    for at in range(offset + 2, offset + 2 + 12 * count, 12):
        tag, kind = struct.unpack(order + "HH", data[at : at + 4])
        if tag in (_TIFF_WIDTH, _TIFF_HEIGHT) and kind in (_TIFF_SHORT, _TIFF_LONG):
            value = data[at + 8 : at + 12]
            sides[tag] = struct.unpack(order + ("H" if kind == _TIFF_SHORT else "I"),
                                       value[:2] if kind == _TIFF_SHORT else value)[0]
    if len(sides) < 2:
        return None
    return sides[_TIFF_WIDTH], sides[_TIFF_HEIGHT]


def _gif_size(data: bytes) -> tuple[int, int] | None:
    if data[:6] not in (b"GIF87a", b"GIF89a") or len(data) < 10:
        return None
    width, height = struct.unpack("<HH", data[6:10])
    return width, height


_PNM_TOKENS = re.compile(rb"(?:\s+(?:#[^\n]*\n)?)+(\d+)")


def _pnm_size(data: bytes) -> tuple[int, int] | None:
    if len(data) < 3 or data[0:1] != b"P" or data[1:2] not in b"123456":
        return None
    first = _PNM_TOKENS.match(data, 2, 200)
    second = _PNM_TOKENS.match(data, first.end(), 400) if first else None
    if second is None:
        return None
    return int(first.group(1)), int(second.group(1))


def _jpeg_complete(data: bytes) -> bool:
    """Tell whether a JPEG's image data ends with an end-of-image marker after its first scan."""
    scan = data.find(b"\xff\xda")
    return scan >= 0 and data.rfind(b"\xff\xd9") > scan


def _unsupported_format(data: bytes) -> str | None:
    """The name of a known photo format OpenCV cannot decode (a phone's HEIC), or None."""
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1"):
        return "HEIC/HEIF"
    return None


def _checked(data: bytes) -> tuple[int, int, int]:
    """The width and height an image's header gives and the reduction (1, 2, 4 or 8) it is decoded at;
    ImageError saying why when the bytes cannot be decoded."""
    if not data:
        raise ImageError("the file is empty (0 bytes)")
    unsupported = _unsupported_format(data)
    if unsupported is not None:
        raise ImageError(f"{unsupported} photos cannot be read: save or export the photo as JPEG or PNG")
    size = image_size(data)
    if size is None:
        raise ImageError("not a readable image: only JPEG, PNG, WebP, BMP, TIFF, GIF and PNM "
                         "files are read (this one is corrupt or of another format)")
    width, height = size
    if width == 0 or height == 0:
        raise ImageError(f"the header says the image is {width}x{height} pixels")
    jpeg = data.startswith(b"\xff\xd8")
    reduce = 1
    while jpeg and width * height / reduce**2 > MAX_PIXELS and reduce < 8:
        reduce *= 2
    if width * height / reduce**2 > MAX_PIXELS:
        raise ImageError(f"{width}x{height} pixels is too large to read (limit {MAX_PIXELS} pixels)")
    if jpeg and not _jpeg_complete(data):
        raise ImageError("the JPEG data is truncated (no end-of-image marker)")
    return width, height, reduce


def checked_jpeg(data: bytes) -> tuple[int, int]:
    """The width and height of a camera's JPEG frame, from its header, once it is known it can be decoded
    whole (`decode_image`): ImageError saying why not (not a JPEG, truncated, over MAX_PIXELS)."""
    if not data.startswith(b"\xff\xd8"):
        raise ImageError("not a JPEG picture")
    width, height, reduce = _checked(data)
    if reduce != 1:
        raise ImageError(f"{width}x{height} pixels is too large for a camera's picture (limit {MAX_PIXELS} pixels)")
    return width, height


def decode_image(data: bytes) -> Image:
    """Decode image bytes to BGR (EXIF orientation applied), reducing enormous JPEGs while decoding.

    Raises ImageError with the reason when the bytes cannot be read.
    """
    _, _, reduce = _checked(data)
    flags = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4}.get(
        reduce, cv2.IMREAD_REDUCED_COLOR_8
    )
    pixels = _decoded(data, flags)
    if pixels.shape[0] * pixels.shape[1] > MAX_PIXELS:  # a header that lied about its size
        raise ImageError(f"{pixels.shape[1]}x{pixels.shape[0]} pixels is too large to read")
    return Image(pixels, float(reduce))


def _decoded(data: bytes, flags: int) -> np.ndarray:
    """OpenCV's decoding of image bytes with `flags`; ImageError saying why when it gives nothing."""
    try:
        pixels = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error as error:  # OpenCV's own limits, e.g. a user's OPENCV_IO_MAX_IMAGE_PIXELS
        limit = os.environ.get("OPENCV_IO_MAX_IMAGE_PIXELS")
        why = f" (OPENCV_IO_MAX_IMAGE_PIXELS={limit} is set)" if limit else ""
        raise ImageError(f"OpenCV refused to decode it{why}: {str(error).strip().splitlines()[-1]}") from None
    if pixels is None:
        raise ImageError("not a readable image (corrupt data or an unsupported format)")
    return pixels


REDUCED_GREY = {8: cv2.IMREAD_REDUCED_GRAYSCALE_8, 4: cv2.IMREAD_REDUCED_GRAYSCALE_4,
                2: cv2.IMREAD_REDUCED_GRAYSCALE_2, 1: cv2.IMREAD_GRAYSCALE}
"""OpenCV's flags decoding a JPEG in grey at an eighth, a quarter, a half of its size, or whole."""


def reduced_grey(jpeg: bytes, most: float) -> np.ndarray:
    """A JPEG decoded in grey, reduced by the largest of 8, 4 or 2 that is at most `most` (else whole):
    the decoder skips most of its work, the cheapest look at a camera's picture."""
    return _decoded(jpeg, REDUCED_GREY[max(r for r in REDUCED_GREY if r <= max(most, 1.0))])


def grey_thumbnail(image: np.ndarray, side: int) -> np.ndarray:
    """An image in grey, shrunk (by area) to `side` pixels on its long side when longer."""
    scale = min(1.0, side / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1.0 else image
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small


def read_image(path: str | Path) -> Image:
    """Read an image file as BGR; raise ImageError with the reason when it cannot be read."""
    file = Path(path)
    try:
        found = os.stat(file)
    except OSError as error:
        raise ImageError(path_reason(error)) from None
    if stat.S_ISDIR(found.st_mode):
        raise ImageError("a folder, not an image file")
    if not stat.S_ISREG(found.st_mode):
        raise ImageError("not a regular file (a device or a pipe?)")
    if found.st_size > MAX_FILE_BYTES:
        raise ImageError(f"{found.st_size} bytes is too large to read")
    try:
        data = file.read_bytes()
    except OSError as error:
        raise ImageError(f"cannot read the file ({path_reason(error)})") from None
    return decode_image(data)


def prepare_folder(folder: Path) -> str | None:
    """Make sure `folder` exists as a folder to write into; None when it does, else why not."""
    try:
        found = os.stat(folder)
    except FileNotFoundError:
        try:
            os.makedirs(folder)
        except OSError as error:
            return f"cannot create the folder: {path_reason(error)}"
        return None
    except OSError as error:
        return path_reason(error)
    if not stat.S_ISDIR(found.st_mode):
        return "a file of that name is in the way: not a directory"
    if not os.access(folder, os.W_OK):
        return "the folder is not writable"
    return None
