"""Table scenes drawn by code: cards at seats seen by a camera, exact corners as ground truth."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from art.deck import BACK, render_face
from art.table import Surface, light_field, photo_surface, plane_coordinates, table_surface
from referee.cards import parse_card
from vision.crop import CARD_ASPECT

CARD_H_CM = 9.3
"""A Neapolitan card's height on the table; its width follows from CARD_ASPECT."""
CARD_W_CM = CARD_H_CM * CARD_ASPECT
PHONE_FOV = 64.0
"""Horizontal field of view (degrees) of a phone's main camera filming 16:9: a 26 mm-equivalent lens
sees about 69, video stabilisation crops a little."""
_CORNER_CM = 0.35
_SKIN = (150, 180, 226)  # BGR
_SKIN_LINE = (110, 140, 190)
_BRASS = (60, 150, 200)
HIDING = 1.2
"""Most a hand's cover may be: its fingertips a fifth of a card's length past the card's top edge."""


@dataclass(frozen=True)
class Camera:
    """A pinhole camera aimed at a table point: tilt 0 looks straight down, yaw turns the view."""

    width: int = 1280
    height: int = 720
    tilt: float = 30.0
    yaw: float = 0.0
    view_cm: float = 110.0
    target: tuple[float, float] = (0.0, 0.0)
    fov: float = 60.0

    def homography(self) -> np.ndarray:
        """The 3x3 map from table-plane cm (x right, y toward the camera) to frame pixels."""
        f = (self.width / 2) / math.tan(math.radians(self.fov / 2))
        distance = (self.view_cm / 2) * f / (self.width / 2)
        t, y = math.radians(self.tilt), math.radians(self.yaw)
        yaw = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
        target = np.array([self.target[0], self.target[1], 0.0])
        centre = target + distance * (yaw @ np.array([0, math.sin(t), math.cos(t)]))
        forward = (target - centre) / distance
        right = yaw @ np.array([1.0, 0.0, 0.0])
        down = np.cross(right, forward)
        rotation = np.stack([right, down, forward])
        translation = -rotation @ centre
        k = np.array([[f, 0, self.width / 2], [0, f, self.height / 2], [0, 0, 1]])
        return k @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])


@dataclass(frozen=True)
class Seat:
    """A player's place: the name and where the player's card goes on the table (cm)."""

    name: str
    position: tuple[float, float]
    facing: float
    """Degrees: the direction of the card's top from this seat (0 = toward the far side, -y)."""


@dataclass(frozen=True)
class Placed:
    """One card on the table: what it is, whether it shows, and where it lies."""

    label: str
    face_up: bool
    centre: tuple[float, float]
    angle: float = 0.0
    seat: str | None = None
    cover: float = 0.0
    """Fraction of the card's length under a hand reaching over its bottom end (0 = none); from 1 the hand
    lies flat over the whole card, its fingers together past the top edge (up to HIDING)."""
    lift: float = 0.0
    """Degrees the card's bottom end is raised about its top edge (a player peeking under it)."""


@dataclass(frozen=True)
class Scene:
    """Everything on the table: surface, seats, cards in painter's order, the lives' coins."""

    seats: tuple[Seat, ...]
    cards: tuple[Placed, ...]
    style: str = "wood"
    coins: dict[str, int] = field(default_factory=dict)
    light: float = 1.0


def round_table_seats(
    names: list[str], radius: tuple[float, float] = (34.0, 22.0)
) -> tuple[Seat, ...]:
    """Seats spaced evenly round an oval, first nearest the camera, then counterclockwise."""
    seats = []
    for i, name in enumerate(names):
        phi = math.radians(-90 + 360 * i / len(names))
        x, y = radius[0] * math.cos(phi), -radius[1] * math.sin(phi)
        facing = math.degrees(math.atan2(-x, y))  # card top points to the table's centre
        seats.append(Seat(name, (x, y), facing))
    return tuple(seats)


