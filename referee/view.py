"""A read-only view of a list that only its owner changes (the game's history and results)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")


class ListView(Sequence[T]):
    """Reads a list that stays its owner's: index, slice (a copy), iterate; equal to a list or
    tuple of the same items."""

    __slots__ = ("_items",)

    def __init__(self, items: list[T]) -> None:
        self._items = items

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __reversed__(self) -> Iterator[T]:
        return reversed(self._items)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ListView):
            return self._items == other._items
        if isinstance(other, list):
            return self._items == other
        if isinstance(other, tuple):
            return len(other) == len(self._items) and all(
                a == b for a, b in zip(self._items, other))
        return NotImplemented

    __hash__: Any = None  # equal to lists, whose items change: unhashable like them

    def __repr__(self) -> str:
        return f"ListView({self._items!r})"
