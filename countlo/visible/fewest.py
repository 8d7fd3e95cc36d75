"""The fewest presses taking a start to a target, on any board under any rules.

The solutions are one solution plus the quiet patterns (docs/MATH.md §3); the fewest presses are
the lightest member of that coset. Two states: the Walsh coset search
(countlo.visible.algebra.coset_walsh: exact, or when stopped the best found and a proven lower
bound, docs/MATH.md §6). More states: the Z_k search of countlo.visible.algebra.coset_radix,
presses counted with multiplicity (docs/MATH.md §24). The classic rules keep the whole search on
bitsets from the polynomial chase, so boards of millions of cells never become Python lists
until the answer is given.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from countlo.board import Shape, Start, Vector, as_bits, as_values, bits, values
from countlo.graph import Board, button_count
from countlo.visible import solutions
from countlo.visible.algebra.coset_descent import MEMORY_BITS, descent_min
from countlo.visible.engines import polynomial_chase

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.visible.algebra.coset_walsh import Progress

EXACT_NULLITY = 28  # the Walsh search proves these in seconds (2^28 members, ~8 s CPU at most)
SLOW_SYMMETRY_CELLS = 1 << 12  # transposes cell by cell only up to this size
TILE_SIDES = (5, 7)  # two states: the square tilings of the lower bound
ZK_TILE_SIDES = (2, 3, 4)  # more states: smaller tiles (the projected groups grow as k^cells)
GRAPH_BLOCKS = (16, 24)  # graphs: runs of consecutive nodes as regions (two states)
ZK_GRAPH_BLOCKS = (4, 8)  # ... and for more states
TILE_CELLS = 1 << 14  # boards up to this many cells get the region bound
WALSH_BYTES = 1 << 27  # classic rules: nullity x cells the exact search may hold as bytes
HELD = 1 << 24  # other rules: nullity x cells the exact searches hold (as lists, then arrays)

@dataclass(frozen=True)
class Fewest:
    """Presses taking the start to the target (cell j pressed presses[j] times) and a proven
    lower bound on every solution's press count (with multiplicity)."""

    presses: Vector
    lower_bound: int
    stopped: bool = False  # the time limit or an interrupt ended the search

    @property
    def count(self) -> int:
        return sum(self.presses)

    @property
    def exact(self) -> bool:
        return self.count <= self.lower_bound

    @property
    def bits(self) -> int:
        """The presses as a bitset (two states)."""
        return bits(self.presses)


def fewest(board: Board, start: Start, target: Start | None = None, *,
           time_limit: float | None = None, progress: Progress | None = None) -> Fewest | None:
    """The fewest presses taking `start` to `target` (all dark when None), None if unsolvable;
    proven unless `time_limit` CPU seconds pass or the user interrupts first."""
    n = button_count(board)  # the presses (a press map's buttons; the cells otherwise)
    if isinstance(board, Shape) and board.rules.classic:
        goal = as_bits(start) ^ (0 if target is None else as_bits(target))
        found = _classic(board, goal, time_limit, progress)
        if found is None:
            return None
        member, bound, stopped = found
        return Fewest(values(member, n), bound, stopped)
    first = as_values(start, board.cells)
    aim = None if target is None else as_values(target, board.cells)
    sol = solutions.solve(board, first, aim)
    if sol.presses is None:
        return None
    k = sol.states
    need = count_bound(board, first, aim)
    if sol.nullity * n > HELD:
        return _descent(board, sol.presses, need, time_limit)
    gens = solutions.quiet(board)
    if k == 2:
        from countlo.visible.algebra.coset_walsh import lightest  # noqa: PLC0415 (numpy loads only when used)

        r = lightest(bits(sol.presses), [bits(g) for g, _ in gens], n, time_limit=time_limit,
                     regions=[[bits(c) for c in t] for t in tilings(board, TILE_SIDES, GRAPH_BLOCKS)],
                     progress=progress, symmetries=mirrors(board))
        bound = r.lower_bound if not r.stopped else min(r.weight, max(r.lower_bound, need))
        return Fewest(values(r.member, n), bound, r.stopped)
    from countlo.visible.algebra import coset_radix  # noqa: PLC0415 (numpy loads only when used)

    z = coset_radix.lightest(sol.presses, gens, k, time_limit=time_limit, progress=progress,
                             regions=tilings(board, ZK_TILE_SIDES, ZK_GRAPH_BLOCKS))
    bound = z.lower_bound if not z.stopped else min(z.weight, max(z.lower_bound, need))
    return Fewest(z.member, bound, z.stopped)


