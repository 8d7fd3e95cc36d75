"""The light chase a whole row at a time, for two-state games on plane, cylinder and torus grids.

docs/MATH.md §18.1 states and proves what this module does; in short:

* It applies when k = 2, the topology is plane, cylinder or torus, the rule is a set of distinct
  offsets (any named rule but `rowcol`, any drawn mask), and, where an edge is joined, the board
  is wider (taller) than the rule's reach across that edge, so that every offset of a click lands
  on its own cell. Then the press matrix is a sum of shifts: row r of the lights is
  sum_s T_s x_{r + h - s}, where x_v is row v of the presses, h = -(least row offset) and T_s
  is the horizontal stencil of the rule's offsets on row offset (least + s), clipped on the plane
  and wrapped on the cylinder and torus. `applies` says exactly this.
* The equations of lights row r fix presses row r + h (the row of the rule's lowest reach),
  through T_0: equation c names column c - l_1 (l_1 the least column offset of that stencil) as
  its pivot, a linear recurrence with lags l - l_1 along the row; the few columns the recurrence
  cannot reach (at the edge, or at the seam of a joined edge) start as free, and the few
  equations without a pivot give a small system K phi = E that is the same for every row, solved
  once (§18.1): its solved part folds back into the row, its kernel adds new free variables and
  its left kernel gives constraints. Rows never named as a pivot (the top h rows; on the torus the
  rows the first equations wrap onto) are free; equation rows never chased are constraints.
* Every free variable is a press variable (or fixes one), so the presses are an injective affine
  function of the free variables y and A x = b iff C y = r: the constraints. Over GF(2) the
  expressions of a whole row are a (columns x words) uint64 array, one bit per free variable, and
  each step is a handful of shifted XORs; C y = r is solved by Gauss-Jordan on bit-packed rows.

It gives exactly what countlo.classic.general gives: solvability, a solution, the nullity, the
quiet patterns (a basis of the same space) and a witness (a quiet pattern of the transposed game,
which here is the game with every offset negated).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from countlo.board import Shape
from countlo.rules import Rule, Rules

Words = NDArray[np.uint64]
ONE = np.uint64(1)
WRAPPED = ("cylinder", "torus")
TOPOLOGIES = ("plane", *WRAPPED)
ORDER_LIMIT = 1 << 12  # the cycle 1 + z^e used to invert the row recurrence (see _Recurrence)


def applies(board: Shape) -> bool:
    """True when the row-at-a-time chase solves this board (docs/MATH.md §18.1)."""
    rules = board.rules
    offsets = rules.rule.offsets
    if rules.states != 2 or rules.topology not in TOPOLOGIES or not offsets:
        return False
    if len(set(offsets)) != len(offsets):
        return False
    drs = [dr for dr, _ in offsets]
    dcs = [dc for _, dc in offsets]
    if rules.topology in WRAPPED and board.cols <= max(dcs) - min(dcs):
        return False
    return not (rules.topology == "torus" and board.rows <= max(drs) - min(drs))


def _words(bits: int) -> int:
    return max(1, (bits + 63) // 64)


def _shift_xor(out: Words, x: Words, dc: int, wrap: bool) -> None:
    """out[c] ^= x[c - dc] (clipped on the plane, wrapped mod C on a joined edge)."""
    n = len(x)
    if wrap:
        dc %= n
        if dc == 0:
            out ^= x
            return
        out[dc:] ^= x[:n - dc]
        out[:dc] ^= x[n - dc:]
        return
    if dc >= n or -dc >= n:
        return
    if dc >= 0:
        out[dc:] ^= x[:n - dc]
    else:
        out[:n + dc] ^= x[-dc:]


class _Recurrence:
    """Solves s_t = u_t + sum_d s_{t - d} (d in lags, s_{<0} = 0) along axis 0: s = u / p(z)
    with p = 1 + sum_d z^d. When p divides 1 + z^e for a small e, s = (q u) / (1 + z^e) with
    q = (1 + z^e) / p: a few shifts and one running XOR with stride e; otherwise
    1 / p = prod_i p(z^(2^i)) modulo z^n (p(z)^(2^i) = p(z^(2^i)) over GF(2))."""

    def __init__(self, lags: Sequence[int]) -> None:
        self.lags = tuple(lags)
        self.q: tuple[int, ...] = ()
        self.e = 0
        if not self.lags:
            return
        p = 1
        for d in self.lags:
            p ^= 1 << d
        deg = p.bit_length() - 1
        r = 1  # z^e mod p
        for e in range(1, ORDER_LIMIT + 1):
            r <<= 1
            if r >> deg & 1:
                r ^= p
            if r == 1:
                q = _divide((1 << e) | 1, p)
                exps = tuple(i for i in range(q.bit_length()) if q >> i & 1)
                if len(exps) <= 2 * len(self.lags) + 4:
                    self.q, self.e = exps, e
                break

    def __call__(self, u: Words) -> Words:
        if not self.lags:
            return u
        n = len(u)
        v: Words = u.copy()
        if self.e:
            for a in self.q:
                if 0 < a < n:
                    v[a:] ^= u[:n - a]
            e = self.e
            if e >= n:
                return v
            pad = -n % e
            if pad:
                v = np.concatenate([v, np.zeros((pad, *v.shape[1:]), dtype=np.uint64)])
            shaped: Words = v.reshape(-1, e, *v.shape[1:])
            np.bitwise_xor.accumulate(shaped, axis=0, out=shaped)
            res: Words = shaped.reshape(-1, *v.shape[1:])[:n]
            return res
        step = 1
        while step < n:
            w: Words = v.copy()
            for d in self.lags:
                a = d * step
                if a < n:
                    w[a:] ^= v[:n - a]
            v = w
            step *= 2
        return v


def _divide(a: int, b: int) -> int:
    """a / b over GF(2)[z] (exact division assumed)."""
    q = 0
    db = b.bit_length()
    while a and a.bit_length() >= db:
        s = a.bit_length() - db
        q |= 1 << s
        a ^= b << s
    return q


@dataclass(frozen=True)
class _Local:
    """The row step's small system K phi = E (docs/MATH.md §18.1), solved once for every row:
    T K = [pivots], rank rho; phi at pivot column a is (T E)_a plus the row's new free variables
    times K's reduced row; (T E) past rho are constraints."""

    free_cols: tuple[int, ...]  # the row columns that the recurrence leaves free (local index i)
    cons_eqs: tuple[int, ...]  # the equations without a pivot (local index e)
    hmask: Words  # (C, f): all ones where homogeneous solution i is 1
    t: tuple[int, ...]  # T as row bitmasks over the equations
    rank: int
    pivcols: tuple[int, ...]
    reduced: tuple[int, ...]  # the reduced rows of K (bitmasks over the local free variables)
    nonpiv: tuple[int, ...]  # local free variables that stay free: new global free variables


