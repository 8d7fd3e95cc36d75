"""The light chase a whole line at a time over Z_k, k > 2 (docs/MATH.md §18.4).

The same chase as countlo.visible.engines.line_chase (docs/MATH.md §18.1), whose layout it reuses (the
projective plane folded into rings of two rows the same way, §18.6): lights
line r is sum_s T_s x_{r + h - s}, the pivot line's equations form a linear recurrence along the
line with characteristic polynomial p(z) = 1 + sum of z^d, the places it cannot reach are the
line's local unknowns phi with their local equations K phi = E. Over Z_k:
* the expressions of a line in the free variables are a (places, free variables) array of small
  unsigned integers, reduced lazily: sums of a few terms below the dtype's range are brought
  back into 0..k-1 by conditional subtractions of 2^j k (two whole-array operations each); for
  k dividing 256 the uint8 arithmetic wraps mod 256, which is exact mod k, and nothing is reduced;
  for k = 3 or 6 a wide chase keeps them bit-sliced instead (countlo.visible.algebra.bitsliced, docs/MATH.md
  §18.7: two bit planes, and one more mod 2 for k = 6, exact sums by bit operations, nothing to
  reduce);
* the recurrence s = u / p(z) is q(z) u / (1 - z^e), where z^e = 1 modulo p over Z_k (p is monic
  with p(0) = 1, so z has a finite order in Z_k[z]/(p)) and q = (1 - z^e) / p: a few shifted
  adds, then running sums with stride e in two levels (inside blocks by doubling, or one step
  at a time when the chase is wide: fewer passes over the data, more calls);
* K phi = E is reduced once on its unit pivots: the local unknowns without one become new free
  variables and the equations without one constraints (exact for any K);
* the constraints C y = r go to countlo.visible.algebra.dense_lu (blocked elimination over Z_k);
* a rule whose offsets all have dr + dc even on a board whose joins keep the checkerboard colour
  is two games, one per colour: the symbolic chase numbers each colour's free variables apart
  (arrays half as wide) and each colour's constraints are eliminated on their own (`colours`).
A cold solve chases b's residual along with the symbolic chase (one more column), and the
witness keeps its patterns from the chase that takes their dot products with b, so a cold solve
takes the symbolic chase and one more (two more when unsolvable).
It gives what countlo.visible.solutions gives: solvability, a solution, the quiet group with its
orders, generators of the quiet patterns and a witness (a quiet pattern of the transposed game,
which line_chase's layout describes, not orthogonal to b).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from countlo.board import Shape, Vector
from countlo.errors import BadSizeError
from countlo.graph import Board
from countlo.i18n import _
from countlo.rules import Rules
from countlo.visible.algebra import bitsliced, dense_lu
from countlo.visible.engines import engine, line_chase
from countlo.visible.engines.engine import Outcome

Ints = NDArray[np.int64]
Arr = NDArray[Any]
ORDER_LIMIT = 64  # the order e of z modulo p(z) that the recurrence accepts
Q_TERMS = 8  # and the number of terms of q(z)
WITNESS_BLOCK = 8  # kernel generators per witness chase (a narrow chase: its running sums are one cumsum)
KEEP_BYTES = 1 << 26  # the witness keeps every pattern of its chase (one byte a cell each) up to this
# The constraint matrix is dense, free variables x free variables (about as many constraints).
# The symbolic chase writes it straight into one float32 matrix, which dense_lu factors where it is
# (docs/MATH.md §18.8). Bytes an entry at the peak (dense_bytes), the larger of two phases:
# * the chase: 4 for the matrix, 1 for its identity, and its lines (about a dozen lines of its
#   width in its arithmetic's dtype, with the solve's own arrays): 2 bit-sliced (k = 3, 6), else
#   2 + 2 x the dtype's bytes (measured on the 1000 x 1000 torus knight, 5,992 free variables:
#   1.4 bit-sliced, 2.5 in bytes, 4.5 in uint16, 8.6 in uint32);
# * the elimination: 4 for each prime power of k besides 2 (all but the last copy the matrix), 1
#   for a factor 2 of k exactly once (its bits), and 4 for a product's scratch, the kernel's
#   generators and the solve's arrays (measured there: 1.2 for k = 3, 3.7 for k = 5).
# With at most DENSE_MEMORY = 1 GiB for it the free variables are at most max_free(z): MAX_FREE =
# 11,585 for the bit-sliced chase with k = 3, 8 bytes an entry (knight on the 1000 x 1000 torus,
# Klein bottle and projective plane with 3 states have 4,996 to 5,992 free variables, measured
# 258 MB resident at 5,992); a board past it takes the chase one equation at a time.
DENSE_MEMORY = 1 << 30
CHASE_BYTES = 5  # the matrix and the chase's identity, bytes an entry
FACTOR_SCRATCH = 4  # the elimination's scratch, the kernel and the solve's arrays, bytes an entry


def dense_bytes(z: ZLayout) -> int:
    """Bytes an entry of the constraint matrix at the peak of this layout's plan (see above)."""
    k = z.k
    ar = arith(z, z.nfree + 1)
    lines = 2 if isinstance(ar, bitsliced.Z3Bits) else 2 + 2 * np.dtype(ar.dtype).itemsize
    return max(CHASE_BYTES + lines, 4 * dense_lu.float_parts(k) + (k % 4 == 2) + FACTOR_SCRATCH)


