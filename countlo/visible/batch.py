"""Press sets of many boards at once: the linear maths the adaptive strategy scores with.

Lights s are cleared by the press set x iff A x = s over GF(2) (A symmetric, A[k][j] = 1 iff
j in N(k)). One Gaussian elimination of A gives a particular-solution map M (x = M s when s is
solvable), the parity checks that say whether s is solvable (s . q = 0 for every quiet q), and
a basis of the quiet patterns (the null space of A), so every solution is M s xor span(quiet).
Boards here are numpy 0/1 matrices, one board a row, so hundreds are handled in one product.
See docs/MATH.md §8.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from countlo.board import Shape, iter_bits, press_masks
from countlo.countboard import CountBoard
from countlo.visible.engines.polynomial_chase import eliminate, elimination

MAX_COSET_BITS = 10


@dataclass(frozen=True)
class PressAlgebra:
    """A, the solution map M, solvability checks and quiet basis of one shape, as 0/1 matrices."""

    shape: CountBoard
    A: np.ndarray  # cells x cells, int32, symmetric press matrix
    M: np.ndarray  # cells x cells, int32: row j gives x_j = parity(M[j] . s) for solvable s
    checks: np.ndarray  # c x cells, int32: s is solvable iff every parity(check . s) is 0
    quiet: np.ndarray  # d x cells, uint8: basis of the quiet patterns
    coset: np.ndarray  # 2^d x cells, uint8: every element of span(quiet), or just 0 if d is large

    @property
    def invertible(self) -> bool:
        return bool(self.quiet.shape[0] == 0)


def bit_rows(ints: list[int], width: int) -> np.ndarray:
    """The 0/1 matrix whose row i holds the bits 0..width-1 of ints[i]."""
    out = np.zeros((len(ints), width), dtype=np.uint8)
    for i, x in enumerate(ints):
        for k in iter_bits(x):
            out[i, k] = 1
    return out


def row_ints(matrix: np.ndarray) -> list[int]:
    """The inverse of bit_rows: each 0/1 row as an int bitset."""
    weights = [1 << k for k in range(matrix.shape[1])]
    return [sum(w for w, v in zip(weights, row) if v) for row in matrix.tolist()]


@lru_cache(maxsize=16)
def algebra(shape: CountBoard) -> PressAlgebra:
    """The press algebra of `shape` as 0/1 matrices (countlo.visible.engines.polynomial_chase.elimination).

    The elimination runs on the rows of A (light i: the buttons that change it), so M = A^-1 and
    the checks are the left kernel also where A is not symmetric (Merlin's square, a directed
    graph, a drawn rule that is not symmetric; docs/MATH.md §30). On the classic grid A is
    symmetric and its press masks are its rows."""
    n = shape.cells
    masks = press_masks(shape)
    if isinstance(shape, Shape) and shape.rules.classic:
        el = elimination(shape)
    else:
        lines = [0] * n
        for j, m in enumerate(masks):
            for i in iter_bits(m):
                lines[i] |= 1 << j
        el = eliminate(lines)
    solution, checks, quiet = list(el.solution), list(el.checks), list(el.quiet)
    Q = bit_rows(quiet, n)
    if len(quiet) <= MAX_COSET_BITS:
        span = [0]
        for q in quiet:
            span += [x ^ q for x in span]
    else:
        span = [0]
    return PressAlgebra(
        shape,
        bit_rows(list(masks), n).astype(np.int32),
        bit_rows(solution, n).astype(np.int32),
        bit_rows(checks, n).astype(np.int32),
        Q,
        bit_rows(span, n),
    )


def _times(lights: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """lights @ matrix.T over the integers (float32 products: exact, sums stay below 2^24)."""
    product: np.ndarray = (lights.astype(np.float32) @ matrix.T.astype(np.float32)).astype(np.int32)
    return product


def solvable(alg: PressAlgebra, lights: np.ndarray) -> np.ndarray:
    """Boolean per board: True iff its lights can be cleared (orthogonal to every quiet pattern)."""
    if alg.checks.shape[0] == 0:
        return np.ones(lights.shape[0], dtype=bool)
    return np.asarray(~((_times(lights, alg.checks) & 1).any(axis=1)))


def fewest_press_sets(alg: PressAlgebra, lights: np.ndarray) -> np.ndarray:
    """0/1 matrix: for each solvable board, a press set clearing it with the fewest presses.

    x = M s is one solution; the others are x xor each element of span(quiet), so the fewest is
    the lightest of those 2^d candidates (only M s when A is invertible). Rows of unsolvable
    boards are meaningless.
    """
    x = (_times(lights, alg.M) & 1).astype(np.uint8)
    if alg.coset.shape[0] == 1:
        return x
    cand = x[:, None, :] ^ alg.coset[None, :, :]
    best = cand.sum(axis=2).argmin(axis=1)
    chosen: np.ndarray = cand[np.arange(x.shape[0]), best]
    return chosen


def neighbourhood_lit(alg: PressAlgebra, lights: np.ndarray) -> np.ndarray:
    """Integer matrix: entry (i, k) is the number of lit cells of N(k) on board i.

    A click on k then shows count + |N(k)| - 2 * that number.
    """
    return _times(lights, alg.A)
