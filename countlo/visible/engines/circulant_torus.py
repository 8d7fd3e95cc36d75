"""The torus with the plus rule and two states, solved over the circulant ring (docs/MATH.md §18.2).

A row of C presses is an element of Q = GF(2)[S]/(S^C + 1) (bit c is the coefficient of S^c; S
shifts a row one column round), and the plus rule within a row is T = 1 + S + S^-1. Lights row i
is x_{i-1} + T x_i + x_{i+1}, so chasing from the first two press rows gives
x_i = F_i(T) x_1 + F_{i-1}(T) x_0 + c_i (F the Fibonacci polynomials, c_i the chase from zero),
and the board wraps iff x_R = x_0 and x_{R+1} = x_1: a 2 x 2 system M (x_0, x_1) = (c_R, c_{R+1})
over Q. M is brought to diagonal form once per board size by unimodular row and column operations
over GF(2)[S] (entries kept modulo S^C + 1); each diagonal entry e then says everything through
g = gcd(e, S^C + 1): solvable iff g divides the transformed right-hand side, nullity
deg g_0 + deg g_1, quiet first rows the multiples of (S^C + 1)/g. A solve costs two chases of R
cheap row operations on C-bit ints and a dozen products in Q; the RC x RC matrix never appears.

Applies to R x C tori with R, C >= 3 (the plus offsets land on distinct cells), as line_chase.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache

from countlo.board import Rows, Shape, Vector
from countlo.errors import BadSizeError
from countlo.graph import Board
from countlo.i18n import _
from countlo.value import Value
from countlo.visible.algebra import gf2
from countlo.visible.engines import engine
from countlo.visible.engines.engine import Outcome

PLUS = frozenset({(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)})
FFT_BITS = 768  # from this many columns, products in Q go through numpy's FFT (measured: bench/bench_rules.py)
MAX_CELLS = 1 << 24  # 4096 x 4096: the start, the presses and the target as lists stay near 1/2 GB


def applies(board: Shape) -> bool:
    """True for the plus rule (as named or drawn) on a torus of at least 3 x 3 with two states."""
    rules = board.rules
    offsets = rules.rule.offsets
    return (rules.states == 2 and rules.topology == "torus" and len(offsets) == len(PLUS)
            and frozenset(offsets) == PLUS and board.rows >= 3 and board.cols >= 3)


# --- the ring Q = GF(2)[S]/(S^C + 1) -------------------------------------------------------------


def _fold(x: int, cols: int) -> int:
    """x mod S^C + 1: the bits from C on wrap round."""
    mask = (1 << cols) - 1
    while x >> cols:
        x = (x & mask) ^ (x >> cols)
    return x


def _clmul(a: int, b: int) -> int:
    """The carry-less product of two polynomials over GF(2)."""
    if not a or not b:
        return 0
    if min(a.bit_length(), b.bit_length()) < FFT_BITS:
        return gf2.mul(a, b)
    return clmul_fft(a, b)


def clmul_fft(a: int, b: int) -> int:
    """The product as an integer convolution of the bit arrays by numpy's real FFT, then the
    parity of each coefficient (exact: coefficients are at most the shorter length, far below
    the 2^52 float64 holds, and the rounding error is far below 1/2)."""
    import numpy as np  # here: only wide tori load numpy, small ones stay off it

    nbytes = (max(a.bit_length(), b.bit_length()) + 7) // 8
    xa = np.unpackbits(np.frombuffer(a.to_bytes(nbytes, "little"), dtype=np.uint8), bitorder="little")
    xb = np.unpackbits(np.frombuffer(b.to_bytes(nbytes, "little"), dtype=np.uint8), bitorder="little")
    n = 2 * len(xa)
    prod = np.fft.irfft(np.fft.rfft(xa.astype(np.float64), n) * np.fft.rfft(xb.astype(np.float64), n), n)
    bits = (np.rint(prod).astype(np.int64) & 1).astype(np.uint8)
    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")


def _mul(a: int, b: int, cols: int) -> int:
    return _fold(_clmul(a, b), cols)


def _square(a: int, cols: int) -> int:
    """a^2 = a(S^2) in Q."""
    return _fold(gf2.square(a), cols)


def _t(x: int, cols: int, mask: int) -> int:
    """T x = x + S x + S^-1 x: the row's own presses seen by its lights."""
    return x ^ (((x << 1) | (x >> (cols - 1))) & mask) ^ ((x >> 1) | ((x & 1) << (cols - 1)))


