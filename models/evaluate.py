"""Crop-level check of a classifier on the valid photos (decks never seen in training)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from models.sources import PhotoCard, load_photos
from models.synth import NONE_INDEX, jitter_quad
from vision.models import CARDS, cpu_session
from vision.crop import CROP_H, CROP_W, order_quad, warp_card

EVAL_WIDTHS = (0, 120, 80, 60)
"""Card widths (frame pixels) the valid photos are scaled to; 0 keeps the photo's own size."""
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@dataclass(frozen=True)
class Score:
    """Outcome counts over a set of crops at one abstention threshold."""

    crops: int
    right: int
    wrong: int
    abstained: int

    def rates(self) -> dict[str, float]:
        """Return right, wrong and abstained as fractions of all crops."""
        n = max(self.crops, 1)
        return {"right": self.right / n, "wrong": self.wrong / n, "abstained": self.abstained / n}


def _card_crop(rng: np.random.Generator, card: PhotoCard, width: int, none: bool) -> np.ndarray:
    """Scale a valid photo so its card is `width` px wide and warp a jittered (or off-card) quad."""
    quad = card.quad
    native = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    scale = width / native if width else 1.0
    frame = cv2.resize(card.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    quad = quad * scale
    if none:
        direction = rng.uniform(0, 2 * np.pi)
        quad = quad + np.array([np.cos(direction), np.sin(direction)], np.float32) * native * scale * 0.9
    else:
        quad = jitter_quad(rng, quad)
    return warp_card(frame, order_quad(quad.astype(np.float32)))


def valid_crops(data_dir: Path, seed: int = 0, repeats: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Make crops of the valid photos' cards at several widths plus off-card quads (label 'none')."""
    cards, _, _ = load_photos(data_dir, "valid")
    rng = np.random.default_rng(seed)
    crops, labels, widths = [], [], []
    for card in cards:
        for width in EVAL_WIDTHS:
            for _ in range(repeats):
                crops.append(_card_crop(rng, card, width, False))
                labels.append(card.label)
                widths.append(width)
        crops.append(_card_crop(rng, card, 0, True))
        labels.append(NONE_INDEX)
        widths.append(-1)
    return np.stack(crops), np.array(labels), np.array(widths)


def to_input(crops_bgr: np.ndarray) -> np.ndarray:
    """Turn uint8 BGR crops [N, H, W, 3] into the model input: float32 RGB [N, 3, H, W] in 0..1."""
    return np.ascontiguousarray(crops_bgr[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255


def softmax(logits: np.ndarray, temperature: float) -> np.ndarray:
    """Return the calibrated class probabilities."""
    z = logits / temperature
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """Find the softmax temperature with the lowest negative log-likelihood (a grid search)."""
    grid = np.exp(np.linspace(np.log(0.3), np.log(6.0), 240))
    nll = [-np.log(softmax(logits, t)[np.arange(len(labels)), labels] + 1e-12).mean() for t in grid]
    return float(grid[int(np.argmin(nll))])


def score(probs: np.ndarray, labels: np.ndarray, threshold: float) -> Score:
    """Count right, wrong and abstained answers at a threshold (as the pipeline: only a face abstains)."""
    predicted = probs.argmax(axis=1)
    answered = (predicted >= 40) | (probs.max(axis=1) >= threshold)
    right = answered & (predicted == labels)
    return Score(len(labels), int(right.sum()), int((answered & ~right).sum()), int((~answered).sum()))


def choose_threshold(probs: np.ndarray, labels: np.ndarray, floor: float = 0.5, max_wrong: float = 0.003) -> float:
    """Pick the lowest threshold (at least `floor`) whose wrong answers are at most `max_wrong` and rarer than abstentions."""
    for threshold in np.arange(floor, 1.0, 0.005):
        result = score(probs, labels, float(threshold))
        if result.wrong <= max_wrong * result.crops and (result.wrong == 0 or result.wrong < result.abstained):
            return float(threshold)
    return 0.995


def load_model(path: Path) -> tuple[ort.InferenceSession, float, float]:
    """Open an exported classifier and read its temperature and threshold."""
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    return session, float(meta["temperature"]), float(meta["abstain_threshold"])


def run_logits(session: ort.InferenceSession, crops_bgr: np.ndarray, batch: int = 256) -> np.ndarray:
    """Classify crops in batches and return the raw logits."""
    parts = [session.run(["logits"], {"crops": to_input(crops_bgr[i : i + batch])})[0] for i in range(0, len(crops_bgr), batch)]
    return np.concatenate(parts)


def speed(model: Path, batch: int = 6, rounds: int = 200) -> float:
    """Median milliseconds per crop for one onnxruntime call over `batch` crops, on one thread."""
    session = cpu_session(model, threads=1)
    crops = np.random.default_rng(0).random((batch, 3, CROP_H, CROP_W), np.float32)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        session.run(["logits"], {"crops": crops})
        times.append(time.perf_counter() - start)
    return float(np.median(times[rounds // 10 :]) * 1000 / batch)


def evaluate(model: Path, data_dir: Path) -> dict[str, object]:
    """Score a model on the valid crops: overall, cards only, each width, and off-card quads."""
    session, temperature, threshold = load_model(model)
    crops, labels, widths = valid_crops(data_dir)
    probs = softmax(run_logits(session, crops), temperature)
    report: dict[str, object] = {"model": str(model), "temperature": temperature, "threshold": threshold}
    report["ms_per_crop_1_thread_batch_6"] = round(speed(model), 3)
    groups = {"all": widths != -2, "cards": widths >= 0, "none": widths == -1}
    groups |= {f"width_{w or 'native'}": widths == w for w in EVAL_WIDTHS}
    for name, mask in groups.items():
        result = score(probs[mask], labels[mask], threshold)
        report[name] = {**asdict(result), **{k: round(v, 4) for k, v in result.rates().items()}}
    return report


def main(argv: list[str] | None = None) -> int:
    """Print the crop-level valid report of a model as JSON."""
    parser = argparse.ArgumentParser(prog="python -m models.evaluate", description=__doc__)
    parser.add_argument("model", type=Path, nargs="?", default=CARDS, help="ONNX model (default: the shipped one)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    args = parser.parse_args(argv)
    if not args.model.is_file():
        print(f"error: no model at {args.model}", file=sys.stderr)
        return 2
    if not (args.data / "photos" / "labels.csv").is_file():
        print(f"error: no photo data at {args.data} (expected photos/labels.csv)", file=sys.stderr)
        return 2
    print(json.dumps(evaluate(args.model, args.data), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
