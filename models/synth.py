"""Synthesise classifier crops the way the pipeline makes them: a jittered quad warped from a frame."""

from __future__ import annotations

import cv2
import numpy as np

from models import textures
from models.sources import FACE_H, FACE_W, Face, PhotoCard, Sources
from vision.crop import CARD_ASPECT, CROP_H, CROP_W, order_quad, warp_card
from vision.labels import BACK, CLASS_INDEX, NONE

NONE_INDEX, BACK_INDEX = CLASS_INDEX[NONE], CLASS_INDEX[BACK]
CARD_WIDTHS = (48.0, 170.0)
"""Range of card widths in frame pixels (log-uniform): a card about 60 px wide is the hard case."""


def _card_width(rng: np.random.Generator) -> float:
    """Draw a card width in frame pixels, log-uniform over CARD_WIDTHS."""
    return float(np.exp(rng.uniform(*np.log(CARD_WIDTHS))))


def _rect(w: float, h: float) -> np.ndarray:
    """Return the corners of a w x h rectangle centred on the origin, clockwise from top-left."""
    return np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)


def _pose(rng: np.random.Generator, w: float, centre: np.ndarray) -> np.ndarray:
    """Place a card of width w: any rotation, a little perspective, around `centre`."""
    angle = rng.uniform(0, 2 * np.pi)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
    quad = _rect(w, w / CARD_ASPECT) @ rotation.T
    quad += rng.normal(0, rng.uniform(0, 0.07) * w, (4, 2))
    return (quad + centre).astype(np.float32)


def jitter_quad(rng: np.random.Generator, quad: np.ndarray) -> np.ndarray:
    """Mimic locator error: corner noise of a few %, sometimes loose, shifted or a cut corner."""
    quad = quad.astype(np.float32).copy()
    size = float(np.sqrt(max(cv2.contourArea(quad), 1.0)))
    quad += rng.normal(0, rng.uniform(0, 0.025) * size, (4, 2))
    centre = quad.mean(axis=0)
    if rng.random() < 0.2:
        quad = centre + (quad - centre) * rng.uniform(0.96, 1.1)
    if rng.random() < 0.15:
        quad += rng.normal(0, 0.035 * size, 2)
    if rng.random() < 0.08:
        corner = rng.integers(4)
        quad[corner] += (centre - quad[corner]) * rng.uniform(0.08, 0.2)
    return quad.astype(np.float32)