def deal_to_seats(
    seats: tuple[Seat, ...],
    hands: dict[str, tuple[str, bool]],
    rng: np.random.Generator,
    jitter: float = 1.0,
) -> tuple[Placed, ...]:
    """Place each named seat's card (label, face up?) at its seat, a little askew as people do."""
    placed = []
    for seat in seats:
        if seat.name not in hands:
            continue
        label, face_up = hands[seat.name]
        dx, dy = rng.normal(0, 1.2 * jitter, 2)
        angle = seat.facing + rng.normal(0, 8 * jitter)
        placed.append(
            Placed(label, face_up, (seat.position[0] + dx, seat.position[1] + dy), angle, seat.name)
        )
    return tuple(placed)


def card_corners_cm(card: Placed) -> np.ndarray:
    """The card's corners on the table in its own order: top-left, top-right, bottom-right, left."""
    a = math.radians(card.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    local = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (CARD_W_CM / 2, CARD_H_CM / 2)
    if card.lift:  # the raised bottom end seen from above: the card looks shorter, its top edge stays
        local[2:, 1] = -CARD_H_CM / 2 + CARD_H_CM * math.cos(math.radians(card.lift))
    return local @ rot.T + card.centre


def seen_quads(cards: tuple[Placed, ...], camera: Camera) -> np.ndarray:
    """Each card's corners [N, 4, 2] in the camera's frame, in the card's own order (as `card_corners_cm`)."""
    homography = camera.homography()
    return np.array([_project(homography, card_corners_cm(card)) for card in cards], np.float32)


def fit_camera(cards: tuple[Placed, ...], camera: Camera, margin: float = 0.06) -> Camera:
    """The camera moved back or forward until every card fills the frame with a margin all round."""
    corners = np.concatenate([card_corners_cm(card) for card in cards])
    lo, hi = 5.0, 2000.0
    for _ in range(40):  # bisect on the view width: wider views shrink the cards toward the centre
        mid = (lo + hi) / 2
        quad = _project(replace(camera, view_cm=mid).homography(), corners)
        inside = (
            (quad[:, 0] >= margin * camera.width).all()
            and (quad[:, 0] <= (1 - margin) * camera.width).all()
            and (quad[:, 1] >= margin * camera.height).all()
            and (quad[:, 1] <= (1 - margin) * camera.height).all()
        )
        lo, hi = (lo, mid) if inside else (mid, hi)
    return replace(camera, view_cm=hi)


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), homography)
    return pts.reshape(-1, 2)


