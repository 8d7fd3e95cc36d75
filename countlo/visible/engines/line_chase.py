"""The light chase a whole line at a time, for two-state grid games (docs/MATH.md §18.1).

* It applies when k = 2, the topology is plane, cylinder, torus, Moebius band, Klein bottle or
  projective plane, the rule is a set of distinct offsets (any named rule but `rowcol`, any drawn
  mask; on the projective plane one symmetric under the vertical flip), and where
  an edge is joined the board is longer across it than the rule's reach, so that every offset of
  a click lands on its own cell; on the twisted joins the rule must also reach both ways across
  them. Then, in line coordinates (board rows; board columns on the Moebius band and the Klein
  bottle, so that the twisted join lies across the chase), lights line r is
  sum_s T_s x_{r + h - s}: x_v is presses line v, h = -(least line offset), T_s the stencil of
  the offsets on line offset (least + s), clipped or wrapped along the line, and a line reached
  across a twisted join read upside down. The projective plane (both joins twisted) is folded
  (docs/MATH.md §18.6): line r is the ring of 2C places made of board rows r and R-1-r; the top
  reads its own lines upside down, the middle reads them turned by C, and an odd middle row is
  one more line whose C presses are free and whose C equations constrain. `applies` says exactly
  this; projective rules without the vertical mirror, `rowcol`, graphs and k > 2 stay with
  countlo.visible.solutions.
* The equations of lights line r fix presses line r + h through T_0: equation c names place
  c - l_1 (l_1 the least place offset of that stencil) as its pivot, a linear recurrence along
  the line; the few places it cannot reach (an edge, or the start of a wrapped line) start free
  and the few equations without a pivot give a small system K phi = E, the same for every line,
  solved once: its solved part folds back into the line, its kernel adds free variables and its
  left kernel constraints. Lines never named as a pivot are free; lights lines never chased are
  constraints.
* Every free variable is a press variable (or fixes one), so the presses are an injective affine
  function of the free variables y and A x = b iff C y = r, the constraints. Over GF(2) the
  expressions of a whole line are a (places x words) uint64 array, one bit per free variable,
  and each step is a handful of shifted XORs; C y = r is solved by Gauss-Jordan on bit-packed
  rows.

It gives exactly what countlo.visible.solutions gives: solvability, a solution, the nullity, the
quiet patterns (a basis of the same space) and a witness (a quiet pattern of the transposed game,
chased the same way with the offsets negated).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from countlo.board import Shape, Vector
from countlo.errors import BadSizeError
from countlo.graph import Board
from countlo.i18n import _
from countlo.visible.algebra import bitpacked
from countlo.visible.engines import engine
from countlo.visible.engines.engine import Outcome

Words = bitpacked.Words
ONE = bitpacked.ONE
# topology: (lines are board columns, positions wrap along a line, the chase wraps, a wrapped line
# comes back upside down, the board is folded into rings of two rows); docs/MATH.md §18.1, §18.6
GEOMETRY = {
    "plane": (False, False, False, False, False),
    "cylinder": (False, True, False, False, False),
    "torus": (False, True, True, False, False),
    "moebius": (True, False, True, True, False),
    "klein": (True, True, True, True, False),
    "projective": (False, True, False, True, True),
}
ORDER_LIMIT = 1 << 12  # the cycle 1 + z^e used to invert the row recurrence (see _Recurrence)


def applies(board: Shape) -> bool:
    """True when the row-at-a-time chase solves this board (docs/MATH.md §18.1)."""
    rules = board.rules
    offsets = rules.rule.offsets
    if rules.states != 2 or rules.topology not in GEOMETRY or not offsets:
        return False
    if len(set(offsets)) != len(offsets):
        return False
    if GEOMETRY[rules.topology][4]:
        return _folds(board)
    across, wrap, cyclic, twisted, _ = GEOMETRY[rules.topology]
    lines, places = (board.cols, board.rows) if across else (board.rows, board.cols)
    dls = [dc if across else dr for dr, dc in offsets]
    dps = [dr if across else dc for dr, dc in offsets]
    # joined edges: offsets must land on distinct cells and cross the join at most once
    if wrap and places <= max(max(dps) - min(dps), *map(abs, dps)):
        return False
    if cyclic and lines <= max(max(dls) - min(dls), *map(abs, dls)):
        return False
    return not (twisted and not min(dls) <= 0 <= max(dls))


def _folds(board: Shape) -> bool:
    """The projective plane folds into rings of 2C places (docs/MATH.md §18.6) when the rule is
    symmetric under the vertical flip (dr -> -dr), its reach is at most the R // 2 rings, and the
    ring is longer than the rule's reach and span along it (as on a joined edge)."""
    offsets = board.rules.rule.offsets
    if {(-dr, dc) for dr, dc in offsets} != set(offsets):
        return False
    dcs = [dc for _, dc in offsets]
    reach = max(dr for dr, _ in offsets)
    return reach <= board.rows // 2 and 2 * board.cols > max(max(dcs) - min(dcs), *map(abs, dcs))


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


