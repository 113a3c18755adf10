"""What a narrower classifier would cost on this machine: CardNet at other widths, timed untrained.

    taskset -c 0 .venv/bin/python -m models.widths [--rounds 200] [--batches 1,4,8]

A net's speed does not depend on its weights, so each plan of widths is exported with random ones
(float, by `models.export` as the trained net is written before quantizing it) and timed as
`models.evaluate.speed` times a model: one onnxruntime thread, the median milliseconds a crop over
`rounds` calls of a batch. The shipped model (int8) is timed beside them. Whether int8 is faster
than float depends on the processor (AVX-512 VNNI makes it so; AVX2 alone barely), so the plans'
float times are compared with the shipped net's plan exported in float the same way. Needs the
`train` extra (torch, onnx). Nothing here says how well a narrower net would read: that takes
training it and every evaluation the model card lists.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import torch

from models.evaluate import speed
from models.export import export_onnx
from models.net import CardNet, Stages
from vision.models import CARDS

PLANS: dict[str, Stages] = {
    "shipped": CardNet.STAGES,
    "no 192 layer": CardNet.STAGES[:-1],
    "three quarters": ((12, 2), (24, 2), (24, 1), (48, 2), (48, 1), (96, 2), (96, 1), (144, 1)),
    "half": ((8, 2), (16, 2), (16, 1), (32, 2), (32, 1), (64, 2), (64, 1), (96, 1)),
    "half, no last layer": ((8, 2), (16, 2), (16, 1), (32, 2), (32, 1), (64, 2), (64, 1)),
}
"""Plans of (channels, stride) per convolution: the shipped one, and narrower ones at its strides."""


def exported(stages: Stages, folder: Path) -> Path:
    """CardNet with these `stages` and random weights, written as float ONNX in `folder`."""
    torch.manual_seed(0)
    path = folder / f"cardnet-{'-'.join(str(c) for c, _ in stages)}.onnx"
    export_onnx(CardNet(stages=stages), path, temperature=1.0, threshold=0.5, extra={})
    return path


def main(argv: list[str] | None = None) -> int:
    """Print each plan's multiply-adds and milliseconds a crop at each batch size."""
    parser = argparse.ArgumentParser(prog="python -m models.widths", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="calls timed per batch size")
    parser.add_argument("--batches", default="1,4,8", help="batch sizes, comma-separated")
    args = parser.parse_args(argv)
    batches = [int(b) for b in args.batches.split(",")]
    print(f"{'plan':28s} {'multiply-adds':>13s}  " + "  ".join(f"{f'ms at {b}':>8s}" for b in batches))
    with tempfile.TemporaryDirectory() as folder:
        for name, stages in PLANS.items():
            times = [speed(exported(stages, Path(folder)), b, args.rounds) for b in batches]
            print(f"{name + ' (float)':28s} {CardNet.multiply_adds(stages) / 1e6:11.1f} M  "
                  + "  ".join(f"{t:8.2f}" for t in times), flush=True)
    times = [speed(CARDS, b, args.rounds) for b in batches]
    shipped = CardNet.multiply_adds() / 1e6
    print(f"{'shipped (int8)':28s} {shipped:11.1f} M  " + "  ".join(f"{t:8.2f}" for t in times))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
