"""Two-state Lights Out on any graph: a greedy chase, then bit-packed elimination (docs/MATH.md §18.5).

* Under sigma and sigma+ the press matrix A is symmetric: the light of node e sums the presses of
  N[e] (its neighbours, and e itself under sigma+), and the press of v reaches the lights N[v].
* The chase of §18 is taken in a greedy order instead of reading order: always next an
  equation with the fewest unknown presses (a bucket queue). One unknown becomes its pivot, fixed
  by the equation; with none the equation is a constraint; with several, all but one become free
  variables. Every press is then an affine function of the f free variables, and A x = b holds iff
  the f constraints hold: C y = r, an f x f system (n equations, n variables, one pivot each).
  On a grid graph f is about one line; on a random graph of mean degree 5 about a quarter of n.
  From a mean neighbourhood of DENSE entries the same order and the forms are taken on numpy
  arrays (`chase_order_dense`, `chase_forms_dense`): few steps, each fixing dozens of presses.
* Every press's form (its affine function of the free variables, bit 0 the first lights' chase)
  is a Python integer, kept by the plan. The constraint rows come out of the chase as Python
  integers over their pivot presses, packed into rows of 64-bit words, their free presses
  scattered in with numpy, and C y = r goes through countlo.visible.engines.line_chase's forward
  elimination (a word of 64 columns at a time with the four Russians' tables), then a
  back-substitution by parities for y and a small kernel (bitpacked's, a word at a time with
  tables, for a large one). The presses for the solved y are read from the forms.
* The quiet patterns are the chases of the kernel of C with b = 0. As A is symmetric they are also
  the w with w A = 0, so an unsolvable b has a quiet pattern w with w.b = 1: that is the witness,
  read from the forms too.

It gives what countlo.visible.solutions gives for a two-state graph (solvability, one solution, the
nullity, a basis of the quiet patterns, a witness), in the same shapes as countlo.visible.engines.line_chase.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import reduce
from operator import xor
from typing import Any

import numpy as np
from numpy.typing import NDArray

from countlo.board import Vector
from countlo.errors import BadSizeError
from countlo.graph import MAX_NODES, Board, Graph
from countlo.i18n import _
from countlo.visible.algebra import bitpacked
from countlo.visible.engines import engine
from countlo.visible.engines.engine import Outcome

Words = NDArray[np.uint64]
ONE = np.uint64(1)


def check_nodes(graph: Graph) -> None:
    """Refuse, before any allocation, a graph whose dense system could pass the memory bound."""
    if graph.cells > MAX_NODES:
        raise BadSizeError(_("graphs are limited to {most} nodes; this one has {nodes}").format(
            most=MAX_NODES, nodes=graph.cells))


def _csr(graph: Graph) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(members, stops): N[e] is members[stops[e-1]:stops[e]] (from 0 for e = 0), each node first in its
    own set under sigma+, built from the edges with numpy (a stable sort by node)."""
    n = graph.cells
    m = len(graph.edges)
    ends = np.fromiter(itertools.chain.from_iterable(graph.edges), dtype=np.int64, count=2 * m).reshape(m, 2)
    src, dst = [ends[:, 0], ends[:, 1]], [ends[:, 1], ends[:, 0]]
    if graph.rule == "sigma+":
        src.insert(0, np.arange(n))
        dst.insert(0, np.arange(n))
    s, d = np.concatenate(src), np.concatenate(dst)
    # a stable sort of 16-bit keys is a radix sort: a tenth of the time of 64-bit keys
    keys = s.astype(np.uint16) if n <= 1 << 16 else s
    return d[np.argsort(keys, kind="stable")], np.cumsum(np.bincount(s, minlength=n))


def neighbourhoods(graph: Graph) -> list[list[int]]:
    """N[e] for every node: the presses in light e's equation, and the lights press e reaches."""
    return _split(*_csr(graph))


