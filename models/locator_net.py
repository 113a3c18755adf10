"""The card locator network: a tiny encoder-decoder from a downscaled RGB frame to card and core maps."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import torch
from torch import nn
from torch.nn import functional as F

from vision.locnet import OUTPUT_STRIDE, SHRINK

OPSET = 17


def _conv(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """3x3 convolution, batch norm and ReLU."""
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, stride, dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class LocatorNet(nn.Module):
    """Map [N, 3, H, W] RGB in 0..1 (H, W multiples of 16) to [N, 2, H/2, W/2] logits: card, core."""

    def __init__(self, width: int = 8) -> None:
        super().__init__()
        w = width
        self.down2 = _conv(3, w, 2)
        self.down4 = _conv(w, 2 * w, 2)
        self.down8 = nn.Sequential(_conv(2 * w, 3 * w, 2), _conv(3 * w, 3 * w))
        self.down16 = nn.Sequential(_conv(3 * w, 4 * w, 2), _conv(4 * w, 4 * w, dilation=2))
        self.up8 = _conv(4 * w + 3 * w, 2 * w)
        self.up4 = nn.Sequential(nn.Conv2d(2 * w + 2 * w, 2 * w, 1), nn.ReLU(inplace=True))  # 1x1: the costliest level stays cheap
        self.head = nn.Sequential(nn.Conv2d(2 * w + w, w, 1), nn.ReLU(inplace=True), nn.Conv2d(w, 2, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Return the card and core logits at half the input's resolution."""
        f2 = self.down2((x - 0.5) * 4.0)
        f4 = self.down4(f2)
        f8 = self.down8(f4)
        f16 = self.down16(f8)
        u8 = self.up8(torch.cat([F.interpolate(f16, scale_factor=2.0, mode="nearest"), f8], 1))
        u4 = self.up4(torch.cat([F.interpolate(u8, scale_factor=2.0, mode="nearest"), f4], 1))
        return self.head(torch.cat([F.interpolate(u4, scale_factor=2.0, mode="nearest"), f2], 1))


def export_onnx(model: nn.Module, path: Path, extra: dict[str, str]) -> None:
    """Write the net as ONNX (input 'frames' [N,3,H,W], output 'maps' [N,2,H/2,W/2]) with its contract in the metadata."""
    model = model.eval()
    example = torch.rand(1, 3, 288, 512)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model,
        (example,),
        str(path),
        input_names=["frames"],
        output_names=["maps"],
        dynamic_axes={"frames": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "mh", 3: "mw"}},
        opset_version=OPSET,
        dynamo=False,
    )
    proto = onnx.load(str(path))
    for key, value in {"output_stride": str(OUTPUT_STRIDE), "shrink": str(SHRINK), **extra}.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(proto)
    onnx.save(proto, str(path))
    frames = torch.rand(1, 3, 224, 384, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        expected = model(frames).numpy()
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(["maps"], {"frames": frames.numpy()})[0]
    if got.shape != expected.shape or not np.allclose(got, expected, atol=1e-3):
        raise RuntimeError(f"ONNX export of {path} differs from PyTorch")
