"""Dense linear systems over Z_k by blocked elimination on unit pivots (docs/MATH.md §18.4).

For each prime power q = p^e of k (Chinese remainder theorem, as countlo.classic.zk): columns are
taken in blocks of 128; inside a block a column is pivoted on the first remaining row whose entry
is a unit (not divisible by p), as in LU with partial pivoting, and the rows below keep their
multipliers; the rest of the matrix is then updated at once by one float32 matrix product (exact:
its entries stay below 2^24). Everything is an integer far below 2^53 in float64, so what is not
in use yet is reduced mod q only when it is: a column when it is pivoted, a row when it becomes
a pivot row. A column without a unit among the remaining rows is skipped: adding multiples of
rows whose entries in it are divisible by p keeps them so, so the remaining rows end with a
block S on the skipped columns whose entries are all divisible by p (zero for prime k). S is
small next to the matrix (about the nullity) and goes to countlo.classic.zk's Smith form. The
factor q = 2 of k takes rowchase's bit-packed elimination instead. The answers are the same as
zk.factorize gives: solvability, one solution, and the kernel as
generators with their orders (listed by prime, then by order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from countlo.classic import rowchase, zk

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
BLOCK = 128  # columns per block; a product's entries stay below 128 * 254^2 < 2^24 (exact in float32)


class _Part:
    """P A = L U over Z_q with unit pivots, S on the skipped columns (see the module doc)."""

    def __init__(self, a: Ints, p: int, e: int) -> None:
        q = p ** e
        m, n = a.shape
        work: Floats = (a % q).astype(np.float64)
        perm = np.arange(m)
        pivots: list[int] = []
        skipped: list[int] = []
        rank = 0
        for j0 in range(0, n, BLOCK):
            j1 = min(n, j0 + BLOCK)
            work[rank:, j0:j1] %= q  # the active block, reduced (the trailing part was left lazy)
            r0 = rank
            for c in range(j0, j1):
                if rank == m:
                    skipped.append(c)
                    continue
                col = work[rank:, c] % q
                work[rank:, c] = col
                hits = np.flatnonzero(col % p)
                if not len(hits):
                    skipped.append(c)
                    continue
                i = rank + int(hits[0])
                if i != rank:
                    work[[rank, i]] = work[[i, rank]]
                    perm[[rank, i]] = perm[[i, rank]]
                row = work[rank]
                row %= q  # final: rows above `rank` are never changed again
                inv = pow(int(row[c]), -1, q)
                mult = work[rank + 1:, c] * inv % q
                work[rank + 1:, c] = mult
                # the rest of the block and the skipped columns stay unreduced (lazy) until used
                if c + 1 < j1:
                    work[rank + 1:, c + 1:j1] -= np.outer(mult, row[c + 1:j1])
                if skipped:  # skipped columns hold data, not multipliers: every row operation reaches them
                    sk = np.array(skipped)
                    work[rank + 1:, sk] -= np.outer(mult, row[sk])
                pivots.append(c)
                rank += 1
            if rank > r0 and j1 < n:
                cs = pivots[r0:rank]
                top = work[r0:rank, j1:]
                top %= q
                for i in range(1, rank - r0):  # U12 = L11^-1 A12 (forward substitution)
                    lrow = work[r0 + i, cs[:i]]
                    if lrow.any():
                        top[i] = (top[i] - lrow @ top[:i]) % q
                if rank < m:
                    work[rank:, j1:] -= work[rank:, cs].astype(np.float32) @ top.astype(np.float32)
        self.p, self.e, self.q, self.m, self.n = p, e, q, m, n
        self.work, self.perm, self.rank = work, perm, rank
        self.pivots = np.array(pivots, dtype=np.int64)
        self.skipped = np.array(skipped, dtype=np.int64)
        s = (work[rank:][:, self.skipped] % q).astype(np.int64)
        self.small = zk._PowerPart(s.tolist() if s.size else [[]] * s.shape[0], len(skipped), p, e)
        self.inverses = np.array([pow(int(work[i, c]) % q, -1, q) for i, c in enumerate(pivots)], dtype=np.float64)
        gens, self.orders = self.small.gens, self.small.orders
        if gens:
            z = np.zeros((n, len(gens)), dtype=np.float64)
            z[self.skipped] = np.array(gens, dtype=np.float64).T
            self.gens = self._back(np.zeros((rank, len(gens))), z)
        else:
            self.gens = np.zeros((n, 0), dtype=np.int64)

    def _back(self, c: Floats, y: Floats) -> Ints:
        """Back-substitution: y at the pivot columns from U y = c (y already set elsewhere)."""
        q = self.q
        work = self.work
        for i in range(self.rank - 1, -1, -1):
            col = int(self.pivots[i])
            y[col] = (c[i] - work[i] @ y) % q * self.inverses[i] % q  # y[col] is still 0 here
        out: Ints = (y % q).astype(np.int64)
        return out

    def solve(self, b: Ints) -> Ints | None:
        q = self.q
        c = (b[self.perm] % q).astype(np.float64)
        work = self.work
        for i in range(self.rank):
            if c[i]:
                col = int(self.pivots[i])
                c[i + 1:] = (c[i + 1:] - work[i + 1:, col] * c[i]) % q
        z = self.small.solve([int(v) for v in c[self.rank:]])
        if z is None:
            return None
        y = np.zeros(self.n, dtype=np.float64)
        if len(self.skipped):
            y[self.skipped] = z
        return self._back(c[:self.rank].copy(), y.reshape(-1, 1)).reshape(-1) if self.rank else (y % q).astype(
            np.int64)


class _Width:
    """What rowchase.Plan reads of its layout: the number of unknowns."""

    def __init__(self, nfree: int) -> None:
        self.nfree = nfree


class _Gf2Part:
    """q = 2: the bit-packed elimination of countlo.classic.rowchase (64 columns a word, four
    Russians), through its Plan: one elimination of [A | b] per right-hand side, the kernel from
    A's reduction."""

    def __init__(self, a: Ints) -> None:
        m, n = a.shape
        self.n = n
        words = max(1, (n + 63) // 64)
        bits = np.zeros((m, words * 64), dtype=np.uint8)
        bits[:, :n] = a & 1
        packed = np.packbits(bits, axis=1, bitorder="little").view(np.uint64)
        self.plan = rowchase.Plan(cast(Any, _Width(n)), packed, {}, {})
        self.orders = [2] * self.plan.nullity
        kernel = self.plan.kernel()  # (n, words): bit j of row i is y_i of kernel vector j
        unpacked = np.unpackbits(kernel.view(np.uint8), axis=1, bitorder="little")[:, :len(self.orders)]
        self.gens: Ints = unpacked.astype(np.int64)

    def solve(self, b: Ints) -> Ints | None:
        y = self.plan.particular((b & 1).astype(np.uint8))
        return None if y is None else y.astype(np.int64)


class System:
    """A y = b (mod k) for a dense integer matrix A, factored once; `gens` (n, g) with `orders`
    generate the solutions of A y = 0 (their direct sum)."""

    def __init__(self, a: Ints, k: int) -> None:
        fs = zk.factor(k)
        self.k, self.n = k, a.shape[1]
        self.parts: list[_Part | _Gf2Part] = [_Gf2Part(a) if p ** e == 2 else _Part(a, p, e) for p, e in fs]
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
