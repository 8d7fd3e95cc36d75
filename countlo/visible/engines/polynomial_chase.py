"""Classic Lights Out on any R x C board: light chasing plus polynomials over GF(2).

Rows are C-bit ints. Pressing first-row cells x_0 and chasing the lights down forces
x_{i+1} = b_i ^ x_{i-1} ^ T x_i (T x = x ^ x<<1 ^ x>>1), and the board clears iff the would-be
row x_R is zero. With J = T + 1 (the path's adjacency), e_k = p_k(J) e_0 where p_0 = 1,
p_1 = u, p_{k+1} = u p_k + p_{k-1}; so C-bit rows are polynomials in u modulo chi = p_C(u), and
chasing from x_0 = Y(J) e_0 leaves x_R = c + A(J) Y(J) e_0 with A = p_R(u + 1) mod chi and c the
residual of chasing from x_0 = 0. Solving is A Y = c (mod chi): g = gcd(A, chi); solvable iff
g | c; nullity = deg g; quiet first rows are the multiples of chi / g.
Every step is O(R + C) operations on C-bit ints; the RC x RC matrix is never built.
Derivations: docs/MATH.md §3 (light chasing), §4 (polynomials), §5 (quiet patterns, witness).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import lru_cache

from countlo.board import Rows, Shape, Vector, bits, press_masks, values
from countlo.value import Value
from countlo.visible.algebra import gf2
from countlo.visible.engines import engine
from countlo.visible.engines.engine import Outcome

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up; mypy knows it)
if TYPE_CHECKING:
    from countlo.graph import Board

SMALL = 1 << 16  # boards up to this many cells keep their quiet patterns cached


class Solution(Value):
    """Result of solving one start given as a bitset.

    `presses` clears the start; None when unsolvable. `witness` is a quiet pattern with odd
    overlap with the start, which proves unsolvability (docs/MATH.md §5); None when solvable.
    """

    FIELDS = ("solvable", "presses", "nullity", "witness")
    __slots__ = FIELDS
    solvable: bool
    presses: int | None
    nullity: int
    witness: int | None

    def __init__(
        self, solvable: bool, presses: int | None, nullity: int, witness: int | None
    ) -> None:
        object.__setattr__(self, "solvable", solvable)
        object.__setattr__(self, "presses", presses)
        object.__setattr__(self, "nullity", nullity)
        object.__setattr__(self, "witness", witness)


class RowsSolution(Value):
    """The same as Solution with the press set and the witness as lists of row ints (for boards
    too large to hold comfortably as one bitset)."""

    FIELDS = ("solvable", "presses", "nullity", "witness")
    __slots__ = FIELDS
    solvable: bool
    presses: Rows | None
    nullity: int
    witness: Rows | None

    def __init__(
        self, solvable: bool, presses: Rows | None, nullity: int, witness: Rows | None
    ) -> None:
        object.__setattr__(self, "solvable", solvable)
        object.__setattr__(self, "presses", presses)
        object.__setattr__(self, "nullity", nullity)
        object.__setattr__(self, "witness", witness)


class _Plan(Value):
    """Everything about a shape that does not depend on the start."""

    FIELDS = ("rows", "cols", "chi", "a", "g", "s", "h", "m")
    __slots__ = FIELDS
    rows: int
    cols: int
    chi: int  # p_C(u), characteristic polynomial of J
    a: int  # p_R(u + 1) mod chi
    g: int  # gcd(a, chi)
    s: int  # s a = g (mod chi)
    h: int  # chi / g: quiet first rows are its multiples
    m: int | None  # a^-1 mod h when gcd(g, h) = 1: then Y = m c works for every solvable c

    def __init__(
        self, rows: int, cols: int, chi: int, a: int, g: int, s: int, h: int, m: int | None
    ) -> None:
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "chi", chi)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "g", g)
        object.__setattr__(self, "s", s)
        object.__setattr__(self, "h", h)
        object.__setattr__(self, "m", m)

    @property
    def nullity(self) -> int:
        return gf2.deg(self.g)


def chebyshev(n: int) -> int:
    """p_n(u) with p_0 = 1, p_1 = u, p_{k+1} = u p_k + p_{k-1} over GF(2): the Fibonacci
    polynomial F_{n+1}, computed by doubling."""
    return gf2.fibonacci(n + 1)


def _a_poly(rows: int, chi: int, cols: int) -> int:
    """p_R(u + 1) mod chi: by doubling and a Taylor shift when R <= 2C, else by the recurrence
    P_{i+1} = (u + 1) P_i + P_{i-1} reduced at every step."""
    if rows <= 2 * cols:
        return gf2.mod(gf2.taylor_shift(chebyshev(rows)), chi)
    top = 1 << cols
    prev, cur = 0, 1
    for _ in range(rows):
        nxt = (cur << 1) ^ cur ^ prev
        if nxt & top:
            nxt ^= chi
        prev, cur = cur, nxt
    return cur


@lru_cache(maxsize=32)
def plan_for(rows: int, cols: int) -> _Plan:
    chi = chebyshev(cols)
    a = _a_poly(rows, chi, cols)
    g, s = gf2.xgcd_mod(a, chi)
    h = gf2.divmod_(chi, g)[0]
    m = None
    if g == 1:
        m = s
    elif gf2.gcd(g, h) == 1:
        one, m = gf2.xgcd_mod(gf2.mod(a, h), h)
        assert one == 1
    return _Plan(rows, cols, chi, a, g, s, h, m)


def nullity(shape: Shape) -> int:
    """Dimension of the quiet-pattern space: deg gcd(p_R(u + 1), p_C(u))."""
    chi = chebyshev(shape.cols)
    return gf2.deg(gf2.gcd(_a_poly(shape.rows, chi, shape.cols), chi))


# --- rows, polynomials and chasing -------------------------------------------------------


def chase(rows: Sequence[int], first: int, cols: int) -> tuple[Rows, int]:
    """(press rows x_0..x_{R-1}, would-be row x_R) chasing the lights of `rows` from x_0 = first."""
    mask = (1 << cols) - 1
    out = [first]
    prev, cur = 0, first
    for b in rows:
        prev, cur = cur, b ^ prev ^ ((cur ^ (cur << 1) ^ (cur >> 1)) & mask)
        out.append(cur)
    residual = out.pop()
    return out, residual


def residual(rows: Sequence[int], first: int, cols: int) -> int:
    """The would-be row x_R of `chase`, keeping no rows (for the first pass of a solve)."""
    mask = (1 << cols) - 1
    prev, cur = 0, first
    for b in rows:
        prev, cur = cur, b ^ prev ^ ((cur ^ (cur << 1) ^ (cur >> 1)) & mask)
    return cur


def evaluate(y: int, vec: int, cols: int) -> int:
    """y(J) vec by Horner's scheme (J x = x<<1 ^ x>>1 masked): deg y shift-xors on C-bit ints."""
    mask = (1 << cols) - 1
    v = 0
    for bit in bin(y)[2:] if y else ():
        v = ((v << 1) ^ (v >> 1)) & mask
        if bit == "1":
            v ^= vec
    return v


