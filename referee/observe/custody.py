"""Each face-down card's chain of custody, from the deal to the reveal.

A link says what happened to a seat's card and whether the camera saw it: dealt and lying in
view, swapped or drawn as seen, covered together with another card where the game would have
allowed their exchange, or lost from sight (the frames stopped, a person resumed a held hand).
A verdict rests on the chains; `watch --json` prints them beside each settle and each hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Link:
    """One step of a card's custody: when, what (a code), with whom, and whether it was seen."""

    at: float
    what: str
    """`dealt`, `swap`, `draw`, `covered` (with another card; their exchange was allowed),
    `gap` (no pictures), `resumed` (a person let a held hand go on)."""
    other: str | None = None
    seen: bool = True

    def __str__(self) -> str:
        with_whom = f" {self.other}" if self.other else ""
        return f"{self.what}{with_whom} {self.at:.2f}{'' if self.seen else ' unseen'}"


@dataclass(frozen=True, slots=True)
class Custody:
    """Per living seat, the links of its card since the deal."""

    chains: Mapping[str, tuple[Link, ...]] = field(default_factory=dict)

    @classmethod
    def dealt(cls, seats: Iterable[str], at: float) -> Custody:
        """Every seat's card dealt and lying in view."""
        return cls({seat: (Link(at, "dealt"),) for seat in seats})

    def add(self, seats: Iterable[str], link: Link, others: Mapping[str, str] = {}) -> Custody:
        """The same link added to these seats (`others`: per seat, the other card involved)."""
        chains = dict(self.chains)
        for seat in seats:
            other = others.get(seat, link.other)
            chains[seat] = (*chains.get(seat, ()), Link(link.at, link.what, other, link.seen))
        return Custody(chains)

    def pair(self, a: str, b: str, at: float, what: str, seen: bool = True) -> Custody:
        """A link between two seats' cards (a swap, or cards covered together)."""
        return self.add((a, b), Link(at, what, None, seen), {a: b, b: a})

    @property
    def unbroken(self) -> bool:
        """Whether every card was in view or seen moving from the deal on."""
        return all(link.seen for chain in self.chains.values() for link in chain)

    def to_json(self) -> dict[str, list[str]]:
        """`{"Anna": ["dealt 2.50", "swap Carla 8.00"], ...}`."""
        return {seat: [str(link) for link in chain] for seat, chain in self.chains.items()}