def _rotate(x: int, j: int, cols: int, mask: int) -> int:
    """S^j x."""
    j %= cols
    return ((x << j) & mask) | (x >> (cols - j)) if j else x


def _fibonacci(n: int, cols: int) -> tuple[int, int]:
    """(F_n(T), F_{n+1}(T)) in Q by doubling: F_2k = T F_k^2, F_2k+1 = F_k+1^2 + F_k^2 over GF(2)."""
    mask = (1 << cols) - 1
    f, g = 0, 1
    for bit in bin(n)[2:] if n else ():
        f2, g2 = _square(f, cols), _square(g, cols)
        f, g = _t(f2, cols, mask), g2 ^ f2
        if bit == "1":
            f, g = g, _t(g, cols, mask) ^ f
    return f, g


def _clearing(pivot: int, entry: int) -> tuple[int, int, int, int]:
    """An invertible 2 x 2 operation (a, b, c, d) on (pivot, entry) that leaves the entry 0: a plain
    entry += q pivot when the pivot divides it, else the Euclid cofactors (gcd into the pivot)."""
    if pivot and not gf2.mod(entry, pivot):
        return 1, 0, _exact(entry, pivot), 1
    g, s, t = gf2.xgcd(pivot, entry)
    return s, t, _exact(entry, g), _exact(pivot, g)


def _exact(a: int, b: int) -> int:
    q, r = gf2.divmod_(a, b)
    assert not r, "inexact division"
    return q


# --- the plan: M diagonalized once per board size -----------------------------------------------


class Plan(Value):
    """U M V = diag(e_0, e_1) modulo S^C + 1, U and V invertible; per diagonal entry i:
    g_i = gcd(e_i, S^C + 1), w_i with w_i e_i = g_i, h_i = (S^C + 1)/g_i (docs/MATH.md §18.2)."""

    FIELDS = ("rows", "cols", "u", "v", "g", "w", "h")
    __slots__ = FIELDS
    rows: int
    cols: int
    u: tuple[int, int, int, int]  # row-major
    v: tuple[int, int, int, int]
    g: tuple[int, int]
    w: tuple[int, int]
    h: tuple[int, int]

    def __init__(self, rows: int, cols: int, u: tuple[int, int, int, int], v: tuple[int, int, int, int],
                 g: tuple[int, int], w: tuple[int, int], h: tuple[int, int]) -> None:
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "u", u)
        object.__setattr__(self, "v", v)
        object.__setattr__(self, "g", g)
        object.__setattr__(self, "w", w)
        object.__setattr__(self, "h", h)

    @property
    def nullity(self) -> int:
        return gf2.deg(self.g[0]) + gf2.deg(self.g[1])

    def quiet_firsts(self) -> Iterator[tuple[int, int]]:
        """A basis of the kernel of M as first press rows (x_0, x_1): V applied to S^j h_i e_i,
        j < deg g_i."""
        cols = self.cols
        mask = (1 << cols) - 1
        for i in (0, 1):
            k0 = _mul(self.v[i], self.h[i], cols)  # V's column i times h_i
            k1 = _mul(self.v[2 + i], self.h[i], cols)
            for j in range(gf2.deg(self.g[i])):
                yield _rotate(k0, j, cols, mask), _rotate(k1, j, cols, mask)


def _combine(p: list[int], pairs: tuple[tuple[int, int], ...], op: tuple[int, int, int, int], cols: int) -> None:
    """For each pair (x, y) of entries of the row-major 2 x 2 matrix p (the two entries of a row:
    a column operation; of a column: a row operation), (p_x, p_y) becomes
    (a p_x + b p_y, c p_x + d p_y) in Q."""
    a, b, c, d = op
    for x, y in pairs:
        px, py = p[x], p[y]
        p[x] = _mul(a, px, cols) ^ _mul(b, py, cols)
        p[y] = _mul(c, px, cols) ^ _mul(d, py, cols)


