"""Dense linear systems over Z_k by blocked elimination on unit pivots (docs/MATH.md §18.4).

For each prime power q = p^e of k (Chinese remainder theorem, as countlo.classic.zk): columns are
taken in blocks of 128; inside a block a column is pivoted on the first remaining row whose entry
is a unit (not divisible by p), as in LU with partial pivoting, and the rows below keep their
multipliers. The block's rows are worked on as a contiguous float64 copy, 16 columns at a time:
each column step updates only the rest of its 16, the rest of the block then takes one product.
When the block is done the rest of the matrix is updated at once by one float32 matrix product
(exact: its entries stay below 2^24). The matrix itself is float32 (half the memory traffic of
float64): what is not in use yet is reduced mod q only when it is (a column when it is pivoted,
a row when it becomes a pivot row) or before it could pass 2^24. Reductions of float arrays are
x - q floor((x + 1/2) / q), several times faster than numpy's float remainder. A column without
a unit among the remaining rows is skipped: adding multiples of rows whose entries in it are
divisible by p keeps them so, so the remaining rows end with a block S on the skipped columns
whose entries are all divisible by p (zero for prime k). S is small next to the matrix (about
the nullity) and goes to countlo.classic.zk's Smith form; the skipped columns are kept side by
side and updated with the blocks' products. Forward and back substitution go a block of pivots
at a time as well. The factor q = 2 of k takes rowchase's bit-packed elimination instead. The
answers are the same as zk.factorize gives: solvability, one solution, and the kernel as
generators with their orders (listed by prime, then by order). The products are small: run with
one BLAS thread, as the command line does (countlo.cli.threads).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from countlo.classic import rowchase, zk

Floats = NDArray[np.float64]
Floats32 = NDArray[np.float32]
EXACT32 = 1 << 24  # float32 holds every integer below this exactly
Ints = NDArray[np.int64]
SUB = 16  # columns per step inside a block (its updates of the rest of the block are one product)
BLOCK = 128  # columns per block; a product's entries stay below 128 * 254^2 < 2^24 (exact in float32)


def _mod(a: Any, q: int) -> Any:
    """a mod q in place for a float array of integers below 2^40 in size (a scalar: returned): x
    - q floor((x + 1/2) / q), whose quotient is never within 1/(2q) of an integer, so rounding
    cannot move it (several times faster than numpy's float remainder)."""
    if not isinstance(a, np.ndarray):
        return float(a - q * np.floor((a + 0.5) * (1.0 / q)))
    t = a.astype(np.float64)  # float32 arrays too: the quotient needs float64's precision
    t += 0.5
    t *= 1.0 / q
    np.floor(t, out=t)
    t *= q
    a -= t
    return a


def _update(target: Any, l11: Floats, l21: Floats, q: int, bound: int = 0) -> int:
    """The pivots' row operations on other columns, in place: `target`'s first len(l11) rows (the
    pivot rows) become U = L11^-1 A (forward substitution, reduced), the rows below lose L21 U
    by one float32 matrix product (exact: see BLOCK). A float32 target whose entries are below
    `bound` in size is reduced first when they could leave float32's exact integers; returns the
    new bound."""
    step = len(l11) * (q - 1) ** 2
    if target.dtype == np.float32 and bound + step >= EXACT32:
        _mod(target, q)
        bound = q
    top = target[:len(l11)]
    _mod(top, q)
    for i in range(1, len(l11)):
        lrow = l11[i, :i]
        if lrow.any():
            top[i] = _mod(top[i] - lrow @ top[:i], q)
    if len(l21):
        target[len(l11):] -= l21.astype(np.float32) @ top.astype(np.float32)
    return bound + step


class _Part:
    """P A = L U over Z_q with unit pivots, S on the skipped columns (see the module doc)."""

    def __init__(self, a: Ints, p: int, e: int) -> None:
        q = p ** e
        m, n = a.shape
        # float32 (half the memory traffic of float64): the blocks' products only add below 2^24 to
        # each entry, and an entry is reduced before it could pass 2^24 (EXACT32)
        work: Floats32 = a.astype(np.float32)
        if a.size and (int(a.min()) < 0 or int(a.max()) >= q):
            _mod(work, q)
        bound = q  # every entry of work not yet final is below this in size
        perm = np.arange(m)
        pivots: list[int] = []
        skipped: list[int] = []
        held: Floats32 = np.zeros((m, 0), dtype=np.float32)  # finished blocks' skipped columns, all rows
        held_bound = 0
        rank = 0
        for j0 in range(0, n, BLOCK):
            j1 = min(n, j0 + BLOCK)
            r0 = rank
            # the block's rows from r0 as a contiguous copy: the column steps below touch only it
            panel: Floats = _mod(work[r0:, j0:j1].astype(np.float64), q)
            skip: list[int] = []  # the block's skipped columns (local)
            for s0 in range(j0, j1, SUB):
                s1 = min(j1, s0 + SUB)
                sr0 = rank
                for c in range(s0, s1):
                    cl, rl = c - j0, rank - r0
                    if rank == m:
                        skip.append(cl)
                        continue
                    col = _mod(panel[rl:, cl].copy(), q)
                    panel[rl:, cl] = col
                    hits = np.flatnonzero(_mod(col, p)) if p != q else np.flatnonzero(col)
                    if not len(hits):
                        skip.append(cl)
                        continue
                    i = int(hits[0])
                    if i:
                        g = rank + i
                        panel[[rl, rl + i]] = panel[[rl + i, rl]]
                        work[[rank, g]] = work[[g, rank]]
                        held[[rank, g]] = held[[g, rank]]
                        perm[[rank, g]] = perm[[g, rank]]
                    row = panel[rl]
                    _mod(row, q)  # final: rows above `rank` are never changed again
                    inv = pow(int(row[cl]), -1, q)
                    mult = _mod(panel[rl + 1:, cl] * inv, q)
                    panel[rl + 1:, cl] = mult
                    # the rest of the block stays unreduced (lazy) until used; skipped columns hold data,
                    # not multipliers: every row operation reaches them
                    if c + 1 < s1:
                        panel[rl + 1:, cl + 1:s1 - j0] -= np.outer(mult, row[cl + 1:s1 - j0])
                    if skip:
                        panel[rl + 1:, skip] -= np.outer(mult, row[skip])
                    pivots.append(c)
                    rank += 1
                if rank > sr0 and s1 < j1:  # the rest of the block: one matrix product
                    cs = np.array(pivots[sr0:rank]) - j0
                    _update(panel[sr0 - r0:, s1 - j0:], panel[sr0 - r0:rank - r0, cs], panel[rank - r0:, cs], q)
            work[r0:, j0:j1] = panel
            if rank > r0:
                cs = np.array(pivots[r0:rank]) - j0
                if j1 < n:
                    bound = _update(work[r0:, j1:], panel[:rank - r0, cs], panel[rank - r0:, cs], q, bound)
                if held.shape[1]:
                    held_bound = _update(held[r0:], panel[:rank - r0, cs], panel[rank - r0:, cs], q, held_bound)
            if skip:
                skipped += [j0 + s for s in skip]
                held = np.concatenate([held, work[:, [j0 + s for s in skip]]], axis=1)
                held_bound = max(held_bound, q + BLOCK * (q - 1) ** 2)
        if skipped:
            work[:, skipped] = held
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
        """Back-substitution: y at the pivot columns from U y = c (y already set elsewhere), a
        block of pivot rows at a time: what the columns set so far contribute is one product."""
        q = self.q
        work = self.work
        for i1 in range(self.rank, 0, -BLOCK):
            i0 = max(0, i1 - BLOCK)
            cols = self.pivots[i0:i1]
            part = c[i0:i1] - work[i0:i1].astype(np.float64) @ y  # the block's own pivot columns of y are still 0
            for i in range(i1 - 1, i0 - 1, -1):
                val = part[i - i0] - work[i, cols[i - i0 + 1:]] @ y[cols[i - i0 + 1:]]
                y[int(cols[i - i0])] = _mod(_mod(val, q) * self.inverses[i], q)
        out: Ints = _mod(y, q).astype(np.int64)
        return out

    def solve(self, b: Ints) -> Ints | None:
        q = self.q
        c = (b[self.perm] % q).astype(np.float64)
        work = self.work
        for i0 in range(0, self.rank, BLOCK):  # forward substitution with L, a block of pivots at a time
            i1 = min(self.rank, i0 + BLOCK)
            lower = work[i0:, self.pivots[i0:i1]]  # the block's multipliers (below its diagonal)
            for i in range(i0, i1):
                ci = float(c[i] % q)
                c[i] = ci
                if ci and i + 1 < i1:
                    c[i + 1:i1] -= lower[i + 1 - i0:i1 - i0, i - i0] * ci
            if i1 < self.m:
                c[i1:] -= lower[i1 - i0:] @ c[i0:i1]  # entries below q^2 * m: exact, reduced later
        _mod(c, q)
        z = self.small.solve([int(v) for v in c[self.rank:]])
        if z is None:
            return None
        y = np.zeros(self.n, dtype=np.float64)
        if len(self.skipped):
            y[self.skipped] = z
        return self._back(c[:self.rank].reshape(-1, 1), y.reshape(-1, 1)).reshape(-1) if self.rank else (y % q).astype(
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


class Blocks:
    """A y = b (mod k) for a block-diagonal A: independent systems, each on its own equations
    (rows) and unknowns (cols), factored apart (two halves: a quarter of the elimination), with
    System's answers: `gens` (n, g) and `orders`, each prime's generators listed by order."""

    def __init__(self, blocks: Sequence[tuple[Ints, Ints, Ints]], n: int, k: int) -> None:
        self.k, self.n = k, n
        self.blocks = [(rows, cols, System(a, k)) for rows, cols, a in blocks]
        fs = zk.factor(k)
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