def _fill(mask: np.ndarray, polygon: np.ndarray) -> None:
    cv2.fillPoly(mask, [np.round(polygon * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)


def _card_alpha(width: int, height: int) -> np.ndarray:
    """An anti-aliased mask of a card with rounded corners, at the face image's size."""
    ss = 4
    mask = np.zeros((height * ss, width * ss), np.uint8)
    r = int(_CORNER_CM / CARD_H_CM * height * ss)
    cv2.rectangle(mask, (r, 0), (width * ss - 1 - r, height * ss - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width * ss - 1, height * ss - 1 - r), 255, -1)
    for cx, cy in (
        (r, r),
        (width * ss - 1 - r, r),
        (r, height * ss - 1 - r),
        (width * ss - 1 - r, height * ss - 1 - r),
    ):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return cv2.resize(mask, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


PHOTO_MARGIN = 0.03
"""Share of a photo cut-out's width trimmed from each edge: the locator's quad may take in a sliver
of the table the photo was taken on, which would show as a dark rim round the card."""


def _photo_face(photo: np.ndarray, height: int) -> np.ndarray:
    """A photo's upright cut-out of a face, trimmed and resized to the drawn face's size (float BGR)."""
    h, w = photo.shape[:2]
    m = int(round(PHOTO_MARGIN * w))
    trimmed = photo[m : h - m, m : w - m]
    width = max(1, round(height * CARD_ASPECT))
    return cv2.resize(trimmed, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)


def _box(points: np.ndarray, margin: int, width: int, height: int) -> tuple[int, int, int, int]:
    """The pixel box (x0, y0, x1, y1) round `points` with `margin` pixels more, within the frame."""
    x0, y0 = np.maximum(np.floor(points.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.minimum(np.ceil(points.max(axis=0)).astype(int) + margin + 1, (width, height))
    return int(x0), int(y0), int(max(x1, x0)), int(max(y1, y0))


def _fill_in(mask: np.ndarray, polygon: np.ndarray, x0: int, y0: int) -> None:
    """`_fill` on a box of the frame whose corner is (x0, y0): the same sub-pixel edges."""
    points = np.round(polygon * 16).astype(np.int32) - np.array([x0 * 16, y0 * 16], np.int32)
    cv2.fillPoly(mask, [points], 1.0, cv2.LINE_AA, shift=4)


class _Canvas:
    """The frame being composed, in float BGR, with one coverage mask per card for visibility.

    Shadows, coins and hands are drawn within the box they touch (a blur's reach included), so a
    frame costs what its objects cover, not a full frame each.
    """

    def __init__(self, base: np.ndarray, homography: np.ndarray) -> None:
        self.image = base
        self.h = homography
        self.height, self.width = base.shape[:2]
        self.card_masks: list[np.ndarray] = []

    def _occlude(self, alpha: np.ndarray, x0: int, y0: int) -> None:
        y1, x1 = y0 + alpha.shape[0], x0 + alpha.shape[1]
        for mask in self.card_masks:
            mask[y0:y1, x0:x1] *= 1 - alpha

    def shadow(
        self, polygon_cm: np.ndarray, offset_cm: tuple[float, float], blur_cm: float, depth: float
    ) -> None:
        """Darken the table under an object lying a little above it."""
        quad = _project(self.h, polygon_cm + offset_cm)
        area_cm = max(abs(cv2.contourArea(polygon_cm.astype(np.float32))), 1e-6)
        scale = math.sqrt(abs(cv2.contourArea(quad.astype(np.float32))) / area_cm)
        sigma = max(0.5, blur_cm * scale)
        reach = int(round(sigma * 8 + 1)) // 2 + 2  # cv2's float kernel spans 8 sigma: past it, nothing
        x0, y0, x1, y1 = _box(quad, reach, self.width, self.height)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        _fill_in(mask, quad, x0, y0)
        soft = cv2.GaussianBlur(mask, (0, 0), sigma)
        self.image[y0:y1, x0:x1] *= (1 - depth * soft)[..., None]

    def card(
        self, card: Placed, rng: np.random.Generator, faces: Mapping[str, np.ndarray] | None = None
    ) -> np.ndarray:
        """Paint one card (face or back) and return its frame quad in the card's own order.

        `faces` maps a card code to an upright image of that face (a photo's cut-out) to paint
        instead of the drawn face; codes it lacks, and the back, are drawn.
        """
        corners_cm = card_corners_cm(card)
        self.shadow(corners_cm, (0.12, 0.18), 0.25, 0.45)
        quad = _project(self.h, corners_cm)
        longest = max(np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4))
        # warp at twice the frame's resolution, then average down: no moire on far cards
        face_h = int(np.clip(round(longest * 2.2), 32, 2000))
        photo = faces.get(card.label) if faces is not None and card.face_up else None
        if photo is not None:
            face = _photo_face(photo, face_h)
        else:
            face = render_face(card.label if card.face_up else BACK, face_h).astype(np.float32)
        face *= rng.uniform(0.94, 1.03)
        fh, fw = face.shape[:2]
        alpha = _card_alpha(fw, fh)
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 2, 0)
        x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, (self.width, self.height))
        if x1 <= x0 or y1 <= y0:
            self.card_masks.append(np.zeros((self.height, self.width), np.float32))
            return quad
        matrix = cv2.getPerspectiveTransform(src, ((quad - (x0, y0)) * 2).astype(np.float32))
        size = (int(x1 - x0), int(y1 - y0))
        big = (size[0] * 2, size[1] * 2)
        warped = cv2.resize(
            cv2.warpPerspective(face, matrix, big, flags=cv2.INTER_LINEAR),
            size,
            interpolation=cv2.INTER_AREA,
        )
        a = cv2.resize(
            cv2.warpPerspective(alpha, matrix, big, flags=cv2.INTER_LINEAR),
            size,
            interpolation=cv2.INTER_AREA,
        )[..., None]
        region = self.image[y0:y1, x0:x1]
        region[:] = region * (1 - a) + warped * a
        self._occlude(a[..., 0], int(x0), int(y0))
        full = np.zeros((self.height, self.width), np.float32)
        full[y0:y1, x0:x1] = a[..., 0]
        self.card_masks.append(full)
        return quad

    def blob(
        self,
        polygon_cm: np.ndarray,
        colour: tuple[int, int, int],
        rim: tuple[int, int, int] | None = None,
    ) -> None:
        """Paint a flat object (a coin, a hand) given by its outline on the table."""
        self.shadow(polygon_cm, (0.4, 0.6), 0.6, 0.4)
        poly = _project(self.h, polygon_cm)
        x0, y0, x1, y1 = _box(poly, 2, self.width, self.height)
        if x1 > x0 and y1 > y0:
            mask = np.zeros((y1 - y0, x1 - x0), np.float32)
            _fill_in(mask, poly, x0, y0)
            region = self.image[y0:y1, x0:x1]
            region[:] = region * (1 - mask[..., None]) + np.array(colour, np.float32) * mask[..., None]
            self._occlude(mask, x0, y0)
        if rim is not None:
            cv2.polylines(
                self.image, [np.round(poly * 16).astype(np.int32)], True, rim, 2, cv2.LINE_AA, 4
            )


def _circle(centre: tuple[float, float], radius: float, steps: int = 40) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, steps, endpoint=False)
    return np.stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)], axis=1)


