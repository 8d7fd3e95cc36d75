"""Lights Out under any rules: grids of every topology and click rule, graphs, k = 2..255 states.

A click on cell j adds A[i][j] (mod k) to cell i; a start s reaches the target t after presses x
(each cell pressed x_j = 0..k-1 times) iff A x = t - s (mod k).

Solving generalizes light chasing (docs/MATH.md §18): the equations are taken in
reading order, and each one whose variables are not all known yet names one of them (a unit
coefficient, the furthest ahead) as its pivot, the others becoming free variables; an equation
whose variables are all known is a constraint. For a local rule on a grid only a few rows' worth
of variables are ever free, so the RC x RC matrix is never built: what is left is a small system
C y = r over Z_k in the free variables (countlo.visible.algebra.smith), after which one more chase gives the
presses. The quiet patterns are the chases of C's kernel. Unsolvability is proved by a vector w
with w A = 0 and w.(t - s) != 0, taken from the quiet patterns of the transposed game (Z_k is
self-injective, so the image of A is exactly what every such w annihilates).

Two-state grids from ROWCHASE_CELLS cells on, the plus rule on a torus, the rowcol rule, and
grids with k > 2 from ROWCHASE_CELLS cells go to the faster engines of countlo.visible.engines
(docs/ARCHITECTURE.md, "which engine solves which board"); the answers are the same.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeGuard

from countlo.board import Shape
from countlo.errors import BadSizeError
from countlo.graph import MAX_NODES as GRAPH_NODES
from countlo.graph import Graph
from countlo.i18n import _
from countlo.visible.algebra import smith
from countlo.visible.engines import circulant_torus

Board = Shape | Graph
Vector = list[int]
MAX_CELLS = 1 << 22
MAX_SYMBOLIC = 1 << 28  # bytes of free-variable expressions alive at once (k > 2)
EXACT_QUIET = 1 << 22  # fewest presses: walk every solution up to this many
ROWCHASE_CELLS = 400  # from this size two-state grids chase a line at a time (rowchase)
BITMATRIX_NODES = 200  # from this size two-state graphs go to the greedy chase + bit-packed elimination
DENSE_FREE = 64  # from this many free variables a big graph's constraints go to zklu (k > 2)


@dataclass(frozen=True)
class Outcome:
    """The answer for one start and target.

    `presses[j]` is how many times to press cell j (0..k-1), None when unsolvable; `witness` is a
    weight per cell whose weighted sum of the lights (mod k) no click changes and that differs
    between start and target (None when solvable). The quiet patterns form the group
    Z_orders[0] x Z_orders[1] x ...; for prime k all orders are k and `nullity` is their number.
    """

    solvable: bool
    presses: Vector | None
    witness: Vector | None
    orders: tuple[int, ...]
    states: int

    @property
    def quiet_count(self) -> int:
        return math.prod(self.orders)

    @property
    def solutions(self) -> int:
        return self.quiet_count if self.solvable else 0

    @property
    def nullity(self) -> int:
        """Number of independent quiet patterns (their orders are `orders`)."""
        return len(self.orders)


def states(board: Board) -> int:
    return board.rules.states if isinstance(board, Shape) else board.states


def columns(board: Board) -> list[dict[int, int]]:
    """What a click on each cell adds to each cell (entries mod k, zeros dropped)."""
    return list(_columns(board))


def _check_size(board: Board) -> None:
    if isinstance(board, Graph) and board.cells > GRAPH_NODES:
        raise BadSizeError(_("graphs are limited to {most} nodes; this one has {nodes}").format(
            most=GRAPH_NODES, nodes=board.cells))
    if board.cells > MAX_CELLS:
        raise BadSizeError(_("boards under other rules are limited to {most} cells; {board} has {cells}").format(
            most=MAX_CELLS, board=board, cells=board.cells))


def check_size(board: Board) -> None:
    """Refuse, in one line, a board too large for `solve` under its rules (circulant_torus.MAX_CELLS
    for the plus rule on a torus, else MAX_CELLS)."""
    if _circulant(board):
        circulant_torus.check_size(board)
    else:
        _check_size(board)


@lru_cache(maxsize=16)
def _columns(board: Board) -> tuple[dict[int, int], ...]:
    _check_size(board)
    return tuple({i: t for i, t in board.hits(j).items() if t} for j in range(board.cells))


@lru_cache(maxsize=16)
def _rows(board: Board) -> tuple[dict[int, int], ...]:
    rows: list[dict[int, int]] = [{} for _ in range(board.cells)]
    for j, col in enumerate(_columns(board)):
        for i, t in col.items():
            rows[i][j] = t
    return tuple(rows)


def check_vector(board: Board, v: Sequence[int], what: str) -> None:
    k = states(board)
    if len(v) != board.cells or any(not 0 <= x < k for x in v):
        raise BadSizeError(_("{what} must hold {cells} values 0..{last}").format(what=what, cells=board.cells,
                                                                                last=k - 1))


# --- the chase --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Plan:
    n: int
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
            x[p] = s * _inverse(row[p], k) % k
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
def _inverse(a: int, k: int) -> int:
    return pow(a, -1, k)


def _structure(rows: Sequence[dict[int, int]], k: int) -> tuple[list[tuple[int, int]], list[int],
                                                                  list[int]]:
    """(steps, free variables, index of the first free variable of each step)."""
    n = len(rows)
    known = bytearray(n)
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
    for v in range(n):
        if not known[v]:
            free.append(v)
    return steps, free, first_free


def _symbolic(rows: Sequence[dict[int, int]], k: int, steps: list[tuple[int, int]],
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
            vecs[p] = (-vec * _inverse(row[p], k)) % k
        else:
            out.append(tuple(int(a) for a in vec % k))
        for v in row:
            if last[v] == t:
                vecs.pop(v, None)
    return out


def _make_plan(rows: tuple[dict[int, int], ...], k: int, greedy: bool = False) -> _Plan:
    if greedy:  # a big graph: the equations in greedy order (docs/MATH.md §18.5; every coefficient is 1)
        from countlo.visible.engines import graph_chase  # noqa: PLC0415 (numpy loads only for big graphs)

        steps, free, first_free = graph_chase.chase_order([tuple(r) for r in rows], firsts=True)
    else:
        steps, free, first_free = _structure(rows, k)
    c = _symbolic(rows, k, steps, free, first_free)
    system = _Dense(c, len(free), k) if greedy and len(free) >= DENSE_FREE else smith.factorize(c, len(free), k)
    return _Plan(len(rows), k, rows, tuple(steps), tuple(free), tuple(c), system)


class _Dense(smith.System):
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
def _plan(board: Board) -> _Plan:
    greedy = isinstance(board, Graph) and board.cells >= BITMATRIX_NODES
    return _make_plan(_rows(board), states(board), greedy)


@lru_cache(maxsize=16)
def _transposed_plan(board: Board) -> _Plan:
    if _columns(board) == _rows(board):
        return _plan(board)
    return _make_plan(_columns(board), states(board))


# --- answers -----------------------------------------------------------------------------------


def _rowchase(board: Board) -> Any:
    """countlo.visible.engines.line_chase when it solves this board (docs/MATH.md §18.1),
    countlo.visible.engines.graph_chase
    for a two-state graph from BITMATRIX_NODES nodes (§18.5), else None. They are imported only
    here: numpy stays off the start-up path of `countlo solve`."""
    if isinstance(board, Graph) and board.states == 2 and board.cells >= BITMATRIX_NODES:
        _check_size(board)
        from countlo.visible.engines import graph_chase  # noqa: PLC0415 (numpy loads only for big graphs)

        return graph_chase
    if not isinstance(board, Shape) or board.cells < ROWCHASE_CELLS or board.rules.states != 2:
        return None
    _check_size(board)
    from countlo.visible.engines import line_chase  # noqa: PLC0415 (numpy loads only for big boards)

    return line_chase if line_chase.applies(board) else None


def _circulant(board: Board) -> TypeGuard[Shape]:
    """From ROWCHASE_CELLS on, as rowchase (smaller boards keep the answers they always had)."""
    return isinstance(board, Shape) and board.cells >= ROWCHASE_CELLS and circulant_torus.applies(board)


def _zkring(board: Board) -> Any:
    """countlo.visible.engines.ring_chase for the grids it takes (a prime k > 2 not dividing the columns, left and
    right joined: docs/MATH.md §18.9), from ROWCHASE_CELLS cells, else None."""
    if not isinstance(board, Shape) or board.cells < ROWCHASE_CELLS or board.rules.states == 2:
        return None
    _check_size(board)
    from countlo.visible.engines import ring_chase  # noqa: PLC0415 (numpy stays off the start-up path)

    return ring_chase if ring_chase.applies(board) else None


def _zkchase(board: Board) -> Any:
    """countlo.visible.engines.line_chase_mod_k for grids with k > 2 that it takes (docs/MATH.md §18.4), else None."""
    if not isinstance(board, Shape) or board.cells < ROWCHASE_CELLS or board.rules.states == 2:
        return None
    _check_size(board)
    from countlo.visible.engines import line_chase_mod_k  # noqa: PLC0415 (numpy stays off the start-up path)

    return line_chase_mod_k if line_chase_mod_k.applies(board) else None


def _closed(board: Board) -> Any:
    """countlo.visible.engines.rowcol_closed_form for the rowcol rule (docs/MATH.md §18.3), else None."""
    if not isinstance(board, Shape) or board.rules.rule.name != "rowcol":
        return None
    _check_size(board)
    from countlo.visible.engines import rowcol_closed_form  # noqa: PLC0415 (numpy stays off the start-up path)

    return rowcol_closed_form


def quiet(board: Board, count: int | None = None) -> list[tuple[Vector, int]]:
    """Independent generators of the quiet patterns (presses changing nothing) with their
    orders; the first `count` when given."""
    if _circulant(board):
        _check_size(board)
        return [(g, 2) for g in circulant_torus.quiet_list(board, count)]
    if (closed := _closed(board) or _zkchase(board)) is not None:
        return list(closed.quiet(board, count))
    fast = _rowchase(board)
    if fast is not None:
        return [(g, 2) for g in fast.quiet_list(board, count)]
    plan = _plan(board)
    zero = [0] * plan.n
    gens = plan.kernel.gens[:count]
    return [(plan.chase(zero, g), o) for g, o in zip(gens, plan.kernel.orders)]


def orders(board: Board) -> tuple[int, ...]:
    if _circulant(board):
        return (2,) * circulant_torus.nullity(board)
    if (closed := _closed(board) or _zkring(board) or _zkchase(board)) is not None:
        return tuple(closed.orders(board))
    fast = _rowchase(board)
    if fast is not None:
        return (2,) * int(fast.plan(board).nullity)
    return tuple(_plan(board).kernel.orders)


def solve(board: Board, start: Sequence[int], target: Sequence[int] | None = None) -> Outcome:
    """Presses taking `start` to `target` (all dark when None), or a proof there are none."""
    k = states(board)
    if _circulant(board):  # checks the vectors itself, as bytes
        presses, witness, nullity = circulant_torus.solve_start(board, start, target)
        return Outcome(presses is not None, presses, witness, (2,) * nullity, k)
    fast = _rowchase(board)
    if fast is not None:  # checks the vectors itself, on arrays
        presses, witness, nullity = fast.solve_start(board, start, target)
        return Outcome(presses is not None, presses, witness, (2,) * nullity, k)
    if (closed := _closed(board) or _zkring(board) or _zkchase(board)) is not None:
        presses, witness, ords = closed.solve_start(board, start, target)
        return Outcome(presses is not None, presses, witness, ords, k)
    check_vector(board, start, "the start")
    if target is not None:
        check_vector(board, target, "the target")
    b = [((target[i] if target is not None else 0) - start[i]) % k for i in range(board.cells)]
    return _solve_by_plan(board, b)


def _solve_by_plan(board: Board, b: Vector) -> Outcome:
    """The chase one equation at a time (any board, any k)."""
    k = states(board)
    plan = _plan(board)
    base = plan.chase(b, [0] * len(plan.free))
    y = plan.system.solve(plan.residual(b, base)) if plan.c else [0] * len(plan.free)
    ords = tuple(plan.kernel.orders)
    if y is None:
        return Outcome(False, None, _witness(board, b), ords, k)
    x = plan.chase(b, y) if any(y) else base
    assert apply(board, [0] * board.cells, x) == b, "the chase failed to reach the target"
    return Outcome(True, x, None, ords, k)


def _witness(board: Board, b: Sequence[int]) -> Vector:
    plan = _transposed_plan(board)
    zero = [0] * plan.n
    k = plan.k
    for g in plan.kernel.gens:
        w = plan.chase(zero, g)
        if sum(a * c for a, c in zip(w, b)) % k:
            return w
    raise AssertionError("no left-kernel vector separates an unsolvable start: the maths is wrong")


def apply(board: Board, lights: Sequence[int], presses: Sequence[int]) -> Vector:
    """The lights after pressing cell j presses[j] times."""
    k = states(board)
    out = list(lights)
    for j, col in enumerate(_columns(board)):
        x = presses[j]
        if x:
            for i, t in col.items():
                out[i] = (out[i] + t * x) % k
    return out


def all_solutions(board: Board, start: Sequence[int], target: Sequence[int] | None = None,
                  limit: int | None = None) -> Iterator[Vector]:
    """Every press vector taking start to target, at most `limit` of them."""
    sol = solve(board, start, target)
    if sol.presses is None:
        return
    gens = quiet(board)
    k = sol.states
    ranges = [range(o) for _, o in gens]
    for i, combo in enumerate(itertools.product(*ranges)):
        if limit is not None and i >= limit:
            return
        x = list(sol.presses)
        for (g, _order), c in zip(gens, combo):
            if c:
                x = [(a + c * t) % k for a, t in zip(x, g)]
        yield x


def press_count(x: Sequence[int]) -> int:
    """Presses with multiplicity: cell j pressed x_j times (x_j = 0..k-1)."""
    return sum(x)


def fewest(board: Board, start: Sequence[int], target: Sequence[int] | None = None,
           exact_limit: int = EXACT_QUIET) -> tuple[Vector, bool] | None:
    """(presses with the fewest clicks counted with multiplicity, exact) or None if unsolvable.
    Exact by walking every solution when there are at most `exact_limit`; otherwise a descent
    over the quiet generators whose count is an upper bound (exact False)."""
    sol = solve(board, start, target)
    if sol.presses is None:
        return None
    k = sol.states
    if sol.quiet_count == 1:
        return sol.presses, True
    gens = quiet(board)
    if sol.quiet_count <= exact_limit:
        if k == 2:
            return _gray_min(sol.presses, [g for g, _ in gens]), True
        best = min(all_solutions(board, start, target), key=press_count)
        return best, True
    x = list(sol.presses)
    improved = True
    while improved:
        improved = False
        for g, o in gens:
            for c in range(1, o):
                y = [(a + c * t) % k for a, t in zip(x, g)]
                if press_count(y) < press_count(x):
                    x, improved = y, True
    return x, False


def _gray_min(x: Vector, basis: list[Vector]) -> Vector:
    def pack(v: Sequence[int]) -> int:
        return int("".join("1" if a else "0" for a in reversed(v)) or "0", 2)

    n = len(x)
    cur = pack(x)
    flips = [pack(g) for g in basis]
    best, best_w = cur, cur.bit_count()
    for i in range(1, 1 << len(flips)):
        cur ^= flips[(i & -i).bit_length() - 1]
        w = cur.bit_count()
        if w < best_w:
            best, best_w = cur, w
    return [(best >> j) & 1 for j in range(n)]


def invariants(board: Board) -> list[Vector]:
    """Generators of the w with w A = 0 (mod k): weightings of the cells whose weighted sum of
    the lights no click changes (the quiet patterns of the transposed game)."""
    if _circulant(board):  # its own transpose
        return [g for g, _ in quiet(board)]
    fast = _rowchase(board)
    if fast is not None:
        return list(fast.invariant_list(board))
    if (closed := _closed(board)) is not None:  # A is symmetric: the invariants are the quiet patterns
        return [g for g, _o in closed.quiet(board)]
    if (chase := _zkchase(board)) is not None:
        return [g for g, _o in chase.quiet(board, transposed=True)]
    plan = _transposed_plan(board)
    zero = [0] * plan.n
    return [plan.chase(zero, g) for g in plan.kernel.gens]
