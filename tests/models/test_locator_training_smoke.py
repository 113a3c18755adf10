"""A seconds-long run of the real locator training: synthesise tiles, fit, checkpoint, resume, export, read back."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from models.locator_net import LocatorNet, export_onnx  # noqa: E402
from models.locator_synth import make_tiles  # noqa: E402
from models.sources import Sources  # noqa: E402
from models.train_locator import core_scores, fit  # noqa: E402
from vision.locnet import LocatorNet as OnnxLocator  # noqa: E402

SIZE = (128, 96)


def _args(epochs: int) -> argparse.Namespace:
    return argparse.Namespace(batch=4, lr=3e-3, epochs=epochs, seed=1)


def test_scene_tiles_have_cards_and_cores_inside_them() -> None:
    frames, maps = make_tiles(Sources(), 6, seed=2, size=SIZE)
    assert frames.shape == (6, 96, 128, 3) and maps.shape == (6, 2, 48, 64)
    assert maps[:, 1].sum() > 0 and (maps[:, 1] <= maps[:, 0]).all()  # every core pixel lies on a card


def test_one_epoch_trains_checkpoints_resumes_and_exports_a_readable_locator(tmp_path: Path) -> None:
    frames, maps = make_tiles(Sources(), 8, seed=3, size=SIZE)
    model = LocatorNet()
    seen: list[int] = []
    fit(model, frames, maps, _args(1), tmp_path / "ckpt.pt", lambda m, e, loss: seen.append(e))
    assert seen == [0] and (tmp_path / "ckpt.pt").is_file()
    again = LocatorNet()
    fit(again, frames, maps, _args(1), tmp_path / "ckpt.pt", lambda m, e, loss: seen.append(e))
    assert seen == [0]  # nothing left to train: the checkpoint is taken as it is
    for a, b in zip(model.state_dict().values(), again.state_dict().values()):
        assert torch.equal(a, b)
    assert set(core_scores(model, frames, maps)) == {"precision", "recall", "iou"}

    export_onnx(model, tmp_path / "locator.onnx", {"training": "smoke test"})
    net = OnnxLocator(tmp_path / "locator.onnx")
    probabilities = net.maps(np.zeros((720, 1280, 3), np.uint8))
    assert probabilities.shape == (2, 144, 256) and np.isfinite(probabilities).all()
