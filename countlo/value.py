"""`Value`: the base of the small immutable records on the path of `countlo solve`.

A subclass names its fields in order in `FIELDS` (also its `__slots__`), annotates them, and
sets them in `__init__` through `object.__setattr__`; `Value` gives it what
`@dataclass(frozen=True, order=True)` would: equality, hashing and ordering by the fields in
order, a `Name(field=value, ...)` repr, no assignment after construction, and pickling. It
exists because importing `dataclasses` (which imports `inspect`) and generating each class's
methods costs more CPU than the whole rest of a small solve; bench/bench_startup.py measures the
start-up this keeps within 1.5x of a bare interpreter. Modules off that path use dataclasses as
usual.
"""

from __future__ import annotations


class Value:
    """An immutable record compared, hashed, ordered and shown by its FIELDS, in that order."""

    __slots__ = ()
    FIELDS: tuple[str, ...] = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def _pair(self, other: object) -> tuple[tuple[object, ...], tuple[object, ...]] | None:
        """Both field tuples when `other` has this exact type (else comparisons defer)."""
        if type(other) is not type(self) or not isinstance(other, Value):
            return None
        return self._fields(), other._fields()

    def __eq__(self, other: object) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] == pair[1]

    def __hash__(self) -> int:
        return hash(self._fields())

    def __lt__(self, other: object) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] < pair[1]

    def __le__(self, other: object) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] <= pair[1]

    def __gt__(self, other: object) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] > pair[1]

    def __ge__(self, other: object) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] >= pair[1]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to {name!r}: {type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete {name!r}: {type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type[Value], tuple[object, ...]]:
        return type(self), self._fields()