def to_poly(vec: int, cols: int) -> int:
    """The Y(u), deg < C, with Y(J) e_0 = vec: sum of vec_k p_k(u), by Clenshaw's recurrence."""
    b1 = b2 = 0
    for k in range(cols - 1, -1, -1):
        b1, b2 = ((b1 << 1) ^ b2 ^ ((vec >> k) & 1)), b1
    return b1


def _first_row(plan: _Plan, c: int) -> int | None:
    """A first row y with A(J) y = c, or None when c is not in the image."""
    if plan.m is not None:
        if plan.nullity and evaluate(plan.h, c, plan.cols):
            return None  # c lies in the image of A(J) iff chi/g kills it
        return evaluate(plan.m, c, plan.cols)
    cp = to_poly(c, plan.cols)
    q, r = gf2.divmod_(cp, plan.g)
    if r:
        return None
    return evaluate(gf2.mulmod(plan.s, q, plan.chi), 1, plan.cols)


# --- quiet patterns and witnesses --------------------------------------------------------


def quiet_rows(shape: Shape, count: int | None = None) -> list[Rows]:
    """A basis of the quiet patterns (press sets changing nothing), each as rows; only the
    first `count` of them when given (big kernels of big boards do not fit in memory).

    Their first rows are (chi / g) u^j (J) e_0 for j < nullity, independent by degree.
    """
    if shape.cells <= SMALL:
        return [list(q) for q in _small_quiet_rows(shape)[:count]]
    return list(_iter_quiet_rows(shape, count))


@lru_cache(maxsize=32)
def _small_quiet_rows(shape: Shape) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(q) for q in _iter_quiet_rows(shape))