@dataclass(frozen=True)
class Layout:
    rows: int
    cols: int
    topology: str
    h: int
    stencils: tuple[tuple[int, ...], ...]  # T_s: the column offsets on row offset (least + s)
    l1: int
    recurrence: _Recurrence
    local: _Local
    free_rows: tuple[int, ...]
    chased: tuple[bool, ...]  # per lights row: is it chased (else all its equations constrain)
    nfree: int  # free variables in all
    ncons: int  # constraints in all

    @property
    def wrap(self) -> bool:
        return self.topology in WRAPPED

    @property
    def span(self) -> int:
        return len(self.stencils) - 1

    def var_row(self, r: int, s: int) -> int | None:
        v = r + self.h - s
        if self.topology == "torus":
            return v % self.rows
        return v if 0 <= v < self.rows else None

    def pivot_range(self) -> tuple[int, int]:
        """Plane: the columns j = c - l1 named as pivots, [lo, hi] (empty when lo > hi)."""
        return max(0, -self.l1), min(self.cols - 1, self.cols - 1 - self.l1)


def _layout(rows: int, cols: int, topology: str, offsets: tuple[tuple[int, int], ...]) -> Layout:
    drs = [dr for dr, _ in offsets]
    lo_dr = min(drs)
    span = max(drs) - lo_dr
    stencils = tuple(tuple(sorted(dc for dr, dc in offsets if dr == lo_dr + s)) for s in range(span + 1))
    l0 = stencils[0]
    l1 = l0[0]
    lags = [dc - l1 for dc in l0[1:]]
    h = -lo_dr
    wrap = topology in WRAPPED
    if wrap:
        g = lags[-1] if lags else 0
        free_cols = tuple(range(cols - g, cols))
        cons_eqs = tuple((j + l1) % cols for j in free_cols)
    else:
        lo, hi = max(0, -l1), min(cols - 1, cols - 1 - l1)
        free_cols = tuple(j for j in range(cols) if not lo <= j <= hi)
        cons_eqs = tuple(c for c in range(cols) if not 0 <= c - l1 < cols)
    f = len(free_cols)
    # homogeneous solutions: free column i = 1, the others 0, pivots by the recurrence
    hom = [0] * cols
    for i, j in enumerate(free_cols):
        hom[j] = 1 << i
    order = [(j + cols - len(free_cols)) % cols for j in range(cols)] if wrap else list(range(cols))
    free_set = set(free_cols)
    for j in order:
        if j in free_set:
            continue
        acc = 0
        for d in lags:
            src = j - d
            if wrap:
                acc ^= hom[src % cols]
            elif src >= 0:
                acc ^= hom[src]
        hom[j] = acc
    kmat = []
    for e in cons_eqs:
        acc = 0
        for dc in l0:
            src = e - dc
            if wrap:
                acc ^= hom[src % cols]
            elif 0 <= src < cols:
                acc ^= hom[src]
        kmat.append(acc)
    t, rank, pivcols, reduced = _small_rref(kmat, f)
    nonpiv = tuple(i for i in range(f) if i not in pivcols)
    hmask = np.zeros((cols, max(f, 1)), dtype=np.uint64)
    for i in range(f):
        hmask[:, i] = [np.uint64(0xFFFFFFFFFFFFFFFF) if hom[j] >> i & 1 else np.uint64(0) for j in range(cols)]
    local = _Local(free_cols, cons_eqs, hmask, tuple(t), rank, tuple(pivcols), tuple(reduced), nonpiv)
    if topology == "torus":
        chased = tuple(r <= rows - 1 - span for r in range(rows))
        free_rows = tuple(sorted((r + h) % rows for r in range(rows) if not chased[r]))
    else:
        chased = tuple(0 <= r + h < rows for r in range(rows))
        pivoted = {r + h for r in range(rows) if chased[r]}
        free_rows = tuple(v for v in range(rows) if v not in pivoted)
    nchased = sum(chased)
    nfree = len(free_rows) * cols + nchased * len(nonpiv)
    ncons = (rows - nchased) * cols + nchased * (f - rank)
    return Layout(rows, cols, topology, h, stencils, l1, _Recurrence(lags), local, free_rows, chased,
                  nfree, ncons)


