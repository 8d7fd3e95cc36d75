"""Every solution of a start, and the fewest presses among them.

The solutions are one solution xor the span of the quiet patterns (2^nullity of them); a Gray
code visits them with one xor per step. Finding the lightest is a minimum-weight coset problem,
solved by countlo.visible.algebra.coset_walsh (docs/MATH.md §6).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from countlo.board import Shape
from countlo.value import Value
from countlo.visible.engines.polynomial_chase import quiet_patterns, solve

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)

if TYPE_CHECKING:
    from countlo.visible.algebra.coset_walsh import Progress

EXACT_NULLITY = 28  # the Walsh search proves these in seconds (2^28 members, ~8 s CPU at most)
SLOW_SYMMETRY_CELLS = 1 << 12  # transposes cell by cell only up to this size
TILES = (5, 7)  # square tilings whose projected cosets give the lower bound when stopped
TILE_CELLS = 1 << 14  # boards up to this many cells get the tiles bound (one mask per tile)
WALSH_BYTES = 1 << 27  # nullity x cells the exact search may hold as bytes
WORK = 1 << 28  # word operations the local search may spend beyond that
MEMORY_BITS = 1 << 30  # bits of quiet patterns (and pairs of them) the local search may hold


def all_solutions(shape: Shape, board: int, limit: int | None = None) -> Iterator[int]:
    """Every press set clearing `board` (none if unsolvable), at most `limit` of them.

    Gray code over the quiet basis: step i flips basis[lowest set bit of i].
    """
    sol = solve(shape, board)
    if sol.presses is None:
        return
    total = 1 << sol.nullity
    if limit is not None:
        total = min(total, limit)
    basis = quiet_patterns(shape, (total - 1).bit_length())  # only the ones the walk will use
    x = sol.presses
    assert isinstance(x, int)
    for i in range(total):
        if i:
            x ^= basis[(i & -i).bit_length() - 1]
        yield x


def solution_count(shape: Shape, board: int) -> int:
    """Number of press sets clearing `board`: 2^nullity if solvable, else 0."""
    sol = solve(shape, board)
    return 1 << sol.nullity if sol.solvable else 0


class Fewest(Value):
    """A press set clearing the start and a proven lower bound on every such set's size."""

    FIELDS = ("presses", "lower_bound", "stopped")
    __slots__ = FIELDS
    presses: int
    lower_bound: int
    stopped: bool  # the time limit or an interrupt ended the search

    def __init__(self, presses: int, lower_bound: int, stopped: bool = False) -> None:
        object.__setattr__(self, "presses", presses)
        object.__setattr__(self, "lower_bound", lower_bound)
        object.__setattr__(self, "stopped", stopped)

    @property
    def count(self) -> int:
        return self.presses.bit_count()

    @property
    def exact(self) -> bool:
        return self.count <= self.lower_bound