def _capsule(a: np.ndarray, b: np.ndarray, radius: float, steps: int = 10) -> np.ndarray:
    """The outline of a rounded bar from a to b (a finger, a thumb)."""
    along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
    across = np.array([-along[1], along[0]])
    turn = np.linspace(0, np.pi, steps)
    tip_b = [b + radius * (across * math.cos(t) + along * math.sin(t)) for t in turn]
    tip_a = [a - radius * (across * math.cos(t) + along * math.sin(t)) for t in turn]
    return np.array(tip_b + tip_a)


def _hand(card: Placed) -> list[np.ndarray]:
    """A hand reaching over the bottom end of a card by `cover` of its length: palm, fingers."""
    a = math.radians(card.angle)
    up = np.array([math.sin(a), -math.cos(a)])  # the card's top direction
    side = np.array([math.cos(a), math.sin(a)])
    tip = np.array(card.centre) - up * (CARD_H_CM / 2 - card.cover * CARD_H_CM)

    def at(across: float, along: float) -> np.ndarray:
        return tip + side * across + up * along

    palm = np.array(
        [
            at(-4.3, -6.0),
            at(4.3, -6.0),
            at(4.6, -11.0),
            at(3.4, -15.0),
            at(3.3, -30.0),
            at(-3.3, -30.0),
            at(-3.4, -15.0),
            at(-4.4, -11.0),
        ]
    )
    fingers = [
        _capsule(at(x, -6.5), at(x, reach - 0.8), 0.8)
        for x, reach in ((-2.7, -1.3), (-0.9, -0.2), (0.9, 0.0), (2.7, -0.5))
    ]
    thumb = _capsule(at(4.2, -12.0), at(5.8, -5.5), 0.95)
    if card.cover >= 1:  # fingers held together over the whole card: nothing shows between them
        together = np.array([at(-3.5, -6.5), at(3.5, -6.5), at(3.5, -1.3), at(-3.5, -1.3)])
        return [palm, together, *fingers, thumb]
    return [palm, *fingers, thumb]


