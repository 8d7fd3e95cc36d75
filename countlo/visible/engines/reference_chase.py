"""The reference chase, one equation at a time: every board under any rules (grids of every
topology and click rule, graphs, k = 2..255 states), and what the faster engines are checked
against (docs/MATH.md §18).

Solving generalizes light chasing: the equations are taken in reading order, and each one whose
variables are not all known yet names one of them (a unit coefficient, the furthest ahead) as its
pivot, the others becoming free variables; an equation whose variables are all known is a
constraint. For a local rule on a grid only a few rows' worth of variables are ever free, so the
RC x RC matrix is never built: what is left is a small system C y = r over Z_k in the free
variables (countlo.visible.algebra.smith), after which one more chase gives the presses. The
quiet patterns are the chases of C's kernel. Unsolvability is proved by a vector w with w A = 0
and w.(t - s) != 0, taken from the quiet patterns of the transposed game (Z_k is
self-injective, so the image of A is exactly what every such w annihilates).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from countlo.board import Vector
from countlo.errors import BadSizeError
from countlo.graph import Board, Graph, button_count
from countlo.i18n import _
from countlo.visible.algebra import smith
from countlo.visible.engines import engine
from countlo.visible.engines.engine import Outcome

MAX_SYMBOLIC = 1 << 28  # bytes of free-variable expressions alive at once (k > 2)
BITMATRIX_NODES = 200  # from this size graphs are chased in greedy order (docs/MATH.md §18.5)
DENSE_FREE = 64  # from this many free variables a big graph's constraints go to dense_lu (k > 2)


@lru_cache(maxsize=16)
def columns(board: Board) -> tuple[dict[int, int], ...]:
    """What a press of each button (each cell, on a grid or a graph) adds to each light (entries
    mod k, zeros dropped)."""
    engine.check_size(board)
    return tuple({i: t for i, t in board.hits(j).items() if t} for j in range(button_count(board)))


@lru_cache(maxsize=16)
def rows(board: Board) -> tuple[dict[int, int], ...]:
    """The equations: what each light receives from a press of each button."""
    rows: list[dict[int, int]] = [{} for _ in range(board.cells)]
    for j, col in enumerate(columns(board)):
        for i, t in col.items():
            rows[i][j] = t
    return tuple(rows)


@dataclass(frozen=True)
class Plan:
    n: int  # the unknowns (buttons; lights for the transposed game), not always len(rows)
    k: int
    rows: tuple[dict[int, int], ...]
    steps: tuple[tuple[int, int], ...]  # (equation, pivot) in order; pivot -1 = constraint
    free: tuple[int, ...]  # the variable behind each free index
    c: tuple[tuple[int, ...], ...]  # constraint rows over the free variables
    system: smith.System  # C factored over Z_k

    @property
    def kernel(self) -> smith.System:
        return self.system

    def chase(self, b: Sequence[int], y: Sequence[int]) -> Vector:
        """The presses with free variables y that satisfy every pivot equation for rhs b."""
        k = self.k
        x = [0] * self.n
        for v, val in zip(self.free, y):
            x[v] = val % k
        for e, p in self.steps:
            if p < 0:
                continue
            row = self.rows[e]
            s = b[e]
            for v, t in row.items():
                if v != p:
                    s -= t * x[v]
            x[p] = s * inverse(row[p], k) % k
        return x

    def residual(self, b: Sequence[int], x: Sequence[int]) -> Vector:
        """b - A x on the constraint equations."""
        out = []
        for e, p in self.steps:
            if p < 0:
                row = self.rows[e]
                out.append((b[e] - sum(t * x[v] for v, t in row.items())) % self.k)
        return out


@lru_cache(maxsize=512)
def inverse(a: int, k: int) -> int:
    return pow(a, -1, k)


def structure(rows: Sequence[dict[int, int]], k: int, unknowns: int | None = None) -> tuple[
        list[tuple[int, int]], list[int], list[int]]:
    """(steps, free variables, index of the first free variable of each step); `unknowns` is the
    number of variables when it is not the number of equations (a press map, docs/MATH.md §27)."""
    n = len(rows)
    known = bytearray(n if unknowns is None else unknowns)
    steps: list[tuple[int, int]] = []
    free: list[int] = []
    first_free: list[int] = []
    half = n // 2
    for e in range(n):
        row = rows[e]
        unknown = [v for v in row if not known[v]]
        first_free.append(len(free))
        if not unknown:
            steps.append((e, -1))
            continue
        units = [v for v in unknown if math.gcd(row[v], k) == 1]
        pivot = -1
        if units:
            # the variable furthest ahead without wrapping round: on a grid, the row below
            pivot = max(units, key=lambda v: ((v - e) % n <= half, (v - e) % n))
        for v in unknown:
            known[v] = 1
            if v != pivot:
                free.append(v)
        steps.append((e, pivot))
    for v in range(len(known)):
        if not known[v]:
            free.append(v)
    return steps, free, first_free


def symbolic(rows: Sequence[dict[int, int]], k: int, steps: list[tuple[int, int]],
              free: list[int], first_free: list[int]) -> list[tuple[int, ...]]:
    """The constraint rows: each constraint equation with every variable written as a linear
    form in the free variables (homogeneous chase). Forms are dropped after their last use."""
    f = len(free)
    last: dict[int, int] = {}
    for t, (e, _p) in enumerate(steps):
        for v in rows[e]:
            last[v] = t
    out: list[tuple[int, ...]] = []
    if k == 2:
        forms: dict[int, int] = {}
        for t, (e, p) in enumerate(steps):
            nxt = first_free[t + 1] if t + 1 < len(first_free) else f
            for i in range(first_free[t], nxt):
                forms[free[i]] = 1 << i
            acc = 0
            for v, c in rows[e].items():
                if v != p and c & 1:
                    acc ^= forms[v]
            if p >= 0:
                forms[p] = acc
            else:
                out.append(tuple((acc >> i) & 1 for i in range(f)))
            for v in rows[e]:
                if last[v] == t:
                    forms.pop(v, None)
        return out
    import numpy as np

    if f * len(rows) > MAX_SYMBOLIC and f * 64 * 8 > MAX_SYMBOLIC:
        raise BadSizeError(_("this board needs too many free variables for an exact solve"))
    vecs: dict[int, Any] = {}
    for t, (e, p) in enumerate(steps):
        nxt = first_free[t + 1] if t + 1 < len(first_free) else f
        for i in range(first_free[t], nxt):
            unit = np.zeros(f, dtype=np.int64)
            unit[i] = 1
            vecs[free[i]] = unit
        vec: Any = np.zeros(f, dtype=np.int64)
        row = rows[e]
        for v, c in row.items():
            if v != p:
                vec += c * vecs[v]
        if p >= 0:
            vecs[p] = (-vec * inverse(row[p], k)) % k
        else:
            out.append(tuple(int(a) for a in vec % k))
        for v in row:
            if last[v] == t:
                vecs.pop(v, None)
    return out


def make_plan(rows: tuple[dict[int, int], ...], k: int, greedy: bool = False, unknowns: int | None = None) -> Plan:
    n = len(rows) if unknowns is None else unknowns
    if greedy:  # a big graph: the equations in greedy order (docs/MATH.md §18.5; every coefficient is 1)
        from countlo.visible.engines import graph_chase  # noqa: PLC0415 (numpy loads only for big graphs)

        steps, free, first_free = graph_chase.chase_order([tuple(r) for r in rows], firsts=True)
    else:
        steps, free, first_free = structure(rows, k, n)
    c = symbolic(rows, k, steps, free, first_free)
    system = Dense(c, len(free), k) if greedy and len(free) >= DENSE_FREE else smith.factorize(c, len(free), k)
    return Plan(n, k, rows, tuple(steps), tuple(free), tuple(c), system)


class Dense(smith.System):
    """countlo.visible.algebra.dense_lu's blocked elimination (numpy) in smith.System's shapes: the constraints
    of a big graph are many and dense, where zk's Python elimination would take minutes."""

    def __init__(self, c: Sequence[Sequence[int]], f: int, k: int):
        import numpy as np

        from countlo.visible.algebra import dense_lu  # noqa: PLC0415

        self.dense = dense_lu.System(np.array(c, dtype=np.int64).reshape(len(c), f), k)
        self.k, self.n = k, f
        self.gens = [[int(v) for v in g] for g in self.dense.gens.T.tolist()]
        self.orders = list(self.dense.orders)

    def solve(self, b: Sequence[int]) -> Vector | None:
        y = self.dense.solve(b)
        return None if y is None else [int(v) for v in y.tolist()]


