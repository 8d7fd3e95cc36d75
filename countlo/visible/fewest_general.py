"""The fewest presses and the most clicks under any rules: topologies, click rules, k states,
graphs, any start and target.

Two states: one solution and the quiet basis from countlo.visible.solutions, as bitsets, go to the
same coset search as the classic game (countlo.visible.algebra.coset_walsh: exact, or when stopped the best
found and a proven lower bound, docs/MATH.md §6). More states: the Z_k search of
countlo.visible.algebra.coset_radix, presses counted with multiplicity (docs/MATH.md §24).
The most clicks: the covering radius of the quiet patterns (docs/MATH.md §17), by the classic
search for two states and by listing every press vector for more (docs/MATH.md §24).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from countlo.board import Vector, bits, values
from countlo.errors import BadSizeError
from countlo.graph import Board, Graph
from countlo.visible import solutions
from countlo.visible.algebra import coset_radix, covering_radius
from countlo.visible.algebra.coset_walsh import Progress, lightest
from countlo.visible.fewest import descent_min, involutions

TILE_SIDES = (5, 7)  # two states: the tilings of the classic lower bound
ZK_TILE_SIDES = (2, 3, 4)  # more states: smaller tiles (the projected groups grow as k^cells)
GRAPH_BLOCKS = (16, 24)  # graphs: runs of consecutive nodes as regions (two states)
ZK_GRAPH_BLOCKS = (4, 8)  # ... and for more states
TILE_CELLS = 1 << 14  # boards up to this many cells get the region bound
HELD = 1 << 24  # nullity x cells the exact searches hold (as Python lists, then arrays)
MOST_BRUTE = 1 << 20  # --most with k > 2 lists every press vector: at most this many


@dataclass(frozen=True)
class Fewest:
    """Presses taking the start to the target (cell j pressed presses[j] times) and a proven
    lower bound on every solution's press count (with multiplicity)."""

    presses: Vector
    lower_bound: int
    stopped: bool = False

    @property
    def count(self) -> int:
        return sum(self.presses)

    @property
    def exact(self) -> bool:
        return self.count <= self.lower_bound


def fewest(board: Board, start: Sequence[int], target: Sequence[int] | None = None, *,
           time_limit: float | None = None, progress: Progress | None = None) -> Fewest | None:
    """The fewest presses taking `start` to `target` (all dark when None), None if unsolvable;
    proven unless `time_limit` seconds pass or the user interrupts first."""
    sol = solutions.solve(board, start, target)
    if sol.presses is None:
        return None
    k, n = sol.states, board.cells
    need = count_bound(board, start, target)
    if sol.nullity * n > HELD:
        return _descent(board, sol.presses, need, time_limit)
    gens = solutions.quiet(board)
    if k == 2:
        r = lightest(bits(sol.presses), [bits(g) for g, _ in gens], n, time_limit=time_limit,
                     regions=[[bits(c) for c in t] for t in tilings(board, TILE_SIDES,
                                                                   GRAPH_BLOCKS)],
                     progress=progress, symmetries=mirrors(board))
        bound = r.lower_bound if not r.stopped else min(r.weight, max(r.lower_bound, need))
        return Fewest(values(r.member, n), bound, r.stopped)
    z = coset_radix.lightest(sol.presses, gens, k, time_limit=time_limit, progress=progress,
                       regions=tilings(board, ZK_TILE_SIDES, ZK_GRAPH_BLOCKS))
    bound = z.lower_bound if not z.stopped else min(z.weight, max(z.lower_bound, need))
    return Fewest(z.member, bound, z.stopped)