def _check(scene: Scene) -> None:
    """Refuse a scene whose cards or coins name what is not there, before drawing anything."""
    names = {seat.name for seat in scene.seats}
    for card in scene.cards:
        if card.label != BACK:
            parse_card(card.label)
        if card.seat is not None and card.seat not in names:
            raise ValueError(f"card {card.label} lies at seat {card.seat!r}, which the scene lacks")
        if not 0.0 <= card.cover <= HIDING:
            raise ValueError(f"card {card.label}: cover {card.cover} must be from 0 to {HIDING}")
    for name in scene.coins:
        if name not in names:
            raise ValueError(f"coins for seat {name!r}, which the scene lacks")


def render_scene(scene: Scene, camera: Camera, seed: int = 0) -> tuple[np.ndarray, dict[str, Any]]:
    """Compose one frame of the scene; return it (BGR uint8) and its ground truth."""
    _check(scene)
    rng = np.random.default_rng(seed)
    h = camera.homography()
    tx, ty, footprint = plane_coordinates(np.linalg.inv(h), camera.width, camera.height)
    canvas = _Canvas(table_surface(scene.style, rng, tx, ty, footprint), h)
    seat_at = {seat.name: seat for seat in scene.seats}
    for name, count in scene.coins.items():
        seat = seat_at[name]
        back = np.array(seat.position) * 1.45
        for k in range(count):
            spot = back + (np.array([3.0 * (k - (count - 1) / 2), 0.0]) + rng.normal(0, 0.3, 2))
            canvas.blob(_circle(tuple(spot), 1.3), _BRASS, (30, 90, 130))
    quads = [canvas.card(card, rng) for card in scene.cards]
    for card in scene.cards:
        if card.cover > 0:
            for piece in _hand(card):
                canvas.blob(piece, _SKIN, _SKIN_LINE)
    image = canvas.image * light_field(rng, camera.width, camera.height, scene.light)
    image += rng.normal(0, 2.0, image.shape).astype(np.float32)
    frame = np.clip(image, 0, 255).astype(np.uint8)
    truth = {
        "width": camera.width,
        "height": camera.height,
        "style": scene.style,
        "camera": {"tilt": camera.tilt, "yaw": camera.yaw, "view_cm": camera.view_cm},
        "seats": [
            {
                "name": s.name,
                "at": [round(float(v), 2) for v in _project(h, np.array([s.position]))[0]],
            }
            for s in scene.seats
        ],
        "cards": [
            {
                "card": card.label,
                "face_up": card.face_up,
                "label": card.label if card.face_up else BACK,
                "seat": card.seat,
                "corners": [
                    [round(float(x), 2), round(float(y), 2)] for x, y in contract_order(quad)
                ],
                "visible": round(float(mask.sum() / max(_quad_area(quad), 1e-6)), 3),
            }
            for card, quad, mask in zip(scene.cards, quads, canvas.card_masks, strict=True)
        ],
    }
    return frame, truth


def contract_order(quad: np.ndarray) -> np.ndarray:
    """A card's frame corners, given in its own order, as `order_quad` means them: short edge first.

    `order_quad` can only guess the short edge from the image; under steep perspective a card
    lying sideways can look wider than long, so the truth keeps the card's real short edge and
    takes from `order_quad` only the choice of which end comes first.
    """
    pts = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    return np.roll(pts, 2, axis=0) if pts[0].sum() > pts[2].sum() else pts


def _quad_area(quad: np.ndarray) -> float:
    return float(abs(cv2.contourArea(np.asarray(quad, np.float32))))


_SENSOR_NOISE = 2.0
"""Standard deviation (grey levels) of the camera's noise, as render_scene adds it."""