def _shift_set(out: Words, x: Words, dc: int, wrap: bool) -> None:
    """out[c] = x[c - dc], 0 where clipped: `_shift_xor` into a line not yet written."""
    n = len(x)
    if wrap:
        dc %= n
        out[dc:] = x[:n - dc]
        out[:dc] = x[n - dc:]
        return
    if dc >= n or -dc >= n:
        out[:] = 0
    elif dc >= 0:
        out[dc:] = x[:n - dc]
        out[:dc] = 0
    else:
        out[:n + dc] = x[-dc:]
        out[n + dc:] = 0


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

    def __call__(self, u: Words, scratch: bool = False) -> Words:
        """u / p(z); with `scratch` u is the caller's temporary and may be overwritten."""
        if not self.lags:
            return u
        n = len(u)
        v: Words = u if scratch and self.q == (0,) else u.copy()
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
    hslices: tuple[slice | None, ...]  # per i: the places of homogeneous solution i when evenly spaced
    t: tuple[int, ...]  # T as row bitmasks over the equations
    rank: int
    pivcols: tuple[int, ...]
    reduced: tuple[int, ...]  # the reduced rows of K (bitmasks over the local free variables)
    nonpiv: tuple[int, ...]  # local free variables that stay free: new global free variables


@dataclass(frozen=True)
class Layout:
    """The chase of one game in line coordinates: `rows` lines of `cols` places each (board rows
    on plane, cylinder and torus; board columns on the Moebius band and Klein bottle, whose
    twisted join then lies across the chase; on the projective plane rings of two board rows,
    docs/MATH.md §18.6)."""

    rows: int
    cols: int
    across: bool  # lines are board columns
    wrap: bool  # places wrap round along a line
    cyclic: bool  # the lines wrap round (the chase meets its own start)
    twisted: bool  # a line reached across the join comes back upside down
    fold: bool  # projective: line r holds board rows r and R-1-r; past the last ring the lines come back turned by C
    middle: bool  # fold with R odd: the last line is the middle row, its C places doubled
    h: int
    stencils: tuple[tuple[int, ...], ...]  # T_s: the place offsets on line offset (least + s)
    wrap_stencils: tuple[tuple[int, ...], ...]  # the same for a source line reached across a twisted join
    l1: int
    recurrence: _Recurrence
    local: _Local
    free_rows: tuple[int, ...]
    chased: tuple[bool, ...]  # per lights row: is it chased (else all its equations constrain)
    nfree: int  # free variables in all
    ncons: int  # constraints in all

    @property
    def span(self) -> int:
        return len(self.stencils) - 1

    @property
    def pairs(self) -> int:
        """The lines chased (all but a folded board's middle row)."""
        return self.rows - self.middle

    def places(self, v: int) -> int:
        """The distinct places of line v: half the ring on a folded board's middle row."""
        return self.cols // 2 if self.middle and v == self.rows - 1 else self.cols

    @property
    def line_counts(self) -> tuple[int, int]:
        """(presses of the free lines, equations of the lights lines never chased)."""
        return _line_counts(self.rows, self.cols, self.middle, self.free_rows, self.chased)

    def var_row(self, r: int, s: int) -> tuple[int, bool, int] | None:
        """The presses line that offset row s of lights line r reads, whether it is reached
        across a twisted join (then it reads upside down) and the turn of its places (C past a
        folded board's middle, docs/MATH.md §18.6); None off a clipped edge."""
        v = r + self.h - s
        if 0 <= v < self.rows:
            return v, False, 0
        if self.fold:
            if v < 0:
                return -1 - v, True, 0
            return 2 * self.pairs - 1 + self.middle - v, False, self.cols // 2
        if self.cyclic:
            return v % self.rows, self.twisted, 0
        return None

    def pivot_range(self) -> tuple[int, int]:
        """Plane: the columns j = c - l1 named as pivots, [lo, hi] (empty when lo > hi)."""
        return max(0, -self.l1), min(self.cols - 1, self.cols - 1 - self.l1)


