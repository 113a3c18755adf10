"""The command piped into a reader that stops early (`| head -1`) ends without a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"


def test_recognize_piped_into_head_stops_quietly() -> None:
    images = " ".join(str(SAMPLES / name) for name in ("reveal-tie.jpg", "deal.jpg", "re-cavallo.jpg"))
    done = subprocess.run(
        f"{sys.executable} -m webui.cli recognize {images} | head -1", shell=True, capture_output=True, text=True
    )
    assert done.stdout.startswith(f"{SAMPLES / 'reveal-tie.jpg'}: ")
    assert "Traceback" not in done.stderr, done.stderr