def max_free(z: ZLayout) -> int:
    """The most free variables whose constraint matrix, at this layout's bytes an entry, stays
    within DENSE_MEMORY."""
    return math.isqrt(DENSE_MEMORY // dense_bytes(z))


MAX_FREE = math.isqrt(DENSE_MEMORY // 8)  # k = 3, bit-sliced: max_free of the 1000 x 1000 knight's layouts


def _order(lags: Sequence[int], k: int) -> tuple[int, tuple[tuple[int, int], ...]] | None:
    """(e, q as (power, coefficient) pairs) with p(z) q(z) = 1 - z^e over Z_k, p = 1 + sum z^d;
    (0, ()) without lags; None when e > ORDER_LIMIT or q has too many terms."""
    if not lags:
        return 0, ()
    deg = max(lags)
    p = [0] * (deg + 1)
    p[0] = 1
    for d in lags:
        p[d] = (p[d] + 1) % k
    # z^e mod p (p monic): reduce z^deg = -(p[0] + ... + p[deg-1] z^(deg-1))
    r = [0] * deg
    r[0] = 1
    for e in range(1, ORDER_LIMIT + 1):
        top = r[-1]
        r = [0, *r[:-1]]
        if top:
            r = [(a - top * b) % k for a, b in zip(r, p)]
        if r[0] == 1 and not any(r[1:]):
            # q = (1 - z^e) / p by long division (exact)
            num = [0] * (e + 1)
            num[0], num[e] = 1, k - 1
            q = [0] * (e - deg + 1)
            for i in range(e - deg, -1, -1):
                c = num[i + deg]
                q[i] = c
                if c:
                    for j in range(deg + 1):
                        num[i + j] = (num[i + j] - c * p[j]) % k
            terms = tuple((i, c) for i, c in enumerate(q) if c)
            return (e, terms) if len(terms) <= Q_TERMS else None
    return None


def applies(board: Shape) -> bool:
    """True when this chase solves the board: k > 2, the geometry line_chase takes (the conditions
    there do not depend on k), a short recurrence along the line and at most max_free(z) free
    variables (in the layout zlayout picks: its dense matrix of max_free(z)^2 entries takes
    about DENSE_MEMORY at the peak)."""
    rules = board.rules
    if rules.states <= 2 or not rules.rule.offsets:
        return False
    two = Shape(board.rows, board.cols, Rules(rules.topology, rules.rule, 2, rules.target))
    if not line_chase.applies(two):
        return False
    for t in (False, True):
        z = zlayout_or_none(board, t)
        if z is None or z.nfree > max_free(z):
            return False
    return True


class _Arith:
    """Lazy arithmetic mod k on unsigned arrays (see the module doc): a line is a (places, W)
    array. countlo.visible.algebra.bitsliced.Z3Bits offers the same operations on bit-sliced Z_3."""

    def __init__(self, k: int, bound: int, width: int) -> None:
        self.k = k
        self.width = width
        self.lane: tuple[int, ...] = (width,)
        self.bufs: dict[tuple[tuple[int, ...], str], Arr] = {}
        self.wrap = 256 % k == 0
        if self.wrap:
            self.dtype: Any = np.uint8
            self.steps: tuple[int, ...] = ()
            return
        bound += k  # neg() may reach the next multiple of k
        self.dtype = np.uint8 if bound <= 256 else np.uint16 if bound <= 65536 else np.uint32
        steps = []
        c = k
        while c <= bound:
            steps.append(c)
            c *= 2
        self.steps = tuple(reversed(steps))

    def zeros(self, n: int) -> Arr:
        return np.zeros((n, *self.lane), dtype=self.dtype)

    def pack(self, vals: Arr) -> Arr:
        """vals (residues) in this dtype, or kept as they are when bytes (the chase only reads
        them, and adds them into lines of its own dtype): the symbolic chase's identity is not copied."""
        arr = np.asarray(vals)
        out: Arr = arr if arr.dtype == np.uint8 else arr.astype(self.dtype)
        return out

    def values(self, a: Arr) -> Ints:
        """Residues of a line (or part of one) that `done` would give, as int64."""
        out: Ints = self.done(a).astype(np.int64)
        return out

    def add(self, out: Arr, x: Arr) -> None:
        out += x

    def add_scaled(self, out: Arr, x: Arr, c: int) -> None:
        out += x * out.dtype.type(c)

    def add_col(self, a: Arr, col: int, vals: Ints) -> None:
        """a[:, col] += vals mod k (a reduced line's column stays below 2k)."""
        a[:, col] += (vals % self.k).astype(a.dtype)

    def outer_add(self, a: Arr, col: Ints, row: Ints) -> None:
        """a[p] += col[p] row for every place p (entries below k: the caller reduces after)."""
        a += np.multiply.outer(col.astype(a.dtype), row.astype(a.dtype))

    def reduce(self, a: Arr, bound: int | None = None) -> Arr:
        """a (values below `bound`, default the dtype's whole range allowed) into 0..k-1, in place."""
        if self.wrap:
            return a
        tmp = self._scratch(a)
        for c in self.steps:
            if bound is not None and c >= bound:
                continue
            np.subtract(a, a.dtype.type(c), out=tmp)
            np.minimum(a, tmp, out=a)
        return a

    def _scratch(self, a: Arr) -> Arr:
        """A work array shaped like a, kept between calls (a line's worth, reused every line)."""
        key = (a.shape, a.dtype.str)
        if key not in self.bufs:
            self.bufs[key] = np.empty_like(a)
        return self.bufs[key]

    def neg(self, a: Arr, bound: int) -> Arr:
        """-a mod k for a below `bound` (a multiple of k at least bound): M - a, reduced."""
        if self.wrap:
            np.negative(a, out=a)
            return a
        m = -(-(bound - 1) // self.k) * self.k  # a multiple of k at least every value
        np.subtract(a.dtype.type(m), a, out=a)
        return self.reduce(a, m + 1)

    def done(self, a: Arr) -> Arr:
        """A finished line as residues 0..k-1, in its own dtype: the chase leaves every line
        reduced, except that for k dividing 256 (a power of 2) the bytes wrap mod 256."""
        return a & a.dtype.type(self.k - 1) if self.wrap else a


Arith = _Arith | bitsliced.Z3Bits  # (or its subclass Z6Bits) the same operations on a line's expressions


def _shift_add(ar: Arith, out: Arr, x: Arr, dc: int, wrap: bool, fresh: bool = False) -> None:
    """out[c] += x[c - dc] (clipped on the plane, wrapped mod C on a joined edge); when out is
    all 0 (`fresh`) by copying instead, which for bit-sliced lines is one pass instead of four."""
    add = _assign if fresh else ar.add
    n = len(x)
    if wrap:
        dc %= n
        if dc == 0:
            add(out, x)
            return
        add(out[dc:], x[:n - dc])
        add(out[:dc], x[n - dc:])
        return
    if dc >= n or -dc >= n:
        return
    if dc >= 0:
        add(out[dc:], x[:n - dc])
    else:
        add(out[:n + dc], x[-dc:])


def _assign(out: Arr, x: Arr) -> None:
    out[...] = x


@dataclass(frozen=True)
class ZLayout:
    """line_chase's layout with what the chase over Z_k needs besides (docs/MATH.md §18.4)."""

    lay: line_chase.Layout
    k: int
    e: int  # order of z modulo p; 0 without a recurrence
    q: tuple[tuple[int, int], ...]
    hom: Ints  # (places, f): the line with local unknown i = 1, the others 0, b = 0
    local: _LocalZ  # K phi = E solved on its unit pivots
    nfree: int
    ncons: int
    terms: int  # most terms (each below k) summed into a line before it is reduced
    phase: int  # hom[j] = pattern[(j + phase) mod C mod e]: H phi is a tiling (docs/MATH.md §18.7); -1 if not

    @property
    def f(self) -> int:
        return len(self.lay.local.free_cols)

    @property
    def pattern(self) -> Ints:
        """(e, f): one period of hom (see `phase`)."""
        out: Ints = np.roll(self.hom, self.phase, axis=0)[:self.e]
        return out


# the cylinder may also be chased along its columns, the chase wrapping round instead of the
# places (line_chase's geometry tuple: across, wrap, cyclic, twisted, fold)
TURNED = {"cylinder": (True, False, True, False, False)}


@lru_cache(maxsize=8)
def zlayout(board: Shape, transposed: bool = False) -> ZLayout:
    z = zlayout_or_none(board, transposed)
    assert z is not None
    return z


@lru_cache(maxsize=8)
def zlayout_or_none(board: Shape, transposed: bool = False) -> ZLayout | None:
    """The chase's layout over Z_k: line_chase's, or on the cylinder the turned one (docs/MATH.md
    §18.4) when it leaves fewer free variables; None when neither has a short recurrence."""
    rules = board.rules
    two = Shape(board.rows, board.cols, Rules(rules.topology, rules.rule, 2, rules.target))
    found = [_zlayout(line_chase.layout(two, transposed), rules.states)]
    if rules.topology in TURNED:
        offsets = tuple((dc, dr) for dr, dc in rules.rule.offsets)
        if transposed:
            offsets = tuple((-dl, -dp) for dl, dp in offsets)
        turned = line_chase.layout_of(board.cols, board.rows, TURNED[rules.topology], offsets, offsets)
        found.append(_zlayout(turned, rules.states))
    ready = [z for z in found if z is not None]
    return min(ready, key=lambda z: z.nfree) if ready else None


def _zlayout(lay: line_chase.Layout, k: int) -> ZLayout | None:
    order = _order(lay.recurrence.lags, k)
    if order is None:
        return None
    e, q = order
    cols = lay.cols
    loc = lay.local
    f = len(loc.free_cols)
    lags = lay.recurrence.lags
    hom = np.zeros((cols, f), dtype=np.int64)
    for i, j in enumerate(loc.free_cols):
        hom[j, i] = 1
    seq = [(j + cols - f) % cols for j in range(cols)] if lay.wrap else list(range(cols))
    free_set = set(loc.free_cols)
    for j in seq:
        if j in free_set:
            continue
        acc = np.zeros(f, dtype=np.int64)
        for d in lags:
            src = j - d
            if lay.wrap:
                acc -= hom[src % cols]
            elif src >= 0:
                acc -= hom[src]
        hom[j] = acc % k
    kmat = np.zeros((f, f), dtype=np.int64)
    for a, c in enumerate(loc.cons_eqs):
        for dc in lay.stencils[0]:
            src = c - dc
            if lay.wrap:
                kmat[a] += hom[src % cols]
            elif 0 <= src < cols:
                kmat[a] += hom[src]
    kmat %= k
    solved = _LocalZ.of(kmat, k)
    nchased = sum(lay.chased)
    local = solved.extra
    free_lines, unchased = lay.line_counts
    nfree = free_lines + nchased * local
    ncons = unchased + nchased * local
    terms = 1 + sum(len(s) for s in lay.stencils)  # b and every stencil (a turned line replaces a plain one)
    return ZLayout(lay, k, e, q, hom, solved, nfree, ncons, terms, _phase(hom, e, f))


def _phase(hom: Ints, e: int, f: int) -> int:
    """The shift r with hom rolled by r periodic with period e, or -1. Past its f local unknowns
    a line's homogeneous solution repeats with period e (z^e = 1 modulo p), so on a wrapped line
    rolled by f (its run starts after them) it does, and on an open one usually as it stands."""
    if not e or not f:
        return -1
    cols = len(hom)
    r: int
    for r in dict.fromkeys((0, f % cols, *range(min(cols, 2 * e + f)))):
        rolled = np.roll(hom, r, axis=0)
        if np.array_equal(rolled[e:], rolled[:-e]):
            return r
    return -1


def _add_tiled(ar: Arith, out: Arr, pattern: Arr, phase: int) -> None:
    """out[j] += pattern[(j + phase) mod e] for every place j of out (pattern packed, (e, ...))."""
    e = len(pattern)
    ext = pattern[(np.arange(e) + phase) % e]
    whole, rest = divmod(len(out), e)
    if whole:
        tiles = out[:whole * e].reshape(whole, e, *out.shape[1:])
        assert not tiles.size or np.may_share_memory(tiles, out)  # a view: splitting an axis never copies
        ar.add(tiles, ext[None])
    if rest:
        ar.add(out[whole * e:], ext[:rest])


@dataclass(frozen=True)
class _LocalZ:
    """K phi = E by Gauss-Jordan on the entries that are units mod k (docs/MATH.md §18.4): phi =
    a_e E + a_t t with t the `extra` new free variables (phi at the columns without a unit pivot),
    and the constraints b_t t + b_e E = 0 from the rows without one."""

    extra: int
    tcols: tuple[int, ...]  # the local unknowns (indices into free_cols) that are new free variables
    a_e: Ints  # (f, f)
    a_t: Ints  # (f, extra)
    b_t: Ints  # (f - rank, extra)
    b_e: Ints  # (f - rank, f)

    @classmethod
    def of(cls, kmat: Ints, k: int) -> _LocalZ:
        f = len(kmat)
        m = [[int(v) % k for v in kmat[i]] + [int(i == j) for j in range(f)] for i in range(f)]
        rank = 0
        pivcols: list[int] = []
        for c in range(f):
            row = next((i for i in range(rank, f) if math.gcd(m[i][c], k) == 1), -1)
            if row < 0:
                continue
            m[rank], m[row] = m[row], m[rank]
            inv = pow(m[rank][c], -1, k)
            m[rank] = [v * inv % k for v in m[rank]]
            for i in range(f):
                if i != rank and m[i][c]:
                    g = m[i][c]
                    m[i] = [(v - g * w) % k for v, w in zip(m[i], m[rank])]
            pivcols.append(c)
            rank += 1
        free = [c for c in range(f) if c not in pivcols]
        a_e = np.zeros((f, f), dtype=np.int64)
        a_t = np.zeros((f, len(free)), dtype=np.int64)
        for a, c in enumerate(pivcols):  # phi_c = (R E)_a - sum over free j of m[a][j] t_j
            a_e[c] = m[a][f:]
            a_t[c] = [(-m[a][j]) % k for j in free]
        for jt, j in enumerate(free):
            a_t[j, jt] = 1
        b_t = np.array([[m[a][j] for j in free] for a in range(rank, f)], dtype=np.int64).reshape(f - rank, len(free))
        b_e = np.array([[(-v) % k for v in m[a][f:]] for a in range(rank, f)], dtype=np.int64).reshape(f - rank, f)
        return cls(len(free), tuple(free), a_e, a_t, b_t, b_e)


BITS_CELLS = 1 << 18  # from this many entries a line (places x columns) a chase with k = 3 runs bit-sliced


def arith(z: ZLayout, width: int, packed: bool | None = None) -> Arith:
    """The arithmetic of a chase `width` columns wide: bit-sliced Z_3 or Z_2 x Z_3 = Z_6
    (countlo.visible.algebra.bitsliced, docs/MATH.md §18.7) for k = 3 or 6 from BITS_CELLS entries a line
    (or as `packed` says), else bytes
    (measured: below about that, numpy's cost per call outweighs the quarter of the bytes)."""
    k = z.k
    if packed is None:
        packed = z.lay.cols * width >= BITS_CELLS
    if packed and k == 3:
        return bitsliced.Z3Bits(width)
    if packed and k == 6:
        return bitsliced.Z6Bits(width)
    bound = max(z.terms * (k - 1) + 1, (z.f + 1) * k * k, (len(z.q) + 1) * k * k, 2 * k)
    return _Arith(k, bound, width)


def _line(z: ZLayout, ar: Arith, y: Arr, lo: int, hi: int) -> Arr:
    """Presses line with the local unknowns 0 that satisfies every pivoted equation of T_0 x = y."""
    lay = z.lay
    cols = lay.cols
    if not lay.local.free_cols and not z.e:  # one pivot per equation: a shift
        if lay.l1 % cols == 0:
            return y  # a fresh array of the caller's
        out = np.zeros_like(y)
        if lay.wrap:
            _shift_add(ar, out, y, -lay.l1, True)
        else:
            _shift_add(ar, out, y, -lay.l1, False)
        return out
    u = np.zeros_like(y)
    if lay.wrap:
        g = len(lay.local.free_cols)
        a = lay.l1 % cols  # u[g + j] = y[(j + l1) mod C] for j < C - g
        first = min(cols - g, cols - a)
        u[g:g + first] = y[a:a + first]
        u[g + first:] = y[:cols - g - first]
        s = _recur(z, ar, u)
        if not g:
            return s
        out = np.empty_like(s)  # out[j] = s[(j + g) mod C]
        out[:cols - g] = s[g:]
        out[cols - g:] = s[:g]
        return out
    if lo > hi:
        return u
    u[lo:hi + 1] = y[lo + lay.l1:hi + 1 + lay.l1]
    s = _recur(z, ar, u)
    if hi + 1 < cols:
        s[hi + 1:] = 0
    return s


def _recur(z: ZLayout, ar: Arith, u: Arr) -> Arr:
    """s = u / p(z) along axis 0 (s before the start 0): q u, then s_j += s_(j - e), by doubling."""
    if not z.e:
        return u
    n = len(u)
    k = z.k
    e = z.e
    # running sums with stride e in two levels: inside blocks of `inner` strides by doubling, then
    # the blocks' totals (a small array) by doubling, added to the blocks after them; q u is
    # written straight into the grid they run on
    m = -(-n // e)
    # (bit-sliced lines pay more per call and less per byte: blocks of half as many strides,
    # always one step at a time)
    packed = isinstance(ar, bitsliced.Z3Bits)
    inner = 1 << max(1, (m.bit_length() + 1) // 2 - packed)
    blocks = -(-m // inner)
    grid = ar.zeros(blocks * inner * e if n > e else n)
    v = grid[:n]
    for i, (a, c) in enumerate(z.q):
        if i == 0 and a == 0 and c == 1:  # q(0) = 1 (p(0) = 1): the first term is u itself
            v[...] = u
        elif a < n:
            ar.add_scaled(v[a:], u[:n - a], c)
    ar.reduce(v, (k - 1) * sum(c for _a, c in z.q) + 1)
    if n <= e:
        return v
    if not packed and ar.width <= CUMSUM_WIDTH:
        # a narrow chase (the residual, the presses): the running sums by one cumulative sum
        # in int32 (below m k, far from overflow) and one remainder (measured faster than the
        # blocks up to about 8 columns, slower from 16)
        strides = grid.reshape(blocks * inner, e, ar.width)
        grid[...] = (np.cumsum(strides, axis=0, dtype=np.int32) % k).reshape(grid.shape)
        return v
    cube = grid.reshape(blocks, inner, e, *v.shape[1:])
    if packed or (SEQUENTIAL and ar.width >= SEQUENTIAL):
        _sequential(cube, 1, ar)
    else:
        _doubling(cube, 1, ar)
    if blocks > 1:
        totals = np.copy(cube[:, -1], order="K")  # (bit-sliced lines keep their layout)
        _doubling(totals, 0, ar)
        ar.add(cube[1:], totals[:-1, None])
        ar.reduce(cube, 2 * k)
    out: Arr = grid[:n]
    return out


PUT_ROWS = 256  # constraints finished and written at a time

CUMSUM_WIDTH = 8  # up to this many columns the running sums are one numpy cumulative sum
SEQUENTIAL = 1000  # from this many columns (free variables) the running sums go one step at a time


def _sequential(a: Arr, axis: int, ar: Arith) -> None:
    """Inclusive running sums mod k along axis 1 of a, in place, one step at a time: each step
    adds one slab to the next (fewer passes over the data than doubling, more calls)."""
    for i in range(1, a.shape[axis]):
        step = a[:, i]
        ar.add(step, a[:, i - 1])
        ar.reduce(step, 2 * ar.k)


def _doubling(a: Arr, axis: int, ar: Arith) -> None:
    """Inclusive running sums mod k along `axis` (0 or 1) of a, in place, by doubling."""
    n = a.shape[axis]
    step = 1
    while step < n:
        if axis == 0:
            ar.add(a[step:], np.copy(a[:n - step], order="K"))
        else:
            ar.add(a[:, step:], np.copy(a[:, :n - step], order="K"))
        ar.reduce(a, 2 * ar.k)
        step *= 2


class Chased(NamedTuple):
    cons: Arr  # (ncons, W): the constraint values A x - b (int64, or in the array the caller gave)
    presses: Arr | None  # (lines, places, W) uint8, when kept
    dots: Ints | None  # (W,): sum over the cells of dot times the presses, mod k, when asked


def chase(z: ZLayout, fv: Arr, rhs: Ints | None = None, keep: bool = False, dot: Ints | None = None,
          rhs_col: int = 0, packed: bool | None = None, into: Arr | None = None, order: Ints | None = None
          ) -> Chased:
    """One chase. `fv` (nfree, W): the values of the free variables (the identity for the
    symbolic chase); `rhs` (lines, places) b, None for b = 0, entered in column `rhs_col`.
    Returns the constraint values, the presses when `keep` and, with `dot` (lines, places), the
    dot products of the presses with it (without keeping every line). `packed` forces the
    bit-sliced arithmetic on or off (tests); by default arith chooses. The constraint values
    (residues 0..k-1) are written into `into` (ncons, W), any dtype that holds them (the
    symbolic chase: the float32 matrix dense_lu factors in place, docs/MATH.md §18.8), constraint i
    at row order[i] (default i); without `into`, into a new int64 array."""
    lay = z.lay
    k = z.k
    rows, cols = lay.rows, lay.cols
    w = fv.shape[1]
    ar = arith(z, w, packed)
    loc = lay.local
    f = z.f
    fv = ar.pack(fv)
    cons: Arr = np.zeros((z.ncons, w), dtype=np.int64) if into is None else into
    assert cons.shape == (z.ncons, w)
    done_rows = 0

    def put(vals: Arr, finish: bool = False) -> None:
        """The next constraints (finished by ar.done when `finish`, PUT_ROWS at a time: a bounded
        scratch for unpacking bit-sliced lines) into their rows of cons."""
        nonlocal done_rows
        for i in range(0, len(vals), PUT_ROWS):
            part = ar.done(vals[i:i + PUT_ROWS]) if finish else vals[i:i + PUT_ROWS]
            if order is None:
                cons[done_rows:done_rows + len(part)] = part
            else:
                cons[order[done_rows:done_rows + len(part)]] = part
            done_rows += len(part)

    out = np.zeros((rows, cols, w), dtype=np.uint8) if keep else None  # k <= 255
    total = np.zeros(w, dtype=np.float64)
    # a line's dot products by one BLAS product: exact in float32 while cols (k-1)^2 < 2^24
    ft: Any = np.float32 if cols * (k - 1) ** 2 < 1 << 24 else np.float64
    dotf = dot.astype(ft) if dot is not None else None
    x: dict[int, Arr] = {}
    nxt = 0
    for v in lay.free_rows:
        n = lay.places(v)
        x[v] = fv[nxt:nxt + n] if n == cols else np.concatenate([fv[nxt:nxt + n]] * 2)  # a folded middle row
        nxt += n
    wrap = lay.wrap
    pattern = z.pattern if z.phase >= 0 else None
    lo, hi = lay.pivot_range()
    bound = z.terms * (k - 1) + 1  # a line's sum stays below this
    for r in range(rows):
        acc = ar.zeros(cols)
        fresh = True  # acc is all 0 still: the first term is copied into it
        first = 1 if lay.chased[r] else 0
        same: dict[tuple[int, ...], list[int]] = {}  # lines read through the same stencil
        for s in range(first, lay.span + 1):
            source = lay.var_row(r, s)
            if source is None:
                continue
            line, upside_down, turn = source
            if upside_down:
                turned = ar.zeros(cols)
                for i, dc in enumerate(lay.wrap_stencils[s]):
                    _shift_add(ar, turned, x[line], dc, wrap, i == 0)
                (_assign if fresh else ar.add)(acc, turned[::-1])
                fresh = False
            else:
                same.setdefault(tuple(dc + turn for dc in lay.stencils[s]), []).append(line)
        for stencil, lines in same.items():
            # T x + T x' = T (x + x'): lines sharing a stencil of several offsets are summed first
            srcs = [x[line] for line in lines]
            if len(lines) > 1 and len(stencil) > 1:
                summed = ar.zeros(cols)
                summed[...] = srcs[0]
                for other in srcs[1:]:
                    ar.add(summed, other)
                srcs = [summed]
            for read in srcs:
                for dc in stencil:
                    _shift_add(ar, acc, read, dc, wrap, fresh)
                    fresh = False
        if rhs is not None:
            ar.add_col(acc, rhs_col, -rhs[r])
        if not lay.chased[r]:
            put(ar.reduce(acc[:lay.places(r)], bound), finish=True)
        else:
            v = (r + lay.h) % rows
            y = ar.neg(acc, bound)
            xr = _line(z, ar, y, lo, hi)
            if f:
                e = np.zeros((f, w), dtype=np.int64)
                for i, c in enumerate(loc.cons_eqs):
                    val = ar.values(y[c])
                    for dc in lay.stencils[0]:
                        src = c - dc
                        if wrap:
                            val = val - ar.values(xr[src % cols])
                        elif 0 <= src < cols:
                            val = val - ar.values(xr[src])
                    e[i] = val % k
                sol = z.local
                t = ar.values(fv[nxt:nxt + sol.extra])
                nxt += sol.extra
                phi = (sol.a_e @ e + sol.a_t @ t) % k
                if len(sol.b_e):
                    put((sol.b_t @ t + sol.b_e @ e) % k)
                if pattern is not None:  # H phi tiles the line with one period (docs/MATH.md §18.7)
                    tile = ar.pack((pattern @ phi) % k)
                    cut = cols - z.phase  # hom[j] = pattern[(j + phase) mod e], j + phase wrapping at cols
                    _add_tiled(ar, xr[:cut], tile, z.phase)
                    _add_tiled(ar, xr[cut:], tile, 0)
                else:
                    for i in range(f):
                        if phi[i].any():
                            ar.outer_add(xr, z.hom[:, i], phi[i])
                ar.reduce(xr, (k - 1) + f * (k - 1) ** 2 + 1)
            x[v] = xr
        if lay.cyclic:
            done = r - lay.span
            old = (done + lay.h) % rows if done >= 0 and lay.chased[done] else None
        else:
            old = r + lay.h - lay.span
        if old is not None and old in x:
            gone = x.pop(old)
            if out is None and dotf is None:
                continue
            finished = ar.done(gone)
            if out is not None:
                out[old] = finished
            if dotf is not None:
                total += dotf[old] @ finished.astype(ft)
    for v, arr in x.items():
        if out is None and dotf is None:
            break
        finished = ar.done(arr)
        if out is not None:
            out[v] = finished
        if dotf is not None:
            total += dotf[v] @ finished.astype(ft)
    assert done_rows == z.ncons
    return Chased(cons, out, total.astype(np.int64) % k if dot is not None else None)


@dataclass(frozen=True)
class Plan:
    z: ZLayout
    system: dense_lu.System | dense_lu.Blocks

    @property
    def orders(self) -> tuple[int, ...]:
        return tuple(self.system.orders)


def _symmetric(board: Shape) -> bool:
    two = Shape(board.rows, board.cols, Rules(board.rules.topology, board.rules.rule, 2, board.rules.target))
    return line_chase.symmetric(two)


class _Plans:
    """plan(board, transposed): the symbolic chase and the elimination, remembered for the last 8
    boards. `made` also hands back, when the plan is made there and then, the residual of one
    right-hand side chased along as one more column: a cold solve then takes one chase less."""

    SIZE = 8

    def __init__(self) -> None:
        self.plans: OrderedDict[tuple[Shape, bool], Plan] = OrderedDict()

    def __call__(self, board: Shape, transposed: bool = False) -> Plan:
        return self.made(board, None, transposed)[0]

    def cache_clear(self) -> None:
        self.plans.clear()

    def made(self, board: Shape, rhs: Ints | None, transposed: bool = False) -> tuple[Plan, Ints | None]:
        """(the plan, the residual A x - b with the free variables 0 on the constraints when the
        plan was made now and rhs (b in line coordinates) was given, else None)."""
        key = (board, transposed and not _symmetric(board))
        if key in self.plans:
            self.plans.move_to_end(key)
            return self.plans[key], None
        made, resid = make(board, key[1], rhs)
        self.plans[key] = made
        if len(self.plans) > self.SIZE:
            self.plans.popitem(last=False)
        return made, resid


def make(board: Shape, transposed: bool, rhs: Ints | None) -> tuple[Plan, Ints | None]:
    """The symbolic chase writes its constraints straight into one float32 matrix (the residual
    of rhs in one more column), which dense_lu factors where it is (docs/MATH.md §18.8)."""
    z = zlayout(board, transposed)
    split = colours(z)
    if split is None:
        eye = np.eye(z.nfree, z.nfree + (rhs is not None), dtype=np.uint8)
        cons = np.empty((z.ncons, eye.shape[1]), dtype=np.float32)
        chase(z, eye, rhs, rhs_col=z.nfree, into=cons)
        del eye  # the identity's byte an entry is gone before the elimination
        resid = cons[:, z.nfree].astype(np.int64) if rhs is not None else None
        return Plan(z, dense_lu.System(cons[:, :z.nfree], z.k, overwrite=True)), resid
    var, con = split
    counts, width, folded = colour_identity(var, rhs is not None)
    # the constraints of colour 0 first, then those of colour 1, each in the chase's order: each
    # colour's block is a view of the one matrix
    rows = [np.flatnonzero(con == c) for c in (0, 1)]
    order = np.empty(z.ncons, dtype=np.int64)
    order[np.concatenate(rows)] = np.arange(z.ncons)
    cons = np.empty((z.ncons, folded.shape[1]), dtype=np.float32)
    chase(z, folded, rhs, rhs_col=width, into=cons, order=order)
    del folded
    resid = cons[order, width].astype(np.int64) if rhs is not None else None
    ends = (0, len(rows[0]), z.ncons)
    blocks = [(rows[c], np.flatnonzero(var == c), cons[ends[c]:ends[c + 1], :counts[c]]) for c in (0, 1)]
    return Plan(z, dense_lu.Blocks(blocks, z.nfree, z.k, overwrite=True)), resid


plan = _Plans()


def colour_identity(var: Ints, extra: bool) -> tuple[list[int], int, Arr]:
    """The symbolic chase's start when the game is two games, one per colour (docs/MATH.md
    §18.4): free variable i of colour c is column (its rank among colour c's) of that colour's
    expressions, so a line's places of either colour share the columns. Returns each colour's
    count, the width (the larger count), and the identity folded that way (one more zero column
    for b's residual when `extra`)."""
    index = np.zeros(len(var), dtype=np.int64)
    counts = [int((var == c).sum()) for c in (0, 1)]
    for c in (0, 1):
        index[var == c] = np.arange(counts[c])
    width = max(1, *counts)
    folded = np.zeros((len(var), width + extra), dtype=np.uint8)
    folded[np.arange(len(var)), index] = 1
    return counts, width, folded


def colours(z: ZLayout) -> tuple[Ints, Ints] | None:
    """(colour of each free variable, colour of each constraint) in the chase's order when the
    game is two independent games, one per colour of the checkerboard (docs/MATH.md §18.4): every
    offset has dr + dc even and every join keeps a cell's colour; None otherwise (and on the
    folded projective plane)."""
    lay = z.lay
    if lay.fold:
        return None
    for sts in (lay.stencils, lay.wrap_stencils):
        if any((s - lay.h + dp) % 2 for s, st in enumerate(sts) for dp in st):
            return None
    if lay.wrap and lay.cols % 2:
        return None
    # across a plain join the line index moves by `rows`; across a twisted one place j also
    # becomes cols - 1 - j
    if lay.cyclic and (lay.rows + lay.twisted * (lay.cols + 1)) % 2:
        return None
    places = np.arange(lay.cols)
    var: list[Ints] = [(v + places) % 2 for v in lay.free_rows]
    con: list[Ints] = []
    ends = np.array([lay.local.free_cols[i] for i in z.local.tcols], dtype=np.int64)
    firsts = [int(np.flatnonzero(row)[0]) for row in z.local.b_e]
    eqs = np.array([lay.local.cons_eqs[i] for i in firsts], dtype=np.int64)
    for r in range(lay.rows):
        if not lay.chased[r]:
            con.append((r + places) % 2)
        elif z.f:
            var.append(((r + lay.h) % lay.rows + ends) % 2)
            con.append((r + eqs) % 2)
    def joined(parts: list[Ints]) -> Ints:
        return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)
    return joined(var), joined(con)


def to_lines(z: ZLayout, cells: Ints) -> Ints:
    return line_chase.to_lines(z.lay, cells)


def _from_lines(z: ZLayout, lines: Ints) -> Ints:
    return line_chase.from_lines(z.lay, lines)


def lights(board: Shape, presses: Ints) -> Ints:
    """A x mod k for an (R, C) press array, straight from the rule and countlo.rules.place's
    conventions (independent of the chase; offsets land on distinct cells where it applies):
    each offset adds the presses moved by it, a rectangle at a time (wrapped, clipped, and read
    upside down where a column crosses a twisted join)."""
    rows, cols = board.rows, board.cols
    top = board.rules.topology
    if top == "projective":
        folded: Ints = line_chase.placed_sums(board, presses) % board.rules.states
        return folded
    out = np.zeros((rows, cols), dtype=np.int32)
    src = presses.astype(np.int32)
    for dr, dc in board.rules.rule.offsets:
        for (c0, c1), (d0, d1), crossed in _moves(cols, dc, top != "plane"):
            for (r0, r1), (e0, e1), _wrapped in _moves(rows, dr, top in ("torus", "klein")):
                block = src[r0:r1, c0:c1]
                if crossed and top in ("moebius", "klein"):  # row r lands on row R - 1 - r
                    out[rows - e1:rows - e0, d0:d1] += block[::-1]
                else:
                    out[e0:e1, d0:d1] += block
    res: Ints = out.astype(np.int64) % board.rules.states
    return res


def _moves(n: int, d: int, wrap: bool) -> list[tuple[tuple[int, int], tuple[int, int], bool]]:
    """Where positions 0..n-1 go when moved by d: (source range, target range, crossed the join
    an odd number of times) pieces, clipped on an open edge or wrapped mod n on a joined one."""
    if not wrap:
        if d >= n or -d >= n:
            return []
        return [((0, n - d), (d, n), False)] if d >= 0 else [((-d, n), (0, n + d), False)]
    rem, laps = d % n, d // n  # c + d = laps * n + (c + rem): one more lap from c = n - rem on
    pieces = [((0, n - rem), (rem, n), laps % 2 == 1)]
    if rem:
        pieces.append(((n - rem, n), (0, rem), laps % 2 == 0))
    return pieces


def _cells(board: Shape, v: Sequence[int], what: str) -> Ints:
    k = board.rules.states
    arr = np.asarray(v)
    if arr.shape != (board.cells,) or arr.dtype.kind not in "iub" or (
            len(arr) and (int(arr.min()) < 0 or int(arr.max()) >= k)):
        raise BadSizeError(_("{what} must hold {cells} values 0..{last}").format(what=what, cells=board.cells,
                                                                                last=k - 1))
    return arr.astype(np.int64).reshape(board.rows, board.cols)


def rhs(board: Shape, start: Sequence[int], target: Sequence[int] | None) -> Ints:
    """target - start (mod k) as an (R, C) array (all dark when target is None), each vector
    refused in engine.check_vector's words: the b of A x = b for the Z_k grid solvers."""
    k = board.rules.states
    b = -_cells(board, start, "the start")
    if target is not None:
        b += _cells(board, target, "the target")
    res: Ints = b % k
    return res


def solve_start(board: Shape, start: Sequence[int], target: Sequence[int] | None = None
                ) -> tuple[list[int] | None, list[int] | None, tuple[int, ...]]:
    """(presses, witness, orders) taking start to target (all dark when None)."""
    return solve(board, rhs(board, start, target))


def solve(board: Shape, b: Ints) -> tuple[list[int] | None, list[int] | None, tuple[int, ...]]:
    """(presses, witness, orders) for A x = b (mod k), b an (R, C) array: presses None when
    unsolvable, and then a witness w with w A = 0 and w.b != 0."""
    rhs = to_lines(zlayout(board), b)
    p, resid = plan.made(board, rhs)
    z = p.z
    k = z.k
    if resid is None:  # the plan was ready: the residual takes its own chase
        resid = chase(z, np.zeros((z.nfree, 1), dtype=np.uint8), rhs).cons[:, 0]
    y = p.system.solve((-resid) % k)
    if y is None:
        return None, _witness(board, b), p.orders
    x = chase(z, y.reshape(-1, 1), rhs, keep=True).presses
    assert x is not None
    presses = _from_lines(z, x[:, :, 0])
    assert np.array_equal(lights(board, presses), b), "the line chase over Z_k failed to reach the target"
    return presses.reshape(-1).tolist(), None, p.orders


def _patterns(board: Shape, transposed: bool, first: int, last: int) -> Ints:
    """(R, C, last - first): quiet patterns first..last-1 (of the transposed game when asked)."""
    p = plan(board, transposed)
    gens = p.system.gens[:, first:last]
    x = chase(p.z, gens, keep=True).presses
    assert x is not None
    return _from_lines(p.z, x)


def _witness(board: Shape, b: Ints) -> list[int]:
    """The first quiet pattern of the transposed game not orthogonal to b: the dot products of
    WITNESS_BLOCK generators at a time in one chase, which keeps their patterns when they fit in
    KEEP_BYTES (else that pattern is chased alone). A random b is separated by the first block
    almost surely (all 8 miss it with probability at most 2^-8 for a uniform b: their dot products
    with b are uniform on a group of at least 2^8 elements), so a kernel of a thousand generators
    costs a chase 8 wide, not 1000 (docs/MATH.md §18.4)."""
    p = plan(board, transposed=True)
    gens = p.system.gens
    for start in range(0, gens.shape[1], WITNESS_BLOCK):
        block = gens[:, start:start + WITNESS_BLOCK]
        keep = block.shape[1] * board.cells <= KEEP_BYTES
        done = chase(p.z, block, dot=to_lines(p.z, b), keep=keep)
        assert done.dots is not None
        hit = np.flatnonzero(done.dots)
        if not len(hit):
            continue
        first = int(hit[0])
        if done.presses is not None:
            pattern = _from_lines(p.z, done.presses[:, :, first])
        else:
            pattern = _patterns(board, True, start + first, start + first + 1)[:, :, 0]
        w: list[int] = pattern.reshape(-1).tolist()
        return w
    raise AssertionError("no left-kernel vector separates an unsolvable start: the maths is wrong")


def orders(board: Shape) -> tuple[int, ...]:
    return plan(board).orders


def quiet(board: Shape, count: int | None = None, transposed: bool = False) -> list[tuple[list[int], int]]:
    """Generators of the quiet patterns with their orders (the first `count` when given)."""
    p = plan(board, transposed)
    ords = p.orders[:count]
    out: list[tuple[list[int], int]] = []
    for first in range(0, len(ords), 16):
        last = min(len(ords), first + 16)
        pats = _patterns(board, transposed, first, last)
        out += [(pats[:, :, i].reshape(-1).tolist(), ords[first + i]) for i in range(last - first)]
    return out


class LineChaseModK:
    """This engine as an Engine: the invariants are the quiet patterns of the transposed game."""

    def applies(self, board: Board) -> bool:
        return isinstance(board, Shape) and applies(board)

    def check_size(self, board: Board) -> None:
        engine.check_size(board)

    def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome:
        return Outcome.of(*solve_start(engine.grid(board), start, target), engine.states(board))

    def orders(self, board: Board) -> tuple[int, ...]:
        return orders(engine.grid(board))

    def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]:
        return quiet(engine.grid(board), count)

    def invariants(self, board: Board) -> list[Vector]:
        return [g for g, _ in quiet(engine.grid(board), transposed=True)]


ENGINE = LineChaseModK()
