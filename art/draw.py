"""Vector primitives drawn once and rendered by two backends: SVG text and an OpenCV raster."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

RGB = tuple[int, int, int]
Points = Sequence[tuple[float, float]]
"""A list of (x, y) points; ints are welcome where floats are meant."""

_SUPERSAMPLE = 4
_SHIFT = 4  # OpenCV sub-pixel bits for polygon coordinates


def affine(
    translate: tuple[float, float] = (0.0, 0.0),
    scale: float | tuple[float, float] = 1.0,
    rotate: float = 0.0,
) -> np.ndarray:
    """A 3x3 matrix that scales, then rotates (degrees, clockwise on screen), then translates."""
    sx, sy = (scale, scale) if isinstance(scale, (int, float)) else scale
    c, s = math.cos(math.radians(rotate)), math.sin(math.radians(rotate))
    return np.array(
        [[c * sx, -s * sy, translate[0]], [s * sx, c * sy, translate[1]], [0.0, 0.0, 1.0]]
    )


def _apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    return points @ matrix[:2, :2].T + matrix[:2, 2]


@dataclass(frozen=True)
class Path:
    """A polyline or polygon given by its points; filled and/or stroked."""

    points: np.ndarray
    closed: bool = True
    fill: RGB | None = None
    stroke: RGB | None = None
    width: float = 0.0

    def transformed(self, matrix: np.ndarray) -> Path:
        """This path moved by an affine matrix (stroke width scales with the area factor)."""
        factor = math.sqrt(abs(np.linalg.det(matrix[:2, :2])))
        return Path(
            _apply(matrix, self.points), self.closed, self.fill, self.stroke, self.width * factor
        )


@dataclass(frozen=True)
class Ellipse:
    """An ellipse given by centre, radii and rotation (degrees)."""

    centre: tuple[float, float]
    radii: tuple[float, float]
    angle: float = 0.0
    fill: RGB | None = None
    stroke: RGB | None = None
    width: float = 0.0

    def transformed(self, matrix: np.ndarray) -> Ellipse:
        """This ellipse moved by an affine matrix: the image of an ellipse is an ellipse."""
        a = math.radians(self.angle)
        axes = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) @ np.diag(
            self.radii
        )
        u, sigma, _ = np.linalg.svd(matrix[:2, :2] @ axes)
        centre = _apply(matrix, np.array([self.centre], dtype=float))[0]
        factor = math.sqrt(abs(np.linalg.det(matrix[:2, :2])))
        angle = math.degrees(math.atan2(u[1, 0], u[0, 0]))
        return Ellipse(
            (float(centre[0]), float(centre[1])),
            (float(sigma[0]), float(sigma[1])),
            angle,
            self.fill,
            self.stroke,
            self.width * factor,
        )

    def polygon(self, steps: int = 72) -> np.ndarray:
        """Points along the outline, for the raster backend."""
        t = np.linspace(0, 2 * math.pi, steps, endpoint=False)
        pts = np.stack([self.radii[0] * np.cos(t), self.radii[1] * np.sin(t)], axis=1)
        return _apply(affine(self.centre, 1.0, self.angle), pts)


Shape = Path | Ellipse


@dataclass
class Drawing:
    """An ordered list of shapes in a width x height unit box (painter's order)."""

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)

    def poly(
        self,
        points: np.ndarray | Points,
        fill: RGB | None = None,
        stroke: RGB | None = None,
        width: float = 0.0,
    ) -> None:
        """Add a closed polygon."""
        self.shapes.append(Path(np.asarray(points, dtype=float), True, fill, stroke, width))

    def line(self, points: np.ndarray | Points, stroke: RGB, width: float) -> None:
        """Add an open stroked polyline."""
        self.shapes.append(Path(np.asarray(points, dtype=float), False, None, stroke, width))

    def ellipse(
        self,
        centre: tuple[float, float],
        rx: float,
        ry: float | None = None,
        fill: RGB | None = None,
        stroke: RGB | None = None,
        width: float = 0.0,
        angle: float = 0.0,
    ) -> None:
        """Add an ellipse (a circle when ry is omitted)."""
        self.shapes.append(
            Ellipse(centre, (rx, rx if ry is None else ry), angle, fill, stroke, width)
        )

    def add(self, other: Drawing, matrix: np.ndarray) -> None:
        """Paint another drawing's shapes on top, moved by an affine matrix."""
        self.shapes.extend(shape.transformed(matrix) for shape in other.shapes)


