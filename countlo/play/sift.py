"""The one click whose count best tells suspected mistakes apart.

Each suspect (countlo.hidden.explain) leaves its own corrected record, and so its own law of the
count a click on each cell would show (the exact posterior's next-count laws). Mixed by the
suspects' chances, the click chosen is the one whose count says the most about which suspect is
true: the mutual information I(suspect; count) = H(count) - sum_h P(h) H(count | h)
(docs/MATH.md §26). Its outcomes say which counts point at which suspects.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from countlo.hidden.explain import Suspect
from countlo.hidden.record import Record

MIN_BITS = 0.3  # a click telling less than this about the suspects is not offered


@dataclass(frozen=True)
class Telling:
    """Click `cell`: each count in `outcomes` points at the suspects listed (indices into the
    suspects); `bits` is what the count tells about them."""

    cell: int
    outcomes: tuple[tuple[int, tuple[int, ...]], ...]
    bits: float


def _entropy(weights: Sequence[float]) -> float:
    total = sum(weights)
    return -sum(w / total * math.log2(w / total) for w in weights if w > 0) if total else 0.0


def tell_apart(suspects: Sequence[Suspect], records: Sequence[Record],
               laws: Callable[[Record], list[dict[int, int]]], cells: int) -> Telling | None:
    """The click that tells `suspects` (with their corrected `records`) apart best, or None
    when no click tells at least MIN_BITS (`laws(record)`: per cell, count -> boards)."""
    if len(suspects) < 2:
        return None
    per = [laws(r) for r in records]
    best: Telling | None = None
    for cell in range(cells):
        mixed: dict[int, float] = {}
        given = 0.0
        for s, law in zip(suspects, per):
            dist = law[cell]
            total = sum(dist.values())
            if not total:
                continue
            for k, n in dist.items():
                mixed[k] = mixed.get(k, 0.0) + s.chance * n / total
            given += s.chance * _entropy(list(dist.values()))
        bits = _entropy(list(mixed.values())) - given
        if bits >= MIN_BITS and (best is None or bits > best.bits + 1e-9):
            outcomes = tuple(sorted(
                (k, tuple(i for i, law in enumerate(per) if law[cell].get(k, 0) > 0)) for k in mixed))
            best = Telling(cell, outcomes, bits)
    return best