def _split(members: NDArray[np.int64], stops: NDArray[np.int64]) -> list[list[int]]:
    """The neighbourhoods as lists sliced out of one list, every entry for node v the same int
    object: the chase then reads n ints that sit together in memory (a few hundred KB) instead of
    one int per entry (or the edges' own ints, strewn wherever they were made). Against the
    edges' own ints the greedy order of a 10,000-node graph of mean degree 20 took 68 ms, against
    a fresh int per entry 38 ms, with one int per node 29 ms (155 and 101 ms at mean degree 100)."""
    nodes = np.array(range(len(stops)), dtype=object)
    flat = nodes[members].tolist()
    ends = stops.tolist()
    return [flat[a:b] for a, b in zip([0, *ends[:-1]], ends)]


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
    left = n  # variables still unknown
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
        if not low:  # unknown[e] counts e's unknown presses exactly: none, a constraint
            steps.append((e, -1))
            continue
        unk = [v for v in nbhd[e] if not known[v]]
        for v in unk:
            known[v] = 1
            for e2 in nbhd[v]:  # the equations holding v (A is symmetric)
                if not done[e2]:
                    c = unknown[e2] - 1
                    unknown[e2] = c
                    buckets[c].append(e2)
        free.extend(unk[:-1])  # all but the pivot, the last
        steps.append((e, unk[-1]))
        left -= len(unk)
        if not left:  # every open equation is now a constraint, each once in bucket 0: popped last first
            for e in reversed(buckets[0]):
                if not done[e]:
                    done[e] = 1
                    first.append(len(free))
                    steps.append((e, -1))
            break
        # Every open equation had at least `low` unknowns and lost at most one per press fixed
        # here, so no bucket below this one is filled: the scan above finds the same bucket as
        # lowering `low` at each append would.
        low = max(0, low - len(unk))
    free.extend(v for v in range(n) if not known[v])  # in no equation (sigma, an isolated node)
    return (steps, free, first) if firsts else (steps, free)


DENSE = 30  # mean neighbourhood size from which the greedy order and the forms read numpy arrays


