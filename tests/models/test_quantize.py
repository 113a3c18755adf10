"""The shipped classifier is int8: its convolutions run in 8 bits and it still names cards as its float weights do."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from models.evaluate import softmax, to_input
from models.sources import label_of
from vision.classify import CardClassifier
from vision.crop import CROP_H, CROP_W, warp_card
from vision.models import CARDS

if TYPE_CHECKING:
    from models.net import CardNet

MODEL = CARDS
DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


def _face_crops() -> tuple[np.ndarray, np.ndarray]:
    """The 80 scanned Dal Negro and Modiano faces warped as the pipeline would, upright and turned."""
    if not (DATA / "faces").is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    paths = sorted((DATA / "faces").glob("*/[a-z]*-[0-9][0-9].jpg"))
    crops = []
    for path in paths:
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        crops.append(warp_card(image, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)))
    crops += [crop[::-1, ::-1] for crop in crops]
    labels = np.array([label_of(p.stem) for p in paths] * 2)
    return np.stack(crops), labels


def _float_twin(model: onnx.ModelProto) -> CardNet:
    """PyTorch's CardNet carrying the int8 model's own weights, dequantized: a float reference for its activations."""
    torch = pytest.importorskip("torch")
    from models.net import CardNet

    tensors = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    made_by = {out: node for node in model.graph.node for out in node.output}

    def dequantized(name: str) -> np.ndarray:
        q, scale, zero = (tensors[i] for i in made_by[name].input)
        shape = (-1,) + (1,) * (q.ndim - 1)
        return (q.astype(np.float64) - zero.reshape(shape)) * scale.reshape(shape)

    net = CardNet().eval()
    convs = [node for node in model.graph.node if node.op_type == "Conv"]
    with torch.no_grad():
        for (conv, bn, _), node in zip(net.features, convs, strict=True):
            conv.weight.copy_(torch.from_numpy(dequantized(node.input[1])))
            bn.running_mean.zero_()
            bn.running_var.fill_(1 - bn.eps)  # batch norm as the identity: its folded shift is the conv bias
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(dequantized(node.input[2])))
        gemm = next(node for node in model.graph.node if node.op_type == "Gemm")
        net.head[1].weight.copy_(torch.from_numpy(tensors[gemm.input[1]].copy()))
        net.head[1].bias.copy_(torch.from_numpy(tensors[gemm.input[2]].copy()))
    return net


def test_the_committed_model_runs_its_convolutions_in_int8() -> None:
    model = onnx.load(str(MODEL))
    ops = Counter(node.op_type for node in model.graph.node)
    assert ops["Conv"] == 8 and ops["QuantizeLinear"] >= 8 and ops["DequantizeLinear"] >= 16
    tensors = {t.name: t for t in model.graph.initializer}
    made_by = {out: node for node in model.graph.node for out in node.output}
    for conv in (node for node in model.graph.node if node.op_type == "Conv"):
        weights = tensors[made_by[conv.input[1]].input[0]]
        assert weights.data_type == onnx.TensorProto.INT8
    assert MODEL.stat().st_size < 1024 * 1024


def test_quantization_keeps_the_contract_and_the_float_models_metadata() -> None:
    model = onnx.load(str(MODEL))
    assert [i.type.tensor_type.elem_type for i in model.graph.input] == [onnx.TensorProto.FLOAT]
    assert [o.type.tensor_type.elem_type for o in model.graph.output] == [onnx.TensorProto.FLOAT]
    meta = {entry.key: entry.value for entry in model.metadata_props}
    assert {"temperature", "abstain_threshold", "classes", "training", "input"} <= set(meta)
    assert meta["training"].startswith("python -m models.train") and meta["quantization"].startswith("int8")
    classifier = CardClassifier(MODEL, threads=1)
    assert classifier.temperature == float(meta["temperature"]) and classifier.threshold == float(meta["abstain_threshold"])


def test_int8_names_every_scanned_face_as_its_float_weights_do() -> None:
    crops, labels = _face_crops()
    torch = pytest.importorskip("torch")
    model = onnx.load(str(MODEL))
    with torch.no_grad():
        reference = _float_twin(model)(torch.from_numpy(to_input(crops))).numpy()
    classifier = CardClassifier(MODEL, threads=1)
    (logits,) = classifier.session.run(["logits"], {"crops": to_input(crops)})
    assert np.abs(logits - reference).max() < 0.3  # logits span about -6..6; int8 steps add a few hundredths
    int8 = classifier.probabilities(crops)
    assert (int8.argmax(1) == softmax(reference, classifier.temperature).argmax(1)).all()
    assert (int8.argmax(1) == labels).mean() >= 0.95


def test_quantizing_a_float_model_is_deterministic_and_keeps_its_answers(tmp_path: Path) -> None:
    crops, labels = _face_crops()
    pytest.importorskip("torch")
    from models.export import export_onnx
    from models.quantize import quantize_classifier

    float_path = tmp_path / "float.onnx"
    export_onnx(_float_twin(onnx.load(str(MODEL))), float_path, 0.6, 0.5, {"training": "a test"})
    calibration = np.concatenate([crops] * 3)  # the quantizer wants 384 crops; repeats do not change min-max ranges
    first = quantize_classifier(float_path, tmp_path / "a.onnx", calibration, (crops, labels), seed=0)
    quantize_classifier(float_path, tmp_path / "b.onnx", calibration, (crops, labels), seed=0)
    assert (tmp_path / "a.onnx").read_bytes() == (tmp_path / "b.onnx").read_bytes()
    assert first["heldout_agreement"] == 1.0
    meta = {entry.key: entry.value for entry in onnx.load(str(tmp_path / "a.onnx")).metadata_props}
    assert meta["training"] == "a test" and meta["abstain_threshold"] == "0.5000" and "quantization" in meta
    assert CardClassifier(tmp_path / "a.onnx").classify(crops[:4])[0].tolist() == labels[:4].tolist()


def test_calibration_crops_are_picked_by_the_seed() -> None:
    from models.quantize import CALIBRATION_CROPS, calibration_inputs

    crops = np.zeros((1000, CROP_H, CROP_W, 3), np.uint8)
    crops[:, 0, 0, 0], crops[:, 0, 0, 1] = np.arange(1000) % 256, np.arange(1000) // 256
    picked = calibration_inputs(crops, seed=0)
    order = np.rint(picked[:, 2, 0, 0] * 255 + picked[:, 1, 0, 0] * 255 * 256)
    assert len(picked) == CALIBRATION_CROPS and (np.diff(order) > 0).all()
    assert np.array_equal(picked, calibration_inputs(crops, seed=0))
    assert not np.array_equal(picked, calibration_inputs(crops, seed=1))
    with pytest.raises(ValueError, match="need at least 384 training crops"):
        calibration_inputs(crops[:100], seed=0)


def test_the_quantize_command_says_which_file_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    from models.quantize import main

    assert main(["--run-dir", str(tmp_path), "--out", str(tmp_path / "cards.onnx")]) == 2
    assert "cards-float.onnx is missing" in capsys.readouterr().err
    assert not (tmp_path / "cards.onnx").exists()
