"""A small least-recently-used map: the one cache type for per-record results (posteriors,
knowledge, samplers, board lists) that undo and re-advice ask for again."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most `size` entries; a lookup or a store makes the key the most recent."""

    def __init__(self, size: int):
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value stored for `key`, or None."""
        value = self._data.get(key)
        if value is not None:
            self._data.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        """Store `value` for `key` (dropping the least recent entry beyond `size`); returns it."""
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)
        return value

    def trim(self, weight: Callable[[V], int], limit: int) -> list[V]:
        """Drop the least recent entries while their total weight exceeds `limit` (keeping the
        most recent one); returns the dropped values."""
        dropped: list[V] = []
        total = sum(weight(v) for v in self._data.values())
        while len(self._data) > 1 and total > limit:
            _, value = self._data.popitem(last=False)
            total -= weight(value)
            dropped.append(value)
        return dropped

    def values(self) -> list[V]:
        """The values, least recent first."""
        return list(self._data.values())

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)