def chase_order_dense(members: NDArray[np.int64], stops: NDArray[np.int64]) -> tuple[list[tuple[int, int]], list[int]]:
    """`chase_order` for dense graphs (docs/MATH.md §18.5, "Dense graphs"): the same greedy rule,
    each step taking an open equation of fewest unknowns (the lowest-numbered one) by one argmin over
    the counts, and lowering the counts of the equations holding the presses it fixes with one
    numpy scatter. The chase ends after a few steps per hundred nodes (every step fixes many
    presses), so n-long array operations per step cost less than walking every neighbour entry in
    Python; a constraint is listed as soon as its count reaches 0, the rest at the end."""
    n = len(stops)
    starts = np.concatenate([[0], stops[:-1]]).tolist()
    ends = stops.tolist()
    big = np.int64(1 << 40)  # the count of an equation taken: lowered by at most the number of entries
    counts = np.diff(stops, prepend=0).astype(np.int64)
    known = np.zeros(n, dtype=bool)
    steps: list[tuple[int, int]] = []
    free: list[int] = []
    cons: list[int] = np.flatnonzero(counts == 0).tolist()  # empty equations: constraints
    counts[cons] = big
    left = n
    while left:
        e = int(np.argmin(counts))
        if counts[e] >= big // 2:
            break
        nb = members[starts[e]:ends[e]]
        unk = nb[~known[nb]]
        known[unk] = True
        counts[e] = big
        vs: list[int] = unk.tolist()
        hit = np.concatenate([members[starts[v]:ends[v]] for v in vs])  # the equations holding them
        np.subtract.at(counts, hit, 1)
        steps.append((e, vs[-1]))
        free.extend(vs[:-1])
        left -= len(vs)
        zero = hit[counts[hit] == 0]
        if len(zero):
            done = np.unique(zero)
            cons.extend(done.tolist())
            counts[done] = big
    cons.extend(np.flatnonzero(counts < big // 2).tolist())
    steps.extend((e, -1) for e in cons)
    free.extend(np.flatnonzero(~known).tolist())  # in no equation (sigma, an isolated node)
    return steps, free


def chase_forms_dense(members: NDArray[np.int64], stops: NDArray[np.int64], steps: Sequence[tuple[int, int]],
                      free: Sequence[int], b: Sequence[int] | None = None) -> tuple[list[int], list[int]]:
    """`chase_forms` from the arrays: a pivot's equation is read as a list when its step comes,
    and a constraint's pivot presses are picked out with numpy first, so the free presses that
    fill most of a dense graph's constraints are never turned into Python ints."""
    n = len(stops)
    forms = [0] * n
    for i, v in enumerate(free):
        forms[v] = 2 << i
    lit = b if b is not None else [0] * n
    get = forms.__getitem__
    starts = np.concatenate([[0], stops[:-1]]).tolist()
    ends = stops.tolist()
    pivot = np.zeros(n, dtype=bool)
    cons: list[int] = []
    for e, p in steps:
        if p >= 0:
            forms[p] = reduce(xor, map(get, members[starts[e]:ends[e]].tolist()), lit[e])
            pivot[p] = True
        else:
            cons.append(e)
    keep = pivot[members]
    owner = np.repeat(np.arange(n), np.diff(stops, prepend=0))
    held = _split(members[keep], np.cumsum(np.bincount(owner[keep], minlength=n)))
    out = [reduce(xor, map(get, held[e]), lit[e]) for e in cons]
    return forms, out


def chase_forms(nbhd: Sequence[Sequence[int]], steps: Sequence[tuple[int, int]], free: Sequence[int],
                b: Sequence[int] | None = None) -> tuple[list[int], list[int]]:
    """(forms, constraint sums): the chase with the free variables as symbols (docs/MATH.md §18.5).
    The form of a press is an int: bit 0 its value for the lights b with every free variable 0
    (all 0 when b is None), bit i + 1 the coefficient of free variable i. A pivot's form is its
    equation's sum of forms plus b_e: the sum runs over the whole equation, the pivot included,
    whose form is still 0 (no earlier equation held it). A constraint's sum is b_e plus the forms
    of its *pivot* presses only: its free presses are one bit each, which `constraints` sets with
    numpy, so the long sums of the many constraints skip them (their forms are set to 0 for that
    pass and dropped by `filter`). Every form stays alive (n f bits, within the n^2 bound of
    §18.5): the plan keeps them, so that the presses for any values of the free variables are
    read from them without another chase."""
    forms = [0] * len(nbhd)
    units = [2 << i for i in range(len(free))]
    for v, unit in zip(free, units):
        forms[v] = unit
    lit = b if b is not None else [0] * len(nbhd)
    get = forms.__getitem__
    cons: list[int] = []
    for e, p in steps:
        if p >= 0:
            forms[p] = reduce(xor, map(get, nbhd[e]), lit[e])  # the loop in C: a third faster than in Python
        else:
            cons.append(e)  # every form it reads is final: summed below, after the pivots
    for v in free:
        forms[v] = 0
    out = [reduce(xor, filter(None, map(get, nbhd[e])), lit[e]) for e in cons]
    for v, unit in zip(free, units):
        forms[v] = unit
    return forms, out


def constraints(members: NDArray[np.int64], stops: NDArray[np.int64], steps: Sequence[tuple[int, int]],
                free: Sequence[int], sums: Sequence[int]) -> Words:
    """C bit-packed: the constraint sums of `chase_forms` (bits 1 and up), plus one bit per free
    press of each constraint's equation, set from the neighbourhoods in one scatter."""
    f = len(free)
    c = pack([r >> 1 for r in sums], f)
    cons = np.array([e for e, p in steps if p < 0], dtype=np.int64)
    if not len(cons) or not f:
        return c
    counts = np.diff(stops, prepend=0)
    lens = counts[cons]
    total = int(lens.sum())
    row = np.repeat(np.arange(len(cons)), lens)
    pos = np.arange(total) - np.repeat(np.cumsum(lens) - lens, lens) + np.repeat(stops[cons] - lens, lens)
    index = np.full(len(stops), -1, dtype=np.int64)
    index[np.array(free, dtype=np.int64)] = np.arange(f)
    col = index[members[pos]]
    hit = col >= 0
    row, col = row[hit], col[hit]
    np.bitwise_xor.at(c.reshape(-1), row * c.shape[1] + (col >> 6), ONE << (col & 63).astype(np.uint64))
    return c


def parities(forms: Sequence[int], mask: int) -> list[int]:
    """The parity of each form on `mask`: with mask = 1 + 2 Y (Y the free variables' values as a
    bitset) the presses of `chase_forms`' lights, with mask = 2 Y those of the homogeneous chase."""
    return [(f & mask).bit_count() & 1 for f in forms]


def pack(rows: Sequence[int], bits: int) -> Words:
    """Python-int bitsets as a (len(rows), words) uint64 array, bit j of row i at word j // 64."""
    nw = max(1, (bits + 63) // 64)
    buf = b"".join(r.to_bytes(8 * nw, "little") for r in rows)
    return np.frombuffer(buf, dtype="<u8").reshape(len(rows), nw).astype(np.uint64)


FEW = 8  # kernels of at most this many vectors are back-substituted one vector at a time


def back_substitute_one(rows: Words, pivcols: NDArray[np.int64], y: Words, acc: NDArray[np.uint64]) -> None:
    """Back-substitution for one right-hand side on `bitpacked.echelon`'s rows (docs/MATH.md §18.5):
    y (bit-packed over the unknowns) holds the values at the columns without a pivot; sets the
    pivot columns, pivot row i to acc[i] (its bit 0) plus the parity of rows[i] & y. A word of
    columns at a time from the right: a pivot row of the word is 0 left of it and at the word's
    other pivots, and its own pivot is still 0 in y, so its parity reads only columns already
    known; one AND, XOR and bit count per word instead of `bitpacked.back_substitute`'s tables,
    which pay only for many right-hand sides at once."""
    owner = pivcols >> 6
    bounds = np.searchsorted(owner, np.arange(len(y) + 1)).tolist()
    for word in range(len(y) - 1, -1, -1):
        top, end = bounds[word], bounds[word + 1]
        if top == end:
            continue
        sums = np.bitwise_xor.reduce(rows[top:end, word:] & y[word:], axis=1)
        par = (np.bitwise_count(sums).astype(np.uint64) ^ acc[top:end]) & ONE
        y[word] |= np.bitwise_or.reduce(par << (pivcols[top:end] & 63).astype(np.uint64))


def _transpose(words: Words, count: int) -> list[int]:
    """The columns 0..count-1 of a bit-packed matrix, each as an int over its rows."""
    bits = np.unpackbits(np.ascontiguousarray(words).view(np.uint8).reshape(len(words), -1), axis=1,
                         bitorder="little")[:, :count]
    packed = np.packbits(np.ascontiguousarray(bits.T), axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


class Reduced:
    """[C | r] brought to echelon form by countlo.visible.engines.line_chase (docs/MATH.md §18.1, §18.5),
    then back-substituted: whether C y = r is solvable, one y, and the kernel of C."""

    def __init__(self, c: Words, r: Sequence[int], f: int):
        self.f = f
        w = c.shape[1]
        aug = np.concatenate([c, np.array(r, dtype=np.uint64).reshape(len(c), 1)], axis=1)
        self.rank, self.pivcols, a = bitpacked.echelon(aug, f)
        self.rows = a[:self.rank, :w]
        rhs = a[:, w] & ONE
        self.y: Words | None = None
        if not rhs[self.rank:].any():
            self.y = np.zeros(w, dtype=np.uint64)
            back_substitute_one(self.rows, self.pivcols, self.y, rhs[:self.rank])
        self._kernel: list[int] | None = None

    @property
    def nullity(self) -> int:
        return self.f - self.rank

    def solvable(self) -> bool:
        return self.y is not None

    def solution_bits(self) -> int:
        """y with C y = r as a bitset (free columns of C without a pivot at 0); only when solvable."""
        assert self.y is not None
        return int.from_bytes(self.y.tobytes(), "little")

    def solution(self) -> list[int]:
        bits = self.solution_bits()
        return [(bits >> i) & 1 for i in range(self.f)]

    def kernel_vectors(self) -> list[int]:
        """A basis of C's kernel, each vector a bitset over the free variables: vector j sets the
        j-th column without a pivot to 1 and the others to 0 (the pivot columns by back-substitution)."""
        if self._kernel is None:
            nonpiv = np.setdiff1d(np.arange(self.f), self.pivcols)
            w = self.rows.shape[1]
            if len(nonpiv) <= FEW:
                zero = np.zeros(self.rank, dtype=np.uint64)
                vecs = np.zeros((len(nonpiv), w), dtype=np.uint64)
                for j, col in enumerate(nonpiv.tolist()):
                    vecs[j, col >> 6] = ONE << np.uint64(col & 63)
                    back_substitute_one(self.rows, self.pivcols, vecs[j], zero)
                self._kernel = [int.from_bytes(v.tobytes(), "little") for v in vecs]
            else:  # many vectors: bitpacked's tables, all at once
                out = np.zeros((self.f, (len(nonpiv) + 63) // 64), dtype=np.uint64)
                q = np.arange(len(nonpiv))
                out[nonpiv, q >> 6] = ONE << (q & 63).astype(np.uint64)
                bitpacked.back_substitute(self.rows, self.pivcols, self.f, out,
                                         np.zeros((self.rank, out.shape[1]), dtype=np.uint64))
                self._kernel = _transpose(out, len(nonpiv))
        return self._kernel

    def kernel(self) -> tuple[list[int], int]:
        """(y, d): y[i] is a d-bit int, bit j the value of free variable i in kernel vector j."""
        vecs = self.kernel_vectors()
        d = len(vecs)
        if not d:
            return [0] * self.f, 0
        nb = (self.f + 7) // 8
        raw = np.frombuffer(b"".join(v.to_bytes(nb, "little") for v in vecs), dtype=np.uint8).reshape(d, nb)
        bits = np.unpackbits(raw, axis=1, bitorder="little")[:, :self.f]
        packed = np.packbits(np.ascontiguousarray(bits.T), axis=1, bitorder="little")
        return [int.from_bytes(row.tobytes(), "little") for row in packed], d


class Plan:
    """The chase of one graph, with its forms and its last elimination kept (quiet and solve share
    them). Given lights b, the chase of the forms carries b's chase along (bit 0 of every form),
    so the first solve needs no chase of its own."""

    def __init__(self, graph: Graph, b: Sequence[int] | None = None):
        check_nodes(graph)
        self.n = graph.cells
        self.members, self.stops = _csr(graph)
        self._nbhd: list[list[int]] | None = None
        if len(self.members) >= DENSE * self.n:
            self.steps, self.free = chase_order_dense(self.members, self.stops)
            self.forms, rows = chase_forms_dense(self.members, self.stops, self.steps, self.free, b)
        else:
            self.steps, self.free = chase_order(self.nbhd)
            self.forms, rows = chase_forms(self.nbhd, self.steps, self.free, b)
        self.c = constraints(self.members, self.stops, self.steps, self.free, rows)
        self.lit = (bytes(b) if b is not None else bytes(self.n), [r & 1 for r in rows])
        self._reduced: tuple[bytes, Reduced] | None = None
        self._quiet: tuple[list[int], int] | None = None

    @property
    def nbhd(self) -> list[list[int]]:
        """The neighbourhoods as lists (`_split`), made when first wanted: a dense graph's chase
        reads the arrays, and only other lights than the plan's own are chased on the lists."""
        if self._nbhd is None:
            self._nbhd = _split(self.members, self.stops)
        return self._nbhd

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

    def residual(self, b: Sequence[int]) -> list[int]:
        """b - A x on the constraint equations (in the order of C's rows) for the presses x of the
        chase with every free variable 0."""
        if bytes(b) == self.lit[0]:
            return self.lit[1]
        return self.chase_residual(b, [0] * self.f)[1]

    def presses(self, b: Sequence[int], y: int) -> list[int]:
        """The presses for the lights b with the free variables y (a bitset): read from the forms
        when b is the plan's own lights, else chased."""
        if bytes(b) == self.lit[0]:
            return parities(self.forms, 1 | (y << 1))
        return self.chase(b, [(y >> i) & 1 for i in range(self.f)])

    def chase(self, b: Sequence[int] | None, y: Sequence[int]) -> list[int]:
        """The presses (ints: one bit per vector chased side by side) with free variables y that
        satisfy every pivot equation for the lights b (all 0 when None)."""
        return self.chase_residual(b, y)[0]

    def chase_residual(self, b: Sequence[int] | None, y: Sequence[int]) -> tuple[list[int], list[int]]:
        """(x, r): `chase`'s presses, and b - A x on the constraint equations in the order of C's
        rows, in one pass. A step's sum runs over its whole equation: its pivot is still 0 then
        (no earlier step set it)."""
        x = [0] * self.n
        for v, val in zip(self.free, y):
            x[v] = val
        get = x.__getitem__
        nbhd = self.nbhd
        r: list[int] = []
        for e, p in self.steps:
            acc = reduce(xor, map(get, nbhd[e]), b[e] if b is not None else 0)
            if p >= 0:
                x[p] = acc
            else:
                r.append(acc)
        return x, r

    def quiet(self) -> tuple[list[int], int]:
        """(x, d): x[v] is a d-bit int, bit j = node v in quiet pattern j (a basis)."""
        if self._quiet is None:
            y, d = self.reduced().kernel()
            self._quiet = (self.chase(None, y), d)
        return self._quiet

    def lights(self, x: Sequence[int]) -> list[int]:
        """A x for 0/1 presses x, straight from the neighbourhoods (independent of the chase)."""
        if not len(self.members):
            return [0] * self.n
        gathered = np.append(np.array(x, dtype=np.uint8)[self.members], np.uint8(0))
        starts = np.concatenate([[0], self.stops[:-1]])
        sums = np.bitwise_xor.reduceat(gathered, starts)
        sums[starts == self.stops] = 0  # an empty set (an isolated node under sigma): reduceat reads one entry
        out: list[int] = sums.tolist()
        return out


class _Plans:
    """The plans of the last few graphs, looked up by the graph object first and then by equality:
    an lru_cache would hash the graph, every node and edge (10 ms at 100,000 edges), on each call."""

    def __init__(self, size: int):
        self.size = size
        self.kept: list[tuple[Graph, Plan]] = []

    def __call__(self, graph: Graph, b: Sequence[int] | None = None) -> Plan:
        """The plan of the graph; a new one chases the lights b along (Plan)."""
        for g, p in self.kept:
            if g is graph:
                return p
        for g, p in self.kept:
            if g == graph:
                return p
        p = Plan(graph, b)
        self.kept = [*self.kept[1 - self.size:], (graph, p)]
        return p

    def cache_clear(self) -> None:
        self.kept = []


plan = _Plans(4)


def _cells(graph: Graph, v: Sequence[int], what: str) -> list[int]:
    """The 0/1 vector, refused in engine.check_vector's words."""
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
    p = plan(graph, b)
    red = p.reduced(p.residual(b))
    if not red.solvable():
        return None, _witness(p, b, red), red.nullity
    x = p.presses(b, red.solution_bits())
    assert p.lights(x) == list(b), "the graph chase failed to reach the target"
    return x, None, red.nullity


def _witness(p: Plan, b: Sequence[int], red: Reduced) -> list[int]:
    """A quiet pattern w with w.b = 1: w.b is the form sum of the lit nodes' presses (their
    homogeneous parts) at the kernel vector, so the vector is chosen first and only its pattern is
    read from the forms."""
    vecs = red.kernel_vectors()
    if len(vecs) == 1:  # b is unsolvable, so some pattern separates it: the only one
        return parities(p.forms, vecs[0] << 1)
    lit = reduce(xor, (f for f, bit in zip(p.forms, b) if bit), 0) >> 1
    for vec in vecs:
        if (lit & vec).bit_count() & 1:
            return parities(p.forms, vec << 1)
    raise AssertionError("no quiet pattern separates an unsolvable start: the maths is wrong")


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


def _graph(board: Board) -> Graph:
    """The graph this engine was handed (the choice hands it nothing else)."""
    if not isinstance(board, Graph):
        raise TypeError(f"the graph chase was handed {board!r}")
    return board


class GraphChase:
    """This engine as an Engine: two-state graphs; A is symmetric, so the invariants are the quiet
    patterns."""

    def applies(self, board: Board) -> bool:
        return isinstance(board, Graph) and board.states == 2

    def check_size(self, board: Board) -> None:
        engine.check_size(board)

    def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome:
        presses, witness, nullity = solve_start(_graph(board), start, target)
        return Outcome.of(presses, witness, (2,) * nullity, 2)

    def orders(self, board: Board) -> tuple[int, ...]:
        return (2,) * int(plan(_graph(board)).nullity)

    def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]:
        return [(g, 2) for g in quiet_list(_graph(board), count)]

    def invariants(self, board: Board) -> list[Vector]:
        return invariant_list(_graph(board))


ENGINE = GraphChase()
