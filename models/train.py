"""Train the card classifier on CPU from the shared data and export it: one command, one seed.

    .venv/bin/python -m models.train --seed 0 --out vision/weights/cards.onnx
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from models.evaluate import DEFAULT_DATA, choose_threshold, fit_temperature, score, softmax, to_input, valid_crops
from models.export import export_onnx
from models.net import CardNet
from models.quantize import quantize_classifier
from models.runs import heldout_cache, synthesis_version, train_cache
from models.sources import Sources, load_sources
from models.synth import make_crops
from models.widths import PLANS
from vision.models import CARDS

CHUNK = 1000
"""Crops drawn per seeded chunk, so the data does not depend on the number of workers."""
_SOURCES: Sources | None = None  # shared with forked synthesis workers


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Draw one seeded chunk of crops in a worker."""
    seed, index, count = args
    assert _SOURCES is not None
    return make_crops(_SOURCES, count, seed * 100_003 + index)


def synthesise(sources: Sources, count: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Draw `count` crops in seeded chunks, in `workers` forked processes."""
    global _SOURCES
    _SOURCES = sources
    jobs = [(seed, i, min(CHUNK, count - start)) for i, start in enumerate(range(0, count, CHUNK))]
    if workers > 1:
        cv2.setNumThreads(1)  # set before forking (in a forked child it can deadlock): one process per core
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_chunk, jobs)
    else:
        parts = [_chunk(job) for job in jobs]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def cached_crops(path: Path, sources: Sources, count: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Load a synthetic set from `path`, or draw it and save it there."""
    if path.is_file():
        data = np.load(path)
        return data["crops"], data["labels"]
    crops, labels = synthesise(sources, count, seed, workers)
    np.savez(path, crops=crops, labels=labels)
    return crops, labels


def run_log(run: Path, started: float) -> Callable[[str], None]:
    """A logger that prints a line with the time since `started` and appends it to the run's log.txt."""
    log = (run / "log.txt").open("a")

    def say(text: str) -> None:
        """Log a line with the elapsed time."""
        line = f"[{time.time() - started:7.1f}s] {text}"
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    return say


def missing_data(data: Path) -> str | None:
    """Why the shared training data at `data` cannot be used, or None when it can."""
    if not (data / "photos" / "labels.csv").is_file() or not (data / "faces").is_dir():
        return f"no training data at {data} (expected faces/ and photos/labels.csv)"
    return None


def _augment(batch: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Turn uint8 RGB crops into model input with a random 180-degree turn and a light change."""
    x = batch.float() / 255
    n = x.shape[0]
    turn = torch.rand(n, generator=generator) < 0.5
    x[turn] = x[turn].flip(2, 3)
    contrast = 1 + (torch.rand(n, 1, 1, 1, generator=generator) - 0.5) * 0.3
    bright = (torch.rand(n, 1, 1, 1, generator=generator) - 0.5) * 0.15
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    return ((x - mean) * contrast + mean + bright).clamp(0, 1)


def predict(model: nn.Module, crops_bgr: np.ndarray, batch: int = 512) -> np.ndarray:
    """Return the model's logits for uint8 BGR crops."""
    model.eval()
    with torch.no_grad():
        parts = [model(torch.from_numpy(to_input(crops_bgr[i : i + batch]))).numpy() for i in range(0, len(crops_bgr), batch)]
    return np.concatenate(parts)


@dataclass(frozen=True)
class Schedule:
    """How long and how fast to train."""

    epochs: int
    batch: int = 128
    lr: float = 3e-3
    seed: int = 0


def fit(
    model: nn.Module,
    data: torch.Tensor,
    targets: torch.Tensor,
    schedule: Schedule,
    checkpoint: Path | None = None,
    on_epoch: Callable[[nn.Module, int, float, float], None] | None = None,
) -> None:
    """Train on uint8 RGB crops [N,3,H,W] with one-cycle AdamW, saving (and resuming from) a checkpoint each epoch."""
    optimiser = torch.optim.AdamW(model.parameters(), lr=schedule.lr, weight_decay=5e-4)
    batches = len(data) // schedule.batch
    one_cycle = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=schedule.lr, total_steps=schedule.epochs * batches, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    generator = torch.Generator().manual_seed(schedule.seed)
    first_epoch = 0
    if checkpoint is not None and checkpoint.is_file():
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        one_cycle.load_state_dict(state["schedule"])
        generator.set_state(state["generator"])
        first_epoch = state["epoch"] + 1
    for epoch in range(first_epoch, schedule.epochs):
        model.train()
        order = torch.randperm(len(data), generator=generator)
        total, right = 0.0, 0
        for b in range(batches):
            index = order[b * schedule.batch : (b + 1) * schedule.batch]
            x, y = _augment(data[index], generator), targets[index]
            logits = model(x)
            loss = loss_fn(logits, y)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            one_cycle.step()
            total += loss.item() * len(index)
            right += int((logits.argmax(1) == y).sum())
        if checkpoint is not None:
            state = {"model": model.state_dict(), "optimiser": optimiser.state_dict(), "schedule": one_cycle.state_dict()}
            torch.save({**state, "generator": generator.get_state(), "epoch": epoch}, checkpoint)
        if on_epoch is not None:
            on_epoch(model, epoch, total / (batches * schedule.batch), right / (batches * schedule.batch))


def train(args: argparse.Namespace) -> dict[str, object]:
    """Synthesise data, train with checkpoints, calibrate on held-out crops, export float and int8; return a report."""
    started = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    run = args.run_dir
    run.mkdir(parents=True, exist_ok=True)
    say = run_log(run, started)

    sources = load_sources(args.data, with_deck=not args.no_deck)
    deck_faces = sum(f.source == "deck" for f in sources.faces)
    say(f"sources: {len(sources.faces)} faces ({deck_faces} project deck), {len(sources.backs)} backs, {len(sources.photos)} train photos")
    version = synthesis_version()
    say(f"synthesis code {version}")
    crops, labels = cached_crops(
        train_cache(run, args.seed, args.crops, version), sources, args.crops, args.seed, args.workers
    )
    held_crops, held_labels = cached_crops(
        heldout_cache(run, args.seed, version), sources, args.heldout, args.seed + 7919, args.workers
    )
    say(f"synthesised {len(crops)} training and {len(held_crops)} held-out crops")
    valid = valid_crops(args.data)
    data = torch.from_numpy(np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2)))
    targets = torch.from_numpy(labels)

    def report_epoch(model: nn.Module, epoch: int, loss: float, accuracy: float) -> None:
        """Log an epoch: training figures, held-out synthetic accuracy, valid accuracy (watched, never used)."""
        held = (predict(model, held_crops).argmax(1) == held_labels).mean()
        watched = (predict(model, valid[0]).argmax(1) == valid[1]).mean()
        say(f"epoch {epoch + 1}/{args.epochs}: loss {loss:.4f}, train {accuracy:.4f}, held-out {held:.4f}, valid (watched only) {watched:.4f}")

    model = CardNet(stages=PLANS[args.plan])
    schedule = Schedule(args.epochs, args.batch, args.lr, args.seed)
    fit(model, data, targets, schedule, run / f"checkpoint-{version}.pt", report_epoch)
    temperature = fit_temperature(predict(model, held_crops), held_labels)
    probs = softmax(predict(model, valid[0]), temperature)
    threshold = choose_threshold(probs, valid[1])
    result = score(probs, valid[1], threshold)
    plan = "" if args.plan == "shipped" else f" --plan '{args.plan}'"
    command = f"python -m models.train --seed {args.seed} --crops {args.crops} --epochs {args.epochs}{plan}"
    extra = {"training": command, "input": "RGB 0..1 [N,3,104,64]"}
    float_path = run / "cards-float.onnx"
    export_onnx(model, float_path, temperature, threshold, extra)
    quantized = quantize_classifier(float_path, args.out, crops, (held_crops, held_labels), args.seed)
    report = {
        "seed": args.seed,
        "crops": args.crops,
        "epochs": args.epochs,
        "plan": args.plan,
        "deck_faces": deck_faces,
        "temperature": round(temperature, 4),
        "abstain_threshold": round(threshold, 4),
        "valid_crops": {**result.rates(), "count": result.crops},
        "int8": quantized,
        "minutes": round((time.time() - started) / 60, 1),
    }
    say(f"exported {args.out}: {json.dumps(report)}")
    (run / "report.json").write_text(json.dumps(report, indent=2))
    return report


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and train."""
    parser = argparse.ArgumentParser(prog="python -m models.train", description="Train and export the card classifier (CPU).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write the int8 ONNX model (default: the shipped one's file); "
                        "the float one goes to the run folder")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder (faces/, photos/)")
    parser.add_argument("--run-dir", type=Path, default=None, help="cache, checkpoints and log (default runs/cards-seed<seed>)")
    parser.add_argument("--crops", type=int, default=60_000, help="synthetic training crops")
    parser.add_argument("--heldout", type=int, default=4000, help="held-out synthetic crops for calibration")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="processes drawing the synthetic crops")
    parser.add_argument("--no-deck", action="store_true", help="leave the project's drawn deck out")
    parser.add_argument("--plan", choices=list(PLANS), default="shipped",
                        help="the net's widths (models.widths.PLANS); "
                        "another than the shipped one needs its own --run-dir and --out")
    args = parser.parse_args(argv)
    if args.plan != "shipped" and (args.run_dir is None or args.out is None):
        print("error: a plan other than the shipped one needs its own --run-dir and --out: by default it would resume "
              "the shipped net's checkpoint and overwrite the shipped model", file=sys.stderr)
        return 2
    args.out = args.out or CARDS
    problem = missing_data(args.data)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.crops < args.batch or args.epochs < 1:
        print("error: need at least one batch of crops and one epoch", file=sys.stderr)
        return 2
    args.run_dir = args.run_dir or Path("runs") / f"cards-seed{args.seed}"
    train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
