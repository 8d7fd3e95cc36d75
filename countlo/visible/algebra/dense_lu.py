"""Dense linear systems over Z_k by recursive elimination on unit pivots (docs/MATH.md §18.4).

For each prime power q = p^e of k (Chinese remainder theorem, as countlo.visible.algebra.smith): LU with
partial pivoting, P A = L U, where a column takes as pivot the first remaining row whose entry is
a unit (not divisible by p) and the rows below keep their multipliers. It is right-looking and
recursive over the columns: the left half is factored, the right half takes the left half's
pivots at once (a triangular solve on the pivot rows, then one float32 matrix product for the
rows below), then the right half is factored; a leaf of 16 columns goes one column at a time on a
transposed float64 copy and keeps the inverse of its pivots' triangle of multipliers, so a
triangular solve is split at the leaves' groups and ends in one product per group. The matrix is
float32 (half the memory traffic of float64, twice BLAS's speed) holding residues in -q/2..q/2:
a product of two is at most (q // 2)^2, so a product of w of them stays exact (below 2^24) while
w (q // 2)^2 does (16 million terms for q = 3); each column remembers how large its entries may
be and is reduced, or a product split, before it could pass 2^24. Reductions of float arrays are
x - q rint(x / q), several times faster than numpy's float remainder. A column without a
unit among the remaining rows is skipped: adding multiples of rows whose entries in it are
divisible by p keeps them so, so the remaining rows end with a block S on the skipped columns
whose entries are all divisible by p (zero for prime k). S is small next to the matrix (about
the nullity) and goes to countlo.visible.algebra.smith's Smith form; the skipped columns stay where they
are and take the later pivots' row operations a leaf late (a left-looking update, only when a
leaf skips a column and at the end). Forward and back substitution go a leaf's group of pivots
at a time (one product, then the group's inverted triangle). The factor q = 2 of k takes
bitpacked's elimination instead. The answers are the same as smith.factorize gives:
solvability, one solution, and the kernel as generators with their orders (listed by prime, then
by order). Run with one BLAS thread, as the command line does
(countlo.cli.threads): the products are many and mostly small.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from countlo.visible.algebra import bitpacked, smith

Floats = NDArray[np.float64]
Floats32 = NDArray[np.float32]
Ints = NDArray[np.int64]
EXACT32 = 1 << 24  # float32 holds every integer below this exactly
EXACT64 = 1 << 53  # and float64 below this
SUB = 16  # columns of a leaf of the recursion: one column at a time, on a float64 copy
PIVOT_CHUNK = 512  # pivots per step when the skipped columns catch up (bounds the multipliers' copy)
REDUCE_ROWS = 512  # rows per slice when a float32 block is reduced (bounds its float64 scratch)
PRODUCT_ROWS = 2048  # rows per slice of a product subtracted from the matrix (bounds its scratch)


def _mod(a: Any, q: int) -> Any:
    """a mod q into 0..q-1, in place for a float array of integers below 2^40 in size (a scalar:
    returned): x - q floor((x + 1/2) / q), whose quotient is never within 1/(2q) of an integer, so
    rounding cannot move it (several times faster than numpy's float remainder)."""
    if not isinstance(a, np.ndarray):
        return float(a - q * np.floor((a + 0.5) * (1.0 / q)))
    t = a.astype(np.float64)  # float32 arrays too: the quotient needs float64's precision
    t += 0.5
    t *= 1.0 / q
    np.floor(t, out=t)
    t *= q
    a -= t
    return a


def _smod(a: Any, q: int) -> Any:
    """a mod q into -q/2..q/2 (both ends allowed), in place: x - q rint(x / q) (rint, to the
    nearest, the half-way case only for even q, where either end will do). The
    symmetric residues make a product of two at most (q // 2)^2 in size, a quarter of 0..q-1's
    (docs/MATH.md §18.4); a float32 array goes a slice of rows at a time (bounded scratch)."""
    if a.dtype == np.float32 and a.ndim == 2 and a.shape[0] > REDUCE_ROWS:
        for i in range(0, a.shape[0], REDUCE_ROWS):
            _smod(a[i:i + REDUCE_ROWS], q)
        return a
    t = np.multiply(a, 1.0 / q, dtype=np.float64)
    np.rint(t, out=t)
    t *= q
    a -= t
    return a


def _limit(a: Any) -> int:
    return EXACT32 if a.dtype == np.float32 else EXACT64


def sub_product(t: Any, a: Any, b: Any, bound: int, q: int) -> int:
    """t -= a b exactly, in place, for entries of a and b at most q // 2 in size (symmetric
    residues) and of t below `bound`: the inner dimension goes in slices whose products keep every
    partial sum below t's exact integers (2^24 in float32), t reduced (symmetric) between them
    when it must be. Returns the new bound of t."""
    half = q // 2
    per = max(1, half * half)
    limit = _limit(t)
    w = a.shape[1]
    dt = t.dtype
    i = 0
    while i < w:
        if bound + (w - i) * per >= limit and bound > half + 1:
            _smod(t, q)
            bound = half + 1
        j = min(w, i + max(1, (limit - 1 - bound) // per))
        right = b[i:j].astype(dt, copy=False)
        for r in range(0, t.shape[0], PRODUCT_ROWS):  # the product's scratch: PRODUCT_ROWS rows at a time
            t[r:r + PRODUCT_ROWS] -= a[r:r + PRODUCT_ROWS, i:j].astype(dt, copy=False) @ right
        bound += (j - i) * per
        i = j
    return bound


class _Part:
    """P A = L U over Z_q with unit pivots, S on the skipped columns (see the module doc)."""

    def __init__(self, a: Any, p: int, e: int, overwrite: bool = False) -> None:
        q = p ** e
        m, n = a.shape
        self.p, self.e, self.q, self.m, self.n = p, e, q, m, n
        # float32 (half the memory traffic of float64, twice BLAS's speed): an entry is reduced
        # before a product could take it past 2^24 (EXACT32); a float32 matrix the caller gives up
        # (`overwrite`) is factored where it is, without a copy (docs/MATH.md §18.8)
        work: Floats32 = a if overwrite and a.dtype == np.float32 else a.astype(np.float32)
        size = max(-float(work.min()), float(work.max())) if work.size else 0.0
        if size >= EXACT32:  # not every entry is exact in float32: reduce first (in int64)
            for i in range(0, m, REDUCE_ROWS):
                work[i:i + REDUCE_ROWS] = a[i:i + REDUCE_ROWS] % q
            size = q
        self.work, self.perm = work, np.arange(m)
        # every column's entries not yet final are below this in size (they are reduced when used)
        self.bounds = np.full(n, int(size) + 1, dtype=np.int64)
        self.rank = 0
        self.pivot_list: list[int] = []
        self.breaks: list[int] = []  # the pivots whose column does not follow the previous pivot's
        self.skipped_list: list[int] = []
        self.synced = 0  # the skipped columns have taken the row operations of the first `synced` pivots
        # the leaves' pivots: group i is pivots group_starts[i] up to the next group's start (the
        # last: up to rank); its unit lower triangle of multipliers inverted mod q in lower_inverses[i]
        # and its upper triangle of pivot rows (on the pivot columns) in upper_inverses[i]
        self.group_starts: list[int] = []
        self.lower_inverses: list[Floats] = []
        self.upper_inverses: list[Floats] = []
        if n:
            self._factor(0, n)
        self._catch_up()
        rank, pivots, skipped = self.rank, self.pivot_list, self.skipped_list
        self.pivots = np.array(pivots, dtype=np.int64)
        self.skipped = np.array(skipped, dtype=np.int64)
        s = work[rank:][:, self.skipped].astype(np.int64) % q
        self.small = smith.PowerPart(s.tolist() if s.size else [[]] * s.shape[0], len(skipped), p, e)
        gens, self.orders = self.small.gens, self.small.orders
        if gens:
            z = np.zeros((n, len(gens)), dtype=np.float64)
            z[self.skipped] = np.array(gens, dtype=np.float64).T
            self.gens = self._back(np.zeros((rank, len(gens))), z)
        else:
            self.gens = np.zeros((n, 0), dtype=np.int64)

    def _low_product(self, t: Any, ra: int, rb: int, p0: int, p1: int, x: Any, bound: int) -> int:
        """t -= L x exactly for L the multipliers of pivots p0..p1 on rows ra..rb (`sub_product`), a
        run of pivots on side-by-side columns at a time: views of the matrix, never a copy of its
        columns. Returns t's new bound."""
        i = bisect.bisect_right(self.breaks, p0)
        ends = [*self.breaks[i:bisect.bisect_left(self.breaks, p1)], p1]
        s = p0
        for e in ends:
            c = self.pivot_list[s]
            bound = sub_product(t, self.work[ra:rb, c:c + e - s], x[s - p0:e - p0], bound, self.q)
            s = e
        return bound

    def _group(self, i: int) -> tuple[int, int]:
        """The pivots of group i."""
        return self.group_starts[i], self.group_starts[i + 1] if i + 1 < len(self.group_starts) else self.rank

    def _trsm(self, r0: int, r1: int, x: Any, bound: int) -> None:
        """x = L^-1 x mod q in place (symmetric residues) for L the unit lower triangle of pivots
        r0..r1's multipliers, x's entries below `bound`: split at the leaves' groups of pivots, the
        lower part losing the upper part's share by one product; a group's own triangle is one
        product with its inverse, kept from its leaf (docs/MATH.md §18.4)."""
        g0 = bisect.bisect_right(self.group_starts, r0) - 1
        g1 = bisect.bisect_left(self.group_starts, r1)
        if g1 - g0 == 1:  # within one group: a diagonal block of its inverse
            start = self.group_starts[g0]
            inv = self.lower_inverses[g0][r0 - start:r1 - start, r0 - start:r1 - start]
            x[...] = _smod(inv @ _smod(x.astype(np.float64), self.q), self.q)
            return
        rm = self.group_starts[(g0 + 1 + g1) // 2]
        h = rm - r0
        self._trsm(r0, rm, x[:h], bound)
        bound = self._low_product(x[h:], rm, r1, r0, rm, x[:h], bound)
        self._trsm(rm, r1, x[h:], bound)

    def _factor(self, a: int, b: int) -> None:
        """Columns a..b, which have taken every earlier pivot's row operations: right-looking and
        recursive (docs/MATH.md §18.4): the left half, then the right half takes the left half's
        pivots (a triangular solve on their rows, one product below), then the right half."""
        if b - a <= SUB:
            self._leaf(a, b)
            return
        mid = a + max(SUB, (b - a) // 2 // SUB * SUB)
        r0 = self.rank
        self._factor(a, mid)
        r1 = self.rank
        if r1 > r0:
            work = self.work
            bound = int(self.bounds[mid:b].max())
            self._trsm(r0, r1, work[r0:r1, mid:b], bound)
            if r1 < self.m:
                bound = self._low_product(work[r1:, mid:b], r1, self.m, r0, r1, work[r0:r1, mid:b], bound)
            self.bounds[mid:b] = bound
        self._factor(mid, b)

    def _leaf(self, a: int, b: int) -> None:
        """A few columns one at a time on a float64 copy of their rows from `rank`, transposed (a
        column's entries side by side): pivot on the first unit, keep the multipliers, clear the
        rest of the leaf (and its skipped columns); the pivots' triangle of multipliers is then
        inverted for the triangular solves."""
        q, p, m = self.q, self.p, self.m
        r0 = self.rank
        work = self.work
        panel: Floats = np.ascontiguousarray(work[r0:, a:b].T, dtype=np.float64)  # (columns, rows)
        order = np.arange(m - r0)
        skip: list[int] = []
        cls: list[int] = []
        rank = r0
        for cl in range(b - a):
            rl = rank - r0
            if rank == m:
                skip.append(cl)
                continue
            col = panel[cl, rl:]
            # the first unit; the entries are not reduced yet, but fmod by p finds the multiples of p all the same
            hits = np.flatnonzero(np.fmod(col[:64], p))
            if not len(hits) and len(col) > 64:
                hits = np.flatnonzero(np.fmod(col, p))
            if not len(hits):
                skip.append(cl)
                continue
            i = int(hits[0])
            if i:
                panel[:, [rl, rl + i]] = panel[:, [rl + i, rl]]
                order[[rl, rl + i]] = order[[rl + i, rl]]
            row = _smod(panel[:, rl], q)  # final, and small: the updates below stay exact
            inv = pow(int(row[cl]) % q, -1, q)
            mult = _smod(col[1:] * inv, q)
            col[1:] = mult
            if cl + 1 < b - a:
                panel[cl + 1:, rl + 1:] -= np.outer(row[cl + 1:], mult)
            if skip:
                panel[skip, rl + 1:] -= np.outer(row[skip], mult)
            cls.append(cl)
            rank += 1
        moved = np.flatnonzero(order != np.arange(m - r0))
        if len(moved):
            src = r0 + order[moved]
            work[r0 + moved] = work[src]
            self.perm[r0 + moved] = self.perm[src]
        work[r0:, a:b] = _smod(panel, q).T
        self.bounds[a:b] = q
        if cls:
            for c in cls:
                if not self.pivot_list or self.pivot_list[-1] != a + c - 1:
                    self.breaks.append(len(self.pivot_list))
                self.pivot_list.append(a + c)
            g = len(cls)
            block = panel[cls, :g].T  # block[i, j]: the entry of pivot i's row in pivot j's column
            inv_low = np.eye(g)  # multipliers below the diagonal: L inv_low = 1, a row at a time
            for i in range(1, g):
                inv_low[i, :i] = _smod(-(block[i, :i] @ inv_low[:i, :i]), q)
            inv_up = np.zeros((g, g))  # the pivot rows on and above it: U inv_up = 1, from the last row up
            for i in range(g - 1, -1, -1):
                unit = np.zeros(g)
                unit[i] = 1
                rest = unit - block[i, i + 1:] @ inv_up[i + 1:]
                inv_up[i] = _smod(rest * pow(int(block[i, i]) % q, -1, q), q)
            self.group_starts.append(r0)
            self.lower_inverses.append(inv_low)
            self.upper_inverses.append(inv_up)
        self.rank = rank
        if skip:
            # the earlier skipped columns take the pivots since they were last brought level (this
            # leaf's among them), then the new ones, level already, join them
            self._catch_up()
            self.skipped_list += [a + s for s in skip]

    def _catch_up(self) -> None:
        """The skipped columns take the row operations of the pivots since `synced` (a left-looking
        update of a few columns, on a float64 copy, PIVOT_CHUNK pivots at a time)."""
        r, s = self.rank, self.synced
        self.synced = r
        if r == s or not self.skipped_list:
            return
        q, work = self.q, self.work
        cols = self.skipped_list
        x = work[s:][:, cols].astype(np.float64)
        bound = int(self.bounds[cols].max())
        for c0 in range(s, r, PIVOT_CHUNK):
            c1 = min(r, c0 + PIVOT_CHUNK)
            top = x[c0 - s:c1 - s]
            self._trsm(c0, c1, top, bound)
            if c1 < self.m:
                bound = self._low_product(x[c1 - s:], c1, self.m, c0, c1, top, bound)
        work[s:, cols] = _smod(x, q)
        self.bounds[cols] = q

    def _back(self, c: Floats, y: Floats) -> Ints:
        """Back-substitution: y at the pivot columns from U y = c (y already set elsewhere), a group
        of pivots at a time from the last: what the columns set so far contribute is one product
        (the group's own columns, and the earlier pivots' where its rows hold multipliers, are
        still 0), then the group's inverted triangle."""
        q = self.q
        ys: Floats32 = _smod(y, q).astype(np.float32)
        for i in range(len(self.group_starts) - 1, -1, -1):
            r0, r1 = self._group(i)
            part = _smod(c[r0:r1].astype(np.float64), q).astype(np.float32)
            sub_product(part, self.work[r0:r1], ys, q, q)
            ys[self.pivots[r0:r1]] = _smod(self.upper_inverses[i] @ _smod(part.astype(np.float64), q), q)
        out: Ints = _mod(ys.astype(np.float64), q).astype(np.int64)
        return out

    def solve(self, b: Ints) -> Ints | None:
        q = self.q
        c: Floats32 = (b[self.perm] % q).astype(np.float32).reshape(-1, 1)
        bound = q
        for i in range(len(self.group_starts)):  # forward substitution with L, a group of pivots at a time
            r0, r1 = self._group(i)
            c[r0:r1] = _smod(self.lower_inverses[i] @ _smod(c[r0:r1].astype(np.float64), q), q)
            if r1 < self.m:
                bound = self._low_product(c[r1:], r1, self.m, r0, r1, c[r0:r1], bound)
        rest = _mod(c[self.rank:, 0].astype(np.float64), q)
        z = self.small.solve([int(v) for v in rest])
        if z is None:
            return None
        y = np.zeros((self.n, 1), dtype=np.float64)
        if len(self.skipped):
            y[self.skipped, 0] = z
        return self._back(c[:self.rank].astype(np.float64), y).reshape(-1)


class _Gf2Part:
    """q = 2: the bit-packed elimination of countlo.visible.algebra.bitpacked (64 columns a word,
    four Russians): one elimination of [A | b] per right-hand side, the kernel from
    A's reduction."""

    def __init__(self, a: Any) -> None:
        m, n = a.shape
        self.n = n
        words = max(1, (n + 63) // 64)
        packed = np.zeros((m, words), dtype=np.uint64)
        bits = np.zeros((min(m, REDUCE_ROWS), words * 64), dtype=np.uint8)
        for i in range(0, m, REDUCE_ROWS):  # a slice of rows at a time: a bounded scratch (any dtype of integers)
            rows = a[i:i + REDUCE_ROWS]
            part = bits[:len(rows)]
            part[:, :n] = rows.astype(np.int64) & 1
            packed[i:i + len(rows)] = np.packbits(part, axis=1, bitorder="little").view(np.uint64)
        self.plan = bitpacked.System(packed, n)
        self.orders = [2] * self.plan.nullity
        kernel = self.plan.kernel()  # (n, words): bit j of row i is y_i of kernel vector j
        unpacked = np.unpackbits(kernel.view(np.uint8), axis=1, bitorder="little")[:, :len(self.orders)]
        self.gens: Ints = unpacked.astype(np.int64)

    def solve(self, b: Ints) -> Ints | None:
        y = self.plan.particular((b & 1).astype(np.uint8))
        return None if y is None else y.astype(np.int64)


def float_parts(k: int) -> int:
    """How many float32 copies of the matrix a System over Z_k keeps: one per prime power of k
    other than 2 (the factor 2 is bit-packed)."""
    return sum(1 for p, e in smith.factor(k) if p ** e != 2)


class System:
    """A y = b (mod k) for a dense integer matrix A, factored once; `gens` (n, g) with `orders`
    generate the solutions of A y = 0 (their direct sum). A float32 A of exact integers given
    with `overwrite` becomes the last prime power's factors in place (the others copy it first):
    no copy for a k with one prime power besides 2 (docs/MATH.md §18.8)."""

    def __init__(self, a: Any, k: int, overwrite: bool = False) -> None:
        fs = smith.factor(k)
        self.k, self.n = k, a.shape[1]
        floats = [i for i, (p, e) in enumerate(fs) if p ** e != 2]
        last = floats[-1] if floats and overwrite else -1
        made: dict[int, _Part | _Gf2Part] = {}
        for i in sorted(range(len(fs)), key=lambda i: i == last):  # the one that overwrites A comes last
            p, e = fs[i]
            made[i] = _Gf2Part(a) if p ** e == 2 else _Part(a, p, e, overwrite=i == last)
        self.parts: list[_Part | _Gf2Part] = [made[i] for i in range(len(fs))]
        self.lifts = []
        for p, e in fs:
            m = k // p ** e
            self.lifts.append(m * pow(m, -1, p ** e) % k)
        cols = [part.gens * lift % k if len(self.parts) > 1 else part.gens
                for part, lift in zip(self.parts, self.lifts)]
        self.gens: Ints = np.concatenate(cols, axis=1) if cols else np.zeros((self.n, 0), dtype=np.int64)
        self.orders: list[int] = [o for part in self.parts for o in part.orders]

    def solve(self, b: Sequence[int] | Ints) -> Ints | None:
        arr = np.asarray(b, dtype=np.int64)
        out = np.zeros(self.n, dtype=np.int64)
        for part, lift in zip(self.parts, self.lifts):
            y = part.solve(arr)
            if y is None:
                return None
            out = (out + lift * y) % self.k
        return out


class Blocks:
    """A y = b (mod k) for a block-diagonal A: independent systems, each on its own equations
    (rows) and unknowns (cols), factored apart (two halves: a quarter of the elimination), with
    System's answers: `gens` (n, g) and `orders`, each prime's generators listed by order."""

    def __init__(self, blocks: Sequence[tuple[Ints, Ints, Any]], n: int, k: int, overwrite: bool = False) -> None:
        self.k, self.n = k, n
        self.blocks = [(rows, cols, System(a, k, overwrite)) for rows, cols, a in blocks]
        fs = smith.factor(k)
        gens: list[Ints] = []
        self.orders: list[int] = []
        for i in range(len(fs)):
            listed: list[tuple[int, Ints]] = []
            for _rows, cols, sys in self.blocks:
                part, lift = sys.parts[i], sys.lifts[i]
                for j, o in enumerate(part.orders):
                    g = np.zeros(n, dtype=np.int64)
                    g[cols] = part.gens[:, j] * lift % k if len(fs) > 1 else part.gens[:, j]
                    listed.append((o, g))
            listed.sort(key=lambda og: og[0])  # stable: as one System lists them
            self.orders += [o for o, _g in listed]
            gens += [g for _o, g in listed]
        self.gens: Ints = np.array(gens, dtype=np.int64).T.reshape(n, len(gens))

    def solve(self, b: Sequence[int] | Ints) -> Ints | None:
        arr = np.asarray(b, dtype=np.int64)
        out = np.zeros(self.n, dtype=np.int64)
        for rows, cols, sys in self.blocks:
            y = sys.solve(arr[rows])
            if y is None:
                return None
            out[cols] = y
        return out