def _small_rref(rows: list[int], width: int) -> tuple[list[int], int, list[int], list[int]]:
    """Gauss-Jordan on bitmask rows, tracking the combination: (T, rank, pivot columns, reduced)."""
    m = len(rows)
    a = list(rows)
    t = [1 << i for i in range(m)]
    rank = 0
    pivcols: list[int] = []
    for col in range(width):
        p = next((i for i in range(rank, m) if a[i] >> col & 1), -1)
        if p < 0:
            continue
        a[rank], a[p] = a[p], a[rank]
        t[rank], t[p] = t[p], t[rank]
        for i in range(m):
            if i != rank and a[i] >> col & 1:
                a[i] ^= a[rank]
                t[i] ^= t[rank]
        pivcols.append(col)
        rank += 1
    return t, rank, pivcols, a[:rank]


@lru_cache(maxsize=8)
def layout(board: Shape) -> Layout:
    return _layout(board.rows, board.cols, board.rules.topology, board.rules.rule.offsets)


def chase(lay: Layout, fv: Words, rhs: NDArray[np.uint8] | None = None,
          keep: bool = False) -> tuple[Words, Words | None]:
    """One chase. `fv[i]` is the value (W words) of free variable i: unit bits for the symbolic
    chase, a 0/1 in bit 0 for a concrete one, one bit per pattern for many at once. `rhs` is
    the (R, C) 0/1 right-hand side b (bit 0 of word 0), None for b = 0. Returns the constraint
    values (b + A x on the equations never chased, folded by T) and, when `keep`, the presses
    (R, C, W)."""
    rows, cols = lay.rows, lay.cols
    w = fv.shape[1]
    loc = lay.local
    f = len(loc.free_cols)
    cons: list[Words] = []
    out = np.zeros((rows, cols, w), dtype=np.uint64) if keep else None
    x: dict[int, Words] = {}
    nxt = 0
    for v in lay.free_rows:
        x[v] = fv[nxt:nxt + cols]
        nxt += cols
    wrap = lay.wrap
    lo, hi = lay.pivot_range()
    for r in range(rows):
        y = np.zeros((cols, w), dtype=np.uint64)
        if rhs is not None:
            y[:, 0] ^= rhs[r].astype(np.uint64)
        first = 1 if lay.chased[r] else 0
        for s in range(first, lay.span + 1):
            src_row = lay.var_row(r, s)
            if src_row is None:
                continue
            for dc in lay.stencils[s]:
                _shift_xor(y, x[src_row], dc, wrap)
        if not lay.chased[r]:
            cons.append(y)
        else:
            v = r + lay.h
            if lay.topology == "torus":
                v %= rows
            xr = _row(lay, y, lo, hi)
            if f:
                e = np.empty((f, w), dtype=np.uint64)
                for i, c in enumerate(loc.cons_eqs):
                    acc = y[c].copy()
                    for dc in lay.stencils[0]:
                        src = c - dc
                        if wrap:
                            acc ^= xr[src % cols]
                        elif 0 <= src < cols:
                            acc ^= xr[src]
                    e[i] = acc
                te = np.zeros((f, w), dtype=np.uint64)
                for a, mask in enumerate(loc.t):
                    for b in range(f):
                        if mask >> b & 1:
                            te[a] ^= e[b]
                phi = np.zeros((f, w), dtype=np.uint64)
                new: dict[int, Words] = {}
                for j in loc.nonpiv:
                    new[j] = fv[nxt]
                    nxt += 1
                    phi[j] = new[j]
                for a in range(loc.rank):
                    val = te[a].copy()
                    for j in loc.nonpiv:
                        if loc.reduced[a] >> j & 1:
                            val ^= new[j]
                    phi[loc.pivcols[a]] = val
                if loc.rank < f:
                    cons.append(te[loc.rank:])
                for i in range(f):
                    if phi[i].any():
                        xr ^= loc.hmask[:, i:i + 1] & phi[i]
            x[v] = xr
        # forget the presses row no later equation reads
        if lay.topology == "torus":
            done = r - lay.span
            old = (done + lay.h) % rows if done >= 0 and lay.chased[done] else None
        else:
            old = r + lay.h - lay.span
        if old is not None and old in x:
            if out is not None:
                out[old] = x[old]
            del x[old]
    if out is not None:
        for v, arr in x.items():
            out[v] = arr
    both = np.concatenate(cons) if cons else np.zeros((0, w), dtype=np.uint64)
    return both, out


