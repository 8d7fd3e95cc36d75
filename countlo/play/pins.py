"""Press-set cells that the counts' parities settle long before the board is known.

A click on j shows a count whose parity is the GF(2) form A_j . s_0 of the hidden start (the
cells flipped so far are known). When A is invertible the press set clearing the lights now is
X = M s_now with M = A^-1, and M_t = sum_j (M^2)_tj A_j, so whether t is in X is known for certain
once every cell of the support {j : (M^2)_tj = 1} has been clicked, in any order and whatever the
integer counts leave open (docs/MATH.md §19).

For most cells the support contains the cell itself, so it is pinned only after being clicked.
The `targets` are the cells outside their own support: completing a support makes a later click
on its target free half of the time (t in X) and avoidable the other half. `bonus` is the score
term that steers probes toward completing supports.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from countlo.countboard import CountBoard
from countlo.visible.batch import algebra


@dataclass(frozen=True)
class Pins:
    """The supports of one invertible shape: targets[i] is pinned once supports[i] is clicked."""

    shape: CountBoard
    supports: tuple[frozenset[int], ...]  # per cell t: the cells whose counts pin X_t
    targets: tuple[int, ...]  # cells t not in their own support

    def pinned(self, clicked: Iterable[int]) -> list[int]:
        """Cells whose membership of the press set now is known from the parities alone."""
        seen = set(clicked)
        return [t for t, sup in enumerate(self.supports) if sup <= seen]

    def bonus(self, clicked: Iterable[int]) -> np.ndarray:
        """Per cell j: sum over unclicked targets t still unpinned of 1/|what remains of T_t|
        for every j in that remainder (the clicks that bring t closest to being pinned)."""
        import numpy as np

        seen = set(clicked)
        out = np.zeros(self.shape.cells)
        for t in self.targets:
            if t in seen:
                continue
            rest = self.supports[t] - seen
            if rest:
                share = 1.0 / len(rest)
                for j in rest:
                    out[j] += share
        return out


@lru_cache(maxsize=16)
def pins(shape: CountBoard) -> Pins | None:
    """The pin supports of `shape`, None when A is singular (the press set is then not linear)."""
    import numpy as np

    alg = algebra(shape)
    if not alg.invertible:
        return None
    m = alg.M.astype(np.int64)
    m2 = (m @ m.T) & 1  # M M^T: the counts reveal A^T s, and X = M s = M M^T (A^T s) (M^2 where A is symmetric)
    supports = tuple(frozenset(int(j) for j in np.flatnonzero(m2[t])) for t in range(shape.cells))
    targets = tuple(t for t in range(shape.cells) if t not in supports[t] and supports[t])
    return Pins(shape, supports, targets)
