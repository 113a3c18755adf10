"""The candidate quads: the quads each outline may stand for, scored against the frame's edges; halves of pairs."""

from __future__ import annotations

import cv2
import numpy as np

from vision.crop import CARD_ASPECT
from vision.locate.cloth import CLOTH_SQUARE, Cloth
from vision.locate.config import LocatorConfig
from vision.locate.fitting import aspect_priors, fit_quad, fit_quads, flat, hull_quad
from vision.locate.geometry import NEXT, areas, halves, intersection, on_grid, squarenesses, union_share
from vision.locate.outlines import WAIST_SOLIDITY, Outline, find_outlines

_ALONG = np.linspace(0.1, 0.9, 24, dtype=np.float32)[None, :, None]
"""Where along each side (shares of its length) the edge support is sampled: 24 points, the rounded corners left out."""
SMALLEST = 0.7
"""Share of the area of the narrowest card worth a look (LocatorConfig.min_card_side wide) an outline must
enclose, foreshortening allowed for."""
SAME_CENTRE_SHARE = 0.06
"""Distance between two boxes' centres, as a share of the longer one's longest side, within which they may
outline one thing."""
SAME_AREA = 0.15
"""Difference of two boxes' areas, as a share of the later one's, within which they outline one thing."""
SQUARE_ON_FILL = 0.95
"""Share of its min-area box an outline's hull fills from which it is a rectangle seen square-on: its box."""
CLEAN = 0.03
"""Relative difference between a hull's area and that of the quad on its points up to which a convex outline
is clean, needing no side fit."""
OVERFULL = 1.3
"""Hull's area over a quad's beyond which the quad cuts off too much of its outline."""
PAIRED = 0.7
"""Squareness from which a quad may be two cards lying side by side, long sides together."""
ONE_OF_PAIR = (0.3, 0.7)
"""Share of a pair's area within which a quad found lying on it is one of its two cards."""
ON_PAIR = 0.85
"""Share of such a quad lying on the pair from which it is one of the pair's cards."""
DISTINCT = 0.6
"""Intersection over union from which a quad lies on a better one (one card outlined twice)."""
HELD = 0.7
"""Hull area, relative to a solid card-shaped outline's, below which an outline inside it is held back as a
part of what that one outlines (as recognize.CARD_SIZED, for quads)."""


