"""The study of narrower classifiers: their arithmetic, and that each plan runs as a model runs."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from models.net import CardNet  # noqa: E402
from models.widths import PLANS, main  # noqa: E402
from vision.labels import CLASSES  # noqa: E402


def test_one_convolution_costs_its_output_pixels_times_its_kernel():
    # 104 x 64 crops, stride 2 and padding 1: a 52 x 32 map of 16 channels, each a 3 x 3 x 3 kernel
    assert CardNet.multiply_adds(((16, 2),)) == 52 * 32 * 16 * 3 * 9 + 16 * len(CLASSES)


def test_the_shipped_plan_costs_what_the_model_card_says():
    assert round(CardNet.multiply_adds() / 1e6, 1) == 24.6
    assert sum(p.numel() for p in CardNet().parameters()) == 521_338


def test_every_narrower_plan_costs_less_than_the_shipped_one():
    shipped = CardNet.multiply_adds()
    assert all(CardNet.multiply_adds(stages) < shipped for name, stages in PLANS.items() if name != "shipped")


def test_the_study_times_every_plan_and_the_shipped_model(capsys):
    assert main(["--rounds", "3", "--batches", "1,2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in lines[1:]] == [*PLANS, "shipped"]
    assert all(float(t) > 0 for line in lines[1:] for t in line.split()[-2:])


def test_a_narrower_plan_trains_and_exports_as_the_shipped_one_does(tmp_path):
    from models.export import export_onnx
    from models.train import Schedule, fit, predict

    generator = torch.Generator().manual_seed(0)
    data = torch.rand(64, 3, 104, 64, generator=generator)
    labels = torch.randint(0, len(CLASSES), (64,), generator=generator)
    model = CardNet(stages=PLANS["half"])
    fit(model, data, labels, Schedule(epochs=1, batch=32), tmp_path / "ckpt.pt")
    export_onnx(model, tmp_path / "half.onnx", 1.0, 0.5, {})  # fails loudly unless onnxruntime's logits are torch's
    crops = (data[:4].numpy().transpose(0, 2, 3, 1)[..., ::-1] * 255).astype("uint8")
    assert predict(model, crops).shape == (4, len(CLASSES))


def test_training_takes_only_a_plan_the_study_knows(capsys):
    from models.train import main as train

    with pytest.raises(SystemExit):
        train(["--plan", "quarter"])
    assert "invalid choice: 'quarter'" in capsys.readouterr().err


def test_a_narrower_plan_is_trained_only_into_its_own_run_and_file(capsys, tmp_path):
    from models.train import main as train

    assert train(["--plan", "half", "--run-dir", str(tmp_path)]) == 2
    assert "needs its own --run-dir and --out" in capsys.readouterr().err
    assert train(["--plan", "half", "--out", str(tmp_path / "half.onnx")]) == 2
    assert "overwrite the shipped model" in capsys.readouterr().err
