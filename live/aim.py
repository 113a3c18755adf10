"""What a camera's picture is aimed by: each place and whether it is in view (and past which edge when
not), the cards read, and before the places are known the outline the players' cards must lie within."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.detections import CardDetections
from vision.seats import Seats, typical_length

IN_VIEW = 0.3
"""Card lengths a place's point must lie inside the picture's edges to be in view: half a card's
width (a card is 0.6 as wide as long), so that a place whose card was seen lying whole, however
turned, stays in view."""
FRAMED = 0.5
"""Card lengths the outline drawn before the places are known lies inside the picture's edges:
where the players' cards must lie to be seen whole."""


def aim_view(seats: Seats | None, size: tuple[int, int], cards: CardDetections,
             players: int, steep: bool = False) -> dict[str, Any]:
    """What the phone page draws over its picture to aim the camera: each place and whether it is in
    view (and past which edge when not), the cards read, before the places are known the outline
    the players' cards must lie within, and whether the phone leans too far for a face to be named
    (`steep`: the live loop's `STEEP`)."""
    width, height = size
    length = typical_length(cards)
    view: dict[str, Any] = {"width": width, "height": height, "players": players,
                            "seats": [], "outline": None, "cards": [], "steep": steep}
    if seats is None:
        inset = FRAMED * length
        view["outline"] = [[round(x), round(y)] for x, y in (
            (inset, inset), (width - inset, inset), (width - inset, height - inset),
            (inset, height - inset))]
    else:
        for name, (x, y) in zip(seats.names, seats.points):
            view["seats"].append({"player": name, "x": round(x, 1), "y": round(y, 1),
                                  "cut": _cut(x, y, width, height, IN_VIEW * length)})
    for quad, code, face in zip(cards.quad, cards.card, cards.face):
        if face == "none":
            continue
        view["cards"].append({"quad": np.round(quad).astype(int).tolist(), "face": str(face),
                              "card": str(code) if code else None})
    return view


def _cut(x: float, y: float, width: int, height: int, margin: float) -> str | None:
    """Past which edge of the picture a place lies (less than `margin` inside it), or None."""
    past = {"left": margin - x, "right": x - (width - margin), "top": margin - y,
            "bottom": y - (height - margin)}
    edge, most = max(past.items(), key=lambda item: item[1])
    return edge if most > 0 else None
