"""A seconds-long run of the real training pipeline: synthesise, fit, calibrate, export."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
onnxruntime = pytest.importorskip("onnxruntime")

from models.evaluate import fit_temperature, load_model, run_logits  # noqa: E402
from models.export import export_onnx  # noqa: E402
from models.net import CardNet  # noqa: E402
from models.sources import Sources, load_scans  # noqa: E402
from models.synth import make_crops  # noqa: E402
from models.train import Schedule, fit, predict  # noqa: E402
from vision.labels import CLASSES  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


@pytest.fixture(scope="module")
def scans() -> Sources:
    """The two printers' scanned faces (no photos, to stay fast)."""
    if not (DATA / "faces").is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    faces, backs, marks = load_scans(DATA)
    return Sources(faces=faces, backs=backs, marks=marks)


def test_one_epoch_trains_checkpoints_and_exports_a_working_model(scans: Sources, tmp_path: Path) -> None:
    crops, labels = make_crops(scans, 96, seed=3)
    data = torch.from_numpy(np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2)))
    model = CardNet()
    seen: list[int] = []
    fit(model, data, torch.from_numpy(labels), Schedule(epochs=1, batch=32), tmp_path / "ckpt.pt", lambda m, e, loss, acc: seen.append(e))
    assert seen == [0] and (tmp_path / "ckpt.pt").is_file()

    logits = predict(model, crops)
    assert logits.shape == (96, 42) and np.isfinite(logits).all()
    temperature = fit_temperature(logits, labels)
    export_onnx(model, tmp_path / "cards.onnx", temperature, 0.7, {})
    session, read_temperature, threshold = load_model(tmp_path / "cards.onnx")
    assert (read_temperature, threshold) == (pytest.approx(temperature, abs=1e-3), 0.7)
    assert np.allclose(run_logits(session, crops[:5]), logits[:5], atol=1e-3)


def test_resuming_after_the_last_epoch_changes_nothing(scans: Sources, tmp_path: Path) -> None:
    crops, labels = make_crops(scans, 64, seed=4)
    data = torch.from_numpy(np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2)))
    model = CardNet()
    fit(model, data, torch.from_numpy(labels), Schedule(epochs=1, batch=32), tmp_path / "ckpt.pt")
    again = CardNet()
    epochs: list[int] = []
    fit(again, data, torch.from_numpy(labels), Schedule(epochs=1, batch=32), tmp_path / "ckpt.pt", lambda m, e, l, a: epochs.append(e))
    assert epochs == []
    for a, b in zip(model.state_dict().values(), again.state_dict().values()):
        assert torch.equal(a, b)


def test_synthetic_crops_cover_faces_backs_and_non_cards(scans: Sources) -> None:
    crops, labels = make_crops(scans, 200, seed=5)
    assert crops.shape == (200, 104, 64, 3) and crops.dtype == np.uint8
    names = {CLASSES[i] for i in labels}
    assert {"back", "none"} <= names and len(names) > 25