def layout_of(rows: int, cols: int, geometry: tuple[bool, bool, bool, bool, bool], offsets: tuple[tuple[int, int], ...],
            wrap_offsets: tuple[tuple[int, int], ...], middle: bool = False) -> Layout:
    """`offsets` and `wrap_offsets` as (line offset, place offset); rows x cols lines x places
    (a folded board's `middle` row among them)."""
    across, wrap, cyclic, twisted, fold = geometry
    drs = [dr for dr, _ in offsets]
    lo_dr = min(drs)
    span = max(drs) - lo_dr
    stencils = tuple(tuple(sorted(dc for dr, dc in offsets if dr == lo_dr + s)) for s in range(span + 1))
    wrap_stencils = tuple(tuple(sorted(dc for dr, dc in wrap_offsets if dr == lo_dr + s)) for s in range(span + 1))
    l0 = stencils[0]
    l1 = l0[0]
    lags = [dc - l1 for dc in l0[1:]]
    h = -lo_dr
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
    hslices = tuple(_even_slice([j for j in range(cols) if hom[j] >> i & 1]) for i in range(f))
    local = _Local(free_cols, cons_eqs, hmask, hslices, tuple(t), rank, tuple(pivcols), tuple(reduced), nonpiv)
    if cyclic:
        chased = tuple(r <= rows - 1 - span for r in range(rows))
        free_rows = tuple(sorted((r + h) % rows for r in range(rows) if not chased[r]))
    else:
        chased = tuple(0 <= r + h < rows - middle for r in range(rows))
        pivoted = {r + h for r in range(rows) if chased[r]}
        free_rows = tuple(v for v in range(rows) if v not in pivoted)
    nchased = sum(chased)
    free_lines, unchased = _line_counts(rows, cols, middle, free_rows, chased)
    nfree = free_lines + nchased * len(nonpiv)
    ncons = unchased + nchased * (f - rank)
    return Layout(rows, cols, across, wrap, cyclic, twisted, fold, middle, h, stencils, wrap_stencils, l1,
                  _Recurrence(lags), local, free_rows, chased, nfree, ncons)


def _line_counts(rows: int, cols: int, middle: bool, free_rows: tuple[int, ...], chased: tuple[bool, ...]
                 ) -> tuple[int, int]:
    """(presses of the free lines, equations of the unchased lights lines): `cols` a line, but a
    folded board's middle row (free and unchased) holds C presses and C equations in its ring of
    2C places (docs/MATH.md §18.6)."""
    short = cols // 2 if middle else 0
    return len(free_rows) * cols - short, (rows - sum(chased)) * cols - short