def _iter_quiet_rows(shape: Shape, count: int | None = None) -> Iterator[Rows]:
    plan = plan_for(shape.rows, shape.cols)
    zero = [0] * shape.rows
    d = plan.nullity if count is None else min(count, plan.nullity)
    for j in range(d):
        yield chase(zero, evaluate(plan.h << j, 1, shape.cols), shape.cols)[0]


def quiet_patterns(shape: Shape, count: int | None = None) -> list[int]:
    """A basis of the kernel of the press matrix, as bitsets (the first `count` when given)."""
    if shape.cells <= SMALL:
        return list(_small_quiet_bitsets(shape)[:count])
    return [shape.from_rows(q) for q in _iter_quiet_rows(shape, count)]


@lru_cache(maxsize=32)
def _small_quiet_bitsets(shape: Shape) -> tuple[int, ...]:
    return tuple(shape.from_rows(q) for q in _small_quiet_rows(shape))


def _quiet_overlap_is_odd(first: int, rows: Sequence[int], cols: int) -> bool:
    """Whether the quiet pattern with this first row meets `rows` in an odd number of cells,
    chasing it (q_{i+1} = q_{i-1} ^ T q_i) without keeping its rows."""
    mask = (1 << cols) - 1
    prev, cur, acc = 0, first, 0
    for b in rows:
        acc ^= cur & b
        prev, cur = cur, prev ^ ((cur ^ (cur << 1) ^ (cur >> 1)) & mask)
    return acc.bit_count() & 1 == 1


def _witness_rows(shape: Shape, rows: Sequence[int]) -> Rows:
    """A quiet pattern with odd overlap with an unsolvable start.

    The press matrix is symmetric, so its image is the orthogonal complement of its kernel:
    some basis pattern has odd overlap. Large boards first try seeded random kernel members
    (each works with probability 1/2), then walk the basis.
    """
    import random  # noqa: PLC0415  (only unsolvable starts need it; start-up: bench/bench_startup.py)

    plan = plan_for(shape.rows, shape.cols)
    d, cols = plan.nullity, shape.cols
    rng = random.Random(0)
    tries = 40 if shape.cells > SMALL else 0
    randoms = (gf2.mul(plan.h, rng.getrandbits(d) | 1 << (d - 1)) for _ in range(tries))
    for y in itertools.chain(randoms, (plan.h << j for j in range(d))):
        first = evaluate(y, 1, cols)
        if _quiet_overlap_is_odd(first, rows, cols):
            return chase([0] * shape.rows, first, cols)[0]
    raise AssertionError("unsolvable start with no odd quiet pattern: the maths is wrong")


# --- solving -------------------------------------------------------------------------------


def solve_rows(shape: Shape, rows: Sequence[int]) -> RowsSolution:
    """Solve the start given as R row ints; presses and witness come back as rows."""
    if len(rows) != shape.rows:
        raise ValueError(f"expected {shape.rows} rows, got {len(rows)}")
    if min(rows) < 0 or max(rows).bit_length() > shape.cols:
        raise ValueError(f"every row must be a {shape.cols}-bit non-negative int")
    plan = plan_for(shape.rows, shape.cols)
    c = residual(rows, 0, shape.cols)
    first = _first_row(plan, c) if c else 0
    if first is None:
        return RowsSolution(False, None, plan.nullity, _witness_rows(shape, rows))
    presses, last = chase(rows, first, shape.cols)
    assert last == 0, "the first row from A Y = c failed to clear the board"
    return RowsSolution(True, presses, plan.nullity, None)


def solve(shape: Shape, board: int) -> Solution:
    """Solve the start `board` (bitset): one press set, the nullity, or a witness."""
    sol = solve_rows(shape, shape.to_rows(board))
    if sol.presses is not None:
        return Solution(True, shape.from_rows(sol.presses), sol.nullity, None)
    return Solution(False, None, sol.nullity, shape.from_rows(sol.witness or []))


def transform(shape: Shape, p: int, b: int) -> Solution:
    """Presses turning pattern p into pattern b: a solution of the start p xor b."""
    return solve(shape, p ^ b)


def clears(shape: Shape, board: int, presses: int) -> bool:
    """True if pressing `presses` on `board` leaves every light off (row by row, any size)."""
    return rows_clear(shape.to_rows(board), shape.to_rows(presses), shape.cols)


