"""Export the trained network to ONNX with its calibration in the metadata, and check it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import torch

from vision.crop import CROP_H, CROP_W
from vision.labels import CLASSES

OPSET = 17


def export_onnx(model: torch.nn.Module, path: Path, temperature: float, threshold: float, extra: dict[str, str]) -> None:
    """Write `model` as ONNX (input 'crops' [N,3,104,64], output 'logits' [N,42]) with metadata."""
    model = model.eval()
    example = torch.rand(2, 3, CROP_H, CROP_W)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        (example,),
        str(path),
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=OPSET,
        dynamo=False,
    )
    proto = onnx.load(str(path))
    meta = {"temperature": f"{temperature:.4f}", "abstain_threshold": f"{threshold:.4f}", "classes": ",".join(CLASSES), **extra}
    for key, value in meta.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(proto)
    onnx.save(proto, str(path))
    _check_matches(model, path)


def _check_matches(model: torch.nn.Module, path: Path) -> None:
    """Fail loudly if onnxruntime's logits differ from PyTorch's on random crops."""
    crops = torch.rand(5, 3, CROP_H, CROP_W, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        expected = model(crops).numpy()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(["logits"], {"crops": crops.numpy()})[0]
    if not np.allclose(got, expected, atol=1e-3):
        raise RuntimeError(f"ONNX export of {path} differs from PyTorch by {np.abs(got - expected).max():.2e}")
