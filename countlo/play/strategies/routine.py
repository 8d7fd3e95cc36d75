"""Fixed routines: click sequences whose counts determine every hidden start.

For a fixed click sequence the counts are an affine map of the start b with +-1 coefficients
(countlo.hidden.record.Record.equations, docs/MATH.md §2), so two starts b, b' give the same
counts iff M (b - b') = 0, and b - b' ranges over all of {-1, 0, 1}^n. A routine therefore
determines every board iff the only ternary vector in the kernel of its observation matrix is 0.
`ternary_kernel_size` counts those vectors exactly by a dynamic programme over the cells in
reading order whose state is the partial sums of the equations still open (each click's equation
spans at most 2C + 1 consecutive cells) and of the global starting-count equation.
See docs/MATH.md §16.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from countlo.board import Shape, iter_bits, press_masks

# 6x6, found by search (docs/MATH.md §16) and re-verified by tests/test_strategy.py.
ROUTINE_6X6 = (32, 10, 20, 15, 30, 14, 24, 27, 2, 18, 33, 16, 1, 22, 0, 29, 13, 19, 17, 5, 21, 31, 11, 23)
MAX_WIDTH = 7  # widest board side the programme is run on (states grow about 3^width)
MAX_CELLS = 64


@dataclass(frozen=True)
class Routine:
    """A click sequence; `verified` is True when it provably determines every board."""

    shape: Shape
    cells: tuple[int, ...]
    verified: bool
    note: str


def observation_rows(shape: Shape, clicks: tuple[int, ...] | list[int]) -> list[dict[int, int]]:
    """The +-1 coefficient rows (cell -> coefficient) of the counts' equations in the start b.

    Row 0 is the starting count (every cell +1); the row of a click on k has +1 on N(k) cells
    not yet flipped and -1 on those flipped an odd number of times before it.
    """
    masks = press_masks(shape)
    rows = [{j: 1 for j in range(shape.cells)}]
    flipped = 0
    for k in clicks:
        n = masks[k]
        rows.append({j: (-1 if flipped >> j & 1 else 1) for j in iter_bits(n)})
        flipped ^= n
    return rows


def ternary_kernel_size(shape: Shape, clicks: tuple[int, ...] | list[int]) -> int:
    """Number of x in {-1,0,1}^n with M x = 0 for the routine's observation matrix M (1 = only 0)."""
    n = shape.cells
    rows = observation_rows(shape, clicks)
    glob, local = rows[0], rows[1:]
    first = [min(r) for r in local]
    last = [max(r) for r in local]
    starting: list[list[int]] = [[] for _ in range(n)]
    for e, f in enumerate(first):
        starting[f].append(e)
    remaining = [[0] * n for _ in local]  # support cells after cell i, per equation
    for e, r in enumerate(local):
        for i in range(n):
            remaining[e][i] = sum(1 for j in r if j > i)
    active: list[int] = []  # equation ids whose partial sums the state holds, in this order
    states: dict[tuple[int, ...], int] = {(0,): 1}  # (global sum, *partial sums of active) -> number of ways
    for i in range(n):
        active = active + starting[i]
        width = len(active)
        states = {s + (0,) * (width + 1 - len(s)): w for s, w in states.items()}
        coefs = [local[e].get(i, 0) for e in active]
        keep = [last[e] != i for e in active]
        caps = [remaining[e][i] for e in active]
        gcap = n - 1 - i
        new: dict[tuple[int, ...], int] = {}
        for s, w in states.items():
            for v in (-1, 0, 1):
                g = s[0] + glob[i] * v
                if g > gcap or -g > gcap:
                    continue
                out = [g]
                for t in range(width):
                    x = s[t + 1] + coefs[t] * v
                    if keep[t]:
                        if x > caps[t] or -x > caps[t]:
                            break
                        out.append(x)
                    elif x:
                        break
                else:
                    key = tuple(out)
                    new[key] = new.get(key, 0) + w
        active = [e for e, k in zip(active, keep) if k]
        states = new
        if not states:
            return 0
    return sum(w for s, w in states.items() if not any(s))


