"""Two-state Lights Out on any graph: a greedy chase, then bit-packed elimination (docs/MATH.md §18.5).

* Under sigma and sigma+ the press matrix A is symmetric: the light of node e sums the presses of
  N[e] (its neighbours, and e itself under sigma+), and the press of v reaches the lights N[v].
* The chase of §18 is taken in a greedy order instead of reading order: always next an
  equation with the fewest unknown presses (a bucket queue). One unknown becomes its pivot, fixed
  by the equation; with none the equation is a constraint; with several, all but one become free
  variables. Every press is then an affine function of the f free variables, and A x = b holds iff
  the f constraints hold: C y = r, an f x f system (n equations, n variables, one pivot each).
  On a grid graph f is about one line; on a random graph of mean degree 5 about a quarter of n.
* The constraint rows come out of the chase as Python integers, packed into rows of 64-bit
  words, and C y = r goes through countlo.classic.rowchase's elimination (forward elimination a
  word of 64 columns at a time with the four Russians' tables, then back-substitution a word at a
  time for y and C's kernel).
* The quiet patterns are the chases of the kernel of C with b = 0. As A is symmetric they are also
  the w with w A = 0, so an unsolvable b has a quiet pattern w with w.b = 1: that is the witness.

It gives what countlo.classic.general gives for a two-state graph (solvability, one solution, the
nullity, a basis of the quiet patterns, a witness), in the same shapes as countlo.classic.rowchase.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import reduce
from operator import xor
from typing import Any

import numpy as np
from numpy.typing import NDArray

from countlo.classic import rowchase
from countlo.errors import BadSizeError
from countlo.graph import MAX_NODES, Graph
from countlo.i18n import _

Words = NDArray[np.uint64]


def check_nodes(graph: Graph) -> None:
    """Refuse, before any allocation, a graph whose dense system could pass the memory bound."""
    if graph.cells > MAX_NODES:
        raise BadSizeError(_("graphs are limited to {most} nodes; this one has {nodes}").format(
            most=MAX_NODES, nodes=graph.cells))


def neighbourhoods(graph: Graph) -> list[list[int]]:
    """N[e] for every node: the presses in light e's equation, and the lights press e reaches.
    Built from the edges with numpy (a stable sort by node), as lists sliced out of one list: the
    chase then reads node numbers that sit together in memory, which made the greedy order and
    the chases of a 10,000-node graph about a third faster than lists of the edges' own ints."""
    n = graph.cells
    m = len(graph.edges)
    ends = np.fromiter(itertools.chain.from_iterable(graph.edges), dtype=np.int64, count=2 * m).reshape(m, 2)
    src, dst = [ends[:, 0], ends[:, 1]], [ends[:, 1], ends[:, 0]]
    if graph.rule == "sigma+":  # each node first in its own neighbourhood
        src.insert(0, np.arange(n))
        dst.insert(0, np.arange(n))
    s, d = np.concatenate(src), np.concatenate(dst)
    flat = d[np.argsort(s, kind="stable")].tolist()
    stops = np.cumsum(np.bincount(s, minlength=n)).tolist()
    return [flat[a:b] for a, b in zip([0, *stops[:-1]], stops)]


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


def constraint_rows(nbhd: Sequence[Sequence[int]], steps: Sequence[tuple[int, int]],
                    free: Sequence[int]) -> list[int]:
    """The homogeneous chase: each constraint as a bitset over the free variables. A step's sum
    runs over its whole equation, the pivot included: the pivot was unknown until this step, so
    no earlier equation held it and its form is still 0. Every form stays alive (n f bits, within
    the n^2 bound of docs/MATH.md §18.5): dropping each after its last equation cost a third more
    time on dense graphs and twice the time on sparse ones."""
    forms = [0] * len(nbhd)
    for i, v in enumerate(free):
        forms[v] = 1 << i
    get = forms.__getitem__
    out: list[int] = []
    for e, p in steps:
        acc = reduce(xor, map(get, nbhd[e]), 0)  # the loop in C: a third faster than in Python
        if p >= 0:
            forms[p] = acc
        else:
            out.append(acc)
    return out


def pack(rows: Sequence[int], bits: int) -> Words:
    """Python-int bitsets as a (len(rows), words) uint64 array, bit j of row i at word j // 64."""
    nw = max(1, (bits + 63) // 64)
    buf = b"".join(r.to_bytes(8 * nw, "little") for r in rows)
    return np.frombuffer(buf, dtype="<u8").reshape(len(rows), nw).astype(np.uint64)


class Reduced:
    """[C | r] eliminated as in countlo.classic.rowchase (forward elimination, then the
    back-substitution a word at a time; docs/MATH.md §18.1, §18.5): whether C y = r is solvable,
    one y, and the kernel of C."""

    def __init__(self, c: Words, r: Sequence[int], f: int):
        self.f = f
        self.system = rowchase.system(c, f)
        self.y = self.system.particular(np.array(r, dtype=np.uint8).reshape(len(c)))

    @property
    def nullity(self) -> int:
        return self.system.nullity

    def solvable(self) -> bool:
        return self.y is not None

    def solution(self) -> list[int]:
        """y with C y = r (free columns of C without a pivot at 0); only when solvable."""
        assert self.y is not None
        y: list[int] = self.y.tolist()
        return y

    def kernel(self) -> tuple[list[int], int]:
        """(y, d): y[i] is a d-bit int, bit j the value of free variable i in kernel vector j, the
        vector that sets non-pivot column j to 1 and the other non-pivot columns to 0."""
        k = self.system.kernel()
        return [int.from_bytes(row.tobytes(), "little") for row in k], self.nullity


class Plan:
    """The chase of one graph, with its last elimination kept (quiet and solve share it)."""

    def __init__(self, graph: Graph):
        check_nodes(graph)
        self.n = graph.cells
        self.nbhd = neighbourhoods(graph)
        self.steps, self.free = chase_order(self.nbhd)
        self.c = pack(constraint_rows(self.nbhd, self.steps, self.free), len(self.free))
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
        """A x, straight from the neighbourhoods (independent of the chase)."""
        get = x.__getitem__
        return [reduce(xor, map(get, nb), 0) for nb in self.nbhd]


class _Plans:
    """The plans of the last few graphs, looked up by the graph object first and then by equality:
    an lru_cache would hash the graph, every node and edge (10 ms at 100,000 edges), on each call."""

    def __init__(self, size: int):
        self.size = size
        self.kept: list[tuple[Graph, Plan]] = []

    def __call__(self, graph: Graph) -> Plan:
        for g, p in self.kept:
            if g is graph:
                return p
        for g, p in self.kept:
            if g == graph:
                return p
        p = Plan(graph)
        self.kept = [*self.kept[1 - self.size:], (graph, p)]
        return p

    def cache_clear(self) -> None:
        self.kept = []


plan = _Plans(4)


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
    base, residual = p.chase_residual(b, [0] * p.f)
    red = p.reduced(residual)
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
