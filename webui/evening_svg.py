"""The evening's pictures as SVG text, drawn here without a chart library: each player's lives
hand by hand, and one picture of the whole evening (its games, the nets, the payments, the chart)
that a phone saves or shares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from referee.game import Game

COLOURS = ("#a4261d", "#1e6b45", "#2357a6", "#a87814", "#6b3fa0", "#0f7c86", "#c2562b",
           "#4d4d4d", "#b0306a", "#5d7a12")
"""One colour a player, far apart on the page's paper (more players take them again)."""
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif"
CHART_SIZE = (480, 240)
"""The plot's size in the page's chart (its legend goes below): a phone shows it whole."""
PICTURE_WIDTH = 1080
"""The shared picture's width in pixels: what a phone's chat shows whole."""
_MARGIN = (30, 16, 12, 28)
"""The plot's margins: left (lives), right, top, bottom (hands)."""
_LEGEND_ROW = 24
"""Height of a row of the chart's legend: each player's colour, name and lives now."""
_ROW = 44
"""Height of a line of text in the shared picture."""


def lives_series(game: Game) -> dict[str, list[int | None]]:
    """Each player's lives at the start (index 0) and after every hand; None while not seated."""
    series: dict[str, list[int | None]] = {p: [game.start_lives] for p in game.first_players}
    for n, result in enumerate(game.results, 1):
        for player, lives in result.lives.items():
            series.setdefault(player, [None] * n).append(lives)
        for line in series.values():
            if len(line) == n:
                line.append(None)
    return series


def chart_height(players: int, size: tuple[int, int] = CHART_SIZE) -> int:
    """The chart's height: its plot and a legend row for every few players."""
    columns = max(1, size[0] // 150)
    return size[1] + _LEGEND_ROW * -(-players // columns) + 8


def chart_svg(series: Mapping[str, Sequence[int | None]], title: str,
              size: tuple[int, int] = CHART_SIZE) -> str:
    """Each player's lives hand by hand as one SVG: a line a player, named in the legend below."""
    width, plot = size
    columns = max(1, width // 150)
    height = chart_height(len(series), size)
    left, right, top, bottom = _MARGIN
    bottom += height - plot
    hands = max((len(line) for line in series.values()), default=1) - 1
    most = max((v for line in series.values() for v in line if v is not None), default=1)
    step_x = (width - left - right) / max(hands, 1)
    step_y = (height - top - bottom) / max(most, 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="lives-chart" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(title)}" font-family="{FONT}">',
             f'<rect width="{width}" height="{height}" fill="#fffdf8"/>']
    for lives in range(most + 1):
        y = top + (most - lives) * step_y
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="#e4d7c0"/><text x="{left - 8}" y="{y + 5:.1f}" font-size="14" '
                     f'text-anchor="end" fill="#6d5d4b">{lives}</text>')
    every = 1 if hands <= 12 else 5
    for hand in range(0, hands + 1, every):
        x = left + hand * step_x
        parts.append(f'<text x="{x:.1f}" y="{plot - 8}" font-size="13" text-anchor="middle" '
                     f'fill="#6d5d4b">{hand}</text>')
    count = len(series)
    for n, (player, line) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        nudge = (n - (count - 1) / 2) * min(3.0, step_y / (count + 1))  # equal lives stay apart
        points = [(left + i * step_x, top + (most - v) * step_y + nudge)
                  for i, v in enumerate(line) if v is not None]
        known = ",".join("" if v is None else str(v) for v in line)
        parts.append(f'<g class="series" data-player="{escape(player)}" data-lives="{known}">')
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="3" '
                     f'stroke-linejoin="round" points="'
                     + " ".join(f"{x:.1f},{y:.1f}" for x, y in points) + '"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>'
                  for x, y in points]
        last = next((v for v in reversed(line) if v is not None), 0)
        x = left + (n % columns) * (width - left) / columns
        y = plot + 14 + (n // columns) * _LEGEND_ROW
        parts.append(f'<rect x="{x:.1f}" y="{y - 11}" width="14" height="14" rx="3" '
                     f'fill="{colour}"/><text x="{x + 20:.1f}" y="{y + 1}" font-size="15" '
                     f'font-weight="600" fill="{colour}">{escape(player)} ({last})</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def picture_svg(view: Mapping[str, Any], words: Mapping[str, str]) -> str:
    """The whole evening in one picture, in the language of `view` and `words`: its games and
    winners, each player's net, the payments that settle it, and the chart of the last game."""
    width = PICTURE_WIDTH
    said = "text"
    lines: list[tuple[str, str, str]] = []  # (kind, text, colour)
    lines.append(("head", words["ev_games"], "#7a1f1a"))
    lines += [("line", game[said], "#2b2118") for game in view["games"]]
    lines.append(("head", words["ev_net"], "#7a1f1a"))
    lines += [("line", row[said], "#1e6b45" if row["cents"] > 0 else
               "#a4261d" if row["cents"] < 0 else "#2b2118") for row in view["net"]]
    lines.append(("head", words["ev_payments"], "#7a1f1a"))
    lines += [("line", pay[said], "#2b2118") for pay in view["payments"]] or [
        ("line", words["ev_settled"], "#2b2118")]
    chart_w, chart_h = width - 80, 420
    header = 96
    height = (header + 20 + len(lines) * _ROW + 40
              + chart_height(len(view["chart"]["lives"]), (chart_w, chart_h)) + 40)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="{FONT}">',
             f'<rect width="{width}" height="{height}" fill="#fbf5e9"/>',
             f'<rect width="{width}" height="{header}" fill="#7a1f1a"/>',
             f'<text x="40" y="62" font-size="40" font-weight="700" fill="#fff">Saltacavallo · '
             f'{escape(view["title"][said])}</text>']
    y = header + 20
    for kind, text, colour in lines:
        y += _ROW
        size, weight, x = (32, 700, 40) if kind == "head" else (30, 400, 64)
        parts.append(f'<text x="{x}" y="{y - 12}" font-size="{size}" font-weight="{weight}" '
                     f'fill="{colour}">{escape(text)}</text>')
    y += 40
    chart = view["chart"]
    parts.append(f'<text x="40" y="{y - 8}" font-size="32" font-weight="700" fill="#7a1f1a">'
                 f'{escape(chart["title"][said])}</text>')
    inner = chart_svg(chart["lives"], chart["title"][said], (chart_w, chart_h))
    parts.append(inner.replace("<svg ", f'<svg x="40" y="{y}" ', 1))
    parts.append("</svg>")
    return "".join(parts)
