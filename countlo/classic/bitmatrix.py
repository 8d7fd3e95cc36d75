"""Two-state Lights Out on any graph: a greedy chase, then bit-packed Gauss-Jordan (docs/MATH.md §18.5).

* Under sigma and sigma+ the press matrix A is symmetric: the light of node e sums the presses of
  N[e] (its neighbours, and e itself under sigma+), and the press of v reaches the lights N[v].
* The chase of §18 is taken in a greedy order instead of reading order: always next an
  equation with the fewest unknown presses (a bucket queue). One unknown becomes its pivot, fixed
  by the equation; with none the equation is a constraint; with several, all but one become free
  variables. Every press is then an affine function of the f free variables, and A x = b holds iff
  the f constraints hold: C y = r, an f x f system (n equations, n variables, one pivot each).
  On a grid graph f is about one line; on a random graph of mean degree 5 about a quarter of n.
* C y = r is eliminated by Gauss-Jordan on rows of 64-bit words with r as one more column (the
  method of the four Russians: the pivots of a word are found on that word alone, then every
  other row takes one lookup per 8 pivots in a table of the 256 sums of their rows).
* The quiet patterns are the chases of the kernel of C with b = 0. As A is symmetric they are also
  the w with w A = 0, so an unsolvable b has a quiet pattern w with w.b = 1: that is the witness.

It gives what countlo.classic.general gives for a two-state graph (solvability, one solution, the
nullity, a basis of the quiet patterns, a witness), in the same shapes as countlo.classic.rowchase.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from countlo.classic.rowchase import add_sums
from countlo.errors import BadSizeError
from countlo.graph import MAX_NODES, Graph
from countlo.i18n import _

Words = NDArray[np.uint64]
ONE = np.uint64(1)
GROUP = 8  # pivots per lookup table (256 rows)
SAMPLE = 128  # rows a word's pivots are first looked for in


def check_nodes(graph: Graph) -> None:
    """Refuse, before any allocation, a graph whose dense system could pass the memory bound."""
    if graph.cells > MAX_NODES:
        raise BadSizeError(_("graphs are limited to {most} nodes; this one has {nodes}").format(
            most=MAX_NODES, nodes=graph.cells))


def neighbourhoods(graph: Graph) -> list[tuple[int, ...]]:
    """N[e] for every node: the presses in light e's equation, and the lights press e reaches."""
    adj = graph.adjacency()
    if graph.rule == "sigma+":
        return [(e, *a) for e, a in enumerate(adj)]
    return list(adj)


def chase_order(nbhd: Sequence[Sequence[int]], firsts: bool = False) -> Any:
    """(steps, free variables): the equations in greedy order, each with its pivot (-1 for a
    constraint), and the variables made free, in the order they were (docs/MATH.md §18.5); with
    `firsts` also the index in `free` of each step's first free variable (as general's chase
    wants it)."""
    n = len(nbhd)
    unknown = [len(r) for r in nbhd]
    top = max(unknown, default=0)
    buckets: list[list[int]] = [[] for _ in range(top + 1)]
    for e in range(n):
        buckets[unknown[e]].append(e)
    known = bytearray(n)
    done = bytearray(n)
    steps: list[tuple[int, int]] = []
    free: list[int] = []
    first: list[int] = []
    low = 0
    while True:
        while low <= top and not buckets[low]:
            low += 1
        if low > top:
            break
        e = buckets[low].pop()
        if done[e] or unknown[e] != low:  # a stale entry: e was moved to a lower bucket
            continue
        done[e] = 1
        first.append(len(free))
        unk = [v for v in nbhd[e] if not known[v]]
        pivot = unk[-1] if unk else -1
        for v in unk:
            known[v] = 1
            if v != pivot:
                free.append(v)
            for e2 in nbhd[v]:  # the equations holding v (A is symmetric)
                if not done[e2]:
                    c = unknown[e2] - 1
                    unknown[e2] = c
                    buckets[c].append(e2)
                    if c < low:
                        low = c
        steps.append((e, pivot))
    free.extend(v for v in range(n) if not known[v])  # in no equation (sigma, an isolated node)
    return (steps, free, first) if firsts else (steps, free)