def catmull_rom(points: Points | np.ndarray, closed: bool = True, steps: int = 8) -> np.ndarray:
    """A smooth curve through the control points (centripetal-free uniform Catmull-Rom)."""
    p = np.asarray(points, dtype=float)
    n = len(p)
    out = []
    last = n if closed else n - 1
    for i in range(last):
        p0 = p[(i - 1) % n] if closed or i > 0 else p[0]
        p1, p2 = p[i], p[(i + 1) % n]
        p3 = p[(i + 2) % n] if closed or i + 2 < n else p[-1]
        for t in np.linspace(0, 1, steps, endpoint=False):
            t2, t3 = t * t, t * t * t
            out.append(
                0.5
                * (
                    2 * p1
                    + (-p0 + p2) * t
                    + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2
                    + (-p0 + 3 * p1 - 3 * p2 + p3) * t3
                )
            )
    if not closed:
        out.append(p[-1])
    return np.array(out)


def mirrored(half: Points) -> list[tuple[float, float]]:
    """A left-right symmetric outline from its right half (top to bottom, x >= 0)."""
    return list(half) + [(-x, y) for x, y in reversed(half)]


def _hex(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _paint(fill: RGB | None, stroke: RGB | None, width: float) -> str:
    attrs = f'fill="{_hex(fill)}"' if fill else 'fill="none"'
    if stroke and width > 0:
        attrs += (
            f' stroke="{_hex(stroke)}" stroke-width="{width:.2f}"'
            ' stroke-linejoin="round" stroke-linecap="round"'
        )
    return attrs


def to_svg(drawing: Drawing, height_px: float | None = None) -> str:
    """The drawing as a standalone SVG document (viewBox in drawing units)."""
    w, h = drawing.width, drawing.height
    size = ""
    if height_px:
        size = f' width="{height_px * w / h:.0f}" height="{height_px:.0f}"'
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:g} {h:g}"{size}>']
    for shape in drawing.shapes:
        if isinstance(shape, Ellipse):
            cx, cy = shape.centre
            rot = f' transform="rotate({shape.angle:.2f} {cx:.1f} {cy:.1f})"' if shape.angle else ""
            out.append(
                f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{shape.radii[0]:.1f}" '
                f'ry="{shape.radii[1]:.1f}"{rot} {_paint(shape.fill, shape.stroke, shape.width)}/>'
            )
        else:
            pts = " L".join(f"{x:.1f} {y:.1f}" for x, y in shape.points)
            close = " Z" if shape.closed else ""
            out.append(f'<path d="M{pts}{close}" {_paint(shape.fill, shape.stroke, shape.width)}/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def rasterize(drawing: Drawing, width: int, height: int, background: RGB = (0, 0, 0)) -> np.ndarray:
    """The drawing as a BGR uint8 image of width x height pixels, anti-aliased by supersampling."""
    ss = _SUPERSAMPLE
    sx, sy = width * ss / drawing.width, height * ss / drawing.height
    canvas = np.empty((height * ss, width * ss, 3), np.uint8)
    canvas[:] = background[::-1]
    one = 1 << _SHIFT
    for shape in drawing.shapes:
        pts = shape.polygon() if isinstance(shape, Ellipse) else shape.points
        closed = isinstance(shape, Ellipse) or shape.closed
        fixed = np.round(pts * (sx * one, sy * one)).astype(np.int32).reshape(-1, 1, 2)
        if shape.fill is not None and closed:
            bgr = shape.fill[::-1]
            cv2.fillPoly(canvas, [fixed], bgr, lineType=cv2.LINE_AA, shift=_SHIFT)
        if shape.stroke is not None and shape.width > 0:
            thickness = max(1, int(round(shape.width * (sx + sy) / 2)))
            cv2.polylines(
                canvas, [fixed], closed, shape.stroke[::-1], thickness, cv2.LINE_AA, _SHIFT
            )
    return cv2.resize(canvas, (width, height), interpolation=cv2.INTER_AREA)
