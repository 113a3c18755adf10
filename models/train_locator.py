"""Train the card locator on synthesised table tiles (CPU), checkpointed and resumable, and export it to ONNX.

    .venv/bin/python -m models.train_locator --seed 0 --out vision/weights/locator.onnx
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

import numpy as np
import torch
from torch.nn import functional as F

from models.locator_net import LocatorNet, export_onnx
from models.locator_synth import TILE, make_tiles
from models.sources import Sources, load_sources
from models.train import missing_data, run_log
from vision.models import LOCATOR

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
_SOURCES: Sources | None = None  # shared with forked workers


def cached_sources(path: Path, data: Path) -> Sources:
    """The train split's card cut-outs, scans, backs and table patches (cached: cutting them out takes minutes)."""
    if path.is_file():
        with path.open("rb") as handle:
            return pickle.load(handle)
    full = load_sources(data)
    sources = Sources(faces=full.faces, backs=full.backs, tables=full.tables, marks=full.marks)
    with path.open("wb") as handle:
        pickle.dump(sources, handle)
    return sources


def _chunk(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Draw one chunk of tiles in a worker process."""
    count, seed = args
    assert _SOURCES is not None
    return make_tiles(_SOURCES, count, seed)


def cached_tiles(path: Path, sources: Sources, count: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Draw `count` tiles in chunks of 250 seeded from `seed` (reproducible whatever `workers`), cached at `path`."""
    if path.is_file():
        saved = np.load(path)
        return saved["frames"], saved["maps"]
    global _SOURCES
    _SOURCES = sources
    jobs = [(min(250, count - start), seed * 100_003 + start) for start in range(0, count, 250)]
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_chunk, jobs)
    else:
        parts = [_chunk(job) for job in jobs]
    frames, maps = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    np.savez(path, frames=frames, maps=maps)
    return frames, maps


def to_input(frames: np.ndarray) -> torch.Tensor:
    """BGR uint8 [N, H, W, 3] to the net's RGB 0..1 [N, 3, H, W]."""
    return torch.from_numpy(np.ascontiguousarray(frames[..., ::-1].transpose(0, 3, 1, 2))).float() / 255.0


def loss_of(logits: torch.Tensor, maps: torch.Tensor) -> torch.Tensor:
    """Cross-entropy on both maps plus a soft Dice term on the cores (cards are a small part of a frame)."""
    bce = F.binary_cross_entropy_with_logits(logits, maps, pos_weight=torch.tensor([1.5, 3.0]).view(1, 2, 1, 1))
    core = torch.sigmoid(logits[:, 1])
    inter = (core * maps[:, 1]).sum(dim=(1, 2))
    dice = 1 - (2 * inter + 1) / (core.sum(dim=(1, 2)) + maps[:, 1].sum(dim=(1, 2)) + 1)
    return bce + 0.5 * dice.mean()


def core_scores(model: LocatorNet, frames: np.ndarray, maps: np.ndarray) -> dict[str, float]:
    """Pixel precision, recall and IoU of the predicted cores (threshold 0.5) on held-out tiles."""
    model.eval()
    with torch.no_grad():
        predicted = np.concatenate([(model(to_input(frames[i : i + 32]))[:, 1] > 0).numpy() for i in range(0, len(frames), 32)])
    model.train()
    truth = maps[:, 1] > 0
    hit = float((predicted & truth).sum())
    precision, recall = hit / max(predicted.sum(), 1), hit / max(truth.sum(), 1)
    iou = hit / max(float((predicted | truth).sum()), 1.0)
    return {"precision": round(float(precision), 4), "recall": round(float(recall), 4), "iou": round(iou, 4)}