def constraint_rows(nbhd: Sequence[Sequence[int]], steps: Sequence[tuple[int, int]],
                    free: Sequence[int]) -> list[int]:
    """The homogeneous chase: each constraint as a bitset over the free variables. A press's form
    is dropped after the last equation holding it, so at most a front of forms is alive."""
    n = len(nbhd)
    unit = [0] * n
    for i, v in enumerate(free):
        unit[v] = 1 << i
    last = [0] * n
    for t, (e, _p) in enumerate(steps):
        for v in nbhd[e]:
            last[v] = t
    forms = unit[:]  # a free variable's form is its own bit; a pivot's is set before any use
    out: list[int] = []
    for t, (e, p) in enumerate(steps):
        acc = 0
        row = nbhd[e]
        for v in row:
            if v != p:
                acc ^= forms[v]
        if p >= 0:
            forms[p] = acc
        else:
            out.append(acc)
        for v in row:
            if last[v] == t:
                forms[v] = 0
    return out


def pack(rows: Sequence[int], bits: int) -> Words:
    """Python-int bitsets as a (len(rows), words) uint64 array, bit j of row i at word j // 64."""
    nw = max(1, (bits + 63) // 64)
    buf = b"".join(r.to_bytes(8 * nw, "little") for r in rows)
    return np.frombuffer(buf, dtype="<u8").reshape(len(rows), nw).astype(np.uint64)


def rref(a: Words, ncols: int) -> tuple[list[int], list[int]]:
    """Gauss-Jordan over GF(2) on the rows of `a`, in place, pivoting on columns 0..ncols-1 only
    (later bits are carried along): (pivot columns, their rows). Row piv_rows[i] has a 1 at
    piv_cols[i] and 0 at every other pivot column; every other row is 0 on columns < ncols.

    A word of 64 columns at a time (docs/MATH.md §18.5). Its pivots are looked for among the first
    SAMPLE rows that are not pivots yet and are not 0 on it, on that word alone (Python ints), and
    their rows are reduced among themselves (P, the trailing words only: such a row is 0 left of
    this word). Every other row r then becomes r + sum_i r[pivot i] P_i, the one row of
    r + span(P) that is 0 at these pivots, added from tables of all sums of GROUP pivot rows (the
    method of the four Russians); if rows outside the sample are still not 0 on the word, again."""
    m = len(a)
    is_pivot = np.zeros(m, dtype=bool)
    piv_cols: list[int] = []
    piv_rows: list[int] = []
    for wd in range((ncols + 63) // 64):
        limit = min(64, ncols - 64 * wd)
        low = np.uint64((1 << limit) - 1)
        while True:
            cand = np.flatnonzero(~is_pivot & ((a[:, wd] & low) != 0))
            if not len(cand):
                break
            bits, rows, combos, chosen = _word_pivots((a[cand[:SAMPLE], wd] & low).tolist(),
                                                      cand[:SAMPLE].tolist())
            _eliminate(a, wd, bits, rows, combos, chosen, is_pivot)
            piv_cols.extend(64 * wd + b for b in bits)
            piv_rows.extend(rows)
            if len(cand) <= SAMPLE:
                break  # every candidate was searched: they are all 0 on this word now
    return piv_cols, piv_rows


def _word_pivots(words: list[int], ids: list[int]) -> tuple[list[int], list[int], list[int], list[int]]:
    """Gauss-Jordan on one word of some rows: (pivot bits, the row that becomes each pivot's row,
    for each pivot the set of rows (bit i = chosen[i]) whose sum is 1 at its bit and 0 at the
    others, chosen: the independent rows in the order found)."""
    basis: dict[int, tuple[int, int]] = {}  # pivot bit -> (reduced word, combination)
    owner: dict[int, int] = {}
    chosen: list[int] = []
    for w, row in zip(words, ids):
        combo = 1 << len(chosen)
        for b, (bw, bc) in basis.items():
            if w >> b & 1:
                w ^= bw
                combo ^= bc
        if not w:
            continue
        b = (w & -w).bit_length() - 1
        for ob, (bw, bc) in list(basis.items()):
            if bw >> b & 1:
                basis[ob] = (bw ^ w, bc ^ combo)
        basis[b] = (w, combo)
        owner[b] = row
        chosen.append(row)
        if len(basis) == 64:
            break
    bits = sorted(basis)
    return bits, [owner[b] for b in bits], [basis[b][1] for b in bits], chosen


def _eliminate(a: Words, wd: int, bits: list[int], rows: list[int], combos: list[int], chosen: list[int],
               is_pivot: NDArray[np.bool_]) -> None:
    """Make `rows` the reduced pivot rows of `bits` (sums of the `chosen` rows as `combos` say) and
    clear those bits from every other row."""
    k = len(bits)
    pmat = np.zeros((k, a.shape[1] - wd), dtype=np.uint64)
    add_sums(pmat, a[chosen, wd:], np.array(combos, dtype=np.uint64), range(k))
    word = a[:, wd].copy()  # coefficients: P is reduced, so they are the rows' bits at the pivots
    mask = 0
    for b in bits:
        mask |= 1 << b
    hit = (word & np.uint64(mask)) != 0
    hit[rows] = False
    is_pivot[rows] = True
    targets = np.flatnonzero(hit)
    if len(targets):
        if 2 * len(targets) > len(a):  # update every row in place (the pivots are rewritten below)
            add_sums(a[:, wd:], pmat, word, bits)
        else:
            part = a[targets, wd:]
            add_sums(part, pmat, word[targets], bits)
            a[targets, wd:] = part
    a[rows, wd:] = pmat


class Reduced:
    """[C | r] after rref: whether C y = r is solvable, one y, and the kernel of C."""

    def __init__(self, c: Sequence[int], r: Sequence[int], f: int):
        rhs = 1 << f
        self.f = f
        self.a = pack([row | rhs if bit else row for row, bit in zip(c, r)], f + 1)
        self.piv_cols, self.piv_rows = rref(self.a, f)
        word, bit = np.uint64(f >> 6), np.uint64(f & 63)
        self.rhs = ((self.a[:, int(word)] >> bit) & ONE).astype(bool)

    @property
    def nullity(self) -> int:
        return self.f - len(self.piv_cols)

    def solvable(self) -> bool:
        rest = np.ones(len(self.a), dtype=bool)
        rest[self.piv_rows] = False
        return not bool(self.rhs[rest].any())

    def solution(self) -> list[int]:
        """y with C y = r (free columns of C at 0); only when solvable."""
        y = [0] * self.f
        for c, row in zip(self.piv_cols, self.piv_rows):
            y[c] = int(self.rhs[row])
        return y

    def kernel(self) -> tuple[list[int], int]:
        """(y, d): y[i] is a d-bit int, bit j the value of free variable i in kernel vector j, the
        vector that sets non-pivot column j to 1 and the other non-pivot columns to 0."""
        pivots = np.zeros(self.f, dtype=bool)
        pivots[self.piv_cols] = True
        others = np.flatnonzero(~pivots)
        d = len(others)
        y = [0] * self.f
        for j, c in enumerate(others.tolist()):
            y[c] = 1 << j
        if d and self.piv_rows:
            bits = np.unpackbits(self.a[self.piv_rows].view(np.uint8), axis=1, bitorder="little")[:, others]
            packed = np.packbits(bits, axis=1, bitorder="little")
            for c, row in zip(self.piv_cols, packed):
                y[c] = int.from_bytes(row.tobytes(), "little")
        return y, d


class Plan:
    """The chase of one graph, with its last elimination kept (quiet and solve share it)."""

    def __init__(self, graph: Graph):
        check_nodes(graph)
        self.n = graph.cells
        self.nbhd = neighbourhoods(graph)
        self.steps, self.free = chase_order(self.nbhd)
        self.c = constraint_rows(self.nbhd, self.steps, self.free)
        self._reduced: tuple[bytes, Reduced] | None = None
        self._quiet: tuple[list[int], int] | None = None

    @property
    def f(self) -> int:
        return len(self.free)

    def reduced(self, r: Sequence[int] | None = None) -> Reduced:
        key = bytes(r) if r is not None else None
        if self._reduced is not None and (key is None or self._reduced[0] == key):
            return self._reduced[1]
        red = Reduced(self.c, r if r is not None else [0] * len(self.c), self.f)
        self._reduced = (key if key is not None else bytes(len(self.c)), red)
        return red

    @property
    def nullity(self) -> int:
        return self.reduced().nullity

    def chase(self, b: Sequence[int] | None, y: Sequence[int]) -> list[int]:
        """The presses (ints: one bit per vector chased side by side) with free variables y that
        satisfy every pivot equation for the lights b (all 0 when None)."""
        x = [0] * self.n
        for v, val in zip(self.free, y):
            x[v] = val
        nbhd = self.nbhd
        for e, p in self.steps:
            if p < 0:
                continue
            acc = b[e] if b is not None else 0
            for v in nbhd[e]:
                if v != p:
                    acc ^= x[v]
            x[p] = acc
        return x

    def residual(self, b: Sequence[int], x: Sequence[int]) -> list[int]:
        """b - A x on the constraint equations, in the order of C's rows."""
        out = []
        for e, p in self.steps:
            if p < 0:
                acc = b[e]
                for v in self.nbhd[e]:
                    acc ^= x[v]
                out.append(acc)
        return out

    def quiet(self) -> tuple[list[int], int]:
        """(x, d): x[v] is a d-bit int, bit j = node v in quiet pattern j (a basis)."""
        if self._quiet is None:
            y, d = self.reduced().kernel()
            self._quiet = (self.chase(None, y), d)
        return self._quiet

    def lights(self, x: Sequence[int]) -> list[int]:
        """A x, straight from the neighbourhoods (independent of the chase)."""
        out = []
        for e in range(self.n):
            acc = 0
            for v in self.nbhd[e]:
                acc ^= x[v]
            out.append(acc)
        return out


@lru_cache(maxsize=4)
def plan(graph: Graph) -> Plan:
    return Plan(graph)


def _cells(graph: Graph, v: Sequence[int], what: str) -> list[int]:
    """The 0/1 vector, refused in general.check_vector's words."""
    if len(v) != graph.cells or any(x not in (0, 1) for x in v):
        raise BadSizeError(_("{what} must hold {cells} values 0..{last}").format(what=what, cells=graph.cells, last=1))
    return [int(x) for x in v]


def solve_start(graph: Graph, start: Sequence[int], target: Sequence[int] | None = None
                ) -> tuple[list[int] | None, list[int] | None, int]:
    """`solve` for the presses taking start to target (all dark when None)."""
    check_nodes(graph)
    b = _cells(graph, start, "the start")
    if target is not None:
        b = [u ^ t for u, t in zip(b, _cells(graph, target, "the target"))]
    return solve(graph, b)


def solve(graph: Graph, b: Sequence[int]) -> tuple[list[int] | None, list[int] | None, int]:
    """(presses, witness, nullity) for A x = b over GF(2): presses None when unsolvable, and then
    a witness w with w A = 0 and w.b = 1."""
    p = plan(graph)
    base = p.chase(b, [0] * p.f)
    red = p.reduced(p.residual(b, base))
    if not red.solvable():
        return None, _witness(p, b), red.nullity
    y = red.solution()
    x = p.chase(b, y) if any(y) else base
    assert p.lights(x) == list(b), "the graph chase failed to reach the target"
    return x, None, red.nullity


def _witness(p: Plan, b: Sequence[int]) -> list[int]:
    x, _d = p.quiet()
    acc = 0
    for v, bit in enumerate(b):
        if bit:
            acc ^= x[v]
    if not acc:
        raise AssertionError("no quiet pattern separates an unsolvable start: the maths is wrong")
    j = (acc & -acc).bit_length() - 1
    return [(xv >> j) & 1 for xv in x]


def quiet_list(graph: Graph, count: int | None = None) -> list[list[int]]:
    """A basis of the quiet patterns as 0/1 lists (the first `count` when given)."""
    x, d = plan(graph).quiet()
    want = d if count is None else min(count, d)
    if not want:
        return []
    nb = (d + 7) // 8
    raw = np.frombuffer(b"".join(v.to_bytes(nb, "little") for v in x), dtype=np.uint8).reshape(len(x), nb)
    bits = np.unpackbits(raw, axis=1, bitorder="little")[:, :want]
    out: list[list[int]] = bits.T.tolist()
    return out


def invariant_list(graph: Graph) -> list[list[int]]:
    """A basis of the w with w A = 0: A is symmetric, so the quiet patterns themselves."""
    return quiet_list(graph)