def _even_slice(places: list[int]) -> slice | None:
    """The slice of exactly these places when they are evenly spaced (a run of an arithmetic
    progression), else None: one strided XOR then replaces a masked one."""
    if not places:
        return None
    step = places[1] - places[0] if len(places) > 1 else 1
    if any(b - a != step for a, b in itertools.pairwise(places)):
        return None
    return slice(places[0], places[-1] + 1, step)


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
def layout(board: Shape, transposed: bool = False) -> Layout:
    """The chase of the board's game, or of its transpose (click i reaches j iff click j reaches
    i in the game): the negated offsets, except that a line reached across a twisted join keeps
    its place offset (flip after shift is shift by the opposite after flip; docs/MATH.md §18.1).
    The projective plane folds into R // 2 rings of 2C places, and the middle row when R is odd
    (§18.6)."""
    geometry = GEOMETRY[board.rules.topology]
    across, fold = geometry[0], geometry[4]
    offsets = tuple((dc, dr) if across else (dr, dc) for dr, dc in board.rules.rule.offsets)
    lines, places = (board.cols, board.rows) if across else (board.rows, board.cols)
    middle = fold and board.rows % 2 == 1
    if fold:
        lines, places = board.rows // 2 + middle, 2 * board.cols
    if not transposed:
        return layout_of(lines, places, geometry, offsets, offsets, middle)
    return layout_of(lines, places, geometry, tuple((-dl, -dp) for dl, dp in offsets),
                   tuple((-dl, dp) for dl, dp in offsets), middle)


