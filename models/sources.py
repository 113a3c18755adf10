"""The material training crops are made from: scanned faces, photo cut-outs, renders, tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from models.cutout import Photo, find_card_quad, read_photos
from referee.cards import parse_card
from vision.labels import BACK, CLASS_INDEX, CLASSES

FACE_H, FACE_W = 424, 256
"""Size every face texture is stored at (an upright card, pixels)."""

PHOTO_SIDE = 800
"""Long side the data-set photos are kept at (pixels; cards stay about 230 px wide)."""

MARKS = {  # printer marks as (x0, y0, x1, y1) fractions of the face, per printer and card
    ("dalnegro", "4D"): (0.26, 0.36, 0.74, 0.6),
    ("dalnegro", "4C"): (0.26, 0.36, 0.74, 0.6),
    ("dalnegro", "1D"): (0.3, 0.52, 0.7, 0.62),
    ("modiano", "4D"): (0.1, 0.29, 0.9, 0.68),
}


@dataclass(frozen=True)
class Face:
    """One upright card texture with its class and where it came from."""

    image: np.ndarray  # FACE_H x FACE_W BGR
    label: int
    source: str  # 'dalnegro', 'modiano', 'deck', 'photo:<deck>' or 'back'
    mark: tuple[float, float, float, float] | None = None


@dataclass(frozen=True)
class PhotoCard:
    """A data-set photo (downscaled) with its card's quad and class."""

    image: np.ndarray
    quad: np.ndarray  # ordered, in `image` pixels
    label: int
    deck: str


@dataclass
class Sources:
    """Everything the crop synthesiser draws from."""

    faces: list[Face] = field(default_factory=list)
    backs: list[Face] = field(default_factory=list)
    photos: list[PhotoCard] = field(default_factory=list)
    tables: list[np.ndarray] = field(default_factory=list)
    marks: list[np.ndarray] = field(default_factory=list)


def label_of(card_id: str) -> int:
    """Map a data-set card id ('denari-09') or code ('9D') or 'back' to its class index."""
    return CLASS_INDEX[BACK] if card_id == BACK else CLASS_INDEX[parse_card(card_id).code]


def _upright(image: np.ndarray) -> np.ndarray:
    """Resize a face image to the stored texture size."""
    return cv2.resize(image, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def load_scans(data_dir: Path) -> tuple[list[Face], list[Face], list[np.ndarray]]:
    """Load both printers' scanned faces, the Dal Negro back, and the printer marks cut out."""
    faces, backs, marks = [], [], []
    for printer in ("dalnegro", "modiano"):
        for path in sorted((data_dir / "faces" / printer).glob("*.jpg")):
            image = _upright(cv2.imread(str(path)))
            if path.stem == "back":
                backs.append(Face(image, CLASS_INDEX[BACK], "back"))
                continue
            label = label_of(path.stem)
            mark = MARKS.get((printer, CLASSES[label]))
            faces.append(Face(image, label, printer, mark))
            if mark is not None and CLASSES[label] == "4D":
                x0, y0, x1, y1 = mark
                marks.append(image[int(y0 * FACE_H) : int(y1 * FACE_H), int(x0 * FACE_W) : int(x1 * FACE_W)].copy())
    return faces, backs, marks


def load_deck_renders() -> tuple[list[Face], list[Face]]:
    """Render the project's own drawn deck, when `art.deck.render_face` is available."""
    try:
        from art.deck import render_face
    except ImportError:
        return [], []
    faces = [Face(_upright(render_face(code, FACE_H)), CLASS_INDEX[code], "deck") for code in CLASSES[:40]]
    return faces, [Face(_upright(render_face(BACK, FACE_H)), CLASS_INDEX[BACK], "back")]


def _table_patches(image: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """Cut the table around a card: the widest strips of the photo outside the card's box."""
    h, w = image.shape[:2]
    x0, y0 = quad.min(axis=0).astype(int) - 8
    x1, y1 = quad.max(axis=0).astype(int) + 8
    strips = [image[: max(y0, 0)], image[min(y1, h) :], image[:, : max(x0, 0)], image[:, min(x1, w) :]]
    return [s.copy() for s in strips if min(s.shape[:2]) >= 60]


def load_photos(data_dir: Path, split: str) -> tuple[list[PhotoCard], list[np.ndarray], list[Photo]]:
    """Load one split's photos with their card quads, plus table patches; also list misses."""
    cards, tables, missed = [], [], []
    for photo in read_photos(data_dir, split):
        image = cv2.imread(str(photo.path))
        if image is None:
            raise FileNotFoundError(f"cannot read photo {photo.path}")
        scale = PHOTO_SIDE / max(image.shape[:2])
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        quad = find_card_quad(image)
        if quad is None:
            missed.append(photo)
            continue
        cards.append(PhotoCard(image, quad, label_of(photo.card), photo.deck))
        tables += _table_patches(image, quad)
    return cards, tables, missed


def cut_out(card: PhotoCard) -> Face:
    """Warp a photo's card to an upright face texture."""
    dst = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    matrix = cv2.getPerspectiveTransform(card.quad.astype(np.float32), dst)
    image = cv2.warpPerspective(card.image, matrix, (FACE_W, FACE_H), flags=cv2.INTER_LINEAR)
    return Face(image, card.label, f"photo:{card.deck}")


def load_sources(data_dir: Path, with_deck: bool = True) -> Sources:
    """Gather the training material: train photos, scans, the project's renders, tables."""
    scans, backs, marks = load_scans(data_dir)
    photos, tables, _ = load_photos(data_dir, "train")
    deck_faces, deck_backs = load_deck_renders() if with_deck else ([], [])
    return Sources(
        faces=scans + deck_faces + [cut_out(card) for card in photos],
        backs=backs + deck_backs,
        photos=photos,
        tables=tables,
        marks=marks,
    )