@lru_cache(maxsize=16)
def plan(board: Board) -> Plan:
    greedy = isinstance(board, Graph) and not board.arcs and board.cells >= BITMATRIX_NODES
    return make_plan(rows(board), engine.states(board), greedy, button_count(board))


@lru_cache(maxsize=16)
def transposed_plan(board: Board) -> Plan:
    if columns(board) == rows(board):
        return plan(board)
    return make_plan(columns(board), engine.states(board), unknowns=board.cells)


def solve_by_plan(board: Board, b: Sequence[int]) -> Outcome:
    """Presses x with A x = b, or a witness (any board, any k)."""
    p = plan(board)
    base = p.chase(b, [0] * len(p.free))
    y = p.system.solve(p.residual(b, base)) if p.c else [0] * len(p.free)
    ords = tuple(p.kernel.orders)
    if y is None:
        return Outcome.of(None, witness(board, b), ords, p.k)
    x = p.chase(b, y) if any(y) else base
    assert lights(board, x) == [v % p.k for v in b], "the chase failed to reach the target"
    return Outcome.of(x, None, ords, p.k)


def witness(board: Board, b: Sequence[int]) -> Vector:
    """A w with w A = 0 and w.b != 0, for an unsolvable b."""
    p = transposed_plan(board)
    zero = [0] * len(p.rows)  # one per equation
    for g in p.kernel.gens:
        w = p.chase(zero, g)
        if sum(a * c for a, c in zip(w, b)) % p.k:
            return w
    raise AssertionError("no left-kernel vector separates an unsolvable start: the maths is wrong")