def _descent(board: Board, x: Vector, need: int, time_limit: float | None) -> Fewest:
    """Too many quiet patterns to hold for the exact searches: a descent over as many of them as
    fit (an upper bound) and the counting bound below it; never called exact unless they meet."""
    n, k = board.cells, solutions.states(board)
    gens = solutions.quiet(board, max(8, HELD // n))
    if k == 2:
        found = values(descent_min(bits(x), [bits(g) for g, _ in gens], 0), n)
    else:
        until = time.monotonic() + (coset_radix.BOUND_TIME if time_limit is None else time_limit)
        found = coset_radix.descend(x, gens, k, until)
    return Fewest(found, min(sum(found), need), True)


def count_bound(board: Board, start: Sequence[int], target: Sequence[int] | None) -> int:
    """Cell i must change by b_i = (t_i - s_i) mod k, and the presses around it add up, as whole
    numbers, to sum_j a_ij x_j = b_i (mod k), so to at least b_i. Summed over the cells:
    sum_i b_i <= sum_j (column sum of a_j) x_j <= (largest column sum) x (presses), so the
    presses are at least sum_i b_i over the largest column sum (docs/MATH.md §24)."""
    k = solutions.states(board)
    t = target or [0] * board.cells
    total = sum((t[i] - start[i]) % k for i in range(board.cells))
    widest = max(sum(col.values()) for col in solutions.columns(board))
    if not widest:  # no click changes anything: solvable only when nothing needs to change
        return 0
    return -(-total // widest)


def tilings(board: Board, sides: Sequence[int], blocks: Sequence[int]) -> list[list[list[int]]]:
    """Partitions of the cells into small regions for the lower bound: side x side squares on a
    grid (any topology: the bound only needs the regions disjoint), runs of nodes on a graph."""
    n = board.cells
    if n > TILE_CELLS:
        return []
    if isinstance(board, Graph):
        return [[list(range(a, min(a + b, n))) for a in range(0, n, b)] for b in blocks if b < n]
    out = []
    for side in sides:
        if side >= max(board.rows, board.cols):
            continue
        tiling = []
        for r0 in range(0, board.rows, side):
            for c0 in range(0, board.cols, side):
                tiling.append([r * board.cols + c for r in range(r0, min(r0 + side, board.rows))
                               for c in range(c0, min(c0 + side, board.cols))])
        out.append(tiling)
    return out


def mirrors(board: Board) -> list[Callable[[int], int]]:
    """Candidate involutions of a grid's cells; the search keeps only one that maps the coset
    onto itself (it checks), so they need not commute with the rule."""
    if isinstance(board, Graph):
        return []
    return involutions(board)


# --- the most clicks ------------------------------------------------------------------------


@dataclass(frozen=True)
class Hardest:
    """lower <= the most presses any solvable start needs <= upper; `presses` (None if no start
    was proven) is a fewest-press solution of a start needing `lower`."""

    presses: Vector | None
    lower: int
    upper: int
    method: str

    @property
    def exact(self) -> bool:
        return self.lower >= self.upper


def hardest(board: Board, *, time_limit: float = 10.0) -> Hardest:
    """The covering radius of the quiet patterns and a coset leader attaining it: the classic
    search (exact on small boards, bounds beyond) for two states; every press vector listed for
    more (boards with at most MOST_BRUTE of them)."""
    k, n = solutions.states(board), board.cells
    if k == 2:
        h = covering_radius.hardest([bits(g) for g, _ in solutions.quiet(board)], n, time_limit=time_limit)
        return Hardest(None if h.presses is None else values(h.presses, n), h.need, h.upper,
                       h.method)
    if k ** n > MOST_BRUTE:
        raise BadSizeError(f"--most with {k} states lists every press vector: at most "
                           f"{MOST_BRUTE} of them ({k}^{n} here)")
    return _brute(board, k, n)


def _brute(board: Board, k: int, n: int) -> Hardest:
    """Every press vector x once: its start A x keyed as a number, the least press count per key;
    the largest of those minima is the answer (docs/MATH.md §24)."""
    import numpy as np

    cols = solutions.columns(board)
    a = np.zeros((n, n), dtype=np.int64)  # a[j] = what a click on j adds
    for j, col in enumerate(cols):
        for i, t in col.items():
            a[j, i] = t % k
    powers = np.array([k ** i for i in range(n)], dtype=np.int64)
    least = np.full(k ** n, n * k, dtype=np.int64)
    arg = np.zeros(k ** n, dtype=np.int64)
    step = 1 << 14
    for lo in range(0, k ** n, step):
        idx = np.arange(lo, min(lo + step, k ** n), dtype=np.int64)
        x = (idx[:, None] // powers[None, :]) % k  # press vector of index idx
        key = ((x @ a) % k) @ powers
        w = x.sum(axis=1)
        order = np.lexsort((w, key))  # per key, the lightest first
        key, w, idx = key[order], w[order], idx[order]
        first = np.ones(len(key), dtype=bool)
        first[1:] = key[1:] != key[:-1]
        key, w, idx = key[first], w[first], idx[first]
        better = w < least[key]
        least[key[better]] = w[better]
        arg[key[better]] = idx[better]
    reached = least < n * k
    worst = int(np.max(np.where(reached, least, -1)))
    i = int(np.argmax(np.where(reached, least, -1)))
    presses = [int(arg[i]) // k ** j % k for j in range(n)]
    return Hardest(presses, worst, worst, f"all {k}^{n} press vectors")
