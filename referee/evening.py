"""The evening: each game's money from its stake, pot and winner, every player's net, the fewest
payments that settle them, the next game's first dealer, and the check of an evening read back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.events import Join, Leave
from referee.game import Game, RuleError
from referee.record import RecordError, replay

EXACT_MOST = 14
"""Up to this many players owing or owed, the fewest payments are found exactly (2^14 subsets
take milliseconds); beyond, largest debtor pays largest creditor (at most one payment more a
group)."""
MOST_GAMES = 200
"""An evening read back holds at most this many games (a long evening plays twenty)."""
MOST_STAKE = 100_000
"""The largest stake a life, in cents (the Setup page's 1000 €)."""


class EveningError(ValueError):
    """An evening read back that does not add up, as a code with parameters (webui.words)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}")
        self.code, self.params = code, params


@dataclass(frozen=True)
class GameMoney:
    """One game's money: `net` in cents for everyone who sat at it, zero until it is over."""

    number: int
    stake: int
    players: tuple[str, ...]
    pot: int
    winner: str | None
    survivors: tuple[str, ...]
    over: bool
    net: dict[str, int]
    deciding: int | None
    """The hand that ended the game (None while it goes on)."""


@dataclass(frozen=True)
class Payment:
    """`payer` gives `cents` to `payee`."""

    payer: str
    payee: str
    cents: int


def game_money(game: Game, stake: int, number: int) -> GameMoney:
    """What game `number` moved at `stake` cents a life: each player's coins at the end (or when
    he left) against those he sat down with, and the pot to the winner (split: half each, the odd
    cent to the first survivor in seating order)."""
    start = dict.fromkeys(game.first_players, game.start_lives)
    took: dict[str, int] = {}
    scratch = Game(game.first_players, game.rules, game.start_lives)
    for event in game.history:
        if isinstance(event, Leave):
            took[event.player] = scratch.lives[event.player]
        elif isinstance(event, Join):
            start[event.player] = game.start_lives
        scratch.play(event)
    outcome = game.outcome()
    net = dict.fromkeys(start, 0)
    if outcome is not None:
        coins = {**took, **game.lives}
        for player in start:
            net[player] = (coins.get(player, 0) - start[player]) * stake
        share, odd = divmod(outcome.pot * stake, len(outcome.survivors))
        for n, player in enumerate(outcome.survivors):
            net[player] += share + (odd if n == 0 else 0)
    return GameMoney(
        number=number, stake=stake, players=tuple(start), pot=game.pot,
        winner=outcome.winner if outcome else None,
        survivors=outcome.survivors if outcome else (), over=outcome is not None, net=net,
        deciding=game.results[-1].number if outcome is not None and game.results else None)


def evening_net(games: Sequence[GameMoney]) -> dict[str, int]:
    """Every player's net over the evening in cents, in the order they first sat down; a player
    who left keeps his sums."""
    net: dict[str, int] = {}
    for money in games:
        for player, cents in money.net.items():
            net[player] = net.get(player, 0) + cents
    return net


def payments(net: Mapping[str, int]) -> list[Payment]:
    """The fewest payments that settle `net` (cents, adding up to zero): biggest first."""
    owing = [(p, c) for p, c in net.items() if c]
    if sum(c for _, c in owing):
        raise ValueError(f"the nets do not add up to zero: {dict(net)}")
    groups = _zero_groups(owing) if len(owing) <= EXACT_MOST else [owing]
    found = [pay for group in groups for pay in _greedy(group)]
    return sorted(found, key=lambda pay: -pay.cents)


def _zero_groups(owing: list[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """`owing` split into the most groups that each add up to zero (each settles with one payment
    fewer than its size, so the most groups make the fewest payments)."""
    size = len(owing)
    total = [0] * (1 << size)
    best = [0] * (1 << size)
    for mask in range(1, 1 << size):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + owing[low][1]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(size) if mask >> i & 1) + (
            total[mask] == 0)
    groups, mask, since = [], (1 << size) - 1, (1 << size) - 1
    while mask:
        i = next(i for i in range(size) if mask >> i & 1 and best[mask] ==
                 best[mask ^ (1 << i)] + (total[mask] == 0))
        mask ^= 1 << i
        if total[mask] == 0:
            groups.append([owing[j] for j in range(size) if (since ^ mask) >> j & 1])
            since = mask
    return groups


def _greedy(group: list[tuple[str, int]]) -> list[Payment]:
    """The largest debtor pays the largest creditor until the group is settled."""
    left = dict(group)
    found = []
    while any(left.values()):
        payer = min(left, key=lambda p: (left[p], list(left).index(p)))
        payee = max(left, key=lambda p: (left[p], -list(left).index(p)))
        cents = min(-left[payer], left[payee])
        found.append(Payment(payer, payee, cents))
        left[payer] += cents
        left[payee] -= cents
    return found


def next_dealer(previous: Game, players: Sequence[str]) -> str | None:
    """Who deals first in the next game of `players`: as from hand to hand, the deal passes to
    the right of whoever dealt last (a seat left empty passes it on round the old table); None
    when nobody dealt yet."""
    last = previous.results[-1].dealer if previous.results else previous.dealer
    if last is None:
        return None
    if last in players:
        return players[(list(players).index(last) + 1) % len(players)]
    seats = list(previous.first_players)
    seats += [p for p in previous.players if p not in seats]
    if last not in seats:
        return None
    at = seats.index(last)
    return next((seats[(at + k) % len(seats)] for k in range(1, len(seats))
                 if seats[(at + k) % len(seats)] in players), None)


def read_evening(data: Any) -> list[tuple[Game, int]]:
    """The games of an evening read back (`{"games": [{"stake", "record", ...}]}`), each replayed,
    with its stake in cents. An evening that does not add up is an EveningError naming the game:
    a record that breaks a rule, or a stated pot, winner or net the hands do not give."""
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, list) or not 1 <= len(games) <= MOST_GAMES:
        raise EveningError("evening.shape", most=MOST_GAMES)
    read: list[tuple[Game, int]] = []
    moneys = []
    for number, entry in enumerate(games, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("record"), dict):
            raise EveningError("evening.no_record", game=number)
        stake = _stake(entry.get("stake", 0), number)
        try:
            game = replay(entry["record"])
        except (RecordError, RuleError) as err:
            raise EveningError("evening.record", game=number, why=err) from None
        money = game_money(game, stake, number)
        _check_stated(entry, money, game)
        read.append((game, stake))
        moneys.append(money)
    stated = data.get("net")
    if stated is not None:
        _check_net(stated, evening_net(moneys), None)
    return read


def _stake(value: Any, number: int) -> int:
    cents = round(value * 100) if isinstance(value, (int, float)) and not isinstance(
        value, bool) else -1
    if not 0 <= cents <= MOST_STAKE or abs(value * 100 - cents) > 1e-6:
        raise EveningError("evening.stake", game=number, stake=repr(value))
    return cents


def _check_stated(entry: Mapping[str, Any], money: GameMoney, game: Game) -> None:
    """A game's stated pot, winner and net must be what its hands give."""
    if "pot" in entry and entry["pot"] != money.pot:
        raise EveningError("evening.pot", game=money.number, stated=repr(entry["pot"]),
                           found=money.pot)
    if "winner" in entry and entry["winner"] != money.winner:
        raise EveningError("evening.winner", game=money.number, stated=repr(entry["winner"]),
                           found=money.winner or "-")
    if "net" in entry:
        _check_net(entry["net"], money.net, money.number)


def _check_net(stated: Any, found: Mapping[str, int], number: int | None) -> None:
    """Stated nets (euros by player) must be the found ones (cents), player for player."""
    where = {"game": number} if number is not None else {}
    code = "evening.net" if number is not None else "evening.total"
    if not isinstance(stated, dict):
        raise EveningError(code, player="-", stated=repr(stated), found=0, **where)
    for player in sorted(set(stated) | set(found), key=str):
        value = stated.get(player, 0)
        cents = found.get(player, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or abs(
                value * 100 - cents) > 0.5:
            raise EveningError(code, player=str(player), stated=repr(value), found=cents / 100,
                               **where)