def _row(lay: Layout, y: Words, lo: int, hi: int) -> Words:
    """Presses row with the row's free columns 0 that satisfies every pivoted equation."""
    cols = lay.cols
    u = np.zeros_like(y)
    if lay.wrap:
        g = len(lay.local.free_cols)
        u[g:] = np.roll(y, -lay.l1, axis=0)[:cols - g]
        s = lay.recurrence(u)
        return np.roll(s, -g, axis=0)
    if lo > hi:
        return u
    u[lo:hi + 1] = y[lo + lay.l1:hi + 1 + lay.l1]
    s = lay.recurrence(u)
    if hi + 1 < cols:
        s[hi + 1:] = 0
    return s


# --- the constraints: Gauss-Jordan on bit-packed rows -------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The chase of one board with its constraints C y = r reduced: T C = [rank rows; 0]."""

    layout: Layout
    rank: int
    pivcols: NDArray[np.int64]  # the free variable behind each of the first `rank` rows
    reduced: Words  # (rank, words over the free variables): the reduced rows
    t: Words  # (ncons, words over the constraints): T

    @property
    def nullity(self) -> int:
        return self.layout.nfree - self.rank

    def particular(self, r: NDArray[np.uint8]) -> NDArray[np.uint8] | None:
        """A y with C y = r (0/1 per free variable), None when there is none."""
        lay = self.layout
        packed = _pack(r, self.t.shape[1])
        parity = np.bitwise_count(self.t & packed).sum(axis=1, dtype=np.int64) & 1
        if parity[self.rank:].any():
            return None
        y = np.zeros(lay.nfree, dtype=np.uint8)
        y[self.pivcols] = parity[:self.rank].astype(np.uint8)
        return y

    def kernel(self) -> Words:
        """(nfree, words over the nullity): bit q of row i is y_i of the q-th kernel basis vector
        (one per non-pivot column j: y_j = 1 and y at pivot a is bit j of reduced row a)."""
        lay = self.layout
        nonpiv = np.setdiff1d(np.arange(lay.nfree), self.pivcols)
        wq = _words(len(nonpiv))
        out = np.zeros((lay.nfree, wq), dtype=np.uint64)
        for q, j in enumerate(nonpiv.tolist()):
            word, bit = divmod(q, 64)
            out[j, word] |= ONE << np.uint64(bit)
            if self.rank:
                col = (self.reduced[:, j >> 6] >> np.uint64(j & 63)) & ONE
                out[self.pivcols, word] |= col << np.uint64(bit)
        return out