@lru_cache(maxsize=16)
def plan(rows: int, cols: int) -> Plan:
    mod = (1 << cols) | 1
    mask = (1 << cols) - 1
    fr, fr1 = _fibonacci(rows, cols)
    fr_1 = fr1 ^ _t(fr, cols, mask)  # F_{R-1} = F_{R+1} + T F_R
    m = [fr_1 ^ 1, fr, fr, fr1 ^ 1]  # M, row-major
    u = [1, 0, 0, 1]
    v = [1, 0, 0, 1]

    while m[1] or m[2]:
        if m[1]:  # clear M01 with a column operation
            op = _clearing(m[0], m[1])
            _combine(m, ((0, 1), (2, 3)), op, cols)
            _combine(v, ((0, 1), (2, 3)), op, cols)
        if m[2]:  # clear M10 with a row operation
            op = _clearing(m[0], m[2])
            _combine(m, ((0, 2), (1, 3)), op, cols)
            _combine(u, ((0, 2), (1, 3)), op, cols)
    gs, ws, hs = [], [], []
    for e in (m[0], m[3]):
        g, w = gf2.xgcd_mod(e, mod)
        gs.append(g)
        ws.append(w)
        hs.append(_exact(mod, g))
    return Plan(rows, cols, (u[0], u[1], u[2], u[3]), (v[0], v[1], v[2], v[3]), (gs[0], gs[1]),
                (ws[0], ws[1]), (hs[0], hs[1]))


# --- chasing -------------------------------------------------------------------------------------


def _ends(b: Sequence[int], x0: int, x1: int, cols: int) -> tuple[int, int]:
    """(x_R, x_{R+1}) chasing the lights rows b from press rows x_0, x_1, keeping no rows."""
    mask = (1 << cols) - 1
    prev, cur = x0, x1
    for i in range(1, len(b)):
        prev, cur = cur, b[i] ^ prev ^ cur ^ (((cur << 1) | (cur >> (cols - 1))) & mask) ^ (
            (cur >> 1) | ((cur & 1) << (cols - 1)))
    return cur, b[0] ^ prev ^ _t(cur, cols, mask)


def chase(b: Sequence[int] | None, x0: int, x1: int, rows: int, cols: int) -> tuple[Rows, int, int]:
    """(press rows x_0..x_{R-1}, x_R, x_{R+1}) from x_0, x_1 for lights rows b (zero when None)."""
    mask = (1 << cols) - 1
    out = [x0, x1]
    prev, cur = x0, x1
    for i in range(1, rows + 1):
        nxt = prev ^ cur ^ (((cur << 1) | (cur >> (cols - 1))) & mask) ^ ((cur >> 1) | ((cur & 1) << (cols - 1)))
        if b is not None:
            nxt ^= b[i % rows]
        out.append(nxt)
        prev, cur = cur, nxt
    return out[:rows], out[rows], out[rows + 1]


def _functional(b: Sequence[int], cols: int) -> tuple[int, int]:
    """(p, q) with sum_i <w_i, b_i> = <x_0, p> + <x_1, q> for the quiet chase w of (x_0, x_1):
    the chase's adjoint run backwards (T is symmetric), docs/MATH.md §18.2."""
    mask = (1 << cols) - 1
    p = q = 0
    for i in range(len(b) - 1, -1, -1):
        p, q = b[i] ^ q, p ^ _t(q, cols, mask)
    return p, q


def _dot(a: int, b: int) -> int:
    return (a & b).bit_count() & 1


# --- answers -------------------------------------------------------------------------------------


def solve_rows(rows: int, cols: int, b: Sequence[int]) -> tuple[Rows | None, Rows | None, int]:
    """(presses, witness, nullity) for A x = b on the R x C torus, as C-bit rows: presses None
    when unsolvable, and then a quiet pattern w (the game is its own transpose) with w.b = 1."""
    p = plan(rows, cols)
    cr, cr1 = _ends(b, 0, 0, cols)
    c0 = _mul(p.u[0], cr, cols) ^ _mul(p.u[1], cr1, cols)
    c1 = _mul(p.u[2], cr, cols) ^ _mul(p.u[3], cr1, cols)
    y = []
    for ci, g, w in ((c0, p.g[0], p.w[0]), (c1, p.g[1], p.w[1])):
        if g == 1:
            y.append(_mul(ci, w, cols))
            continue
        q, r = gf2.divmod_(ci, g)
        if r:
            return None, _witness(p, b), p.nullity
        y.append(_mul(q, w, cols))
    x0 = _mul(p.v[0], y[0], cols) ^ _mul(p.v[1], y[1], cols)
    x1 = _mul(p.v[2], y[0], cols) ^ _mul(p.v[3], y[1], cols)
    presses, xr, xr1 = chase(b, x0, x1, rows, cols)
    assert (xr, xr1) == (x0, x1), "the circulant solve failed to wrap round"
    return presses, None, p.nullity