def fewest(
    shape: Shape,
    board: int,
    *,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Fewest | None:
    """The fewest presses clearing `board` (None if unsolvable), proven unless `time_limit`
    seconds pass or the user interrupts first; then the best found and a lower bound."""
    from countlo.visible.algebra.coset_walsh import lightest  # noqa: PLC0415 (numpy loads only when used)

    sol = solve(shape, board)
    if not sol.solvable:
        return None
    assert isinstance(sol.presses, int)
    if sol.nullity == 0:
        return Fewest(sol.presses, sol.presses.bit_count())
    if sol.nullity * shape.cells > WALSH_BYTES:
        # the search keeps a byte per cell and quiet pattern: past that, the bounded local
        # search over a sub-space of the quiet patterns, with nothing proven below it
        keep = max(8, MEMORY_BITS // shape.cells)
        found = descent_min(sol.presses, quiet_patterns(shape, keep), 0)
        return Fewest(found, min(found.bit_count(), count_bound(shape, board)), True)
    small = shape.cells <= TILE_CELLS
    tilings = [tiles(shape, side) for side in TILES if small and side < max(shape.rows,
                                                                               shape.cols)]
    mirrors = involutions(shape)
    r = lightest(sol.presses, quiet_patterns(shape), shape.cells, time_limit=time_limit,
                 regions=tilings, progress=progress, symmetries=mirrors)
    if not r.stopped:
        return Fewest(r.member, r.lower_bound)
    return Fewest(r.member, min(r.weight, max(r.lower_bound, count_bound(shape, board))), True)


def count_bound(shape: Shape, board: int) -> int:
    """Every lit cell needs a press in its neighbourhood and a press covers at most 5 cells
    (fewer on thin boards), so at least lit / 5 presses (docs/MATH.md §24)."""
    widest = 1 + min(shape.rows - 1, 2) + min(shape.cols - 1, 2)
    return -(-board.bit_count() // widest)


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


def tiles(shape: Shape, side: int) -> list[int]:
    """The board cut into side x side squares (smaller at the right and bottom edges)."""
    out = []
    for r0 in range(0, shape.rows, side):
        strip = sum(shape.row_mask << (r * shape.cols)
                    for r in range(r0, min(r0 + side, shape.rows)))
        for c0 in range(0, shape.cols, side):
            cols = ((1 << min(side, shape.cols - c0)) - 1) << c0
            rows_mask = sum(cols << (r * shape.cols) for r in range(shape.rows))
            out.append(strip & rows_mask)
    return out


def fewest_presses(
    shape: Shape, board: int, exact_nullity: int = EXACT_NULLITY, seed: int = 0
) -> tuple[int, bool] | None:
    """(a press set of minimum size, exact) clearing `board`, or None if unsolvable.

    Nullity <= exact_nullity: the proven minimum (`fewest`). Beyond: seeded local search over
    the coset (over the span of as many quiet patterns as fit in MEMORY_BITS), exact=False: the
    count is an upper bound, not a proof of minimality.
    """
    sol = solve(shape, board)
    if sol.presses is None:
        return None
    assert isinstance(sol.presses, int)
    if sol.nullity == 0:
        return sol.presses, True
    if sol.nullity <= exact_nullity:
        found = fewest(shape, board)
        assert found is not None and found.exact
        return found.presses, True
    keep = max(8, MEMORY_BITS // shape.cells)  # big kernels of big boards: search a sub-space
    return descent_min(sol.presses, quiet_patterns(shape, keep), seed), False


def descent_min(
    x: int, basis: list[int], seed: int, work: int = WORK, patience: int = 2000
) -> int:
    """A light member of x + span(basis): first-improvement descent over single quiet patterns
    and pairs of them (when at most 64 fit in memory), then seeded random restarts, until about
    `work` word operations are spent or `patience` restarts in a row found nothing lighter.
    The result is an upper bound on the minimum."""
    import random  # noqa: PLC0415  (only huge kernels need it; start-up: bench/bench_startup.py)

    rng = random.Random(seed)
    moves = list(basis)
    cells = max(m.bit_length() for m in moves)
    if len(basis) <= 64 and len(basis) ** 2 * cells <= 2 * MEMORY_BITS:
        moves += [a ^ b for i, a in enumerate(basis) for b in basis[i + 1:]]
    words = max(1, cells // 64)
    budget = max(4 * len(moves), work // words)  # move evaluations allowed

    def descend(v: int) -> int:
        nonlocal budget
        w = v.bit_count()
        improved = True
        while improved and budget > 0:
            improved = False
            for m in moves:
                y = v ^ m
                yw = y.bit_count()
                if yw < w:
                    v, w, improved = y, yw, True
            budget -= len(moves)
        return v

    best = descend(x)
    stale = 0
    while budget > 0 and stale < patience:
        start = best
        for b in basis:
            if rng.getrandbits(1):
                start ^= b
        y = descend(start)
        stale += 1
        if y.bit_count() < best.bit_count():
            best, stale = y, 0
    return best