def fewest_bits(shape: Shape, board: int, exact_nullity: int = EXACT_NULLITY,
                seed: int = 0) -> tuple[int, bool] | None:
    """Classic rules, as bitsets: (a press set of minimum size, exact) clearing `board`, or None
    if unsolvable. Nullity <= exact_nullity: the proven minimum. Beyond: seeded local search over
    the coset (as many quiet patterns as fit in MEMORY_BITS), exact=False: an upper bound."""
    sol = polynomial_chase.solve(shape, board)
    if sol.presses is None:
        return None
    assert isinstance(sol.presses, int)
    if sol.nullity == 0:
        return sol.presses, True
    if sol.nullity <= exact_nullity:
        found = _classic(shape, board, None, None)
        assert found is not None and not found[2]
        return found[0], True
    keep = max(8, MEMORY_BITS // shape.cells)  # big kernels of big boards: search a sub-space
    return descent_min(sol.presses, polynomial_chase.quiet_patterns(shape, keep), seed), False


def _classic(shape: Shape, board: int, time_limit: float | None,
             progress: Progress | None) -> tuple[int, int, bool] | None:
    """(member, lower bound, stopped) of the lightest solution on bitsets, None if unsolvable."""
    from countlo.visible.algebra.coset_walsh import lightest  # noqa: PLC0415 (numpy loads only when used)

    sol = polynomial_chase.solve(shape, board)
    if sol.presses is None:
        return None
    assert isinstance(sol.presses, int)
    if sol.nullity == 0:
        return sol.presses, sol.presses.bit_count(), False
    if sol.nullity * shape.cells > WALSH_BYTES:
        # the search keeps a byte per cell and quiet pattern: past that, the bounded local
        # search over a sub-space of the quiet patterns, with nothing proven below it
        keep = max(8, MEMORY_BITS // shape.cells)
        found = descent_min(sol.presses, polynomial_chase.quiet_patterns(shape, keep), 0)
        return found, min(found.bit_count(), classic_bound(shape, board)), True
    small = shape.cells <= TILE_CELLS
    regions = [tiles(shape, side) for side in TILE_SIDES
               if small and side < max(shape.rows, shape.cols)]
    r = lightest(sol.presses, polynomial_chase.quiet_patterns(shape), shape.cells,
                 time_limit=time_limit, regions=regions, progress=progress,
                 symmetries=involutions(shape))
    if not r.stopped:
        return r.member, r.lower_bound, False
    return r.member, min(r.weight, max(r.lower_bound, classic_bound(shape, board))), True


def _descent(board: Board, x: Vector, need: int, time_limit: float | None) -> Fewest:
    """Too many quiet patterns to hold for the exact searches: a descent over as many of them as
    fit (an upper bound) and the counting bound below it; never called exact unless they meet."""
    n, k = button_count(board), solutions.states(board)
    gens = solutions.quiet(board, max(8, HELD // n))
    if k == 2:
        found = values(descent_min(bits(x), [bits(g) for g, _ in gens], 0), n)
    else:
        from countlo.visible.algebra import coset_radix  # noqa: PLC0415 (numpy loads only when used)

        until = time.process_time() + (coset_radix.BOUND_TIME if time_limit is None else time_limit)
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


def classic_bound(shape: Shape, board: int) -> int:
    """count_bound under the classic rules on a bitset: a press covers at most 5 cells (fewer
    on thin boards), so at least lit / 5 presses (docs/MATH.md §24)."""
    widest = 1 + min(shape.rows - 1, 2) + min(shape.cols - 1, 2)
    return -(-board.bit_count() // widest)


def tilings(board: Board, sides: Sequence[int], blocks: Sequence[int]) -> list[list[list[int]]]:
    """Partitions of the cells into small regions for the lower bound: side x side squares on a
    grid (any topology: the bound only needs the regions disjoint), runs of nodes on a graph, of
    buttons on a press map."""
    n = button_count(board)
    if n > TILE_CELLS:
        return []
    if not isinstance(board, Shape):
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


def tiles(shape: Shape, side: int) -> list[int]:
    """The board cut into side x side squares (smaller at the right and bottom edges), as
    bitsets: the classic search's regions."""
    out = []
    for r0 in range(0, shape.rows, side):
        strip = sum(shape.row_mask << (r * shape.cols)
                    for r in range(r0, min(r0 + side, shape.rows)))
        for c0 in range(0, shape.cols, side):
            cols = ((1 << min(side, shape.cols - c0)) - 1) << c0
            rows_mask = sum(cols << (r * shape.cols) for r in range(shape.rows))
            out.append(strip & rows_mask)
    return out


def mirrors(board: Board) -> list[Callable[[int], int]]:
    """Candidate involutions of a grid's cells; the search keeps only one that maps the coset
    onto itself (it checks), so they need not commute with the rule."""
    if not isinstance(board, Shape):
        return []
    return involutions(board)


def involutions(shape: Shape) -> list[Callable[[int], int]]:
    """The board's symmetries of order 2 as bitset maps (row operations where they can be)."""
    cols = shape.cols

    def left_right(v: int) -> int:
        return shape.from_rows([int(f"{r:0{cols}b}"[::-1], 2) for r in shape.to_rows(v)])

    def top_bottom(v: int) -> int:
        return shape.from_rows(shape.to_rows(v)[::-1])

    def half_turn(v: int) -> int:
        return left_right(top_bottom(v))

    out: list[Callable[[int], int]] = [left_right, top_bottom, half_turn]
    if shape.is_square and shape.cells <= SLOW_SYMMETRY_CELLS:
        out += [s.apply for s in shape.symmetries() if s.name in ("transpose", "anti-transpose")]
    return out