def _face_colour(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Vary a face's print: white balance, gamma, fading, yellowing and dirt of a worn card."""
    levels = np.arange(256, dtype=np.float32) / 255
    gamma = rng.uniform(0.75, 1.35)
    lut = np.stack([(levels * gain).clip(0, 1) ** gamma for gain in rng.uniform(0.92, 1.08, 3)], axis=1)
    out = cv2.LUT(image, (lut * 255).astype(np.uint8).reshape(256, 1, 3))
    if rng.random() < 0.35:  # worn: faded ink, yellowed paper, grime
        fade = rng.uniform(0.1, 0.4)
        beige = np.array([185, 220, 237], np.float32) * rng.uniform(0.8, 1.0)
        grime = cv2.resize(rng.random((12, 8)).astype(np.float32), (out.shape[1], out.shape[0]))
        worn = (out * (1 - fade) + beige * fade) * (1 - rng.uniform(0, 0.25) * grime[..., None])
        out = worn.clip(0, 255).astype(np.uint8)
    return out


def _randomise_mark(rng: np.random.Generator, face: Face, marks: list[np.ndarray]) -> np.ndarray:
    """Blank a printer's mark or swap in another printer's, so the mark tells nothing."""
    image = face.image
    if face.mark is None or rng.random() < 0.25:
        return image
    image = image.copy()
    x0, y0, x1, y1 = face.mark
    box = (int(x0 * FACE_W), int(y0 * FACE_H), int(x1 * FACE_W), int(y1 * FACE_H))
    paper = np.median(image[: FACE_H // 10].reshape(-1, 3), axis=0)
    image[box[1] : box[3], box[0] : box[2]] = paper
    if marks and rng.random() < 0.5:
        mark = marks[rng.integers(len(marks))]
        size = (box[2] - box[0], box[3] - box[1])
        scale = min(size[0] / mark.shape[1], size[1] / mark.shape[0]) * rng.uniform(0.5, 1.0)
        mark = cv2.resize(mark, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        x = box[0] + (size[0] - mark.shape[1]) // 2
        y = box[1] + (size[1] - mark.shape[0]) // 2
        image[y : y + mark.shape[0], x : x + mark.shape[1]] = mark
    return image


def _paste(canvas: np.ndarray, texture: np.ndarray, quad: np.ndarray, rng: np.random.Generator, shadow: bool) -> None:
    """Warp a texture onto the canvas at quad (with rounded corners and maybe a drop shadow)."""
    h, w = canvas.shape[:2]
    quad = quad.astype(np.float32)
    width = float(np.linalg.norm(quad[1] - quad[0]))
    tex_w = max(int(width * 1.5), 8)
    tex_h = max(int(tex_w / CARD_ASPECT), 8)
    small = cv2.resize(texture, (tex_w, tex_h), interpolation=cv2.INTER_AREA)
    alpha = np.zeros((tex_h, tex_w), np.uint8)
    radius = max(int(tex_w * rng.uniform(0.0, 0.07)), 1)
    cv2.rectangle(alpha, (radius, 0), (tex_w - radius, tex_h), 255, -1)
    cv2.rectangle(alpha, (0, radius), (tex_w, tex_h - radius), 255, -1)
    for cx, cy in ((radius, radius), (tex_w - radius, radius), (radius, tex_h - radius), (tex_w - radius, tex_h - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1)
    matrix = cv2.getPerspectiveTransform(_rect(tex_w, tex_h) + np.float32([tex_w / 2, tex_h / 2]), quad)
    warped = cv2.warpPerspective(small, matrix, (w, h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(alpha, matrix, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    if shadow and rng.random() < 0.5:
        offset = np.float32([[1, 0, rng.normal(0, 0.05 * width)], [0, 1, rng.normal(0, 0.05 * width)]])
        dark = cv2.warpAffine(mask, offset, (w, h))
        dark = cv2.GaussianBlur(dark, (0, 0), max(0.04 * width, 0.5)) * rng.uniform(0.2, 0.6)
        canvas[:] = (canvas * (1 - dark[..., None])).astype(np.uint8)
    blended = canvas * (1 - mask[..., None]) + warped * mask[..., None]
    canvas[:] = blended.astype(np.uint8)


def _table(rng: np.random.Generator, sources: Sources, h: int, w: int) -> np.ndarray:
    """Draw a table: half the time a real one cut from a photo, else a procedural texture."""
    if sources.tables and rng.random() < 0.5:
        patch = sources.tables[rng.integers(len(sources.tables))]
        scale = max(h / patch.shape[0], w / patch.shape[1]) * rng.uniform(1.0, 1.6)
        ph, pw = min(int(np.ceil(h / scale)), patch.shape[0]), min(int(np.ceil(w / scale)), patch.shape[1])
        y = rng.integers(patch.shape[0] - ph + 1)
        x = rng.integers(patch.shape[1] - pw + 1)
        return cv2.resize(patch[y : y + ph, x : x + pw], (w, h), interpolation=cv2.INTER_AREA)
    small = textures.table(rng, max(h // 2, 8), max(w // 2, 8))  # half size: table detail is blurred anyway
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _light(rng: np.random.Generator, canvas: np.ndarray, focus: np.ndarray, width: float) -> np.ndarray:
    """Apply a lamp: brightness and colour cast, a gradient, sometimes glare near the card."""
    h, w = canvas.shape[:2]
    sh, sw = max(h // 8, 2), max(w // 8, 2)  # light varies slowly: draw it small, then enlarge
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * np.float32(8)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = ((xx - w / 2) * np.cos(angle) + (yy - h / 2) * np.sin(angle)) / max(h, w)
    gain = rng.uniform(0.55, 1.3) * (1 + rng.uniform(-0.8, 0.8) * ramp)
    glare = np.zeros_like(gain)
    if rng.random() < 0.25:
        centre = focus + rng.normal(0, 0.5 * width, 2)
        spread = rng.uniform(0.1, 0.5) * width
        glare = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * spread**2)) * rng.uniform(60, 220)
    gain = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    glare = cv2.resize(glare.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    out = canvas.astype(np.float32) * (gain[..., None] * rng.uniform(0.9, 1.1, 3).astype(np.float32)) + glare[..., None]
    return out.clip(0, 255).astype(np.uint8)


def _hand(rng: np.random.Generator, canvas: np.ndarray, quad: np.ndarray) -> None:
    """Cover one corner of the card with a skin-coloured blob (the card stays its own class)."""
    corner = quad[rng.integers(4)]
    width = float(np.linalg.norm(quad[1] - quad[0]))
    skin = (rng.uniform(60, 150), rng.uniform(90, 180), rng.uniform(150, 240))
    axes = (int(width * rng.uniform(0.2, 0.4)), int(width * rng.uniform(0.3, 0.6)))
    cv2.ellipse(canvas, (int(corner[0]), int(corner[1])), axes, rng.uniform(0, 180), 0, 360, skin, -1)


def _camera(rng: np.random.Generator, frame: np.ndarray) -> np.ndarray:
    """Apply camera faults: defocus or motion blur, sensor noise, resampling and JPEG."""
    if rng.random() < 0.6:
        frame = cv2.GaussianBlur(frame, (0, 0), rng.uniform(0.3, 1.6))
    if rng.random() < 0.1:
        length = int(rng.integers(3, 7))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1 / length
        rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        frame = cv2.filter2D(frame, -1, cv2.warpAffine(kernel, rotation, (length, length)))
    if rng.random() < 0.25:
        h, w = frame.shape[:2]
        scale = rng.uniform(0.5, 0.85)
        frame = cv2.resize(cv2.resize(frame, (max(int(w * scale), 1), max(int(h * scale), 1)), interpolation=cv2.INTER_AREA), (w, h))
    if rng.random() < 0.7:
        noise = rng.standard_normal(frame.shape, dtype=np.float32) * np.float32(rng.uniform(1, 9))
        frame = (frame + noise).clip(0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 96))])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


def _crop(rng: np.random.Generator, frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Warp a quad to the classifier's crop, exactly as the pipeline does."""
    return warp_card(frame, order_quad(quad.astype(np.float32)))


def _texture_for(rng: np.random.Generator, sources: Sources, label: int) -> np.ndarray:
    """Pick an image for a class: a back design, a clutter object, or a varied face."""
    if label == BACK_INDEX:
        if sources.backs and rng.random() < 0.5:
            back = sources.backs[rng.integers(len(sources.backs))].image
            return _face_colour(rng, back)
        return textures.card_back(rng)
    face = sources.faces[rng.integers(len(sources.faces))] if label < 0 else None
    if face is None:
        candidates = [f for f in sources.faces if f.label == label]
        face = candidates[rng.integers(len(candidates))]
    return _face_colour(rng, _randomise_mark(rng, face, sources.marks))


def scene_crop(rng: np.random.Generator, sources: Sources, label: int) -> tuple[np.ndarray, int]:
    """Composite a card (or back) onto a table and crop it; or make a not-a-card crop."""
    width = _card_width(rng)
    side = int(width / CARD_ASPECT * 1.6)
    canvas = _table(rng, sources, side, side)
    centre = np.array([side / 2, side / 2], np.float32) + rng.normal(0, 0.05 * width, 2)
    target = _pose(rng, width, centre)
    if rng.random() < 0.4:  # a neighbouring card, partly under the target or beside it
        direction = rng.uniform(0, 2 * np.pi)
        offset = np.array([np.cos(direction), np.sin(direction)]) * width * rng.uniform(0.9, 1.5)
        neighbour_label = BACK_INDEX if rng.random() < 0.2 else -1
        _paste(canvas, _texture_for(rng, sources, neighbour_label), _pose(rng, width, centre + offset), rng, True)
    quad = target
    if label == NONE_INDEX:
        kind = rng.integers(6)
        if kind == 5:  # one square of a checked cloth: the locator's commonest false card
            period = width * rng.uniform(0.6, 1.3)
            canvas = textures.gingham(rng, side, side, period)
            x0 = (side // 2 // period) * period
            quad = _rect(period, period * rng.uniform(1.0, 1.7)) + np.float32([x0 + period / 2, x0 + period / 2])
            quad = jitter_quad(rng, quad)
        elif kind == 1:  # a card-like object: paper, phone, coaster, box
            _paste(canvas, textures.clutter(rng), target, rng, True)
        elif kind >= 2:  # a real card, but the quad is not on it
            _paste(canvas, _texture_for(rng, sources, -1 if rng.random() < 0.85 else BACK_INDEX), target, rng, True)
            if kind == 2:  # a small part of the card
                quad = target.mean(axis=0) + (target - target.mean(axis=0)) * rng.uniform(0.25, 0.6)
                quad += rng.normal(0, 0.15 * width, 2)
            elif kind == 3:  # straddling this card and the table or the next card
                direction = rng.uniform(0, 2 * np.pi)
                quad = target + np.array([np.cos(direction), np.sin(direction)], np.float32) * width * rng.uniform(0.5, 0.9)
                if rng.random() < 0.5:
                    _paste(canvas, _texture_for(rng, sources, -1), target + (quad - target) * 2, rng, True)
            else:  # a card-sized quad wholly beside the card
                direction = rng.uniform(0, 2 * np.pi)
                quad = target + np.array([np.cos(direction), np.sin(direction)], np.float32) * width * rng.uniform(1.1, 1.6)
                quad = quad.clip(0, side - 1)
    else:
        _paste(canvas, _texture_for(rng, sources, label), target, rng, True)
        if rng.random() < 0.12:
            _hand(rng, canvas, target)
    canvas = _camera(rng, _light(rng, canvas, centre, width))
    if label != NONE_INDEX:
        quad = jitter_quad(rng, quad)
    return _crop(rng, canvas, quad), label


def photo_crop(rng: np.random.Generator, card: PhotoCard, none: bool = False) -> tuple[np.ndarray, int]:
    """Crop a real photo's card (or a not-a-card quad beside or inside it) at a random scale."""
    quad = card.quad
    width = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    scale = min(_card_width(rng) / width, 1.0)
    x0, y0 = np.maximum(quad.min(axis=0) - 0.8 * width, 0).astype(int)  # only the card's surroundings
    x1, y1 = (quad.max(axis=0) + 0.8 * width).astype(int)
    region = card.image[y0:y1, x0:x1]
    frame = cv2.resize(region, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    quad = (quad - np.float32([x0, y0])) * scale
    frame = _camera(rng, _light(rng, frame, quad.mean(axis=0), width * scale))
    if none:
        centre = quad.mean(axis=0)
        if rng.random() < 0.5:  # a small part of the card
            quad = centre + (quad - centre) * rng.uniform(0.25, 0.6) + rng.normal(0, 0.15 * width * scale, 2)
        else:  # beside the card, half on the table
            direction = rng.uniform(0, 2 * np.pi)
            quad = quad + np.array([np.cos(direction), np.sin(direction)], np.float32) * width * scale * rng.uniform(0.5, 1.2)
        return _crop(rng, frame, quad.astype(np.float32)), NONE_INDEX
    return _crop(rng, frame, jitter_quad(rng, quad)), card.label


def make_crop(rng: np.random.Generator, sources: Sources) -> tuple[np.ndarray, int]:
    """Draw one training crop and its class, mixing real photos, composites, backs and non-cards."""
    roll = rng.random()
    if roll < 0.3 and sources.photos:
        return photo_crop(rng, sources.photos[rng.integers(len(sources.photos))])
    if roll < 0.34 and sources.photos:
        return photo_crop(rng, sources.photos[rng.integers(len(sources.photos))], none=True)
    if roll < 0.42:
        return scene_crop(rng, sources, BACK_INDEX)
    if roll < 0.57:
        return scene_crop(rng, sources, NONE_INDEX)
    present = sorted({face.label for face in sources.faces})
    return scene_crop(rng, sources, present[int(rng.integers(len(present)))])


def make_crops(sources: Sources, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Draw `count` crops (uint8 [count, CROP_H, CROP_W, 3] BGR) and labels from one seed."""
    rng = np.random.default_rng(seed)
    crops = np.empty((count, CROP_H, CROP_W, 3), np.uint8)
    labels = np.empty(count, np.int64)
    for i in range(count):
        crops[i], labels[i] = make_crop(rng, sources)
    return crops, labels