def lights(board: Board, presses: Sequence[int]) -> Vector:
    """A x: the lights that pressing cell j presses[j] times changes, by how much (mod k)."""
    k = engine.states(board)
    out = [0] * board.cells
    for j, col in enumerate(columns(board)):
        x = presses[j]
        if x:
            for i, t in col.items():
                out[i] = (out[i] + t * x) % k
    return out


class ReferenceChase:
    """The chase one equation at a time as an Engine: it takes every board."""

    def applies(self, board: Board) -> bool:
        return True

    def check_size(self, board: Board) -> None:
        engine.check_size(board)

    def solve_start(self, board: Board, start: Sequence[int], target: Sequence[int] | None) -> Outcome:
        return solve_by_plan(board, engine.goal(board, start, target))

    def orders(self, board: Board) -> tuple[int, ...]:
        return tuple(plan(board).kernel.orders)

    def quiet(self, board: Board, count: int | None) -> list[tuple[Vector, int]]:
        p = plan(board)
        zero = [0] * len(p.rows)  # one per equation
        return [(p.chase(zero, g), o) for g, o in zip(p.kernel.gens[:count], p.kernel.orders)]

    def invariants(self, board: Board) -> list[Vector]:
        p = transposed_plan(board)
        zero = [0] * len(p.rows)  # one per equation
        return [p.chase(zero, g) for g in p.kernel.gens]


ENGINE = ReferenceChase()
