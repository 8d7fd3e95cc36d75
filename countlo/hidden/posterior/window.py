"""The `exact` engine: the exact posterior over hidden starts given a game record.

Every start consistent with the record is equally likely. A dynamic programme counts them
exactly: cells are taken one at a time in reading order along the shorter side of the board
(the record is transposed when the board is wider than tall), the state being a sliding window
of at most 2C + 1 cells plus the running lit total for the starting count; a click's equation
is checked once its whole neighbourhood is in the window (`dense` plans the windows).
Only window states that occur are kept (`sparse`), and cells near no click take no
step at all: given the lit total of the others they are a uniformly random set, counted by
binomials. A backward pass over the same tables gives every marginal and, for every cell, the
law of the count a click there would show; backward sampling draws uniform starts.

Counts are exact Python ints: tables run in float64 where every value is provably an integer
below 2^53, and otherwise in int64 or Python ints (see `sparse`).

The programme, its exactness and the next-count laws: docs/MATH.md §9.

A contradictory record (no consistent start) raises nothing: count is 0, board None, the
marginals are all 0.0, every count distribution is {}, boards() is [] and sample() is [].
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from itertools import combinations
from math import comb
from typing import Any

import numpy as np

from countlo.board import Shape, move_bits
from countlo.countboard import CountBoard, grid_only, rules_of
from countlo.errors import EngineLimitError
from countlo.hidden.posterior.dense import DENSE_BYTES, Plan, Tables, dense_peak_bytes, dense_size, lit_values, plan_for
from countlo.hidden.posterior.sparse import Inexact, SparseTables, binom
from countlo.hidden.posterior.split import SPLIT_CELLS
from countlo.hidden.record import Equation, Record
from countlo.i18n import _

DENSE_CELLS = 66  # dense tables need float64/int64 counts (see dense)
WINDOW_BITS = 26  # other rules: widest window (cells held at once) the programme may need


def transposes(shape: CountBoard) -> bool:
    """True when the programme works on the transposed grid (wider than tall); never off a grid."""
    return isinstance(shape, Shape) and shape.cols > shape.rows and shape.rules.transposable


def window_bits_needed(shape: CountBoard) -> int:
    """Cells the programme holds at once when every cell's equation is checked (the worst case
    of a game), on the orientation the posterior works on (a press map: its lights in order)."""
    if isinstance(shape, Shape) and transposes(shape):
        shape = shape.transposed()
    return max(st.bits for st in plan_for(shape).steps)


def check_window(shape: CountBoard) -> None:
    """Raise EngineLimitError when the window programme would hold more than WINDOW_BITS cells."""
    if shape.classic:
        return
    bits = window_bits_needed(shape)
    if bits > WINDOW_BITS and not isinstance(shape, Shape):
        raise EngineLimitError(_(
            "the exact posterior behind the strategies would hold {bits} lights at once on this "
            "board ({board}), more than {most}: its buttons reach too far; a board of at most {cells} "
            "lights always fits").format(bits=bits, board=rules_of(shape), most=WINDOW_BITS, cells=SPLIT_CELLS))
    if bits > WINDOW_BITS:
        raise EngineLimitError(_(
            "the exact posterior behind the strategies would hold {bits} cells at once on a "
            "{shape} board ({rules}), more than {most}: the clicks reach too far; a board of at "
            "most {cells} cells usually fits").format(bits=bits, shape=shape, rules=rules_of(shape),
                                         most=WINDOW_BITS, cells=SPLIT_CELLS))


DENSE_SWITCH = 0.08  # dense next-count pass when the sparse one looks this large relative to it


def _sparse(plan: Plan, n0: int, eqs: dict[int, list[Equation]],
            terminals: Iterable[tuple[int, int]] = ((0, 0),)) -> SparseTables:
    """Sparse tables in float64 where that is provably exact (see sparse), else in
    int64 / Python ints."""
    if plan.shape.cells > 53:
        try:
            return _Guarded(plan, n0, eqs, terminals, guarded=True)
        except Inexact:
            pass
    return SparseTables(plan, n0, eqs, terminals)


class _Guarded(SparseTables):
    """Guarded float64 tables whose backward pass falls back to exact integers when needed."""

    def joints(self) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        try:
            yield from list(super().joints())
        except Inexact:
            yield from SparseTables(self.plan, self.n0, self.eqs, self.terminals).joints()


class WindowPosterior:
    """Exact posterior over the hidden start of a record: count, marginals, next-count laws, samples."""

    def __init__(self, record: Record, method: str = "sparse"):
        """`method` picks the tables: "sparse" (reached window states only, cells far from every
        click counted by binomials), or "dense" (every window state of every cell, at most
        DENSE_CELLS cells; the baseline of the benchmark and a cross-check in the tests)."""
        if method not in ("sparse", "dense") or (method == "dense" and record.shape.cells > DENSE_CELLS):
            raise ValueError(f"posterior method {method!r} is not available on {record.shape}")
        self.record = record
        shape = record.shape
        check_window(shape)
        self.transposed = transposes(shape)
        if isinstance(shape, Shape) and self.transposed:
            # work on the transpose so the window runs along the shorter side
            self._to_work = shape.transposed_cells()
            work = record.transposed()
            self._from_work = grid_only(work.shape, "transposition").transposed_cells()
        else:
            self._to_work = list(range(shape.cells))
            work = record
        self._work = work
        eqs: dict[int, list[Equation]] = {}
        for e in work.equations()[1:]:
            if e.centre is not None:  # every equation after the start's has a clicked centre
                eqs.setdefault(e.centre, []).append(e)
        self._eqs = eqs
        shape = work.shape
        self._tables: Tables | SparseTables
        if method == "dense":
            self._tables = Tables(plan_for(shape), work.start, eqs)
        else:  # only cells near clicks take a step; the others are counted by binomials
            needs = tuple((k, shape.neighbours(k)) for k in sorted(eqs))
            self._tables = _sparse(plan_for(shape, needs), work.start, eqs)
        self.count: int = self._tables.count
        listed = self.boards(1) if self.count == 1 else None
        self.board: int | None = listed[0] if listed else None

    @property
    def nbytes(self) -> int:
        """Bytes of the tables this posterior keeps (the guide bounds its cache by them)."""
        t = self._tables
        if isinstance(t, SparseTables):
            return sum(k.nbytes + r.nbytes for k, r in t.stored)
        return sum(a.nbytes for a in (*t.stored.values(), *t.checkpoints.values()))

    # --- translation between the record's board and the working board ------------------------
    def _from_work_board(self, b: int) -> int:
        return move_bits(b, self._from_work) if self.transposed else b

    # --- marginals and next-count laws -------------------------------------------------------
    @cached_property
    def _laws(self) -> tuple[list[int], list[dict[int, int]]]:
        """Consistent starts with cell k lit, and count after clicking k -> consistent starts,
        for every working cell k (count now + |N(k)| - 2 * lit cells of N(k) now)."""
        shape, n = self._work.shape, self._work.shape.cells
        lit = [0] * n
        dists: list[dict[int, int]] = [{} for _ in range(n)]
        if self.count == 0:
            return lit, dists
        tables: Tables | SparseTables = self._tables
        if tables.sparse:
            tables = self._law_tables()
        flips, now = self._work.flips(), self._work.count
        stepped = {s.cell for s in tables.plan.steps}
        index = {ub: i for i, ub in enumerate(getattr(tables, "terminals", ((0, 0),)))}
        for j, keys, joint in tables.joints():
            step = tables.plan.steps[j]
            if joint.ndim == 1:
                joint = joint[:, None]
            # float64 joints hold exact integers below 2^53; their sums are exact below 2^53
            exact_floats = joint.dtype == np.float64 and self.count < 2**53
            if joint.dtype == np.float64 and not exact_floats:
                joint = joint.astype(np.int64).astype(object)
            top = 1 << (step.bits - 1)
            lit[step.cell] = int(joint[(keys & top) != 0, 0].sum())
            for k in step.centres:
                values = lit_values(step, k, shape, flips, keys if tables.sparse else None)
                size = len(shape.neighbours(k))
                u = sum(1 for c in shape.neighbours(k) if c not in stepped)
                per = [0] * (size + 1)
                for b in range(u + 1):
                    weights = joint[:, index[(u, b)]]
                    got: Sequence[float | int]
                    if exact_floats:  # sums of integers below 2^53: exact in float64
                        got = np.bincount(values, weights=weights, minlength=size + 1).tolist()
                    else:
                        got = [weights[values == v].sum() for v in range(size + 1)]
                    for v in range(size + 1 - b):
                        per[v + b] += comb(u, b) * int(got[v])
                dists[k] = {now + size - 2 * v: per[v] for v in range(size, -1, -1) if per[v]}
        if isinstance(tables, SparseTables) and tables.plan.free:
            self._free_laws(tables, stepped, lit, dists)
        return lit, dists

    def _law_tables(self) -> Tables | SparseTables:
        """Sparse tables that also see, for every cell k near a click, the stepped cells of N(k);
        dense tables instead where the sparse ones promise to be larger (measured on 6x6) and the
        dense ones fit DENSE_BYTES (a wide window makes a dense step gigabytes)."""
        shape, n0 = self._work.shape, self._work.start
        base = self._tables
        stepped = {s.cell for s in base.plan.steps}
        needs = [(k, shape.neighbours(k)) for k in sorted(self._eqs)]
        terminals = {(0, 0)}
        for k in range(shape.cells):
            near = tuple(c for c in shape.neighbours(k) if c in stepped)
            if k in self._eqs or not near:
                continue
            needs.append((k, near))
            u = len(shape.neighbours(k)) - len(near)
            terminals |= {(u, b) for b in range(u + 1)}
        if (shape.cells <= DENSE_CELLS and isinstance(base, SparseTables)
                and dense_peak_bytes(shape, n0) <= DENSE_BYTES):
            live = sum(keys.size * rows.shape[1] for keys, rows in base.stored)
            columns = len({u for u, _ in terminals})
            if live * columns > DENSE_SWITCH * dense_size(shape, n0):
                return Tables(plan_for(shape), n0, self._eqs)
        return _sparse(plan_for(shape, tuple(needs)), n0, self._eqs, sorted(terminals))

    def _free_laws(self, tables: SparseTables, stepped: set[int], lit: list[int],
                   dists: list[dict[int, int]]) -> None:
        """Marginals of the free cells and the laws of centres with only free neighbours: given
        e lit stepped cells, the free cells hold a uniformly random set of n0 - e lit cells."""
        shape, n0, now = self._work.shape, self._work.start, self._work.count
        free = len(tables.plan.free)
        for c in tables.plan.free:
            lit[c] = sum(v * binom(free - 1, n0 - e - 1) for e, v in tables.totals)
        for k in range(shape.cells):
            nb = shape.neighbours(k)
            if any(c in stepped for c in nb):
                continue
            size = len(nb)
            per = [
                sum(v * binom(size, b) * binom(free - size, n0 - e - b) for e, v in tables.totals)
                for b in range(size + 1)
            ]
            dists[k] = {now + size - 2 * b: per[b] for b in range(size, -1, -1) if per[b]}

    def start_marginals(self) -> list[float]:
        """P(cell k lit in the hidden start) for every k, uniform over consistent starts (0.0 if none)."""
        lit = self._laws[0]
        c = self.count
        return [lit[w] / c if c else 0.0 for w in self._to_work]

    def light_marginals(self) -> list[float]:
        """P(cell k lit now) (record.lit_now)."""
        return self.record.lit_now(self.start_marginals(), self.count)

    def count_distributions(self) -> list[dict[int, int]]:
        """For every cell: count shown after clicking it now -> consistent starts giving it ({} if none)."""
        dists = self._laws[1]
        return [dict(dists[w]) for w in self._to_work]

    def count_distribution(self, cell: int) -> dict[int, int]:
        """Count shown after clicking `cell` now -> number of consistent starts giving it."""
        return dict(self._laws[1][self._to_work[cell]])

    # --- explicit boards -----------------------------------------------------------------------
    def boards(self, limit: int) -> list[int] | None:
        """Every consistent start, ascending, if there are at most `limit` of them; else None."""
        if self.count > limit:
            return None
        return sorted(self._from_work_board(b) for b in self._descend(None))

    def sample(self, n: int, rng: random.Random) -> list[int]:
        """n starts drawn uniformly, with replacement, from the consistent ones ([] if there are none)."""
        if self.count == 0 or n <= 0:
            return []
        return [self._from_work_board(b) for b in self._descend((n, rng))]

    def _descend(self, draw: tuple[int, random.Random] | None) -> list[int]:
        """Backward sampling over the forward tables: every consistent start (draw None) or n
        uniform draws.

        The last window state and stepped total e are chosen in proportion to their number of
        completions. Going down from one step to the one before, the cells of the upper window
        other than its own cell are known, and so is the lit total t below it; the cells dropped
        after the lower step follow F[window, t]. Free cells get n0 - e lit cells at random.
        """
        if self.count == 0:
            return []
        # Tables and SparseTables walk the same steps, each over its own table type (a dense
        # array, or keys with rows), so the walk is written once over either
        tables: Any = self._tables
        steps = tables.plan.steps
        # partial starts: (window state, lit total so far, board so far, final stepped total e)
        parts: list[tuple[int, int, int, int]] = [(0, tables.n0, 0, tables.n0)]
        above = None
        for j, prev in tables.descending():
            step = steps[j]
            f = tables.full(prev, j)
            lo = tables.bands[j + 1][0]
            if above is None:
                ends = tables.finals(f)
                if draw is None:
                    chosen = ends
                else:
                    chosen = [ends[i] for i in _draw_many([v for _, _, v in ends], draw[0], draw[1])]
                parts = [(w, e, window_of(w, step.window), e) for w, e, _ in chosen]
            else:
                kept = [p for p in range(step.bits) if p not in step.drops]
                top = above.bits - 1
                combos = [(window_of(y, step.drops), _cells_of(window_of(y, step.drops), step.window))
                          for y in range(1 << len(step.drops))]
                new: list[tuple[int, int, int, int]] = []
                for w, t, b, e in parts:
                    t -= w >> top & 1
                    base = window_of(w, kept)
                    weights = [tables.entry(f, base | wb, t - lo) for wb, _ in combos]
                    if draw is None:
                        picks = [i for i, v in enumerate(weights) if v]
                    else:
                        picks = _draw_many(weights, 1, draw[1])
                    new.extend((base | combos[i][0], t, b | combos[i][1], e) for i in picks)
                parts = new
            above = step
        free = tables.plan.free
        if not free:
            return [b for _, _, b, _ in parts]
        if above is None:  # no stepped cells at all
            parts = [(0, 0, 0, 0)] * (draw[0] if draw else 1)
        out: list[int] = []
        for _window, _total, b, e in parts:
            if draw is None:
                lit = combinations(free, self._work.start - e)
                out.extend(b | sum(1 << x for x in chosen) for chosen in lit)
            else:
                out.append(b | sum(1 << x for x in draw[1].sample(free, self._work.start - e)))
        return out


def window_of(y: int, positions: list[int] | tuple[int, ...]) -> int:
    """Scatter the bits of y to the given window positions (bit i of y -> bit positions[i])."""
    out = 0
    for i, p in enumerate(positions):
        if y >> i & 1:
            out |= 1 << p
    return out


def _cells_of(w: int, window: tuple[int, ...]) -> int:
    """The board bitset of window state w."""
    return window_of(w, window)


def _draw_many(weights: list[int], n: int, rng: random.Random) -> list[int]:
    """n indices drawn with probability weight / sum(weights), exactly (integer arithmetic)."""
    cum, acc = [], 0
    for v in weights:
        acc += v
        cum.append(acc)
    return [bisect_right(cum, rng.randrange(acc)) for _ in range(n)]