def _pack(bits: NDArray[np.uint8], words: int) -> Words:
    """0/1 per position -> words (bit i of word i // 64 is position i)."""
    padded = np.zeros(words * 64, dtype=np.uint8)
    padded[:len(bits)] = bits
    return np.packbits(padded.reshape(-1, 8)[:, ::-1], axis=1).reshape(-1).view(np.uint64).copy() \
        if np.little_endian else _pack_slow(padded, words)


def _pack_slow(padded: NDArray[np.uint8], words: int) -> Words:
    out = np.zeros(words, dtype=np.uint64)
    for i in np.nonzero(padded)[0].tolist():
        out[i >> 6] |= ONE << np.uint64(i & 63)
    return out


def _units(n: int) -> Words:
    out = np.zeros((n, _words(n)), dtype=np.uint64)
    idx = np.arange(n)
    out[idx, idx >> 6] = ONE << (idx & 63).astype(np.uint64)
    return out


def rref(c: Words, width: int) -> tuple[int, NDArray[np.int64], Words, Words]:
    """Gauss-Jordan over GF(2) on the rows of c (bits 0..width-1), tracking the combination:
    (rank, pivot columns, reduced rows, T) with T c = reduced rows then zero rows."""
    m = len(c)
    wc = c.shape[1]
    a = np.concatenate([c, _units(m)], axis=1) if m else np.zeros((0, wc + 1), dtype=np.uint64)
    rank = 0
    pivcols: list[int] = []
    for col in range(width):
        if rank == m:
            break
        word, bit = col >> 6, np.uint64(col & 63)
        hits = np.nonzero((a[rank:, word] >> bit) & ONE)[0]
        if not len(hits):
            continue
        p = rank + int(hits[0])
        if p != rank:
            a[[rank, p]] = a[[p, rank]]
        on = ((a[:, word] >> bit) & ONE).astype(bool)
        on[rank] = False
        if on.any():
            a[on, word:] ^= a[rank, word:]
        pivcols.append(col)
        rank += 1
    return rank, np.array(pivcols, dtype=np.int64), a[:rank, :wc].copy(), a[:, wc:].copy()


@lru_cache(maxsize=8)
def plan(board: Shape) -> Plan:
    lay = layout(board)
    cons, _ = chase(lay, _units(lay.nfree))
    rank, pivcols, reduced, t = rref(cons, lay.nfree)
    return Plan(lay, rank, pivcols, reduced, t)