def chase(lay: Layout, fv: Words, rhs: NDArray[np.uint8] | None = None, keep: bool = False,
          dot: NDArray[np.bool_] | None = None, units: bool = False) -> tuple[Words, Words | None]:
    """One chase. `fv[i]` is the value (W words) of free variable i: unit bits for the symbolic
    chase, a 0/1 in bit 0 for a concrete one, one bit per pattern for many at once. `rhs` is
    the (lines, places) 0/1 right-hand side b (bit 0 of word 0), None for b = 0. Returns the
    constraint values (b + A x on the equations never chased, folded by T) and, when `keep`, the
    presses (lines, places, W); with `dot` (lines, places) instead, the sum of the presses over
    the cells it marks, (1, 1, W), without keeping every line. `units` says fv[i] is the unit
    bit i (the symbolic chase): a line then only spans the words of the free variables met so
    far, as they are introduced in order, and is narrower than W until the last ones."""
    rows, cols = lay.rows, lay.cols
    w = fv.shape[1]

    def width(known: int) -> int:
        return int(min(w, max(1, (known + 63) // 64))) if units else int(w)

    loc = lay.local
    f = len(loc.free_cols)
    cons: list[Words] = []
    out = np.zeros((rows, cols, w), dtype=np.uint64) if keep else None
    total = np.zeros(w, dtype=np.uint64)
    x: dict[int, Words] = {}
    nxt = 0
    for v in lay.free_rows:
        n = lay.places(v)
        part = fv[nxt:nxt + n, :width(nxt + n)]
        x[v] = part if n == cols else np.concatenate([part, part])  # a folded middle row: its ring twice
        nxt += n
    wrap = lay.wrap
    lo, hi = lay.pivot_range()
    for r in range(rows):
        wr = width(nxt + len(loc.nonpiv)) if lay.chased[r] else width(nxt)
        chased = lay.chased[r]
        # a chased wrapped line is built in press order, place j holding equation j + l1 (the
        # one naming j as its pivot), so that the recurrence then runs on it in place (_row)
        rot = -lay.l1 if wrap and chased else 0
        first = 1 if chased else 0
        sources = [(s, *got) for s in range(first, lay.span + 1) if (got := lay.var_row(r, s)) is not None]
        # one full-width source read straight is copied in, not added: the line needs no zeros
        lead = next((i for i, (s, line, upside_down, _t) in enumerate(sources)
                     if not upside_down and lay.stencils[s] and x[line].shape[1] == wr), None)
        if lead is None:
            y = np.zeros((cols, wr), dtype=np.uint64)
        else:
            y = np.empty((cols, wr), dtype=np.uint64)
            sources.insert(0, sources.pop(lead))
        fresh = lead is not None
        for s, line, upside_down, turn in sources:
            seen = x[line]
            if upside_down:
                turned = np.zeros_like(y)
                for dc in lay.wrap_stencils[s]:
                    _shift_xor(turned[:, :seen.shape[1]], seen, dc, wrap)
                _shift_xor(y, turned[::-1], rot, wrap)
            else:
                into = y[:, :seen.shape[1]] if seen.shape[1] < wr else y
                for dc in lay.stencils[s]:
                    if fresh:
                        _shift_set(into, seen, dc + turn + rot, wrap)
                        fresh = False
                    else:
                        _shift_xor(into, seen, dc + turn + rot, wrap)
        if rhs is not None:
            y[:, 0] ^= np.roll(rhs[r].astype(np.uint64), rot)
        if not chased:
            cons.append(y[:lay.places(r)])
        else:
            v = (r + lay.h) % rows  # not across a twisted join: `applies` asks 0 <= h <= span
            spots = [(c + rot) % cols for c in loc.cons_eqs]  # equation c's value in y
            values = y[spots] if f else y[:0]
            xr = _row(lay, y, lo, hi)
            if f:
                e = np.empty((f, wr), dtype=np.uint64)
                for i, c in enumerate(loc.cons_eqs):
                    acc = values[i].copy()
                    for dc in lay.stencils[0]:
                        src = c - dc
                        if wrap:
                            acc ^= xr[src % cols]
                        elif 0 <= src < cols:
                            acc ^= xr[src]
                    e[i] = acc
                te = np.zeros((f, wr), dtype=np.uint64)
                for a, mask in enumerate(loc.t):
                    for b in range(f):
                        if mask >> b & 1:
                            te[a] ^= e[b]
                phi = np.zeros((f, wr), dtype=np.uint64)
                new: dict[int, Words] = {}
                for j in loc.nonpiv:
                    new[j] = fv[nxt, :wr]
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
                tmp = None
                for i in range(f):
                    if phi[i].any():
                        where = loc.hslices[i]
                        if where is not None:
                            xr[where] ^= phi[i]
                            continue
                        if tmp is None:
                            tmp = np.empty_like(xr)
                        np.bitwise_and(loc.hmask[:, i:i + 1], phi[i], out=tmp)
                        xr ^= tmp
            x[v] = xr
        # forget the presses row no later equation reads
        if lay.cyclic:
            done = r - lay.span
            old = (done + lay.h) % rows if done >= 0 and lay.chased[done] else None
        else:
            old = r + lay.h - lay.span
        if old is not None and old in x:
            arr = x.pop(old)
            if out is not None:
                out[old, :, :arr.shape[1]] = arr
            if dot is not None:
                total[:arr.shape[1]] ^= np.bitwise_xor.reduce(arr[dot[old]], axis=0)
    for v, arr in x.items():
        if out is not None:
            out[v, :, :arr.shape[1]] = arr
        if dot is not None:
            total[:arr.shape[1]] ^= np.bitwise_xor.reduce(arr[dot[v]], axis=0)
    if dot is not None:
        out = total.reshape(1, 1, w)
    both = np.zeros((sum(len(c) for c in cons), w), dtype=np.uint64)
    at = 0
    for part in cons:
        both[at:at + len(part), :part.shape[1]] = part
        at += len(part)
    return both, out


def _row(lay: Layout, y: Words, lo: int, hi: int) -> Words:
    """Presses row with the row's free columns 0 that satisfies every pivoted equation. On a
    wrapped line y comes in press order (place j: equation j + l1) and is overwritten."""
    cols = lay.cols
    if lay.wrap:
        if not lay.local.free_cols:  # no lags either: one pivot per equation
            return y
        # the run starts after the g free columns C-g..C-1, which are 0 here: places j < C - g
        # solve the recurrence from a zero start
        n = cols - len(lay.local.free_cols)
        y[n:] = 0
        s = lay.recurrence(y[:n], scratch=True)
        if not np.may_share_memory(s, y):
            y[:n] = s
        return y
    if not lay.local.free_cols and not lay.recurrence.lags:  # one pivot per equation: a shift
        if lay.l1 % cols == 0:
            return y
        out = np.zeros_like(y)
        _shift_xor(out, y, -lay.l1, lay.wrap)
        return out
    u = np.zeros_like(y)
    if lo > hi:
        return u
    u[lo:hi + 1] = y[lo + lay.l1:hi + 1 + lay.l1]
    s = lay.recurrence(u, scratch=True)
    if hi + 1 < cols:
        s[hi + 1:] = 0
    return s


# --- the constraints: Gauss-Jordan on bit-packed rows -------------------------------------------


@dataclass(frozen=True)
class Plan:
    """The chase of one board and its constraints C y = r (one row per constraint, one bit per
    free variable), solved by bit-packed elimination."""

    layout: Layout
    system: bitpacked.System

    @property
    def nullity(self) -> int:
        return self.system.nullity

    def particular(self, r: NDArray[np.uint8]) -> NDArray[np.uint8] | None:
        return self.system.particular(r)

    def kernel(self) -> Words:
        return self.system.kernel()


def symmetric(board: Shape) -> bool:
    """True when the game is its own transpose (docs/MATH.md §18.1): -D = D, and on a twisted join
    also the line offsets alone negated."""
    offsets = set(board.rules.rule.offsets)
    if {(-dr, -dc) for dr, dc in offsets} != offsets:
        return False
    if not GEOMETRY[board.rules.topology][3]:
        return True
    # lines are columns there; the projective fold asks for the flip dr -> -dr already (_folds), so with
    # -D = D this holds too
    return {(dr, -dc) for dr, dc in offsets} == offsets


@lru_cache(maxsize=8)
def plan(board: Shape, transposed: bool = False) -> Plan:
    if transposed and symmetric(board):
        return plan(board)
    lay = layout(board, transposed)
    cons, _ = chase(lay, bitpacked.units(lay.nfree), units=True)
    return Plan(lay, bitpacked.System(cons, lay.nfree))


def to_lines(lay: Layout, cells: NDArray[Any]) -> NDArray[Any]:
    """(R, C, ...) cells as (lines, places, ...); a folded board's rings are rows r and R-1-r side
    by side, and its middle row fills the first half of its ring only (so a dot counts each cell
    once)."""
    if not lay.fold:
        return cells.transpose(1, 0, *range(2, cells.ndim)) if lay.across else cells
    half, pairs = lay.cols // 2, lay.pairs
    lines = np.zeros((lay.rows, lay.cols, *cells.shape[2:]), dtype=cells.dtype)
    lines[:pairs, :half] = cells[:pairs]
    lines[:pairs, half:] = cells[::-1][:pairs]
    if lay.middle:
        lines[pairs, :half] = cells[pairs]
    return lines


def from_lines(lay: Layout, lines: NDArray[Any]) -> NDArray[Any]:
    """(lines, places, ...) back to (R, C, ...), as `to_lines` lays them out."""
    if not lay.fold:
        return lines.transpose(1, 0, *range(2, lines.ndim)) if lay.across else lines
    half, pairs = lay.cols // 2, lay.pairs
    cells = np.empty((2 * pairs + lay.middle, half, *lines.shape[2:]), dtype=lines.dtype)
    cells[:pairs] = lines[:pairs, :half]
    cells[::-1][:pairs] = lines[:pairs, half:]
    if lay.middle:
        cells[pairs] = lines[pairs, :half]
    return cells


def quiet_patterns(board: Shape, transposed: bool = False, block: int = 0) -> Words:
    """(R, C, 1): bit q of cell i is cell i of quiet pattern 64 * block + q (a basis); of the
    transposed game (the invariants) when `transposed`. A block of 64 at a time keeps memory to
    one word per cell."""
    p = plan(board, transposed)
    _, out = chase(p.layout, p.kernel()[:, block:block + 1], keep=True)
    assert out is not None
    return from_lines(p.layout, out)


def lights(board: Shape, presses: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A x over GF(2) for an (R, C) 0/1 press array, straight from the rule and countlo.rules.place's
    conventions (independent of the chase): for each offset, each block of cells that lands in
    one piece (not wrapped, wrapped round the rows, across the left/right join) is XORed in
    with slices, turned upside down where the join is twisted."""
    rows, cols = board.rows, board.cols
    top = board.rules.topology
    if top == "projective":
        return (placed_sums(board, presses) & 1).astype(np.uint8)
    out = np.zeros((rows, cols), dtype=np.uint8)
    wrap_rows = top in ("torus", "klein")
    twisted = top in ("moebius", "klein")
    for dr, dc in board.rules.rule.offsets:
        row_parts = _parts(rows, dr, wrap_rows)
        col_parts = _parts(cols, dc, top != "plane")
        for cs0, cs1, cd0, crossed in col_parts:
            for rs0, rs1, rd0, _wrapped in row_parts:
                block = presses[rs0:rs1, cs0:cs1]
                n = rs1 - rs0
                if crossed and twisted:  # row r lands on R - 1 - r
                    out[rows - rd0 - n:rows - rd0, cd0:cd0 + cs1 - cs0] ^= block[::-1]
                else:
                    out[rd0:rd0 + n, cd0:cd0 + cs1 - cs0] ^= block
    return out


def placed_sums(board: Shape, presses: NDArray[Any]) -> NDArray[np.int64]:
    """A x on the projective plane, not reduced, for an (R, C) array of press counts, by
    countlo.rules.place's steps on whole arrays (rows resolved first, a crossing flips the other
    coordinate once per turn): independent of the fold it checks (docs/MATH.md §18.6)."""
    rows, cols = board.rows, board.cols
    pr, pc = np.nonzero(presses)
    times = presses[pr, pc].astype(np.float64)
    hits, weights = [], []
    for dr, dc in board.rules.rule.offsets:
        turns, r = np.divmod(pr + dr, rows)
        c = np.where(turns % 2 == 1, cols - 1 - (pc + dc), pc + dc)
        turns, c = np.divmod(c, cols)
        r = np.where(turns % 2 == 1, rows - 1 - r, r)
        hits.append(r * cols + c)
        weights.append(times)
    if not hits:
        return np.zeros((rows, cols), dtype=np.int64)
    sums = np.bincount(np.concatenate(hits), weights=np.concatenate(weights), minlength=rows * cols)
    return np.rint(sums).astype(np.int64).reshape(rows, cols)  # whole numbers far below 2^53: exact


def _parts(n: int, d: int, wrap: bool) -> list[tuple[int, int, int, bool]]:
    """The runs of positions p in 0..n-1 whose p + d lands in one piece: (first, past the last,
    where the first lands, whether it wrapped round); clipped when not `wrap` (|d| < n when it is)."""
    out = []
    lo, hi = max(0, -d), min(n, n - d)
    if lo < hi:
        out.append((lo, hi, lo + d, False))
    if wrap and d < 0:
        out.append((0, min(n, -d), d + n, True))
    elif wrap and d > 0:
        out.append((max(0, n - d), n, max(0, n - d) + d - n, True))
    return out


def _cells(board: Shape, v: Sequence[int], what: str) -> NDArray[np.uint8]:
    """The 0/1 vector as an array, refused in engine.check_vector's words. A list of small ints
    is read by bytearray in C (a million cells: a fifth of np.asarray's time); anything else, or a
    value bytearray refuses, goes through np.asarray."""
    arr: NDArray[Any] | None = None
    if isinstance(v, list):
        try:
            arr = np.frombuffer(bytearray(v), dtype=np.uint8)
        except (TypeError, ValueError):
            arr = None
    if arr is None:
        arr = np.asarray(v)
    if arr.shape != (board.cells,) or arr.dtype.kind not in "iub" or (
            len(arr) and (int(arr.min()) < 0 or int(arr.max()) > 1)):
        raise BadSizeError(_("{what} must hold {cells} values 0..{last}").format(what=what, cells=board.cells, last=1))
    return arr.astype(np.uint8)


def solve_start(board: Shape, start: Sequence[int], target: Sequence[int] | None = None
                ) -> tuple[list[int] | None, list[int] | None, int]:
    """`solve` for the presses taking start to target (all dark when None)."""
    b = _cells(board, start, "the start")
    if target is not None:
        b ^= _cells(board, target, "the target")
    return solve(board, b)


def solve(board: Shape, b: Sequence[int] | NDArray[np.uint8]) -> tuple[list[int] | None, list[int] | None, int]:
    """(presses, witness, nullity) for A x = b over GF(2): presses None when unsolvable, and then
    a witness w with w A = 0 and w.b = 1."""
    p = plan(board)
    lay = p.layout
    cells = np.asarray(b, dtype=np.uint8).reshape(board.rows, board.cols)
    rhs = to_lines(lay, cells)
    zero = np.zeros((lay.nfree, 1), dtype=np.uint64)
    resid, _ = chase(lay, zero, rhs)
    y = p.particular((resid[:, 0] & ONE).astype(np.uint8))
    if y is None:
        return None, _witness(board, cells), p.nullity
    _, x = chase(lay, y.astype(np.uint64).reshape(-1, 1), rhs, keep=True)
    assert x is not None
    presses = (from_lines(lay, x)[:, :, 0] & ONE).astype(np.uint8)
    assert np.array_equal(lights(board, presses), cells), "the row chase failed to reach the target"
    return presses.reshape(-1).tolist(), None, p.nullity


def _witness(board: Shape, cells: NDArray[np.uint8]) -> list[int]:
    p = plan(board, transposed=True)
    kernel = p.kernel()
    marked = to_lines(p.layout, cells).astype(bool)
    if kernel.shape[1] == 1:  # at most 64 patterns: one chase keeps them all, the witness is read off
        _, pats = chase(p.layout, kernel, keep=True)
        assert pats is not None
        val = int(np.bitwise_xor.reduce(pats[marked], axis=0)[0]) if marked.any() else 0
        if val:
            w = (from_lines(p.layout, pats)[:, :, 0] >> np.uint64((val & -val).bit_length() - 1)) & ONE
            picked: list[int] = w.astype(np.uint8).reshape(-1).tolist()
            return picked
        raise AssertionError("no left-kernel vector separates an unsolvable start: the maths is wrong")
    _, hit = chase(p.layout, kernel, dot=marked)
    assert hit is not None
    for word, val in enumerate(hit.reshape(-1).tolist()):
        if val:
            q = 64 * word + (val & -val).bit_length() - 1
            pats = quiet_patterns(board, transposed=True, block=q >> 6)
            w = (pats[:, :, 0] >> np.uint64(q & 63)) & ONE
            vals: list[int] = w.astype(np.uint8).reshape(-1).tolist()
            return vals
    raise AssertionError("no left-kernel vector separates an unsolvable start: the maths is wrong")


def quiet_list(board: Shape, count: int | None = None, transposed: bool = False) -> list[list[int]]:
    """A basis of the quiet patterns as 0/1 lists (the first `count` when given), chased 64 at
    a time."""
    nullity = plan(board, transposed).nullity
    want = nullity if count is None else min(count, nullity)
    out = []
    for block in range((want + 63) // 64):
        pats = quiet_patterns(board, transposed, block)
        for q in range(min(64, want - 64 * block)):
            col = (pats[:, :, 0] >> np.uint64(q)) & ONE
            out.append(col.astype(np.uint8).reshape(-1).tolist())
    return out


def invariant_list(board: Shape) -> list[list[int]]:
    """A basis of the w with w A = 0: the quiet patterns of the transposed game."""
    return quiet_list(board, transposed=True)


class LineChase:
    """This engine as an Engine."""

    def applies(self, board: Board) -> bool:
        return isinstance(board, Shape) and applies(board)

    def check_size(self, board: Board) -> None:
        engine.check_size(board)

    def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome:
        presses, witness, nullity = solve_start(engine.grid(board), start, target)
        return Outcome.of(presses, witness, (2,) * nullity, 2)

    def orders(self, board: Board) -> tuple[int, ...]:
        return (2,) * int(plan(engine.grid(board)).nullity)

    def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]:
        return [(g, 2) for g in quiet_list(engine.grid(board), count)]

    def invariants(self, board: Board) -> list[Vector]:
        return invariant_list(engine.grid(board))


ENGINE = LineChase()
