"""Checks on what a page uploads: a camera frame must be a whole JPEG of a sane size."""

from __future__ import annotations

from typing import Any

from live.words import Coded

MAX_FRAME_BYTES = 2 * 1024 * 1024
"""A phone frame's limit: a 1080p JPEG at the page's quality is about 300 kB."""

MAX_SIDE = 4096
"""The largest picture side accepted, in pixels (a 4K frame; more is no camera stream)."""

_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
"""The JPEG markers that start a frame and give its size."""


class UploadError(Coded, ValueError):
    """An upload the server refuses (a code of webui.words), with the HTTP status to answer."""

    def __init__(self, code: str, status: int = 400, **params: Any) -> None:
        super().__init__(code, **params)
        self.status = status


def jpeg_size(data: bytes) -> tuple[int, int]:
    """The (width, height) of a whole JPEG; UploadError for anything else."""
    if len(data) > MAX_FRAME_BYTES:
        raise UploadError("frame.too_big", 413, size=len(data) // 1024,
                          most=MAX_FRAME_BYTES // 1024)
    if len(data) < 4 or data[:3] != b"\xff\xd8\xff":
        raise UploadError("frame.not_jpeg", 415)
    if b"\xff\xd9" not in data[-16:]:
        raise UploadError("frame.cut")
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            raise UploadError("frame.broken")
        marker = data[at + 1]
        if marker == 0xFF:
            at += 1
            continue
        length = int.from_bytes(data[at + 2:at + 4], "big")
        if length < 2:
            raise UploadError("frame.broken")
        if marker in _SOF:
            if at + 9 > len(data):
                break
            height = int.from_bytes(data[at + 5:at + 7], "big")
            width = int.from_bytes(data[at + 7:at + 9], "big")
            if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
                raise UploadError("frame.sides", 413, width=width, height=height, most=MAX_SIDE)
            return width, height
        if marker == 0xDA:
            break
        at += 2 + length
    raise UploadError("frame.no_size")