def _edge_support(edges: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """For each quad [K, 4, 2], the fraction of points along its sides that lie on an edge of the frame."""
    points = quads[:, :, None] + _ALONG[None] * (quads[:, NEXT] - quads)[:, :, None]  # [K, 4, S, 2]
    xs = np.clip(np.rint(points[..., 0]).astype(int), 0, edges.shape[1] - 1)
    ys = np.clip(np.rint(points[..., 1]).astype(int), 0, edges.shape[0] - 1)
    return (edges[ys, xs] > 0).reshape(len(quads), -1).mean(axis=1)


def _quads_for(hull: np.ndarray, hull_area: float, box: tuple, checked: bool) -> tuple[list[np.ndarray], bool]:
    """The quads an outline may stand for short of the side fit, and whether the side fit is wanted too.

    A rectangle seen square-on takes its min-area box. Any other outline offers that box (a rough quad
    that keeps all of a steeply tilted card; the side snapping then fits it), the quad on its hull's own
    points and the costlier fit to its longest straight runs (so that a snowflake or a finger over a
    corner does not bend it); the caller keeps the best supported.
    On a `checked` cloth (where an outline often takes in a check beside the card and the box round it
    then covers the check too) the box is not offered, and a clean convex outline takes
    the quad on its hull's points without the side fit.
    """
    (rw, rh) = box[1]
    if hull_area > SQUARE_ON_FILL * rw * rh:
        return [cv2.boxPoints(box).astype(np.float32)], False
    simple = hull_quad(hull)
    if not checked:  # the box round the hull keeps all of a steeply tilted card, where the hull's points cut a corner
        return [cv2.boxPoints(box).astype(np.float32), simple], True
    return [simple], abs(hull_area / max(cv2.contourArea(simple), 1e-6) - 1) >= CLEAN  # not clean


def _repeats(boxes: list[tuple]) -> np.ndarray:
    """For each pair of rotated boxes [k, j], whether box k outlines what box j did (one cue repeating
    another): centres within SAME_CENTRE_SHARE of the longer one's longest side, areas within SAME_AREA of k's."""
    rows = np.array([(x, y, w * h, max(w, h)) for (x, y), (w, h), _ in boxes], np.float64).reshape(-1, 4)
    x, y, area, longest = rows.T
    size = np.maximum(longest[None, :], longest[:, None])
    near = np.hypot(x[None, :] - x[:, None], y[None, :] - y[:, None]) < SAME_CENTRE_SHARE * size
    return near & (np.abs(area[None, :] - area[:, None]) < SAME_AREA * area[:, None])


def _first_sightings(repeats: np.ndarray) -> list[int]:
    """Indices of the boxes that outline something no earlier box did (`repeats` from `_repeats`)."""
    seen, first = np.zeros(len(repeats), bool), []
    for k in range(len(repeats)):
        if not seen[k]:
            first.append(k)
            seen |= repeats[:, k]
    return first


def candidates(
    edges: np.ndarray, masks: list[np.ndarray], config: LocatorConfig, cloth: Cloth, min_hull: float = 0.0,
    hold: bool = False,
) -> tuple[list[tuple[float, np.ndarray]], list[Outline]]:
    """Score every plausible card quad outlined in the cue maps against the frame's edges, in downscaled pixels;
    with `hold`, the outlines lying inside a solid card-shaped one (`held`) are held back unscored instead.

    On a `cloth` seen to be checked, outlines whose box is nearly square are passed over unfitted, and
    quads are taken on the hulls' own points (see `_quads_for`). Outlines whose hull encloses no more than
    `min_hull` are passed over too (`Cloth.least_card_hull`: on a checked cloth, a check or two).
    """
    h, w = edges.shape[:2]
    min_area = config.min_card_side**2 / CARD_ASPECT * SMALLEST
    outlines = find_outlines(masks, min_area, config.max_area_fraction * h * w, config.min_card_side, min_hull,
                             config.leaning)
    if cloth.checked:
        outlines = [outline for outline in outlines if min(outline.box[1]) < CLOTH_SQUARE * max(outline.box[1])]
    later = held(outlines) if hold else np.zeros(len(outlines), bool)
    return scored(edges, [o for o, h in zip(outlines, later) if not h], config, cloth), [o for o, h in zip(outlines, later) if h]


def held(outlines: list[Outline]) -> np.ndarray:
    """Mask of the outlines lying inside a solid, card-shaped one (whose outline has no notch and whose box
    is no pair's), as `inside_hulls` takes it: a pip, a figure or a printed frame of the card the larger
    one outlines, or a card lying on a card-shaped thing (a book, a box). Their quads are wanted only when
    the larger one reads as no surely named card."""
    holders = [o for o in outlines if o.area >= WAIST_SOLIDITY * o.hull_area and min(o.box[1]) < PAIRED * max(o.box[1])]
    return inside_hulls(outlines, [o.hull for o in holders], np.array([o.hull_area for o in holders]))


def inside_hulls(outlines: list[Outline], hulls: list[np.ndarray], hull_areas: np.ndarray) -> np.ndarray:
    """Mask of the outlines whose box's centre lies inside one of the convex `hulls` (float32 points),
    their hull under HELD of that one's area."""
    inside = np.zeros(len(outlines), bool)
    if not hulls or not outlines:
        return inside
    centres = np.array([o.box[0] for o in outlines])
    sizes = np.array([o.hull_area for o in outlines])
    x, y, w, h = np.array([cv2.boundingRect(hull) for hull in hulls]).T
    near = (sizes[:, None] < HELD * hull_areas[None]) & (x <= centres[:, :1]) & (centres[:, :1] <= x + w)
    near &= (y <= centres[:, 1:]) & (centres[:, 1:] <= y + h)
    for k, j in zip(*np.nonzero(near)):
        if not inside[k] and cv2.pointPolygonTest(hulls[j], outlines[k].box[0], False) > 0:
            inside[k] = True
    return inside


def scored(
    edges: np.ndarray, outlines: list[Outline], config: LocatorConfig, cloth: Cloth
) -> list[tuple[float, np.ndarray]]:
    """The best scoring quad of each outline that gives one, with its score (see `candidates`); an outline
    that outlines what an earlier one giving a quad did (`_repeats`) gives none."""
    # the side fits in one go, for the outlines that repeat no earlier one; should an earlier one give no
    # quad after all, the loop below fits the outline it would have hidden on its own
    repeats = _repeats([outline.box for outline in outlines])
    first = _first_sightings(repeats)
    plans = {k: _quads_for(outlines[k].hull, outlines[k].hull_area, outlines[k].box, cloth.checked) for k in first}
    wanted = [k for k in first if plans[k][1]][: config.max_side_fits]
    fits = dict(zip(wanted, fit_quads([outlines[k].points for k in wanted])))
    offers = [(plans[k][0] + ([fits[k]] if k in fits else []), outlines[k].hull_area) for k in first]
    ranked = dict(zip(first, _best_quads(edges, offers, config)))
    found: list[tuple[float, np.ndarray]] = []
    fitted = np.zeros(len(outlines), bool)  # outlining what an outline already giving a quad did
    side_fits = 0
    for k, (_, box, contour, hull, hull_area, _, _) in enumerate(outlines):
        if fitted[k]:
            continue
        quads, wants = plans[k] if k in plans else _quads_for(hull, hull_area, box, cloth.checked)
        fit = wants and side_fits < config.max_side_fits
        side_fits += fit
        if k in ranked and fit == (k in fits):
            best = ranked[k]
        else:  # an earlier outline gave no quad after all, so this one is looked at, or fitted, unforeseen
            best = _best_quads(edges, [(quads + ([fit_quad(contour)] if fit else []), hull_area)], config)[0]
        if best is not None:
            fitted |= repeats[:, k]
            found.append(best)
    return found


def _best_quads(
    edges: np.ndarray, offers: list[tuple[list[np.ndarray | None], float]], config: LocatorConfig
) -> list[tuple[float, np.ndarray] | None]:
    """For each outline's offer (the quads it may stand for, its hull's area) the best scoring quad with
    its score, or None: how well the hull fills the quad, times the share of its sides lying on edges,
    times how card-like its proportions are (`aspect_priors`). All offers are scored in one go."""
    owners, quads, ratios = [], [], []
    for k, (options, hull_area) in enumerate(offers):
        for quad in options:
            # the hull forgives drawings that reach the outline and bite into the enclosed region
            ratio = hull_area / max(cv2.contourArea(quad), 1e-6) if quad is not None else 0.0
            if config.min_rectangularity < ratio < OVERFULL:
                owners.append(k)
                quads.append(quad)
                ratios.append(ratio)
    picks: list[tuple[float, np.ndarray] | None] = [None] * len(offers)
    if not quads:
        return picks
    stacked = np.stack(quads)
    support = _edge_support(edges, stacked)
    ratio = np.array(ratios)
    scores = np.minimum(ratio, 1 / ratio) * support * aspect_priors(stacked, config.leaning)
    # a flat quad only where the outline offers no supported quad of a card's proportions (`flat`)
    ranks = np.where(flat(stacked), 0.0, 1.0) + scores
    best = [0.0] * len(offers)
    for k, quad, score, rank, supported in zip(owners, quads, scores, ranks, support >= config.min_edge_support):
        if supported and score > 0 and rank > best[k]:
            picks[k], best[k] = (float(score), quad), float(rank)
    return picks


PAIR_SHAPE = (0.78, 0.95)
"""Short over long sides of a quad whose halves are both offered: two cards lying side by side, long
sides together, make 0.83 seen square-on; a single card seen at a 30-degree tilt makes up to about 0.77."""


def other_halves(quads: list[np.ndarray]) -> list[tuple[int, np.ndarray, bool]]:
    """Halves of near-square quads, which two cards lying side by side make: the other one beside a card
    also found alone, else both when the quad has a pair's shape (the classifier tells a face from half
    of one). Each half comes with the index of the quad it halves, and whether its shape alone offered it."""
    found: list[tuple[int, np.ndarray, bool]] = []
    if not quads:
        return found
    stacked = np.stack(quads)
    sizes, ratios, grid = areas(stacked), squarenesses(stacked), on_grid(stacked)
    for p, (pair, pair_area, ratio) in enumerate(zip(quads, sizes, ratios)):
        if ratio < PAIRED:
            continue
        share = sizes / pair_area
        for k in np.flatnonzero((ONE_OF_PAIR[0] < share) & (share < ONE_OF_PAIR[1])):
            if intersection(grid[k], grid[p]) > ON_PAIR * sizes[k]:  # ON_PAIR of quad k lies on the pair
                both = halves(pair)
                near = np.argmin([np.linalg.norm(h.mean(axis=0) - quads[k].mean(axis=0)) for h in both])
                found.append((p, both[1 - near], False))
                break
        else:
            found += [(p, half, True) for half in halves(pair)] if PAIR_SHAPE[0] <= ratio <= PAIR_SHAPE[1] else []
    return found


def distinct(candidates: list[tuple[float, np.ndarray]], kept_already: np.ndarray | None = None) -> list[tuple[float, np.ndarray]]:
    """The scored quads, in the order given (the better first), that lie on no earlier one kept; those
    `kept_already` masks (kept before, and lying on no other such one) are kept unlooked at.

    Only quads whose boxes touch and whose areas are within DISTINCT of each other are compared: the
    intersection over union of two quads is at most the smaller area over the larger."""
    if not candidates:
        return []
    quads = np.stack([quad for _, quad in candidates])
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    area = areas(quads)
    touching = ((lo[:, None] < hi[None]) & (hi[:, None] > lo[None])).all(axis=2)
    rivals = touching & (np.minimum(area[:, None], area[None]) >= DISTINCT * np.maximum(area[:, None], area[None]))
    grid = on_grid(quads)
    kept = np.zeros(len(candidates), bool) if kept_already is None else kept_already.copy()
    for i in np.flatnonzero(~kept):
        better = np.flatnonzero(rivals[i, :i] & kept[:i])
        kept[i] = all(union_share(intersection(grid[i], grid[k]), area[i], area[k]) < DISTINCT for k in better)
    return [candidates[i] for i in np.flatnonzero(kept)]