class Stage:
    """A table that stays put under one camera and lamp, filmed frame after frame.

    The surface, the light and every card's printing come from the stage's seed, so only what
    moves changes between frames; each frame adds its own sensor noise, as a camera never
    repeats a frame exactly.
    """

    def __init__(
        self,
        seats: tuple[Seat, ...],
        style: str,
        camera: Camera,
        seed: int,
        light: float = 1.0,
        faces: Mapping[str, np.ndarray] | None = None,
        surface: Surface | None = None,
    ) -> None:
        self.seats = seats
        self.style = style
        self.camera = camera
        self.seed = seed
        self.faces = faces
        """Card code -> an upright photo of that face to paint instead of the drawn one (None: drawn)."""
        self.surface = surface
        """A photographed table to lay instead of the drawn `style` (None: drawn)."""
        rng = np.random.default_rng(seed)
        self._h = camera.homography()
        tx, ty, footprint = plane_coordinates(np.linalg.inv(self._h), camera.width, camera.height)
        self._table = table_surface(style, rng, tx, ty, footprint)  # drawn even under a photo: the same light follows
        if surface is not None:
            self._table = photo_surface(surface, tx, ty, footprint)
        self._light = light_field(rng, camera.width, camera.height, light)
        self._last: tuple[Any, np.ndarray, dict[str, Any]] | None = None

    def _card_rng(self, card: Placed) -> np.random.Generator:
        """The same card is printed (and lit) the same in every frame."""
        return np.random.default_rng([self.seed, *card.label.encode()])

    def _compose(
        self, cards: tuple[Placed, ...], coins: dict[str, int]
    ) -> tuple[np.ndarray, dict[str, Any]]:
        _check(Scene(self.seats, cards, self.style, coins))
        canvas = _Canvas(self._table.copy(), self._h)
        for i, seat in enumerate(self.seats):
            spots = np.random.default_rng([self.seed, 1, i]).normal(0, 0.3, (8, 2))
            count = coins.get(seat.name, 0)
            back = np.array(seat.position) * 1.45
            for k in range(count):
                spot = back + np.array([3.0 * (k - (count - 1) / 2), 0.0]) + spots[k % 8]
                canvas.blob(_circle(tuple(spot), 1.3), _BRASS, (30, 90, 130))
        quads = [canvas.card(card, self._card_rng(card), self.faces) for card in cards]
        for card in cards:
            if card.cover > 0:
                for piece in _hand(card):
                    canvas.blob(piece, _SKIN, _SKIN_LINE)
        truth = {
            "seats": [
                {
                    "name": s.name,
                    "at": [round(float(v), 2) for v in _project(self._h, np.array([s.position]))[0]],
                }
                for s in self.seats
            ],
            "cards": [
                {
                    "card": card.label,
                    "face_up": card.face_up,
                    "label": card.label if card.face_up else BACK,
                    "seat": card.seat,
                    "corners": [
                        [round(float(x), 1), round(float(y), 1)] for x, y in contract_order(quad)
                    ],
                    "visible": round(float(mask.sum() / max(_quad_area(quad), 1e-6)), 3),
                }
                for card, quad, mask in zip(cards, quads, canvas.card_masks, strict=True)
            ],
        }
        return canvas.image * self._light, truth

    def frame(
        self, cards: tuple[Placed, ...], coins: dict[str, int], noise_seed: int
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """One frame (BGR uint8) of these cards and coins with its own noise, and its ground truth."""
        key = (cards, tuple(sorted(coins.items())))
        if self._last is None or self._last[0] != key:
            self._last = (key, *self._compose(cards, coins))
        _, clean, truth = self._last
        rng = np.random.default_rng([self.seed, 2, noise_seed])
        noisy = clean * rng.uniform(0.985, 1.015) + rng.normal(0, _SENSOR_NOISE, clean.shape).astype(
            np.float32
        )
        return np.clip(noisy, 0, 255).astype(np.uint8), truth