MAX_SPAN = 2 * MAX_WIDTH + 2  # widest click (last cell - first cell) the programme takes on
BRUTE_CELLS = 16  # boards whose clicks reach further are checked by listing every start


def checkable(shape: Shape) -> bool:
    """True if `determines` can run the programme: every click's cells lie within MAX_SPAN
    consecutive cells in reading order (on the narrower orientation). Under the classic rule
    that is 2C + 1; wrapped or far-reaching rules (torus, knight) may exceed it."""
    if shape.cols > shape.rows and shape.rules.transposable:
        shape = shape.transposed()
    return max(m.bit_length() - (m & -m).bit_length() for m in press_masks(shape)) <= MAX_SPAN


def determines(shape: Shape, clicks: tuple[int, ...] | list[int]) -> bool:
    """True if the counts of this click sequence single out every hidden start."""
    if not checkable(shape):
        if shape.cells > BRUTE_CELLS:
            raise ValueError(f"{shape}: clicks reach too far for the kernel check")
        return brute_determines(shape, clicks)
    if shape.cols > shape.rows and shape.rules.transposable:  # the narrower side
        t = shape.transposed()
        clicks = [(k % shape.cols) * shape.rows + k // shape.cols for k in clicks]
        shape = t
    return ternary_kernel_size(shape, clicks) == 1


def brute_determines(shape: Shape, clicks: tuple[int, ...] | list[int]) -> bool:
    """The same question by listing every start's counts (small boards only)."""
    seen = set()
    masks = press_masks(shape)
    for b in range(1 << shape.cells):
        board, counts = b, []
        for k in clicks:
            board ^= masks[k]
            counts.append(board.bit_count())
        key = (b.bit_count(), tuple(counts))
        if key in seen:
            return False
        seen.add(key)
    return True


def _search(shape: Shape) -> Routine:
    """Shortest determining reading-order prefix, then greedily drop cells that are not needed."""
    order = list(range(shape.cells))
    if not checkable(shape) and shape.cells > BRUTE_CELLS:
        return Routine(shape, tuple(order), False,
                       f"no fixed routine for {shape} under these rules: their clicks reach too far "
                       "for the kernel check; reading order, then informative clicks")
    if not determines(shape, order):
        restore = [k for c in order for k in (c, c)]
        if determines(shape, restore):
            return Routine(shape, tuple(restore), True,
                           f"no single pass determines every {shape} board; click, read, click back")
        return Routine(shape, tuple(order), False,
                       f"no fixed routine found that determines every {shape} board; "
                       "reading order, then informative clicks")
    lo, hi = 0, len(order)  # determines(order[:hi]) holds
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if determines(shape, order[:mid]):
            hi = mid
        else:
            lo = mid
    cells = order[:hi]
    for k in list(reversed(cells)):
        trial = [c for c in cells if c != k]
        if determines(shape, trial):
            cells = trial
    return Routine(shape, tuple(cells), True, f"{len(cells)}-click routine found by greedy search")


@lru_cache(maxsize=32)
def routine(shape: Shape) -> Routine:
    """A fixed routine for `shape`: the verified 24 clicks on 6x6, a greedy search on other boards
    up to MAX_WIDTH cells across, else reading order (unverified, and the note says so)."""
    if shape == Shape(6, 6):
        return Routine(shape, ROUTINE_6X6, True,
                       "the 24-click routine of docs/MATH.md §16, verified by test")
    if min(shape.rows, shape.cols) <= MAX_WIDTH and shape.cells <= MAX_CELLS:
        return _search(shape)
    return Routine(shape, tuple(range(shape.cells)), False,
                   f"{shape} is too large to verify a routine; reading order, then informative clicks")