def _witness(p: Plan, b: Sequence[int]) -> Rows:
    """The first quiet pattern of the basis with an odd dot product with b (one exists: the
    image of a symmetric matrix is the orthogonal complement of its kernel, §5)."""
    fp, fq = _functional(b, p.cols)
    for x0, x1 in p.quiet_firsts():
        if _dot(x0, fp) ^ _dot(x1, fq):
            return chase(None, x0, x1, p.rows, p.cols)[0]
    raise AssertionError("no quiet pattern separates an unsolvable start: the maths is wrong")


def quiet_rows(rows: int, cols: int, count: int | None = None) -> Iterator[Rows]:
    """A basis of the quiet patterns as rows, one at a time (the first `count` when given)."""
    for n, (x0, x1) in enumerate(plan(rows, cols).quiet_firsts()):
        if count is not None and n >= count:
            return
        out, xr, xr1 = chase(None, x0, x1, rows, cols)
        assert (xr, xr1) == (x0, x1), "a quiet pattern failed to wrap round"
        yield out


# --- the vectors of countlo.visible.solutions ------------------------------------------------------


def check_size(board: Shape) -> None:
    if board.cells > MAX_CELLS:
        raise BadSizeError(_("a torus with the plus rule is limited to {most} cells; {board} has {cells}").format(
            most=MAX_CELLS, board=board, cells=board.cells))


def to_rows(board: Shape, v: Sequence[int], what: str) -> Rows:
    """The 0/1 vector as C-bit rows, refused in engine.check_vector's words."""
    cols = board.cols
    if not isinstance(v, list | tuple):  # e.g. a numpy array: bytes() would read its memory
        v = [int(a) for a in v]
    bad = BadSizeError(_("{what} must hold {cells} values 0..{last}").format(what=what, cells=board.cells, last=1))
    if len(v) != board.cells:
        raise bad
    try:
        raw = bytes(v)  # ints 0..255 only: one C pass over the list
    except (TypeError, ValueError):
        raise bad from None
    if raw.translate(None, b"\x00\x01"):
        raise bad
    # each row's bytes reversed read as a binary number: bit c = column c
    text = raw.translate(_DIGITS)
    return [int(text[r * cols:(r + 1) * cols][::-1], 2) for r in range(board.rows)]


_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def to_list(rows: Sequence[int], cols: int) -> list[int]:
    """C-bit rows as one 0/1 list in reading order."""
    text = b"".join(format(r, f"0{cols}b").encode()[::-1] for r in rows)
    return list(text.translate(_UNDIGITS))


_UNDIGITS = bytes.maketrans(b"01", b"\x00\x01")


def solve_start(board: Shape, start: Sequence[int], target: Sequence[int] | None = None
                ) -> tuple[list[int] | None, list[int] | None, int]:
    """general.solve's (presses, witness, nullity) as 0/1 lists, for the presses taking start to
    target (all dark when None)."""
    check_size(board)
    b = to_rows(board, start, "the start")
    if target is not None:
        b = [x ^ y for x, y in zip(b, to_rows(board, target, "the target"))]
    presses, witness, nullity = solve_rows(board.rows, board.cols, b)
    return (None if presses is None else to_list(presses, board.cols),
            None if witness is None else to_list(witness, board.cols), nullity)


def nullity(board: Shape) -> int:
    check_size(board)
    return plan(board.rows, board.cols).nullity


def quiet_list(board: Shape, count: int | None = None) -> list[list[int]]:
    """A basis of the quiet patterns as 0/1 lists (the first `count` when given)."""
    check_size(board)
    return [to_list(q, board.cols) for q in quiet_rows(board.rows, board.cols, count)]


def random_rows(rows: int, cols: int, rng: random.Random) -> Rows:
    """A uniformly random start as rows (for the benchmark and the tests)."""
    return [rng.getrandbits(cols) for _ in range(rows)]


class CirculantTorus:
    """This engine as an Engine: its own limit for a solution, the common one for its quiet
    patterns; the game is its own transpose, so the invariants are the quiet patterns."""

    def applies(self, board: Board) -> bool:
        return isinstance(board, Shape) and applies(board)

    def check_size(self, board: Board) -> None:
        check_size(engine.grid(board))

    def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome:
        presses, witness, nullity = solve_start(engine.grid(board), start, target)
        return Outcome.of(presses, witness, (2,) * nullity, 2)

    def orders(self, board: Board) -> tuple[int, ...]:
        return (2,) * nullity(engine.grid(board))

    def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]:
        engine.check_size(board)
        return [(g, 2) for g in quiet_list(engine.grid(board), count)]

    def invariants(self, board: Board) -> list[Vector]:
        return [g for g, _ in self.quiet(board, None)]


ENGINE = CirculantTorus()