def _transposed(board: Shape) -> Shape:
    """The game whose press matrix is the transpose: click i reaches j iff j reaches i."""
    offsets = board.rules.rule.offsets
    neg = tuple(sorted((-dr, -dc) for dr, dc in offsets))
    if neg == tuple(sorted(offsets)):
        return board
    rules = board.rules
    return Shape(board.rows, board.cols, Rules(rules.topology, Rule("mask", neg), 2, rules.target))


def quiet_patterns(board: Shape) -> Words:
    """(R, C, words): bit q of cell i is cell i of the q-th quiet pattern (a basis)."""
    p = plan(board)
    _, out = chase(p.layout, p.kernel(), keep=True)
    assert out is not None
    return out


def lights(board: Shape, presses: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A x over GF(2) for an (R, C) 0/1 press array (independent of the chase)."""
    rows, cols = board.rows, board.cols
    top = board.rules.topology
    out = np.zeros((rows, cols), dtype=np.uint8)
    for dr, dc in board.rules.rule.offsets:
        moved = np.zeros_like(out)
        if top == "torus":
            moved = np.roll(presses, (dr, dc), axis=(0, 1))
        else:
            src = presses
            if top == "cylinder":
                src = np.roll(src, dc, axis=1)
                dc = 0
            r0, r1 = max(0, dr), min(rows, rows + dr)
            c0, c1 = max(0, dc), min(cols, cols + dc)
            if r0 < r1 and c0 < c1:
                moved[r0:r1, c0:c1] = src[r0 - dr:r1 - dr, c0 - dc:c1 - dc]
        out ^= moved
    return out


def solve(board: Shape, b: Sequence[int]) -> tuple[list[int] | None, list[int] | None, int]:
    """(presses, witness, nullity) for A x = b over GF(2): presses None when unsolvable, and then
    a witness w with w A = 0 and w.b = 1."""
    p = plan(board)
    lay = p.layout
    rhs = np.asarray(b, dtype=np.uint8).reshape(board.rows, board.cols)
    zero = np.zeros((lay.nfree, 1), dtype=np.uint64)
    resid, _ = chase(lay, zero, rhs)
    y = p.particular((resid[:, 0] & ONE).astype(np.uint8))
    if y is None:
        return None, _witness(board, rhs), p.nullity
    _, x = chase(lay, y.astype(np.uint64).reshape(-1, 1), rhs, keep=True)
    assert x is not None
    presses = (x[:, :, 0] & ONE).astype(np.uint8)
    assert np.array_equal(lights(board, presses), rhs), "the row chase failed to reach the target"
    return presses.reshape(-1).tolist(), None, p.nullity


def _witness(board: Shape, rhs: NDArray[np.uint8]) -> list[int]:
    pats = quiet_patterns(_transposed(board))
    hit = np.bitwise_xor.reduce(pats[rhs.astype(bool)], axis=0)
    for word, val in enumerate(hit.tolist()):
        if val:
            bit = (val & -val).bit_length() - 1
            w = (pats[:, :, word] >> np.uint64(bit)) & ONE
            vals: list[int] = w.astype(np.uint8).reshape(-1).tolist()
            return vals
    raise AssertionError("no left-kernel vector separates an unsolvable start: the maths is wrong")


def _unpack(pats: Words, count: int | None) -> list[list[int]]:
    n = pats.shape[2] * 64
    out = []
    for q in range(n if count is None else min(count, n)):
        col = (pats[:, :, q >> 6] >> np.uint64(q & 63)) & ONE
        out.append(col.astype(np.uint8).reshape(-1).tolist())
    return out


def quiet_list(board: Shape, count: int | None = None) -> list[list[int]]:
    """A basis of the quiet patterns as 0/1 lists (the first `count` when given)."""
    nullity = plan(board).nullity
    return _unpack(quiet_patterns(board), nullity if count is None else min(count, nullity))


def invariant_list(board: Shape) -> list[list[int]]:
    """A basis of the w with w A = 0: the quiet patterns of the transposed game."""
    return quiet_list(_transposed(board))