def fit(
    model: LocatorNet,
    frames: np.ndarray,
    maps: np.ndarray,
    args: argparse.Namespace,
    checkpoint: Path,
    on_epoch: Callable[[LocatorNet, int, float], None],
) -> None:
    """Train with AdamW and a one-cycle schedule; flips as augmentation; resume from `checkpoint`."""
    batches = len(frames) // args.batch
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=args.lr, total_steps=args.epochs * batches, pct_start=0.1)
    generator = torch.Generator().manual_seed(args.seed)
    start = 0
    if checkpoint.is_file():
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        schedule.load_state_dict(state["schedule"])
        generator.set_state(state["generator"])
        start = state["epoch"] + 1
    model.train()
    for epoch in range(start, args.epochs):
        order = torch.randperm(len(frames), generator=generator).numpy()
        total = 0.0
        for b in range(batches):
            pick = np.sort(order[b * args.batch : (b + 1) * args.batch])
            x, y = to_input(frames[pick]), torch.from_numpy(maps[pick]).float()
            flips = [d for d, flip in zip((2, 3), torch.rand(2, generator=generator) < 0.5) if flip]
            if flips:
                x, y = torch.flip(x, flips), torch.flip(y, flips)
            loss = loss_of(model(x), y)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
        state = {"model": model.state_dict(), "optimiser": optimiser.state_dict(), "schedule": schedule.state_dict()}
        torch.save({**state, "generator": generator.get_state(), "epoch": epoch}, checkpoint)
        on_epoch(model, epoch, total / max(batches, 1))


def train(args: argparse.Namespace) -> dict[str, object]:
    """Synthesise tiles, train with checkpoints, export; return a report."""
    started = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    run = args.run_dir
    run.mkdir(parents=True, exist_ok=True)
    say = run_log(run, started)

    sources = cached_sources(run / "sources.pkl", args.data)
    say(f"sources: {len(sources.faces)} faces, {len(sources.backs)} backs, {len(sources.tables)} table patches (train split only)")
    frames, maps = cached_tiles(run / f"tiles-{args.seed}-{args.tiles}.npz", sources, args.tiles, args.seed, args.workers)
    held_frames, held_maps = cached_tiles(run / f"heldout-{args.seed}-{args.heldout}.npz", sources, args.heldout, args.seed + 7919, args.workers)
    say(f"synthesised {len(frames)} training and {len(held_frames)} held-out tiles of {TILE[0]}x{TILE[1]}")
    model = LocatorNet(args.width)

    def report_epoch(model: LocatorNet, epoch: int, loss: float) -> None:
        """Log an epoch's loss and the held-out cores' precision and recall."""
        say(f"epoch {epoch + 1}/{args.epochs}: loss {loss:.4f}, held-out core {core_scores(model, held_frames, held_maps)}")

    fit(model, frames, maps, args, run / "checkpoint.pt", report_epoch)
    held = core_scores(model, held_frames, held_maps)
    command = f"python -m models.train_locator --seed {args.seed} --tiles {args.tiles} --epochs {args.epochs} --width {args.width}"
    export_onnx(model, args.out, {"training": command, "input": "RGB 0..1 [N,3,H,W], H and W multiples of 16", "heldout_core": json.dumps(held)})
    report = {"seed": args.seed, "tiles": args.tiles, "epochs": args.epochs, "width": args.width, "heldout_core": held, "minutes": round((time.time() - started) / 60, 1)}
    say(f"exported {args.out}: {json.dumps(report)}")
    (run / "report.json").write_text(json.dumps(report, indent=2))
    return report


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and train."""
    parser = argparse.ArgumentParser(prog="python -m models.train_locator", description="Train and export the card locator (CPU).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=LOCATOR, help="where to write the ONNX model (default: the shipped one)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder (faces/, photos/)")
    parser.add_argument("--run-dir", type=Path, default=None, help="cache, checkpoints and log (default runs/locator-seed<seed>)")
    parser.add_argument("--tiles", type=int, default=10_000, help="synthetic training tiles")
    parser.add_argument("--heldout", type=int, default=250, help="held-out synthetic tiles")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--lr", type=float, default=4e-3)
    parser.add_argument("--width", type=int, default=8, help="channels of the net's first layer")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="processes drawing the synthetic tiles")
    args = parser.parse_args(argv)
    problem = missing_data(args.data)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.tiles < args.batch or args.epochs < 1:
        print("error: need at least one batch of tiles and one epoch", file=sys.stderr)
        return 2
    args.run_dir = args.run_dir or Path("runs") / f"locator-seed{args.seed}"
    train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