def rows_clear(board: Sequence[int], presses: Sequence[int], cols: int) -> bool:
    """True if the press rows clear the board rows: b_i ^ x_{i-1} ^ T x_i ^ x_{i+1} = 0."""
    mask = (1 << cols) - 1
    n = len(board)
    for i in range(n):
        x = presses[i]
        row = board[i] ^ ((x ^ (x << 1) ^ (x >> 1)) & mask)
        if i:
            row ^= presses[i - 1]
        if i + 1 < n:
            row ^= presses[i + 1]
        if row:
            return False
    return True


class Elimination(Value):
    """One Gauss-Jordan elimination of the press matrix A over GF(2), as int bitsets.

    solution[j]: the cells of s whose parity gives press j of a particular solution x = M s
    (for solvable s); checks: s is solvable iff s . c is even for every c (the left kernel);
    quiet: a basis of the quiet patterns (the kernel of A). docs/MATH.md §5, §8.
    """

    FIELDS = ("solution", "checks", "quiet")
    __slots__ = FIELDS
    solution: tuple[int, ...]
    checks: tuple[int, ...]
    quiet: tuple[int, ...]

    def __init__(
        self, solution: tuple[int, ...], checks: tuple[int, ...], quiet: tuple[int, ...]
    ) -> None:
        object.__setattr__(self, "solution", solution)
        object.__setattr__(self, "checks", checks)
        object.__setattr__(self, "quiet", quiet)


@lru_cache(maxsize=16)
def elimination(shape: Shape) -> Elimination:
    """The elimination of `shape`'s press matrix: rows (A row, identity row) reduced together,
    so the identity half records which lights each reduced row combines."""
    return eliminate(press_masks(shape))


def eliminate(lines: Sequence[int]) -> Elimination:
    """The elimination of the square GF(2) matrix whose row i is the bitset lines[i]. Row i of
    A is the buttons that change light i; A is symmetric on the classic grid, so its press masks
    are its rows there (docs/MATH.md §8, §30)."""
    n = len(lines)
    rows = [(lines[k], 1 << k) for k in range(n)]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        hit = next((i for i in range(r, n) if rows[i][0] >> col & 1), None)
        if hit is None:
            continue
        rows[r], rows[hit] = rows[hit], rows[r]
        pa, pb = rows[r]
        for i in range(n):
            if i != r and rows[i][0] >> col & 1:
                rows[i] = (rows[i][0] ^ pa, rows[i][1] ^ pb)
        pivots.append(col)
        r += 1
    solution = [0] * n
    for i, col in enumerate(pivots):
        solution[col] = rows[i][1]
    pivot_set = set(pivots)
    quiet = []
    for f in range(n):
        if f in pivot_set:
            continue
        q = 1 << f
        for i, col in enumerate(pivots):
            if rows[i][0] >> f & 1:
                q |= 1 << col
        quiet.append(q)
    return Elimination(tuple(solution), tuple(rows[i][1] for i in range(r, n)), tuple(quiet))


@lru_cache(maxsize=16)
def inverse_columns(shape: Shape) -> tuple[int, ...] | None:
    """Columns of A^-1 over GF(2) (column j: the presses clearing the single light j), or None
    when A is singular; any board's unique press set is then an xor of columns (docs/MATH.md §8).
    A is symmetric, so the columns are the rows of the elimination's solution map."""
    if nullity(shape):
        return None
    rows = elimination(shape).solution
    return tuple(sum(1 << i for i in range(shape.cells) if rows[i] >> j & 1)
                 for j in range(shape.cells))


class PolynomialChase:
    """This engine as an Engine, for the classic rules through vectors of 0/1 values; the press
    matrix is symmetric, so the invariants are the quiet patterns."""

    def applies(self, board: Board) -> bool:
        return isinstance(board, Shape) and board.rules.classic

    def check_size(self, board: Board) -> None:
        engine.check_size(board)

    def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome:
        shape = engine.grid(board)
        engine.check_vector(shape, start, "the start")
        lit = bits(start)
        if target is not None:
            engine.check_vector(shape, target, "the target")
            lit ^= bits(target)
        sol = solve(shape, lit)
        n = shape.cells
        return Outcome.of(None if sol.presses is None else values(sol.presses, n),
                          None if sol.witness is None else values(sol.witness, n), (2,) * sol.nullity, 2)

    def orders(self, board: Board) -> tuple[int, ...]:
        return (2,) * nullity(engine.grid(board))

    def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]:
        shape = engine.grid(board)
        return [(values(q, shape.cells), 2) for q in quiet_patterns(shape, count)]

    def invariants(self, board: Board) -> list[Vector]:
        return [q for q, _ in self.quiet(board, None)]


ENGINE = PolynomialChase()
