"""The card classifier network: a small plain CNN over 104 x 64 RGB crops."""

from __future__ import annotations

import torch
from torch import nn

from vision.crop import CROP_H, CROP_W
from vision.labels import CLASSES


def _conv_bn(c_in: int, c_out: int, kernel: int, stride: int) -> nn.Sequential:
    """Convolution, batch norm and ReLU."""
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel, stride, kernel // 2, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


Stages = tuple[tuple[int, int], ...]
"""(channels, stride) of each 3x3 convolution, in order."""


class CardNet(nn.Module):
    """Map [N, 3, 104, 64] RGB crops in 0..1 to [N, 42] class logits."""

    STAGES = ((16, 2), (32, 2), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1), (192, 1))
    """(channels, stride) of each 3x3 convolution: plain convolutions train fastest on a CPU."""

    def __init__(self, classes: int = len(CLASSES), stages: Stages | None = None) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        c_in = 3
        for c_out, stride in stages or self.STAGES:
            layers.append(_conv_bn(c_in, c_out, 3, stride))
            c_in = c_out
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(c_in, classes))

    @staticmethod
    def multiply_adds(stages: Stages = STAGES, classes: int = len(CLASSES)) -> int:
        """Multiply-adds of one crop through convolutions of these `stages` and the linear head."""
        height, width, c_in, total = CROP_H, CROP_W, 3, 0
        for c_out, stride in stages:
            height, width = -(-height // stride), -(-width // stride)  # padded by 1: ceil(side / stride)
            total += height * width * c_out * c_in * 9
            c_in = c_out
        return total + c_in * classes

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Return logits for a batch of crops (centred here so callers pass plain 0..1 pixels)."""
        x = self.features((x - 0.5) * 4.0)
        return self.head(x.mean(dim=(2, 3)))
