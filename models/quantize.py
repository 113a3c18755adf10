"""Turn the exported float classifier into the shipped int8 one (onnxruntime static quantization).

    .venv/bin/python -m models.quantize --seed 0

reads `runs/cards-seed<seed>/cards-float.onnx` (written by `python -m models.train`, which calls
this step itself at the end) and that run's cached training and held-out crops, and writes
`vision/weights/cards.onnx`. The convolutions become int8 (QDQ format, weights per channel, activations
uint8 scaled by their min-max over 384 training crops picked with the seed); the last linear
layer stays float, and so do the model's input and output. All metadata of the float model is kept; the temperature is refitted to the int8
logits on the held-out crops (never on the valid split).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnxruntime.quantization import CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType, quantize_static

from models.evaluate import fit_temperature, run_logits, to_input
from models.runs import heldout_cache, synthesis_version, train_cache
from vision.models import CARDS, cpu_session

CALIBRATION_CROPS = 384
"""Training crops whose activations set the int8 scales."""
CALIBRATION_BATCH = 32
MIN_AGREEMENT = 0.995
"""Least share of held-out crops the int8 model must name as the float one does."""


class _Batches(CalibrationDataReader):
    """Feed the calibration crops to the quantizer in fixed batches."""

    def __init__(self, inputs: np.ndarray) -> None:
        self.batches = [inputs[i : i + CALIBRATION_BATCH] for i in range(0, len(inputs), CALIBRATION_BATCH)]

    def get_next(self) -> dict[str, np.ndarray] | None:
        """The next batch, or None when all have been read."""
        return {"crops": self.batches.pop(0)} if self.batches else None


def calibration_inputs(crops_bgr: np.ndarray, seed: int, count: int = CALIBRATION_CROPS) -> np.ndarray:
    """Model inputs of `count` training crops drawn with `seed` (in their cache order, so the pick is reproducible)."""
    if len(crops_bgr) < count:
        raise ValueError(f"need at least {count} training crops to calibrate, got {len(crops_bgr)}")
    pick = np.sort(np.random.default_rng(seed).choice(len(crops_bgr), count, replace=False))
    return to_input(crops_bgr[pick])


def quantize_classifier(
    float_path: Path,
    out_path: Path,
    train_crops: np.ndarray,
    heldout: tuple[np.ndarray, np.ndarray],
    seed: int,
) -> dict[str, float]:
    """Write the int8 model of `float_path` to `out_path`, checked against the float one on held-out crops."""
    source = onnx.load(str(float_path))
    # the last linear layer stays float so that the logits, and hence the confidence, keep full resolution
    float_ops = [node.name for node in source.graph.node if node.op_type == "Gemm"]
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        staged = Path(scratch) / "int8.onnx"
        quantize_static(
            str(float_path),
            str(staged),
            _Batches(calibration_inputs(train_crops, seed)),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=float_ops,
        )
        model = onnx.load(str(staged))
        held_crops, held_labels = heldout
        float_logits = run_logits(cpu_session(float_path, threads=1), held_crops)
        int8_logits = run_logits(cpu_session(staged, threads=1), held_crops)
    agreement = float((int8_logits.argmax(1) == float_logits.argmax(1)).mean())
    if agreement < MIN_AGREEMENT:
        raise RuntimeError(f"the int8 model names only {agreement:.2%} of held-out crops as the float one does")
    temperature = fit_temperature(int8_logits, held_labels)
    meta = {entry.key: entry.value for entry in source.metadata_props}
    meta["temperature"] = f"{temperature:.4f}"
    meta["quantization"] = f"int8 QDQ, per-channel weights, MinMax over {CALIBRATION_CROPS} training crops (seed {seed})"
    del model.metadata_props[:]
    for key, value in meta.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    onnx.save(model, str(out_path))
    return {
        "heldout_agreement": round(agreement, 4),
        "heldout_accuracy_int8": round(float((int8_logits.argmax(1) == held_labels).mean()), 4),
        "temperature_float": _temperature(source),
        "temperature_int8": round(temperature, 4),
        "max_logit_change": round(float(np.abs(int8_logits - float_logits).max()), 3),
    }


def _temperature(model: onnx.ModelProto) -> float:
    """The temperature stored in a model's metadata (1 when absent)."""
    return float({entry.key: entry.value for entry in model.metadata_props}.get("temperature", 1.0))


def main(argv: list[str] | None = None) -> int:
    """Quantize a training run's float export from its cached crops."""
    parser = argparse.ArgumentParser(prog="python -m models.quantize", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="the training run's seed (also picks the calibration crops)")
    parser.add_argument("--crops", type=int, default=60_000, help="the training run's number of crops (names its cache)")
    parser.add_argument("--run-dir", type=Path, default=None, help="the training run (default runs/cards-seed<seed>)")
    parser.add_argument("--train-crops", type=Path, default=None, help="cached training crops (default: the run's, for today's synthesis code)")
    parser.add_argument("--heldout-crops", type=Path, default=None, help="cached held-out crops (default: likewise)")
    parser.add_argument("--out", type=Path, default=CARDS, help="where to write the int8 model (default: the shipped one)")
    args = parser.parse_args(argv)
    run = args.run_dir or Path("runs") / f"cards-seed{args.seed}"
    version = synthesis_version()
    float_path = run / "cards-float.onnx"
    train_path = args.train_crops or train_cache(run, args.seed, args.crops, version)
    held_path = args.heldout_crops or heldout_cache(run, args.seed, version)
    for path in (float_path, train_path, held_path):
        if not path.is_file():
            hint = "pass --train-crops and --heldout-crops for a cache of older synthesis code, or " if path != float_path else ""
            print(f"error: {path} is missing: {hint}run python -m models.train --seed {args.seed} first", file=sys.stderr)
            return 2
    held = np.load(held_path)
    report = quantize_classifier(float_path, args.out, np.load(train_path)["crops"], (held["crops"], held["labels"]), args.seed)
    print(f"wrote {args.out}: {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
